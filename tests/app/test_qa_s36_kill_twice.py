"""A second kill of a killed edge changes nothing and says so: it logged another `killed` event and oplog row and
answered as if the edge had just been killed."""
from __future__ import annotations

from pathlib import Path


def _edge(make_mem, tmp_path: Path, line: str, relation: str):
    vault = tmp_path / "v"
    vault.mkdir()
    (vault / "Plan.md").write_text(f"# Plan\n\n{line}\n", encoding="utf-8")
    mem = make_mem()
    mem.ingest(str(vault))
    return mem, next(e for e in mem.rt.store.iter_edges() if e.type == relation)


def test_a_second_kill_says_when_the_edge_was_killed_and_writes_nothing(make_mem, tmp_path: Path) -> None:
    mem, edge = _edge(make_mem, tmp_path, "- [ ] Blocked on vendor contract", "has_blocked")
    first = mem.kill_edge(edge.id, reason="not blocked any more")
    assert first["killed"] is True and first["already_killed"] is False and first["previous_status"] == "active"
    events = mem.explain_edge(edge.id)["debug_log"]
    kills = [e for e in events if e["event"] == "killed"]
    oplog = [e for e in mem.rt.store.oplog(50) if e.op == "kill-edge"]
    again = mem.kill_edge(edge.id, reason="still wrong")
    assert again["already_killed"] is True and again["status"] == "killed"
    assert again["killed_at"] == kills[0]["created_at"] and again["kill_reason"] == "not blocked any more"
    assert mem.explain_edge(edge.id)["debug_log"] == events
    assert [e for e in mem.rt.store.oplog(50) if e.op == "kill-edge"] == oplog


def test_a_second_validation_says_when_the_edge_was_validated_and_writes_nothing(make_mem, tmp_path: Path) -> None:
    mem, edge = _edge(make_mem, tmp_path, "- Risk: the vendor may slip", "has_risk")
    assert mem.validate_edge(edge.id, reason="checked")["already_validated"] is False
    events = mem.explain_edge(edge.id)["debug_log"]
    oplog = [e for e in mem.rt.store.oplog(50) if e.op == "validate-edge"]
    again = mem.validate_edge(edge.id, reason="checked again")
    assert again["already_validated"] is True and again["status"] == "active" and again["validated"] is True
    assert again["validated_at"] == events[-1]["created_at"] and again["validated_reason"] == "checked"
    assert mem.explain_edge(edge.id)["debug_log"] == events
    assert [e for e in mem.rt.store.oplog(50) if e.op == "validate-edge"] == oplog
