"""The cheap checks recall makes before reading a candidate's cues never miss a cue the expressions would find: a
missed one would leave a corrected memory ranked as current."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from mnemon.core import diff
from mnemon.core.cue_words import CHANGE_SAID, MAY_CORRECT, MAY_CORRECT_WORDED, WordCue

_PIECES = ["now", "NOW", "Now", "moved", "from", "instead", "of", "rather", "than", "replaced", "by", "with",
           "superseded", "supersedes", "no", "longer", "not", "any", "more", "anymore", "stopped", "quit", "using",
           "used", "to", "was", "is", "Slack", "Zulip", "Mira", "lives", "in", "Lisbon", "Porto", "went", "up",
           "rolled", "out", "these", "days", "handed", "over", "the", "team", "chat", "n't", "never", "snow",
           "known", "_now", "now_", "2now", "now2", "these_days", "re-placed", "从", "不再", "现在", "から",
           ",", ", ", ".", ";", " — ", "\n", "  ", "'", "’", "-"]
_TEXTS = st.lists(st.sampled_from(_PIECES), max_size=14).map(" ".join)
_JOINED = st.lists(st.sampled_from(_PIECES), max_size=14).map("".join)  # (words run together too)
_ANY = st.one_of(_TEXTS, _JOINED, st.text(max_size=40))


@settings(max_examples=400, deadline=None)
@given(_ANY)
def test_a_word_cue_is_never_missed(text: str) -> None:
    for cue in (CHANGE_SAID, MAY_CORRECT, MAY_CORRECT_WORDED):
        if cue.search(text) is not None:
            assert cue.said_in(text), text
        if not text.isascii():
            assert cue.said_in(text) == (cue.search(text) is not None)


@settings(max_examples=400, deadline=None)
@given(_ANY)
def test_a_correction_cue_is_read_whenever_its_expression_matches(text: str) -> None:
    lowered = text.lower()
    for cue, pattern in diff._CUES:
        if text.isascii() and pattern.search(text) is not None:
            assert any(word in lowered for word in diff._CUE_NEEDS.get(cue, ())), (cue, text)


def test_the_checked_cues_still_find_corrections() -> None:
    assert [c.cue for c in diff.corrections("Mira moved from Lisbon to Porto")] == ["from"]
    assert [c.cue for c in diff.corrections("Slack was replaced by Zulip for team chat")] == ["replaced by"]
    assert [c.cue for c in diff.corrections("团队从 Slack 换成了 Zulip")] == ["从…到"]
    assert CHANGE_SAID.said_in("The API rate limit is now 250") and not CHANGE_SAID.said_in("The limit is 250")
    assert MAY_CORRECT.said_in("We went up to 300") and not MAY_CORRECT.said_in("Snow was heavy")


def test_a_phrase_is_found_by_its_first_word() -> None:
    cue = WordCue((("pushed back",), "延期"))
    assert cue.said_in("The launch was pushed  back a week") and cue.search("The launch was pushed  back a week")
    assert not cue.said_in("The launch was delayed") and cue.said_in("发布延期了")


_SAID = {  # one sentence for each English cue, each way its words may be spelt
    "Mira is not using Slack any more": "not … anymore", "We don't use Slack any longer": "not … anymore",
    "Mira isn't in Lisbon anymore": "not … anymore", "Mira no longer lives in Lisbon": "no longer",
    "We stopped using Jira": "stopped", "We quit publishing the newsletter": "stopped",
    "Mira used to live in Lisbon": "used to", "Mira lives in Porto, not Lisbon": "…, not",
    "We now use Zulip rather than Slack": "now … rather than", "We use Zulip instead of Slack": "instead of",
    "We replaced Slack with Zulip": "replaced … with", "Zulip replaced Slack for team chat": "replaces",
    "Notion supersedes Confluence": "replaces", "Slack was replaced by Zulip": "replaced by",
    "Confluence has been superseded by Notion": "replaced by", "Mira moved from Lisbon to Porto": "from",
}


def test_every_english_cue_is_still_read() -> None:
    for text, cue in _SAID.items():
        assert [c.cue for c in diff.corrections(text)] == [cue], text
