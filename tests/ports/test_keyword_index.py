"""The contentless keyword index (m044): FTS5 keeps no copy of the text, so every removal hands back the values a row
was indexed with, recomputed from the row (`core.keywords.keyword_text`). Checked against a reference built from
the rows after arbitrary sequences of writes, across an upgrade from the old index, and across a tokenizer change."""
from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mnemon.core.keywords as keywords
import mnemon.ports.store.migrate_sqlite as migrate_backend
from mnemon.app.vault.plan import plan_note
from mnemon.core.keywords import SKIP_KEY, keyword_text
from mnemon.core.model import Memory
from mnemon.core.text import tokens
from mnemon.ports.store.schema_sqlite import MIGRATIONS
from mnemon.ports.store.sqlite import SQLiteStore
from mnemon.ports.store.vault_sqlite import node_row

from conftest import EXAMPLE_VAULT
from keyword_index_check import assert_index_matches_rows

WORDS = ("harbour", "sensor", "running", "runs", "groups", "the", "budget", "東京大学", "naïve", "don't", "v2.3.1",
         "2.0.0-rc.1")
SOURCES = ("user", "agent", "mneme://scope/a", "vault:Notes/a.md")
AT = "2026-01-01T00:00:00.000000Z"


text = st.lists(st.sampled_from(WORDS), min_size=0, max_size=6).map(" ".join)
op = st.one_of(
    st.tuples(st.just("insert"), st.integers(0, 5), text, st.sampled_from(SOURCES), st.booleans()),
    st.tuples(st.just("update"), st.integers(0, 5), text, st.sampled_from(SOURCES), st.booleans()),
    st.tuples(st.just("soft"), st.integers(0, 5)),
    st.tuples(st.just("hard"), st.integers(0, 5)),
    st.tuples(st.just("refresh"), st.integers(0, 5), text, st.sampled_from(SOURCES), st.booleans()),
)


def _memory(i: int, body: str, source: str, with_title: bool, kind: str = "memory") -> Memory:
    lines = (body or "empty").split(" ")
    content = "\n".join(lines)  # one word a line, so a skip list can leave some out
    metadata = {SKIP_KEY: [0, 2]} if source.startswith("vault:") else {}
    return Memory(id=f"m{i}", content=content, title="Harbour groups" if with_title else None, source=source,
                  tags=("sensor",) if i % 2 else (), entities=("Ada",) if i % 3 == 0 else (), created_at=AT,
                  updated_at=AT, inserted_at=AT, metadata=metadata, kind=kind)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(op, min_size=1, max_size=14))
def test_any_sequence_of_writes_leaves_the_index_equal_to_the_rows(ops: list[tuple[Any, ...]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = SQLiteStore(str(Path(tmp) / "k.db"))
        try:
            for step in ops:
                name, i = step[0], step[1]
                exists = store.get_node(f"m{i}", include_deleted=True) is not None
                with store.transaction():
                    if name == "insert" and not exists:
                        store.insert_node(_memory(i, step[2], step[3], step[4]))
                    elif name == "update" and exists:
                        store.update_node(_memory(i, step[2], step[3], step[4]))
                    elif name == "soft":
                        store.soft_delete([f"m{i}"], AT)
                    elif name == "hard":
                        store.hard_delete([f"m{i}"])
                    elif name == "refresh":  # the vault's update in place, which also revives soft-deleted rows
                        store.vault.refresh_node_rows([node_row(_memory(i, step[2], step[3], step[4]))])
                assert_index_matches_rows(store)
        finally:
            store.close()


def test_a_store_written_before_m044_is_upgraded_without_losing_a_search(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "old.db"
    monkeypatch.setattr(migrate_backend, "MIGRATIONS", [m for m in MIGRATIONS if m[0] < "m044"])
    old = SQLiteStore(str(db))
    with old.transaction():
        for i, words in enumerate(("harbour sensor budget", "running groups", "東京大学 naïve")):
            old.insert_node(Memory(id=f"m{i}", content=words, created_at=AT))
        # the old code's soft delete (the store's own now hands values back, which only a contentless index takes)
        old.conn.execute("UPDATE nodes SET deleted_at = ? WHERE id = 'm1'", (AT,))
        old.conn.execute("DELETE FROM memory_fts WHERE rowid = (SELECT seq FROM nodes WHERE id = 'm1')")
    before = {w: old.keyword_search(tokens(w), 5) for w in ("harbour", "groups", "東京")}
    assert old.conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'memory_fts_content'").fetchone()
    old.close()
    monkeypatch.setattr(migrate_backend, "MIGRATIONS", MIGRATIONS)
    new = SQLiteStore(str(db))
    try:
        assert {w: new.keyword_search(tokens(w), 5) for w in before} == before
        assert_index_matches_rows(new)
        with new.transaction():
            new.hard_delete(["m0"])
        assert new.keyword_search(tokens("harbour"), 5) == []
        assert_index_matches_rows(new)
    finally:
        new.close()


def test_a_changed_tokenizer_rebuilds_the_index_before_anything_is_removed(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "k.db"
    store = SQLiteStore(str(db))
    with store.transaction():
        store.insert_node(Memory(id="a", content="The sensors were running", created_at=AT))
    store.close()
    # another stemmer (or none): the same row now tokenises differently, and so does the fingerprint
    monkeypatch.setattr(keywords, "token_text", lambda t: " ".join(t.lower().split()))
    store = SQLiteStore(str(db))
    try:
        assert [i for i, _ in store.keyword_search(["sensors"], 5)] == ["a"]  # indexed by the new tokenizer
        assert_index_matches_rows(store)
        with store.transaction():
            store.soft_delete(["a"], AT)  # hands back the new tokens, which is what the index now holds
        assert_index_matches_rows(store)
        assert store.keyword_search(["sensors"], 5) == []
    finally:
        store.close()


def test_a_writer_handing_in_another_body_is_refused_under_the_check(tmp_path: Path) -> None:
    store = SQLiteStore(str(tmp_path / "k.db"))
    try:
        with pytest.raises(Exception, match="not keyword_text"), store.transaction():
            store.insert_node(Memory(id="a", content="Harbour sensors", created_at=AT), "harbour sensors")
        assert store.get_node("a") is None  # the transaction rolled back: nothing half-written
    finally:
        store.close()


json_value = st.recursive(st.none() | st.booleans() | st.integers(-3, 12) | st.text(max_size=5),
                          lambda inner: st.lists(inner, max_size=4), max_leaves=8)


@given(st.text(max_size=12) | st.none(), st.text(max_size=60), st.sampled_from(SOURCES),
       st.dictionaries(st.sampled_from([SKIP_KEY, "line", "memory_kind"]), json_value, max_size=3))
def test_keyword_text_is_the_same_from_the_mapping_a_writer_holds_and_the_json_a_removal_reads(
        title: str | None, content: str, source: str, metadata: dict[str, Any]) -> None:
    # a writer indexes from the Memory's metadata, a removal from the stored JSON: any difference corrupts the index
    stored = json.dumps(metadata, ensure_ascii=False) if metadata else "{}"
    assert keyword_text(title, content, source, metadata) == keyword_text(title, content, source, stored)
    # an unreadable column never raises inside the SQL function: it means no skipped lines
    assert keyword_text(title, content, source, '{"fts_skip": [0,') == keyword_text(title, content, source, None)


@pytest.mark.parametrize("path", sorted(p.relative_to(EXAMPLE_VAULT).as_posix() for p in EXAMPLE_VAULT.rglob("*.md")))
def test_vault_plans_index_what_the_rows_recompute(path: str) -> None:
    plan = plan_note(path, (EXAMPLE_VAULT / path).read_bytes(), 0.0, ())
    for node in plan.nodes:
        if node.kind == "memory":
            assert node.fts == keyword_text(node.title, node.content, f"vault:{path}", node.metadata)
