"""A research claim naming its subject or object as an Obsidian link (`"subject": "[[Supplier]]"`, as an agent
working in a vault writes names): the claim went to a placeholder `[[supplier]]` instead of the note Supplier.md,
the evidence pack read `[[[[Supplier]]]]`, and the world model believed something of "[[Supplier]]". A name given
as one wikilink is now the note it links to (its section and display text aside)."""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path

import pytest

from mnemon.app.memory import Mnemon

from conftest import FakeClock

CLAIM = {"subject": "[[Supplier]]", "subject_type": "organisation", "predicate": "located_in",
         "object": "[[Porto#Warehouses|the city]]", "object_type": "place", "confidence": 0.95,
         "certainty": "confirmed", "source_type": "document", "evidence": "The lease names the Porto warehouse."}
PAYLOAD = {"slug": "warehouse", "title": "Warehouse", "date": "2026-05-02", "claims": [CLAIM]}


@pytest.fixture
def mem(make_mem: Callable[..., Mnemon]) -> Mnemon:
    return make_mem("hash", clock=FakeClock(datetime(2026, 6, 1, 9, 0, tzinfo=timezone.utc)))


def test_a_name_given_as_a_wikilink_is_the_note_it_links_to(mem: Mnemon, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "Supplier.md").write_text("# Supplier\n", encoding="utf-8")
    mem.ingest(str(vault))
    out = mem.resolve(str(vault), PAYLOAD)
    [edge] = out["edges"]
    assert (edge["src"], edge["dst"]) == ("note:Supplier.md", "placeholder:porto")
    pack = (vault / out["note_path"]).read_text(encoding="utf-8")
    assert "- [[Supplier]] located in [[Porto]] (" in pack and "[[[[" not in pack
    [belief] = mem.state_list(status="current")["assertions"]
    assert (belief["subject_name"], belief["object_name"]) == ("Supplier", "Porto")
    mem.ingest(str(vault))  # the pack read back: the same claim, on the same edge
    again = mem.resolve(str(vault), PAYLOAD)
    assert [e["id"] for e in again["edges"]] == [edge["id"]] and not again["pack_changed"]
