"""The advisory diff: ADD / UPDATE / CONFLICT / DUPLICATE (reference/mnemon.md §2.5 thresholds)."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from mnemon.core.diff import classify, diff_suggestion


def test_no_candidates_is_add() -> None:
    assert diff_suggestion("anything at all", []) == ("ADD", [])


def test_thresholds() -> None:
    assert classify(0.49, "a", "b") == "ADD"
    assert classify(0.5, "a", "b") == "UPDATE"
    assert classify(0.9, "a", "b") == "UPDATE"
    assert classify(0.91, "a", "b") == "DUPLICATE"
    assert classify(0.7, "we no longer use Redis", "we use Redis") == "CONFLICT"
    assert classify(0.69, "we no longer use Redis", "we use Redis") == "UPDATE"
    assert classify(0.95, "我们不再使用Redis", "我们使用Redis") == "CONFLICT"


def test_identical_text_is_duplicate() -> None:
    verdict, matches = diff_suggestion("Deploys run on Fridays", [("m1", "Deploys run on Fridays", None)])
    assert verdict == "DUPLICATE" and matches[0].id == "m1" and matches[0].similarity == 1.0


def test_negated_restatement_is_conflict() -> None:
    old = "The team uses Redis for the session cache in production"
    new = "The team no longer uses Redis for the session cache in production"
    verdict, _ = diff_suggestion(new, [("m1", old, None)])
    assert verdict == "CONFLICT"


def test_a_high_cosine_overrides_a_low_token_overlap() -> None:
    verdict, matches = diff_suggestion("car broke down", [("m1", "automobile failure on the road", 0.97)])
    assert verdict == "DUPLICATE" and matches[0].similarity == 0.97
    verdict, _ = diff_suggestion("car broke down", [("m1", "automobile failure on the road", 0.6)])
    assert verdict == "ADD"


def test_any_duplicate_wins_over_the_top_match() -> None:
    verdict, matches = diff_suggestion("alpha beta gamma delta",
                                       [("a", "alpha beta gamma delta", None), ("b", "zeta", None)])
    assert verdict == "DUPLICATE"
    assert [m.id for m in matches] == ["a", "b"]


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200), st.lists(st.tuples(st.text(min_size=1, max_size=8), st.text(max_size=200),
                                                   st.one_of(st.none(), st.floats(-1, 1))), max_size=6))
def test_any_input_gives_a_known_verdict_and_sorted_bounded_matches(new: str, cands) -> None:
    verdict, matches = diff_suggestion(new, cands)
    assert verdict in ("ADD", "UPDATE", "CONFLICT", "DUPLICATE")
    assert len(matches) == len(cands)
    sims = [m.similarity for m in matches]
    assert sims == sorted(sims, reverse=True)
    assert all(0.0 <= s <= 1.0 for s in sims)
