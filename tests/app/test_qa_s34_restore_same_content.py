"""Restoring a backup never makes two live memories of one text: a forgotten memory whose text was remembered again
since, or a backup's memory whose text the store holds under another id, is skipped as the same content (naming the
memory that holds it), and the backup's edges of it go to that memory. Revived or added, it stood beside its twin
and recall listed the text twice."""
from __future__ import annotations

import json

from mnemon.app import backup
from mnemon.app.memory import Mnemon

TEXT = "The on-call rotation changes every Monday"


def _results(mem: Mnemon, query: str) -> list[str]:
    return [r["insight"]["content"] for r in mem.recall(query)["results"]]


def test_reviving_a_forgotten_memory_remembered_again_since_keeps_one_copy(mem: Mnemon) -> None:
    old = mem.remember(TEXT)["id"]
    backup = json.dumps(mem.export_json())
    mem.forget(old)
    again = mem.remember(TEXT)["id"]
    assert again != old
    for dry_run in (True, False):
        out = mem.import_json(backup, revive_forgotten=True, dry_run=dry_run)
        [row] = [r for r in out["results"] if r["id"] == old]
        assert (row["action"], row["reason"], row["existing_id"]) == ("skipped", "same_content", again)
    assert _results(mem, "on-call rotation") == [TEXT]
    assert mem.status()["total_insights"] == 1


def test_a_backup_memory_held_under_another_id_is_skipped_and_its_edges_go_to_the_one_held(mem: Mnemon) -> None:
    held = mem.remember(TEXT)["id"]
    pager = mem.remember("Pager alerts go to the ops channel")["id"]
    doc = mem.export_json()
    # the same text under the id another machine gave it, and a link to it there
    doc = json.loads(json.dumps(doc).replace(held, "their-copy"))
    doc["edges"].append({**doc["edges"][0], "source_id": pager, "target_id": "their-copy", "edge_type": "supersedes",
                         "sub_type": "", "rule": "", "origin": "agent", "metadata": {}})
    out = mem.import_json(json.dumps(doc))
    rows = {r["id"]: r for r in out["results"]}
    assert (rows["their-copy"]["action"], rows["their-copy"]["reason"]) == ("skipped", "same_content")
    assert rows["their-copy"]["existing_id"] == held and out["imported"] == 0
    linked = [(e["source_id"], e["target_id"]) for e in mem.show(held)["edges"] if e["edge_type"] == "supersedes"]
    assert linked == [(pager, held)]
    assert _results(mem, "on-call rotation") == [TEXT]


def test_a_store_holding_a_text_twice_is_restored_as_it_was(mem: Mnemon, make_mem, tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(backup, "BATCH", 1)  # the second copy meets the first one restored by an earlier batch
    first = mem.remember(TEXT)["id"]
    second = mem.remember(TEXT, no_diff=True)["id"]
    doc = json.dumps(mem.export_json())
    fresh = make_mem("hash", db=tmp_path / "fresh.db")
    out = fresh.import_json(doc)
    assert {r["id"]: r["action"] for r in out["results"]} == {first: "added", second: "added"}
