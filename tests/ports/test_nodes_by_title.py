"""`Store.nodes_by_title`: the workbench's search finds a node by its title anywhere in the store (both backends)."""
from __future__ import annotations

import pytest

from mnemon.core.model import Memory
from mnemon.ports.store.base import Store

WHEN = "2026-02-01T00:00:00Z"


def _put(store: Store, *nodes: tuple[str, str, str]) -> None:
    """(id, kind, title) rows as ingest writes them: a title and no text of their own."""
    with store.transaction():
        for node_id, kind, title in nodes:
            store.insert_node(Memory(id=node_id, kind=kind, title=title, content="", source="vault:",
                                     created_at=WHEN, updated_at=WHEN, inserted_at=WHEN))


def _found(store: Store, text: str, limit: int = 20) -> list[str]:
    return [n.id for n in store.nodes_by_title(text, limit)]


def test_notes_come_first_then_exact_prefix_and_other_matches_then_title_and_id(store: Store) -> None:
    _put(store,
         ("heading:a.md#plan", "heading", "Plan"),
         ("note:z/master.md", "note", "Master plan"),
         ("note:b.md", "note", "Plan B"),
         ("note:a.md", "note", "Plan B"),  # the same title twice: the id decides
         ("note:plan.md", "note", "plan"),
         ("note:c.md", "note", "Plan a"),
         ("tag:planning", "tag", "planning"),
         ("note:other.md", "note", "Budget"))
    assert _found(store, "PLAN") == ["note:plan.md", "note:c.md", "note:a.md", "note:b.md", "note:z/master.md",
                                     "heading:a.md#plan", "tag:planning"]
    assert _found(store, "PLAN", limit=2) == ["note:plan.md", "note:c.md"]
    assert _found(store, "an b") == ["note:a.md", "note:b.md"]


def test_case_and_unicode_fold_as_keywords_do(store: Store) -> None:
    _put(store, ("note:ecole.md", "note", "École d’été"), ("note:wide.md", "note", "ＡＢＣ Report"),
         ("note:tokyo.md", "note", "東京 trip"), ("person:jürgen", "person", "JÜRGEN Weiß"))
    assert _found(store, "école") == _found(store, "ÉCOLE") == ["note:ecole.md"]
    assert _found(store, "abc report") == ["note:wide.md"]  # full-width letters read as their plain forms (NFKC)
    assert _found(store, "東京") == ["note:tokyo.md"]
    assert _found(store, "jürgen weiß") == ["person:jürgen"]
    assert _found(store, "ecole") == []  # accents are part of the word, as in keyword search


def test_wildcards_are_plain_characters(store: Store) -> None:
    _put(store, ("note:pct.md", "note", "100% done"), ("note:under.md", "note", "snake_case"),
         ("note:plain.md", "note", "100 points, snakecase"))
    assert _found(store, "%") == ["note:pct.md"]
    assert _found(store, "_") == ["note:under.md"]
    assert _found(store, "0% d") == ["note:pct.md"]


def test_memories_and_deleted_nodes_are_not_found(store: Store) -> None:
    _put(store, ("note:kept.md", "note", "Harbour log"), ("note:gone.md", "note", "Harbour gone"))
    with store.transaction():
        store.insert_node(Memory(id="m1", title="Harbour section", content="A memory about the harbour",
                                 created_at=WHEN, updated_at=WHEN, inserted_at=WHEN))
        store.insert_node(Memory(id="note:old.md", kind="note", title="Harbour old", content="", created_at=WHEN,
                                 updated_at=WHEN, inserted_at=WHEN, deleted_at=WHEN))
    with store.transaction():
        store.soft_delete(["note:gone.md"], WHEN)
    assert _found(store, "harbour") == ["note:kept.md"]


@pytest.mark.parametrize("text", ["", "   ", "\t"])
def test_a_blank_text_finds_nothing(store: Store, text: str) -> None:
    _put(store, ("note:a.md", "note", "Anything at all"), ("note:b.md", "note", "Tab\there"))
    assert _found(store, text) == []


def test_a_found_node_is_read_whole(store: Store) -> None:
    _put(store, ("note:Projects/lighthouse.md", "note", "Lighthouse"))
    (node,) = store.nodes_by_title("lighthouse", 5)
    assert (node.id, node.kind, node.title, node.source) == ("note:Projects/lighthouse.md", "note", "Lighthouse",
                                                             "vault:")
