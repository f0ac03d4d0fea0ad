"""Removing a payload scope that holds nothing is no error (removing twice is fine), but the reply says nothing was
stored there: a misspelt scope answered a bare `ok` with zero counts, and the caller believed the memories gone."""
from __future__ import annotations

from mnemon.app.memory import Mnemon

PAYLOAD = {"source_path": "mneme://agent/notes", "nodes": [{"ref": "acme", "type": "entity", "name": "Acme"}],
           "observations": [{"node": "acme", "kind": "fact", "text": "Acme pays its invoices net 30"}]}


def test_removing_a_misspelt_scope_warns_and_keeps_the_real_one(mem: Mnemon) -> None:
    mem.remember_payload(PAYLOAD)
    for dry_run in (True, False):
        out = mem.forget_source("mneme://agent/note", dry_run=dry_run)
        assert out["ok"] is True and not any(out["removed"].values())
        assert [w["code"] for w in out["warnings"]] == ["nothing_stored"]
        assert "mneme://agent/note" in out["warnings"][0]["message"]
    out = mem.forget_source("mneme://agent/notes")
    assert out["removed"]["observations"] == 1 and "warnings" not in out
    again = mem.forget_source("mneme://agent/notes")  # a second removal: nothing left, said so
    assert [w["code"] for w in again["warnings"]] == ["nothing_stored"]
