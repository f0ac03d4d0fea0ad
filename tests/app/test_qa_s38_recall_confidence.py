"""Recall's `confidence` label is the label of the score it prints beside it.

The label was read off the unrounded score while `--brief` prints it to 3 decimals and the full output to 4: a
0.59996 printed as 0.6 was "medium" while another result's 0.6 was "high" (the cut is 0.6).
"""
from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from mnemon.app.memory import Mnemon
from mnemon.app.recall import RecallOutcome, run_recall, to_payload
from mnemon.core.recall.params import CONFIDENCE_CUTS, confidence_label


@pytest.fixture
def outcome(mem: Mnemon) -> RecallOutcome:
    mem.remember("We switched from MySQL to Postgres because of JSON support", category="decision")
    out = run_recall(mem.rt, "Postgres", limit=5)
    assert out.results
    return out


def _with_score(out: RecallOutcome, score: float) -> RecallOutcome:
    return replace(out, results=[replace(out.results[0], score=score)])


@pytest.mark.parametrize("score", [CONFIDENCE_CUTS[1] - 4e-5, CONFIDENCE_CUTS[0] - 4e-5])
def test_a_score_printed_at_a_cut_has_that_cuts_label(outcome: RecallOutcome, score: float) -> None:
    brief = to_payload(_with_score(outcome, score), brief=True)["results"][0]
    full = to_payload(_with_score(outcome, score))["results"][0]
    assert brief["score"] == full["score"] == round(score, 3)  # both print the cut itself
    cut = to_payload(_with_score(outcome, round(score, 3)))["results"][0]
    assert brief["confidence"] == full["confidence"] == cut["confidence"] == confidence_label(round(score, 3))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.floats(0.0, 1.0))
def test_the_label_is_the_printed_scores(outcome: RecallOutcome, score: float) -> None:
    for brief in (False, True):
        row = to_payload(_with_score(outcome, score), brief=brief)["results"][0]
        assert row["confidence"] == confidence_label(row["score"])
