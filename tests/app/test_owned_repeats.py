"""An exact repeat is skipped only against a memory that lives until it is forgotten.

A vault row goes with its note's next rebuild and a payload row with `forget --source`; a `remember` (or an
imported memory) skipped as their repeat would have gone with them, silently. So it is stored as its own memory.
"""
from __future__ import annotations

import json
from pathlib import Path

from mnemon.app.memory import Mnemon

SENTENCE = "Northwind Batteries overdue on the May shipment"


def _vault(tmp_path: Path, bullet: str) -> Path:
    vault = tmp_path / "vault"
    vault.mkdir(exist_ok=True)
    (vault / "suppliers.md").write_text(f"# Suppliers\n\n- {bullet}\n", encoding="utf-8")
    return vault


def test_a_remember_repeating_a_vault_bullet_is_kept_when_the_note_changes(mem: Mnemon, tmp_path: Path) -> None:
    vault = _vault(tmp_path, SENTENCE)
    mem.ingest(str(vault))
    assert any(n.content == SENTENCE for n in mem.rt.store.iter_nodes(kind="memory"))  # the vault's own row
    out = mem.remember(SENTENCE, source="agent")
    assert out["action"] == "added"
    assert mem.remember(SENTENCE, source="agent")["action"] == "skipped"  # a repeat of what the agent owns
    _vault(tmp_path, "All suppliers delivered on time")
    mem.ingest(str(vault))
    kept = mem.rt.store.get_node(out["id"])
    assert kept is not None and kept.deleted_at is None and kept.source == "agent"
    found = mem.recall("Northwind Batteries shipment", limit=5)["results"]
    assert [r["insight"]["id"] for r in found] == [out["id"]]


def test_a_remember_repeating_a_payload_observation_outlives_the_scope(mem: Mnemon) -> None:
    payload = {"source_path": "mneme://agent/scratch", "nodes": [{"ref": "s", "type": "task", "name": "Supplier"}],
               "edges": [], "observations": [{"node": "s", "kind": "fact", "text": SENTENCE, "score": 5}]}
    mem.remember_payload(json.dumps(payload))
    out = mem.remember(SENTENCE, source="user")
    assert out["action"] == "added"
    mem.forget_source("mneme://agent/scratch")
    assert [n.id for n in mem.rt.store.iter_nodes(kind="memory") if n.content == SENTENCE] == [out["id"]]


def test_an_import_repeating_a_vault_bullet_is_imported(mem: Mnemon, tmp_path: Path) -> None:
    mem.ingest(str(_vault(tmp_path, SENTENCE)))
    own = mem.remember("Gull Electronics supplies the enclosures", source="agent")["id"]
    out = mem.import_json({"insights": [{"content": SENTENCE}, {"content": "Gull Electronics supplies the enclosures"}]})
    assert (out["imported"], out["skipped"]) == (1, 1)
    assert out["results"][1] == {**out["results"][1], "action": "skipped", "id": own}
