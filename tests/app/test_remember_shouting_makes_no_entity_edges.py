"""Memories that only shout the same words are not linked: ALL-CAPS emphasis made entities (NOTE, BUILD, MUST, …)
and every memory that shouted one was linked to the last five others that did, whatever they were about."""
from __future__ import annotations

from mnemon.app.memory import Mnemon


def test_memories_sharing_only_shouted_words_are_not_linked(mem: Mnemon) -> None:
    first = mem.remember("NOTE THAT THE BUILD IS BROKEN, WE MUST FIX IT ASAP", source="agent")
    second = mem.remember("NOTE THAT THE OFFICE PLANTS MUST BE WATERED, PLEASE DO IT ASAP", source="user")
    for made in (first, second):
        assert mem.show(made["id"])["entities"] == []
    assert second["edges_created"]["entity"] == 0
    assert [e for e in mem.show(second["id"])["edges"] if e["edge_type"] == "entity"] == []
    assert all(r["id"] != first["id"] for r in mem.related(second["id"], edge_type="entity")["related"])


def test_real_acronyms_still_link_memories(mem: Mnemon) -> None:
    first = mem.remember("We moved the billing RDS to GKE last week", source="agent")
    second = mem.remember("The GKE cluster needs a node pool for the RDS", source="user")
    assert {"RDS", "GKE"} <= set(mem.show(first["id"])["entities"])
    assert second["edges_created"]["entity"] >= 1
    assert first["id"] in {r["id"] for r in mem.related(second["id"], depth=1, edge_type="entity")["related"]}
