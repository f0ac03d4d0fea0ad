"""Auto-prune never takes a payload's row, as it never takes a vault's: both live as long as what sent them says.

A store at its cap soft-deleted a `remember --payload` scope's observations (`mneme://…`) on the writer's next
`remember`, one batch a write: the scope lost them without its sender knowing, `forget --undo` refuses a payload's
row (the payload is its record), and re-sending the payload brought them back only for the next write to take them
again. The cap counts the writer's own memories; `status` says how many rows of each kind are exempt."""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from conftest import FakeClock
from mnemon.app.memory import Mnemon

SCOPE = "mneme://qa/ferry"


def _payload(m: Mnemon) -> list[str]:
    out = m.remember_payload(json.dumps({"source_path": SCOPE, "nodes": [
        {"ref": "f", "type": "vessel", "name": "Ferry", "summary": "The harbour ferry"}], "observations": [
        {"node": "f", "kind": "fact", "text": text, "score": 0.1}
        for text in ("The ferry leaves at seven.", "The ferry seats two hundred.", "The ferry is painted blue.")]}))
    return [o["id"] for o in out["observations"]]


def test_auto_prune_takes_the_writers_memories_and_no_payload_row(make_mem: Callable[..., Mnemon]) -> None:
    clock = FakeClock()
    m = make_mem(max_insights=3, prune_min_age="1h", clock=clock)
    scoped = _payload(m)
    clock.advance(hours=2)
    own = []
    pruned: list[str] = []
    for text in ("Alice manages the Berlin office", "Bob fixed the harbour pump", "Carol ships the firmware",
                 "Dan writes the manual"):
        out = m.remember(text, importance=2)
        own.append(out["id"])
        pruned += out["auto_pruned_ids"]
        clock.advance(hours=2)
    assert pruned and set(pruned) <= set(own)
    live = m.rt.store.get_nodes(scoped)
    assert all(live[i].deleted_at is None for i in scoped)
    prune = m.status()["auto_prune"]
    assert (prune["memories_counted"], prune["payload_rows_exempt"], prune["vault_rows_exempt"]) == (3, 3, 0)


def test_a_restore_of_payload_rows_says_nothing_of_the_cap(make_mem: Callable[..., Mnemon], tmp_path: Path) -> None:
    src = make_mem(db=tmp_path / "src.db")
    _payload(src)
    doc = json.dumps(src.export_json())
    m = make_mem(db=tmp_path / "here.db", max_insights=2)
    for dry_run in (True, False):  # the dry run says what the restore then does
        out = m.import_json(doc, dry_run=dry_run)
        assert not any("over its cap" in w for w in out.get("warnings", [])), (dry_run, out.get("warnings"))
