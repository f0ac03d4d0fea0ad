"""Decisions about edges (`kill-edge`, `validate-edge`, `weaken-edge`) show in `mnemon log`, one row per edge, and a
`promote-candidates` run as one row; written with the change or not at all; refused decisions, dry runs and rebuilds'
thought clearing leave them alone. Runs on SQLite and PostgreSQL (tests/app facade suite)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mnemon.app.memory import Mnemon
from mnemon.app.vault.lifecycle import DECISION_OPS
from mnemon.core.errors import Conflict, InvalidInput, NotFound
from mnemon.core.model import Edge

ROW_KEYS = {"edge_id", "src", "dst", "relation", "previous_status", "status", "previous_strength", "strength",
            "reason"}


def _first(mem: Mnemon, relation: str, status: str) -> Edge:
    return next(e for e in mem.rt.store.iter_edges(statuses=(status,)) if e.type == relation)


def _decisions(mem: Mnemon) -> list[dict[str, Any]]:
    """Every decision row `log` shows, newest first."""
    return [e for e in mem.log(limit=1000)["entries"] if e["op"] in DECISION_OPS]


def _row(entry: dict[str, Any], edge: Edge, op: str) -> dict[str, Any]:
    assert entry["op"] == op and entry["insight_id"] == edge.src
    detail = entry["detail"]
    assert ROW_KEYS <= set(detail)
    assert (detail["edge_id"], detail["src"], detail["dst"], detail["relation"]) == \
        (edge.id, edge.src, edge.dst, edge.type)
    return detail


def test_kill_validate_and_weaken_each_write_a_log_row(example_vault_mem: Mnemon) -> None:
    mem = example_vault_mem
    done, risk, link = (_first(mem, "has_done", "active"), _first(mem, "has_risk", "active"),
                        _first(mem, "links_to", "candidate"))
    mem.kill_edge(done.id, reason="not what the note says")
    weak = mem.weaken_edge(risk.id, reason="noise", factor=0.5)
    mem.validate_edge(link.id, reason="I checked the link")

    validated, weakened, killed = _decisions(mem)  # newest first
    row = _row(killed, done, "kill-edge")
    assert (row["previous_status"], row["status"], row["previous_strength"], row["strength"], row["reason"]) == \
        ("active", "killed", done.weight, 0.0, "not what the note says")
    row = _row(weakened, risk, "weaken-edge")
    assert (row["previous_status"], row["status"], row["reason"], row["factor"]) == \
        ("active", weak["status"], "noise", 0.5)
    assert (row["previous_strength"], row["strength"]) == (risk.weight, weak["strength"])
    assert row["strength"] == pytest.approx(risk.weight * 0.5, abs=1e-6)
    row = _row(validated, link, "validate-edge")
    assert (row["previous_status"], row["status"], row["reason"]) == ("candidate", "active", "I checked the link")
    assert row["previous_strength"] == row["strength"] == link.weight and row["reasons"]
    # `log --op` filters them, one op each
    for op, edge in (("kill-edge", done), ("weaken-edge", risk), ("validate-edge", link)):
        assert [e["detail"]["edge_id"] for e in mem.log(op=op)["entries"]] == [edge.id]


def test_a_refused_decision_writes_no_log_row(example_vault_mem: Mnemon) -> None:
    mem = example_vault_mem
    done = _first(mem, "has_done", "active")
    mem.kill_edge(done.id)
    store = mem.rt.store
    notes = sorted(n.id for n in store.iter_nodes(kind="note"))[:2]
    with store.transaction():  # a claim without evidence: the gate refuses to validate it
        store.upsert_edge(Edge(src=notes[0], dst=notes[1], type="depends_on", confidence=0.95, status="candidate",
                               evidence="", origin="agent"))
    claim = _first(mem, "depends_on", "candidate")
    before = mem.log(limit=1000)["entries"]
    with pytest.raises(Conflict):
        mem.validate_edge(done.id, reason="it is right after all")  # a killed edge is a tombstone
    with pytest.raises(InvalidInput):
        mem.weaken_edge(done.id)
    with pytest.raises(InvalidInput):
        mem.validate_edge(claim.id)
    with pytest.raises(NotFound):
        mem.kill_edge(987654)
    with pytest.raises(InvalidInput):
        mem.weaken_edge(_first(mem, "has_risk", "active").id, factor=2.0)  # (factor is from 0 to 1)
    assert mem.log(limit=1000)["entries"] == before
    assert [e["detail"]["edge_id"] for e in _decisions(mem)] == [done.id]


def test_a_promotion_run_is_one_log_row_and_each_edge_event_records_it(example_vault_mem: Mnemon) -> None:
    """A run of `--mode all` can activate tens of thousands of edges: one oplog row for the run, and each edge's own
    event (what `explain-edge` and a replay read) records the status it replaced, stamped by the runtime's clock."""
    mem = example_vault_mem
    before = mem.log(limit=1000)["entries"]
    dry = mem.promote_candidates(mode="all", dry_run=True)
    assert dry["would_activate"] > 0 and mem.log(limit=1000)["entries"] == before
    candidates = {e.id: e for e in mem.rt.store.iter_edges(statuses=("candidate",))}
    done = mem.promote_candidates(mode="all")
    entries = mem.log(limit=1000)["entries"]
    assert len(entries) == len(before) + 1 and done["activated"] == dry["would_activate"]
    run = entries[0]
    assert run["op"] == "promote-candidates" and run["detail"] == {"mode": "all", "activated": done["activated"]}
    now_active = {e.id for e in mem.rt.store.iter_edges(statuses=("active",))} & set(candidates)
    assert len(now_active) == done["activated"]
    for edge_id in now_active:
        event = [e for e in mem.rt.store.edge_events(int(edge_id or 0)) if e["event"] == "active"][-1]
        assert (event["actor"], event["detail"]["previous_status"]) == ("promote", "candidate")
        assert event["created_at"] == run["created_at"]  # the runtime's clock, as the run's row
        assert event["detail"]["reason"]
    again = mem.promote_candidates(mode="all")  # nothing left to promote: nothing logged
    assert again["activated"] == 0 and mem.log(limit=1000)["entries"] == entries


def _decide(mem: Mnemon, op: str) -> Edge:
    edge = _first(mem, "links_to" if op == "validate-edge" else "has_risk",
                  "candidate" if op == "validate-edge" else "active")
    if op == "kill-edge":
        mem.kill_edge(edge.id, reason="x")
    elif op == "weaken-edge":
        mem.weaken_edge(edge.id, reason="x", factor=0.01)
    else:
        mem.validate_edge(edge.id, reason="x")
    return edge


@pytest.mark.parametrize("op", DECISION_OPS)
def test_the_row_and_the_change_commit_together(example_vault_mem: Mnemon, monkeypatch: pytest.MonkeyPatch,
                                                op: str) -> None:
    mem = example_vault_mem
    store = mem.rt.store
    edges = {e.id: (e.status, e.weight, len(store.edge_events(int(e.id or 0)))) for e in store.iter_edges()}
    before = mem.log(limit=1000)["entries"]
    real = store.log_many

    def written_then_failing(entries: Any) -> None:
        real(entries)  # the row is written, then the transaction fails: it must go with the change
        raise RuntimeError("disk full")

    with monkeypatch.context() as m:  # (monkeypatch.undo() would undo the test's own home too)
        m.setattr(store, "log_many", written_then_failing)
        with pytest.raises(RuntimeError):
            _decide(mem, op)
    assert mem.log(limit=1000)["entries"] == before
    assert {e.id: (e.status, e.weight, len(store.edge_events(int(e.id or 0)))) for e in store.iter_edges()} == edges
    edge = _decide(mem, op)  # and with nothing failing, both are there
    assert any(e["detail"]["edge_id"] == edge.id for e in mem.log(op=op, limit=1000)["entries"])
    changed = store.get_edge(int(edge.id or 0))
    assert changed is not None and (changed.status, changed.weight) != edges[edge.id][:2]


def test_a_rebuild_clears_thought_rows_and_keeps_decision_rows(example_vault_mem: Mnemon, example_vault: Path) -> None:
    mem = example_vault_mem
    done = _first(mem, "has_done", "active")
    mem.kill_edge(done.id, reason="wrong")
    assert "empty_reason" not in mem.thought()  # one card shown: one thought row
    mem.weaken_edge(_first(mem, "has_risk", "active").id, reason="later than the thought")
    assert [e["op"] for e in mem.log(op="thought")["entries"]] == ["thought"]
    decisions = _decisions(mem)
    note = example_vault / "Projects" / "lighthouse.md"  # (a rebuild with nothing changed does nothing at all)
    note.write_text(note.read_text(encoding="utf-8") + "\n- one more line\n", encoding="utf-8")
    out = mem.ingest(str(example_vault), embed=False)  # a rebuild: generated thoughts go, the audit stays
    assert out["thoughts_cleared"] == 1 and mem.log(op="thought")["entries"] == []
    assert _decisions(mem) == decisions and [e["op"] for e in decisions] == ["weaken-edge", "kill-edge"]


def test_log_op_kill_edge_on_the_command_line(cli_run, example_vault: Path) -> None:
    assert cli_run(["ingest", "--vault", example_vault])[0] == 0
    edge = cli_run(["explain-edge", "1"])[1]["edge"]
    code, out = cli_run(["kill-edge", "1", "--reason", "not about the supplier"])
    assert code == 0 and out["status"] == "killed"
    code, out = cli_run(["validate-edge", "1"])  # refused: a tombstone
    assert code != 0 and out["error"]["code"] == "conflict"
    code, out = cli_run(["log", "--op", "kill-edge"])
    assert code == 0 and len(out["entries"]) == 1
    detail = out["entries"][0]["detail"]
    assert (detail["edge_id"], detail["src"], detail["dst"], detail["relation"]) == \
        (1, edge["src"]["id"], edge["dst"]["id"], edge["relation"])
    assert (detail["previous_status"], detail["status"], detail["reason"]) == \
        (edge["status"], "killed", "not about the supplier")
    assert cli_run(["log", "--op", "validate-edge"])[1]["entries"] == []
    assert cli_run(["log", "--limit", "1"])[1]["entries"][0]["op"] == "kill-edge"
