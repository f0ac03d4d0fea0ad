"""An entity of several words the store already knows ("Ana Lima", "staging cluster", given once with --entities) is
recognised in a later memory that names it, as a known one-word entity is: the later memory was left out of the
entity graph, and recall "Ana Lima" gave it entity signal 0 and ranked a memory not naming Lima above it."""
from __future__ import annotations

from mnemon.app.memory import Mnemon
from mnemon.core.entities import extract_entities


def test_a_later_memory_naming_a_known_multiword_entity_holds_it_and_links_to_its_holders(mem: Mnemon) -> None:
    first = mem.remember("Ana owns the staging cluster budget", entities=["Ana Lima", "staging cluster"])
    later = mem.remember("Ana Lima prefers async standups")
    other = mem.remember("The staging cluster ran out of spot capacity")
    assert mem.show(later["id"])["entities"] == ["Ana Lima"]
    assert mem.show(other["id"])["entities"] == ["staging cluster"]
    assert later["edges_created"]["entity"] == 1 and other["edges_created"]["entity"] == 1
    rows = {r["insight"]["id"]: r for r in mem.recall("Ana Lima")["results"]}
    assert rows[later["id"]]["signals"]["entity"] == 1.0
    assert rows[first["id"]]["signals"]["entity"] == 1.0


def test_known_multiword_names_are_matched_whole_within_a_clause() -> None:
    known = {"Ana Lima", "staging cluster", "New York Times"}

    def lookup(cands: set[str]) -> set[str]:
        return cands & known

    assert extract_entities("Ana Lima's team moved", known=lookup) == ["Ana Lima"]
    assert extract_entities("We read the New York Times daily", known=lookup) == ["New York Times"]
    assert extract_entities("the staging cluster, then prod", known=lookup) == ["staging cluster"]
    # not across a sentence or clause break, and not as a part of a longer word
    assert extract_entities("Call Ana. Lima is a city", known=lookup) == []
    assert extract_entities("the staging, cluster", known=lookup) == []
    assert extract_entities("the prestaging cluster", known=lookup) == []


def test_an_import_finds_names_of_several_words_the_store_or_the_batch_knows(mem: Mnemon) -> None:
    # a bulk import narrows the runs it asks about to those starting with a known name's first word: a name
    # stored before the import, and one given earlier in the same batch, are both still found
    mem.remember("Ana owns the budget", entities=["Ana Lima"])
    out = mem.import_json({"schema_version": "1", "insights": [
        {"content": "The staging cluster was resized", "entities": ["staging cluster"]},
        {"content": "Ana Lima approved the staging cluster upgrade"},
        {"content": "Nobody named here"}]})
    assert out["imported"] == 3
    entities = {m["content"]: m["entities"] for m in mem.export_json()["insights"]}
    assert entities["Ana Lima approved the staging cluster upgrade"] == ["Ana Lima", "staging cluster"]


def test_name_heads_narrow_the_runs_asked_about() -> None:
    known = {"Ana Lima", "staging cluster"}

    def lookup(cands: set[str]) -> set[str]:
        assert all(" " not in c or c.split(" ")[0].lower() in {"ana", "staging"} for c in cands)
        return cands & known

    # (the heads are lower-cased: a name is found in any case)
    assert extract_entities("Ana Lima saw the staging cluster", known=lookup,
                            name_heads={"ana", "staging"}) == ["Ana Lima", "staging cluster"]
    assert extract_entities("Ana Lima saw the staging cluster", known=lambda c: c & known, name_heads=set()) == []
