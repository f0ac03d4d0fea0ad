""""Mira lives in Porto, not Lisbon" corrects an older "Mira lives in Lisbon" as "Mira moved from Lisbon to Porto"
does: the diff calls it a CONFLICT and recall demotes the older memory (`corrected_by`). Only a "not" after a comma
or dash whose value ends the clause is read so, and only a memory saying the rest of that clause is retired."""
from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from mnemon.app.memory import Mnemon
from mnemon.core.diff import diff_suggestion
from mnemon.core.recall.rerank import corrected_by

# (old fact, the "X, not Y" correction, the value its reason names as retired)
NOT_CORRECTIONS = [
    ("Mira lives in Lisbon", "Mira lives in Porto, not Lisbon", "Lisbon"),
    ("Mira lives in Lisbon", "Mira lives in Porto, not in Lisbon.", "in Lisbon"),
    ("Sven works at Tyrell", "Sven works at Globex Corp, not Tyrell", "Tyrell"),
    ("The standup is at 9am", "The standup is at 10am, not 9am", "9am"),
    ("We deploy on Mondays", "We deploy on Fridays — not Mondays", "Mondays"),
    ("Mira prefers coffee", "Mira prefers tea, not coffee", "coffee"),
    ("Mira lives in Lisbon", "Correction: Mira lives in Porto now, not Lisbon, since May", "Lisbon"),
]

# (old fact, a newer memory holding "not" that must retire nothing, the "X, not Y" that does retire it, why)
NOT_READ_AS_CORRECTIONS = [
    ("Mira lives in Lisbon", "Mira lives in Porto, not far from Lisbon", "Mira lives in Porto, not Lisbon",
     "'not far' names no value"),
    ("Mira lives in Lisbon", "Mira lives in Porto, not only because of Lisbon", "Mira lives in Porto, not Lisbon",
     "'not only' names no value"),
    ("Mira lives in Lisbon", "Mira said Porto is not as nice as Lisbon", "Mira lives in Porto, not Lisbon",
     "no comma: a plain negation"),
    ("Mira lives in Lisbon", "Mira is not in Porto, not Lisbon", "Mira is in Porto, not Lisbon",
     "the clause negates: no new value"),
    ("Ana lives in Lisbon", "Mira lives in Porto, not Lisbon", "Ana lives in Porto, not Lisbon", "another subject"),
    ("Mira works in Lisbon", "Mira lives in Porto, not Lisbon", "Mira works in Porto, not Lisbon",
     "the old memory says another thing of Lisbon"),
    ("Mira lives in Lisbon", "Mira lives in Porto, not Lisbon's old town", "Mira lives in Porto, not in Lisbon",
     "'not' + words the old memory lacks"),
]


@pytest.mark.parametrize(("old", "new", "value"), NOT_CORRECTIONS, ids=[c[1] for c in NOT_CORRECTIONS])
def test_x_not_y_is_a_correction_of_the_memory_stating_y(old: str, new: str, value: str) -> None:
    verdict, matches = diff_suggestion(new, [("old", old, None)])
    assert verdict == "CONFLICT"
    assert 'cue "…, not"' in matches[0].reason and f'retires "{value}"' in matches[0].reason
    assert corrected_by([("old", old, "2026-11-01"), ("new", new, "2026-11-02")]) == {"old": "new"}
    # never backwards: the older memory does not retire the newer one
    assert corrected_by([("old", old, "2026-11-02"), ("new", new, "2026-11-01")]) == {}


@pytest.mark.parametrize(("old", "new", "control", "why"), NOT_READ_AS_CORRECTIONS,
                         ids=[c[3] + ": " + c[1] for c in NOT_READ_AS_CORRECTIONS])
def test_a_not_that_names_no_retired_value_of_the_old_memory_corrects_nothing(old: str, new: str, control: str,
                                                                               why: str) -> None:
    assert corrected_by([("old", old, "2026-11-01"), ("new", new, "2026-11-02")]) == {}, why
    assert "…, not" not in " ".join(m.reason for m in diff_suggestion(new, [("old", old, None)])[1])
    # the same old memory is retired by the "X, not Y" the newer one is close to
    assert corrected_by([("old", old, "2026-11-01"), ("new", control, "2026-11-02")]) == {"old": "new"}


@settings(max_examples=60, deadline=None)
@given(
    who=st.sampled_from(["Mira", "Jonas", "Ana Sousa"]),
    verb=st.sampled_from(["lives in", "works at", "is based in"]),
    new=st.sampled_from(["Porto", "Globex", "Berlin"]),
    old=st.sampled_from(["Lisbon", "Initech", "Madrid"]),
    other=st.sampled_from(["Sven", "Team Blue"]),
)
def test_the_correction_retires_only_its_subject_and_value(who: str, verb: str, new: str, old: str,
                                                           other: str) -> None:
    correction = f"{who} {verb} {new}, not {old}"
    candidates = [("stated", f"{who} {verb} {old}", "2026-11-01"),
                  ("other_subject", f"{other} {verb} {old}", "2026-11-01"),
                  ("other_value", f"{who} {verb} Oslo", "2026-11-01"),
                  ("new", correction, "2026-11-02")]
    assert corrected_by(candidates) == {"stated": "new"}


def _by_id(out: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {r["insight"]["id"]: r for r in out["results"]}


def test_recall_demotes_the_value_an_x_not_y_correction_retires(mem: Mnemon) -> None:
    old_id = mem.remember("Mira lives in Lisbon", category="fact", created_at="2026-11-01T09:00:00Z")["id"]
    mem.remember("filler note: the weekly review went fine", created_at="2026-11-01T10:00:00Z")
    new = mem.remember("Mira lives in Porto, not Lisbon", category="fact", created_at="2026-11-03T09:00:00Z")
    assert new["diff_suggestion"] == "CONFLICT"
    out = mem.recall("Where does Mira live?", limit=5)
    by_id = _by_id(out)
    assert by_id[old_id].get("superseded") is True and by_id[old_id].get("corrected_by") == new["id"]
    ranked = [r["insight"]["id"] for r in out["results"]]
    assert ranked.index(new["id"]) < ranked.index(old_id)
