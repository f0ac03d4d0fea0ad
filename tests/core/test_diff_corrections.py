"""The diff reads a correction ("Mira moved from Lisbon to Porto") and names the fact it retires, even though the
two share too few words for the overlap thresholds; it never names a memory about another subject or value."""
from __future__ import annotations

import pytest
from hypothesis import assume, given, settings, strategies as st

from mnemon.core.diff import correction_terms, corrections, diff_suggestion

FILLER = ("filler", "filler note 0: the weekly review went fine", None)

# (old fact, the correction worded the usual way, the cue and value its reason names)
CORRECTIONS = [
    ("Mira lives in Lisbon", "Mira moved from Lisbon to Porto", "from", "Lisbon"),
    ("Jonas lives in Berlin", "Jonas moved from Berlin to Hamburg", "from", "Berlin"),
    ("Ana lives in Madrid", "Ana relocated from Madrid to Valencia", "from", "Madrid"),
    ("Sven works at Tyrell", "Sven now works at Wayne instead of Tyrell", "instead of", "Tyrell"),
    ("Team chat runs on Slack", "The team switched from Slack to Zulip for chat", "from", "Slack"),
    ("Sven works at Tyrell", "Sven now works at Wayne rather than Tyrell", "now … rather than", "Tyrell"),
    ("Mira lives in Lisbon", "Update: last week, Mira moved from Lisbon to Porto.", "from", "Lisbon"),
    ("Mira lives in Lisbon", "Mira no longer lives in Lisbon, she lives in Porto", "no longer", "lives in Lisbon"),
    ("Mira lives in Lisbon", "Mira used to live in Lisbon", "used to", "live in Lisbon"),
    ("Sven works at Tyrell", "Sven doesn't work at Tyrell anymore", "not … anymore", "work at Tyrell"),
    ("We use Slack for chat", "We replaced Slack with Zulip", "replaced … with", "Slack"),
    ("Team chat runs on Slack", "We switched our chat from Slack to Zulip", "from", "Slack"),
    ("The standup is on Monday", "We moved the standup from Monday to Tuesday", "from", "Monday"),
    ("We deploy on Tuesdays", "The deploy day changed from Tuesday to Thursday", "from", "Tuesday"),
    ("米拉住在里斯本", "米拉从里斯本搬到了波尔图", "从…到", "里斯本"),
    ("我们使用Redis作为缓存", "我们不再使用Redis作为缓存了", "不再", "使用Redis作为缓存"),
]

# (a memory, a new one that must not be called a conflict with it, why)
NOT_CORRECTIONS = [
    ("Mira lives in Lisbon", "Mira moved the meeting from Monday to Friday", "another value, another object"),
    ("Mira lives in Berlin", "Jonas moved from Berlin to Hamburg", "same value, another subject"),
    ("Jonas lives in Lisbon", "Mira moved from Lisbon to Porto", "same value, another subject"),
    ("Mira loves the food in Porto", "Mira moved from Lisbon to Porto", "same subject, the new value"),
    ("Sven works at Wayne", "Sven no longer works at Tyrell", "same subject, another value"),
    ("Mira's team uses Slack", "We switched from Slack to Zulip", "another subject than ours"),
    ("Jonas has the meeting on Monday", "Mira moved the meeting from Monday to Friday", "another subject"),
    ("The hammer drives nails", "The hammer is used to drive nails", "'is used to' is no past habit"),
    ("Mira prefers tea", "Mira drinks coffee rather than tea", "'rather than' without 'now' is a preference"),
    ("Mira moved from Lisbon to Porto in 2020", "Mira moved from Lisbon to Porto", "the same correction again"),
    ("The cache TTL is 300 seconds", "Mira moved from Lisbon to Porto", "unrelated"),
]


@pytest.mark.parametrize(("old", "new", "cue", "value"), CORRECTIONS, ids=[c[1] for c in CORRECTIONS])
def test_a_correction_names_the_fact_it_retires(old: str, new: str, cue: str, value: str) -> None:
    verdict, matches = diff_suggestion(new, [("old", old, None), FILLER])
    assert verdict == "CONFLICT"
    named = {m.id: m for m in matches if m.suggestion != "ADD"}
    assert set(named) == {"old"}
    assert named["old"].suggestion == "CONFLICT"
    assert f'cue "{cue}"' in named["old"].reason and f'retires "{value}"' in named["old"].reason


@pytest.mark.parametrize(("old", "new", "why"), NOT_CORRECTIONS, ids=[c[2] + ": " + c[1] for c in NOT_CORRECTIONS])
def test_no_conflict_without_the_same_subject_and_the_retired_value(old: str, new: str, why: str) -> None:
    verdict, matches = diff_suggestion(new, [("old", old, None)])
    assert verdict != "CONFLICT", why
    assert all(m.reason == "" for m in matches)


def test_a_correction_wins_the_verdict_over_a_closer_update() -> None:
    close = ("close", "Mira moved to Porto from Lisbon last spring", None)  # an UPDATE by overlap alone
    verdict, matches = diff_suggestion("Mira moved from Lisbon to Porto in May", [close, ("old", "Mira lives in "
                                                                                       "Lisbon", None)])
    assert verdict == "CONFLICT"
    assert {m.id: m.suggestion for m in matches}["old"] == "CONFLICT"


def test_the_lookup_words_are_the_subject_and_the_retired_value() -> None:
    assert correction_terms("After months of planning, Mira finally moved from Lisbon to Porto with her cats") \
        == ["mira", "lisbon"]
    assert correction_terms("The weekly review went fine") == []
    found = corrections("Sven now works at Wayne instead of Tyrell")
    assert [(c.cue, c.old, c.subject_text) for c in found] == [("instead of", "Tyrell", "Sven")]


# ── properties ───────────────────────────────────────────────────────────────
NAMES = ["Mira", "Jonas", "Ana", "Sven", "Kofi", "Priya"]
PLACES = ["Lisbon", "Porto", "Berlin", "Hamburg", "Madrid", "Valencia", "Oslo"]
TEMPLATES = ["{s} moved from {x} to {y}", "{s} relocated from {x} to {y}", "{s} now lives in {y} instead of {x}",
             "{s} switched from {x} to {y}", "{s} no longer lives in {x}", "{s} doesn't live in {x} anymore",
             "{s} now lives in {y} rather than {x}"]
# no word shared with the sentences above
UNRELATED = st.lists(st.sampled_from(["kettle", "violet", "quartz", "harbour", "meadow", "copper", "lantern"]),
                     min_size=1, max_size=6).map(" ".join)


@st.composite
def correction(draw: st.DrawFn) -> tuple[str, str, str, str]:
    s, other = draw(st.permutations(NAMES))[:2]
    x, y = draw(st.permutations(PLACES))[:2]
    return draw(st.sampled_from(TEMPLATES)).format(s=s, x=x, y=y), s, other, x


@settings(max_examples=150, deadline=None)
@given(correction())
def test_a_correction_conflicts_with_its_subjects_old_value_only(case: tuple[str, str, str, str]) -> None:
    new, subject, other, old_value = case
    verdict, matches = diff_suggestion(new, [("old", f"{subject} lives in {old_value}", None)])
    assert verdict == "CONFLICT" and matches[0].reason
    verdict, _ = diff_suggestion(new, [("other", f"{other} lives in {old_value}", None)])
    assert verdict == "ADD"


@settings(max_examples=200, deadline=None)
@given(st.one_of(correction().map(lambda c: c[0]), st.text(max_size=120)))
def test_a_memory_never_conflicts_with_itself(text: str) -> None:
    verdict, _ = diff_suggestion(text, [("same", text, None)])
    assert verdict != "CONFLICT"


@settings(max_examples=200, deadline=None)
@given(correction(), st.lists(st.sampled_from([f"{n} lives in {p}" for n in NAMES for p in PLACES]), max_size=3),
       UNRELATED)
def test_an_unrelated_memory_never_changes_the_verdict(case: tuple[str, str, str, str], others: list[str],
                                                        unrelated: str) -> None:
    new = case[0]
    base = [(f"m{i}", text, None) for i, text in enumerate(others)]
    assume(new not in others)
    verdict, _ = diff_suggestion(new, base)
    with_unrelated, matches = diff_suggestion(new, [*base, ("unrelated", unrelated, None)])
    assert with_unrelated == verdict
    assert {m.id: m.suggestion for m in matches}["unrelated"] == "ADD"
