"""An older SQLite store whose edge was deleted before the upgrade that keeps edge ids (m062): the events it left
behind mark that id as used, so the upgraded store never hands it out again (tests/app/test_qa_s32_pg_edge_ids.py
has the behaviour on both backends)."""
from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

from mnemon.app.memory import Mnemon

SCOPE = "mneme://qa/edge-ids"


def _payload(evidence: str) -> str:
    return json.dumps({"source_path": SCOPE, "nodes": [{"ref": "a", "type": "agent", "name": "Agent"},
                                                       {"ref": "b", "type": "task", "name": "Task"}],
                       "edges": [{"src": "a", "dst": "b", "relation": "relates_to", "status": "candidate",
                                  "evidence": evidence}], "observations": []})


def test_a_store_upgraded_after_the_deletion_does_not_hand_the_id_out_again(make_mem: Callable[..., Mnemon],
                                                                           tmp_path: Path) -> None:
    db = tmp_path / "older.db"
    mem = make_mem(db=db)
    mem.remember_payload(_payload("the agent owns the task"))
    mem.remember_payload(_payload("the agent still owns the task"))  # an event under the edge's id
    edge = mem.rt.store.find_edge(f"{SCOPE}#a", f"{SCOPE}#b", "relates_to")
    assert edge is not None
    mem.close()
    con = sqlite3.connect(db)  # as a store before m062: no trigger, no mark, the step not applied
    con.executescript("DROP TRIGGER IF EXISTS edge_rows_id_high; DELETE FROM meta WHERE key = 'edge_id_high';"
                      " DELETE FROM migrations WHERE name = 'm062_edge_ids_never_reused';")
    con.execute("DELETE FROM edge_rows WHERE id = ?", (edge.id,))  # deleted while nothing kept its id
    con.commit()
    con.close()
    upgraded = make_mem(db=db)
    first = upgraded.remember("first memory about apples", source="agent")["id"]
    upgraded.remember("second memory about pears", source="agent")
    ids = [e.id for e in upgraded.rt.store.iter_edges()]
    assert ids and all(i > edge.id for i in ids)
    explained = upgraded.explain_edge(ids[0])
    assert explained["edge"]["src"]["id"] == first
    assert [e["event"] for e in explained["debug_log"]] == ["created"]
