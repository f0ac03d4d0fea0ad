"""What `explain-edge` answers for an edge a person decided on, after its decision was carried to a typo-fixed line.

A weakening carried from `- Risk: the vendr may slip` to `vendor` deleted the weakened edge with its line, so
`explain-edge <old id>` answered not_found where a kill (the tombstone stays) or a validation (the old edge retired
and kept) carried the same way still answered. And a retired edge taken up again when its line came back was an
undecided parse once more: when its line went again it was deleted, its validation and the `decision_carried` event
naming its successor with it, while the successor's own `decision_carried` event still named it."""
from __future__ import annotations

from pathlib import Path

import pytest

from .test_qa_s36_kill_after_edit import _edges, _vault

OLD, NEW, OTHER = "- Risk: the vendr may slip", "- Risk: the vendor may slip", "- Risk: the budget may overrun"


def _decide(mem, how: str, edge_id: int) -> None:
    if how == "weakened":
        mem.weaken_edge(edge_id, factor=0.1, reason="unlikely")
    else:
        mem.validate_edge(edge_id, reason="confirmed by Ana")


def _carried(make_mem, tmp_path: Path, how: str):
    mem = make_mem()
    mem.ingest(str(_vault(tmp_path, OLD, OTHER)))
    old = _edges(mem, "has_risk")[OLD]
    _decide(mem, how, old.id)
    [carried] = mem.ingest(str(_vault(tmp_path, NEW, OTHER)))["decisions_carried"]
    assert carried["decision"] == how
    return mem, old, carried["to_edge"]


def _decided_by_a_person(mem, edge_id: int, how: str) -> bool:
    return any(e["event"] == how and e["actor"] != "ingest" for e in mem.explain_edge(edge_id)["debug_log"])


def _says_carried_to(mem, edge_id: int, new_id: int) -> bool:
    return any(e["event"] == "decision_carried" and e["thinking"].get("to_edge") == new_id
               for e in mem.explain_edge(edge_id)["debug_log"])


def test_a_carried_weakening_leaves_its_edge_explainable_as_a_validation_does(make_mem, tmp_path: Path) -> None:
    mem, old, new_id = _carried(make_mem, tmp_path, "weakened")
    for more in ((), ("- more",), ("- more and more",)):
        if more:
            mem.ingest(str(_vault(tmp_path, NEW, OTHER, *more)))
        shown = mem.explain_edge(old.id)  # (was not_found)
        assert shown["edge"]["status"] == "retired"
        assert shown["edge"]["evidence_text"] == OLD
        assert shown["edge"]["source_now"]["in_note"] is False
        assert _decided_by_a_person(mem, old.id, "weakened")
        assert _says_carried_to(mem, old.id, new_id)
    new = mem.rt.store.get_edge(new_id)
    assert (new.status, new.weight) == ("candidate", 0.058333)  # (the weakening itself still carried)
    assert sorted(e.status for e in _edges(mem, "has_risk").values()) == ["active", "candidate", "retired"]


@pytest.mark.parametrize("how", ["validated", "weakened"])
def test_a_carried_from_edge_keeps_its_history_across_its_line_back_and_gone_again(make_mem, tmp_path: Path,
                                                                                  how: str) -> None:
    mem, old, new_id = _carried(make_mem, tmp_path, how)
    mem.ingest(str(_vault(tmp_path, OLD, NEW, OTHER)))  # its line back: taken up again, undecided
    back = mem.explain_edge(old.id)["edge"]
    assert back["status"] == "active" and back["strength"] == back["confidence"]  # (its decision lives on new_id)
    assert "source_now" not in back
    mem.ingest(str(_vault(tmp_path, NEW, OTHER)))  # and gone again
    shown = mem.explain_edge(old.id)  # (was not_found)
    assert shown["edge"]["status"] == "retired"
    assert shown["edge"]["source_now"]["in_note"] is False
    assert _decided_by_a_person(mem, old.id, how)
    assert _says_carried_to(mem, old.id, new_id)
    assert sorted(e.status for e in _edges(mem, "has_risk").values()).count("retired") == 1
    # back a second time: taken up again, as the first time
    mem.ingest(str(_vault(tmp_path, OLD, NEW, OTHER)))
    again = mem.explain_edge(old.id)["edge"]
    assert again["status"] == "active" and "source_now" not in again
    assert mem.rt.store.get_edge(new_id).status in ("active", "candidate")


@pytest.mark.parametrize("how", ["killed", "validated", "weakened"])
def test_a_decided_line_deleted_leaves_its_edge_explainable_and_its_return_takes_the_decision_up(
        make_mem, tmp_path: Path, how: str) -> None:
    mem = make_mem()
    mem.ingest(str(_vault(tmp_path, OLD, OTHER)))
    old = _edges(mem, "has_risk")[OLD]
    if how == "killed":
        mem.kill_edge(old.id, reason="not a risk")
    else:
        _decide(mem, how, old.id)
    decided = mem.rt.store.get_edge(old.id)
    for lines in ((OTHER,), (OTHER, "- more")):  # the line deleted, then another change of the note
        mem.ingest(str(_vault(tmp_path, *lines)))
        shown = mem.explain_edge(old.id)  # (a weakening: not_found)
        assert shown["edge"]["source_now"]["in_note"] is False
        assert _decided_by_a_person(mem, old.id, how)
    mem.ingest(str(_vault(tmp_path, OLD, OTHER)))  # the line put back: the person's decision stands on it again
    back = mem.rt.store.get_edge(old.id)
    assert (back.status, back.weight) == (decided.status, decided.weight)
    assert "source_now" not in mem.explain_edge(old.id)["edge"]
    assert [e.id for e in _edges(mem, "has_risk").values() if e.evidence == OLD] == [old.id]
