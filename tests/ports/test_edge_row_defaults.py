"""Edge rows store a repeated `updated_at` as '' and an ingested edge's note path as `NOTE_PATH` (m052); the `edges`
view puts both back, so every reader sees the values that were written — on SQLite and PostgreSQL alike, and in a
store written before the change."""
from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mnemon.ports.store.migrate_sqlite as sqlite_backend
from mnemon.core.model import Edge
from mnemon.ports.store.base import Store
from mnemon.ports.store.edge_rows import NOTE_PATH, packed_insert_rows
from mnemon.ports.store.schema_sqlite import MIGRATIONS
from mnemon.ports.store.sqlite import SQLiteStore
from mnemon.ports.store.vault_texts_sqlite import PACKED_NOTE_PATH, evidence_key

from .test_sqlite_store import at, put

STEP = "m052_edge_row_defaults"


def raw(store: Any, edge_id: int) -> tuple[str, str, str]:
    """(source_path, created_at, updated_at) as the row holds them, on either backend."""
    row = store.conn.execute(f"SELECT source_path, created_at, updated_at FROM edge_rows WHERE id = {int(edge_id)}")
    return tuple(row.fetchone())  # type: ignore[return-value]


def notes(store: Store) -> None:
    """Two vault notes with a derived bullet each, as ingest writes them (their `source` is 'vault:' + path), and a
    memory of the user's own."""
    put(store, "note:A.md", "", source="vault:A.md", kind="note")
    put(store, "note:B.md", "", source="vault:B.md", kind="note")
    put(store, "vault:A.md:observation:1", "a bullet", source="vault:A.md")
    put(store, "mine", "my own memory", source="user")


def test_a_row_whose_times_agree_stores_one_and_reads_both(store: Store) -> None:
    notes(store)
    with store.transaction():
        store.insert_edges([Edge("note:A.md", "note:B.md", "semantic", created_at=at(0)),
                            Edge("note:B.md", "mine", "semantic", created_at=at(0), updated_at=at(2))])
    same, later = store.find_edge("note:A.md", "note:B.md", "semantic"), store.find_edge("note:B.md", "mine", "semantic")
    assert same is not None and later is not None
    assert (same.created_at, same.updated_at) == (at(0), at(0)) and raw(store, same.id or 0)[1:] == (at(0), "")
    assert (later.created_at, later.updated_at) == (at(0), at(2)) and raw(store, later.id or 0)[1:] == (at(0), at(2))


def test_an_ingested_edge_reads_its_note_path_back_from_its_source_node(store: Store) -> None:
    notes(store)
    rows = [("note:A.md", "note:B.md", "links_to", 0.9, 0.9, "active", "[[B]]", "ingest", "wikilink", NOTE_PATH,
             '{"line":3}', at(0)),
            ("vault:A.md:observation:1", "note:B.md", "mentions_email", 0.9, 0.9, "active", "x", "ingest", "email",
             NOTE_PATH, "{}", at(0))]
    with store.transaction():
        store.vault.insert_edge_rows(rows)  # type: ignore[attr-defined]  (the vault ingest's own writer)
    for src in ("note:A.md", "vault:A.md:observation:1"):
        (e,) = store.edges_of([src], statuses=("active",))
        assert (e.source_path, e.created_at, e.updated_at, e.origin) == ("A.md", at(0), at(0), "ingest")
        assert raw(store, e.id or 0) == (NOTE_PATH, at(0), "")
        assert store.get_edge(e.id or 0) == e and store.get_edges([e.id or 0]) == [e]
        assert e in list(store.iter_edges())
    assert {e.src for e in store.vault.edges_with_source_prefix("A.md")} == {  # type: ignore[attr-defined]
        "note:A.md", "vault:A.md:observation:1"}  # a filter on the path sees the restored value


def test_an_empty_path_stays_empty_whatever_the_edge_and_its_source(store: Store) -> None:
    notes(store)
    with store.transaction():
        store.upsert_edge(Edge("note:A.md", "note:B.md", "semantic", origin="link", created_at=at(0)))
        store.insert_edges([Edge("note:B.md", "mine", "semantic", origin="user", created_at=at(0)),
                            # an ingested edge restored from an export (which carries no path), from a vault note
                            Edge("note:B.md", "note:A.md", "links_to", origin="ingest", created_at=at(0)),
                            Edge("note:A.md", "mine", "semantic", origin="ingest", source_path="Other.md",
                                 created_at=at(0))])
    got = {(e.src, e.dst): e.source_path for e in store.iter_edges()}
    assert got == {("note:A.md", "note:B.md"): "", ("note:B.md", "mine"): "", ("note:B.md", "note:A.md"): "",
                   ("note:A.md", "mine"): "Other.md"}  # a path written in full is read as written
    assert {raw(store, e.id or 0)[0] for e in store.iter_edges()} == {"", "Other.md"}


def test_a_note_path_left_out_of_a_row_whose_source_is_no_vault_node_reads_empty(store: Store) -> None:
    notes(store)
    with store.transaction():
        store.vault.insert_edge_rows([("mine", "note:A.md", "links_to", 0.9, 0.9, "active", "", "ingest",  # type: ignore[attr-defined]
                                       "wikilink", NOTE_PATH, "{}", at(0))])
    (e,) = store.edges_of(["mine"])
    assert e.source_path == ""  # never the marker itself


def test_a_status_change_sets_a_real_updated_at(store: Store) -> None:
    notes(store)
    with store.transaction():
        store.insert_edges([Edge("note:A.md", "note:B.md", "semantic", created_at=at(0)),
                            Edge("note:B.md", "note:A.md", "semantic", created_at=at(0)),
                            Edge("note:A.md", "mine", "semantic", created_at=at(0))])
    a, b, c = (store.find_edge(s, d, "semantic") for s, d in (("note:A.md", "note:B.md"), ("note:B.md", "note:A.md"),
                                                               ("note:A.md", "mine")))
    assert a and b and c
    with store.transaction():
        store.set_edge_status(a.id or 0, "killed", actor="test", reason="wrong")
        store.set_edge_status(b.id or 0, "active", actor="test", reason="right", confidence=1.0)
        store.retire_edges_of("mine", reason="forgotten")
    for e in (a, b, c):
        now = store.get_edge(e.id or 0)
        assert now is not None and now.created_at == at(0) and now.updated_at > at(0)
        assert raw(store, e.id or 0)[2] == now.updated_at


def test_an_edge_written_twice_in_one_batch_keeps_the_later_time(store: Store) -> None:
    notes(store)
    with store.transaction():
        store.insert_edges([Edge("note:A.md", "note:B.md", "semantic", weight=0.5, created_at=at(0)),
                            Edge("note:A.md", "note:B.md", "semantic", weight=0.7, created_at=at(3))])
    e = store.find_edge("note:A.md", "note:B.md", "semantic")
    assert e is not None and (e.weight, e.created_at, e.updated_at) == (0.7, at(0), at(3))


# ── a store written before m052 (SQLite) ──────────────────────────────────────
def _store_before(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sqlite_backend, "MIGRATIONS", MIGRATIONS[: [n for n, _ in MIGRATIONS].index(STEP)])
    SQLiteStore(str(db)).close()
    con = sqlite3.connect(db)
    con.executescript("""
        INSERT INTO nodes (id, kind, content, source, created_at, updated_at) VALUES
            ('note:A.md', 'note', '', 'vault:A.md', 't', 't'), ('note:B.md', 'note', '', 'vault:B.md', 't', 't');
        INSERT INTO edge_rows (id, src, dst, type, origin, rule, source_path, metadata, created_at, updated_at) VALUES
            (1, 1, 2, 'links_to', 'ingest', 'wikilink', 'A.md', '{"line":1}', 't1', 't1'),
            (2, 2, 1, 'semantic', 'link', '', '', '{}', 't1', 't2'),
            (3, 2, 1, 'links_to', 'ingest', 'wikilink', '', '{}', 't1', 't1');  -- restored from an export
    """)
    con.commit()
    con.close()
    monkeypatch.setattr(sqlite_backend, "MIGRATIONS", MIGRATIONS)


def _all(store: SQLiteStore) -> list[Edge]:
    return list(store.iter_edges())


def test_a_store_written_before_reads_the_same_read_only_and_after_its_upgrade(tmp_path: Path,
                                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "old.db"
    _store_before(db, monkeypatch)
    old = SQLiteStore(str(db), readonly=True)  # not upgraded: the old view over the full values
    before = _all(old)
    assert STEP not in old.migrations()
    old.close()
    assert [(e.source_path, e.updated_at) for e in before] == [("A.md", "t1"), ("", "t2"), ("", "t1")]
    store = SQLiteStore(str(db))
    assert STEP in store.migrations()
    assert _all(store) == before
    assert [raw(store, i) for i in (1, 2, 3)] == [("A.md", "t1", "t1"), ("", "t1", "t2"), ("", "t1", "t1")]  # untouched
    store.close()
    again = SQLiteStore(str(db), readonly=True)
    assert _all(again) == before
    again.close()


def test_the_view_still_reaches_edges_through_edge_rows_indexes(tmp_path: Path) -> None:
    store = SQLiteStore(str(tmp_path / "plan.db"))
    # both arms of the view (rows, and edges derived from their items: contained_sqlite.py) look the end up by key;
    # the one scan left is of the few rows they found ("SCAN edges": the view's co-routine)
    plans = [" ".join(str(r[-1]) for r in store.conn.execute(f"EXPLAIN QUERY PLAN SELECT * FROM edges WHERE {col} = 'x'")
                      if str(r[-1]) != "SCAN edges")
             for col in ("src", "dst")]
    store.close()
    assert all("SCAN" not in p and p.count("USING INDEX") >= 2 for p in plans), plans


_END_IDS = st.sampled_from(["note:a.md", "vault:a.md:section:1", "date:2026-01-02", "tag:x"])
_EDGE_ROWS = st.lists(st.tuples(
    _END_IDS, _END_IDS, st.sampled_from(["has_section", "links_to"]), st.just(0.9), st.just(0.9),
    st.sampled_from(["active", "candidate"]), st.sampled_from(["", "- a line", "## Heading"]), st.just("ingest"),
    st.just("section"), st.sampled_from([NOTE_PATH, PACKED_NOTE_PATH, "", "b.md"]), st.just("{}"),
    st.sampled_from(["2026-01-01T00:00:00.000000Z", "2026-02-02T00:00:00.000000Z"])), max_size=12)


@settings(max_examples=200, deadline=None)
@given(_EDGE_ROWS, st.lists(st.sampled_from(["2026-01-01T00:00:00.000000Z", "2026-03-03T00:00:00.000000Z"]),
                            min_size=4, max_size=4))
def test_packed_insert_rows_keys_evidence_drops_the_sources_time_and_seqs_the_ends(rows: list[tuple[Any, ...]],
                                                                                   times: list[str]) -> None:
    ends = {node: (k + 1, times[k]) for k, node in enumerate(
        ["note:a.md", "vault:a.md:section:1", "date:2026-01-02", "tag:x"])}
    expected = []
    for r in rows:
        ingested, evidence, path, created = r[9] == NOTE_PATH, r[6], r[9], r[11]
        if ingested and evidence:  # the note blob holds the text, the row its key
            evidence, path = evidence_key(evidence), PACKED_NOTE_PATH
        if r[9] in (NOTE_PATH, PACKED_NOTE_PATH) and created == ends[r[0]][1]:
            created = ""  # read back from the source node
        expected.append((ends[r[0]][0], ends[r[1]][0], *r[2:6], evidence, r[7], r[8], path, r[10], created, ""))
    assert packed_insert_rows(rows, ends) == expected
