"""A prompt naming a note path keeps the pack to that note: memories and edges did, but a world-model assertion
`resolve` wrote from its evidence pack under `Sources/` still came in with `retrieve --prompt
"Projects/lighthouse.md"`. A world item is kept only when its source note is in the scope, else skipped as
`outside_path_scope`."""
from __future__ import annotations

from pathlib import Path

from mnemon.app.memory import Mnemon

CLAIM = {"slug": "lighthouse-vendor", "title": "Lighthouse vendor", "date": "2026-03-10", "sources_checked": ["email"],
         "claims": [{"subject": "Lighthouse", "subject_type": "project", "predicate": "depends_on",
                     "object": "Acme Sensors", "object_type": "organization", "confidence": 0.95, "strength": 0.95,
                     "certainty": "confirmed", "source_type": "email",
                     "evidence": "Email: Lighthouse depends on Acme Sensors for the sensor units."}]}
TITLE = "Lighthouse depends_on Acme Sensors"


def _resolved(mem: Mnemon, vault: Path) -> str:
    out = mem.resolve(str(vault), CLAIM)
    mem.ingest(str(vault))  # the evidence pack is a note of the vault: a path can name it
    [assertion] = out["assertions"]
    return str(assertion["id"])


def _world(pack: dict) -> list[dict]:
    return [i for i in pack["items"] if i["item_type"].startswith("world_")]


def test_a_named_note_keeps_out_an_assertion_from_another_note(example_vault_mem: Mnemon, example_vault: Path) -> None:
    mem = example_vault_mem
    assertion = _resolved(mem, example_vault)
    unscoped = mem.retrieve("Lighthouse depends on", max_items=12, budget=10000)
    assert [(w["title"], w["source_path"]) for w in _world(unscoped)] == [
        (TITLE, "Sources/2026-03-10-lighthouse-vendor.md")]  # the assertion matches: the scope has work to do
    pack = mem.retrieve("Projects/lighthouse.md", max_items=12, budget=10000)
    assert pack["retrieval"]["path_filter_active"] is True and pack["items"]
    assert _world(pack) == []
    assert {i["source_path"] for i in pack["items"]} == {"Projects/lighthouse.md"}
    [left] = [s for s in pack["skipped"] if s["id"] == assertion]
    assert (left["reason"], left["kind"], left["source_path"]) == (
        "outside_path_scope", "state_assertion", "Sources/2026-03-10-lighthouse-vendor.md")
    assert pack["stats"]["world_items"] == 0 and "world" not in pack["retrieval"]["signals"]

    # and a prompt naming the evidence pack's folder keeps it: the scope is where a world row comes from
    sources = mem.retrieve("what does Sources/ say about the Lighthouse vendor", max_items=12, budget=10000)
    assert sources["retrieval"]["path_filter_active"] is True
    assert [w["id"] for w in _world(sources)] == [assertion]
    assert all(s["id"] != assertion for s in sources["skipped"])
