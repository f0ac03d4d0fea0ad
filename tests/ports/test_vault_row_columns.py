"""A packed vault row's content hash and title, left out of the row when they can be rebuilt
(ports/store/vault_texts_sqlite.py `packed_columns`): every read gives back what was written, comparisons stay
exact, and rows written before (full hash and title) read as they did."""
from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mnemon.core.model import content_hash
from mnemon.ports.store import vault_texts_sqlite as vt
from mnemon.ports.store.sqlite import SQLiteStore
from mnemon.ports.store.vault_sqlite import node_row

from keyword_index_check import assert_index_matches_rows

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "vault"
NOTE = "Projects/lighthouse.md"
WHEN = "2026-01-01T00:00:00Z"


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    return Path(shutil.copytree(EXAMPLE, tmp_path / "vault"))


@pytest.fixture
def mem(make_mem, tmp_path: Path):  # type: ignore[no-untyped-def]
    return make_mem("hash", db=tmp_path / "columns.db")


def _restored(store: SQLiteStore, node_id: str) -> tuple[Any, ...]:
    """(title, text, hash) of a row as every SQL reader restores them."""
    return store.conn.execute(f"SELECT {vt.title_of('nodes')}, {vt.text_of('nodes')}, {vt.hash_of('nodes')}"
                              " FROM nodes WHERE id = ?", (node_id,)).fetchone()


def _stored(store: SQLiteStore, node_id: str) -> tuple[Any, ...]:
    return store.conn.execute("SELECT title, content, content_hash FROM nodes WHERE id = ?", (node_id,)).fetchone()


def test_ingested_rows_leave_out_their_hash_and_rebuildable_title_and_read_back_whole(mem, vault: Path) -> None:
    mem.ingest(str(vault))
    store = mem.rt.store
    rows = [m for m in store.iter_nodes(kind="memory") if m.source.startswith("vault:")]
    assert rows
    markers = {_stored(store, m.id)[2] for m in rows}
    assert markers <= {vt.RECOMPUTED_HASH, vt.RECOMPUTED_HASH_AND_TITLE} and vt.RECOMPUTED_HASH_AND_TITLE in markers
    for m in rows:
        path = m.metadata["heading_path"]
        if path:  # (a note's properties are under no heading: their title, the note's, is stored)
            expected = " > ".join(path) if m.metadata["memory_kind"] == "section" else path[0]
            assert m.title == expected  # (the example's notes are titled by their first heading)
        stored = _stored(store, m.id)
        assert stored[1] == "" and (stored[0] is None) == (stored[2] == vt.RECOMPUTED_HASH_AND_TITLE)
        assert _restored(store, m.id) == (m.title, m.content, content_hash(m.content))
        assert store.get_node(m.id) == m and store.get_nodes([m.id])[m.id] == m
    assert {n[0]: n[5] for n in next(store.graph_export())[1] if n[0] in {m.id for m in rows}} == \
        {m.id: m.title for m in rows}
    assert_index_matches_rows(store)


def test_a_title_its_metadata_does_not_rebuild_is_stored(mem, vault: Path) -> None:
    (vault / "Areas").mkdir(exist_ok=True)
    # no H1: the note is titled by its file name, which no heading path starts with
    (vault / "Areas" / "untitled-pump.md").write_text("## Parts\n\n- Pump seal is overdue since 2026-03-01\n\nText.\n",
                                                      encoding="utf-8")
    mem.ingest(str(vault))
    store = mem.rt.store
    rows = [m for m in store.iter_nodes(kind="memory") if m.source == "vault:Areas/untitled-pump.md"]
    assert rows
    for m in rows:
        assert _stored(store, m.id) == (m.title, "", vt.RECOMPUTED_HASH)
        assert _restored(store, m.id) == (m.title, m.content, content_hash(m.content))
        assert m.title and m.title.startswith("untitled-pump")


def test_a_text_changed_under_the_same_id_is_rewritten_reindexed_and_its_vectors_go(mem, vault: Path) -> None:
    """A memory's id hashes its case-folded text: a case-only edit keeps the id and changes the text, which only the
    restored hash tells (the stored marker is the same). Its vectors are deleted with the old text, so the vector
    checks, which do not hash a packed row's text, never take one of them for current; a vector made from the old
    text afterwards is refused."""
    mem.ingest(str(vault))
    store = mem.rt.store
    before = next(m for m in store.iter_nodes(kind="memory") if m.source == f"vault:{NOTE}"
                  and m.content == "Pilot blocked until the vendor contract is signed")
    assert before.id in store.load_vectors(mem.rt.provider.identity())[0]
    note = vault / NOTE
    note.write_text(note.read_text(encoding="utf-8").replace("Pilot blocked", "PILOT blocked"), encoding="utf-8")
    store.put_vector(before.id, "other", np.ones(4, dtype=np.float32), before.content_hash, WHEN)
    generation = store.vector_generation()
    mem.ingest(str(vault), embed=False)
    seq = store.conn.execute("SELECT seq FROM nodes WHERE id = ?", (before.id,)).fetchone()[0]
    assert store.conn.execute("SELECT COUNT(*) FROM vectors WHERE node_seq = ?", (seq,)).fetchone()[0] == 0
    assert store.vector_generation() != generation  # a saved vector matrix is not taken for current
    after = store.get_node(before.id)
    assert after is not None and after.content == "PILOT blocked until the vendor contract is signed"
    assert _restored(store, before.id) == (after.title, after.content, content_hash(after.content))
    assert before.id not in store.load_vectors("other")[0]
    assert before.id in [m.id for m in store.nodes_missing_vectors("other")]
    assert [r[0] for r in store.vault.memories_missing_vectors([before.id], "other")] == [before.id]
    assert store.vault.memories_missing_vectors([before.id], "other")[0][2] == after.content_hash
    assert store.vector_coverage("other")[0] == 0
    store.put_vector(before.id, "other", np.ones(4, dtype=np.float32), before.content_hash, WHEN)  # of the old text
    assert store.vector_coverage("other")[0] == 0 and before.id not in store.load_vectors("other")[0]
    store.put_vector(before.id, "other", np.ones(4, dtype=np.float32), after.content_hash, WHEN)
    assert store.vector_coverage("other")[0] == 1 and before.id in store.load_vectors("other")[0]
    assert_index_matches_rows(store)


def test_a_moved_bullet_gets_its_new_heading_path_and_a_retitled_note_its_title(mem, vault: Path) -> None:
    mem.ingest(str(vault))
    store = mem.rt.store
    line = "- Pilot blocked until the vendor contract is signed\n"
    bullet = next(m for m in store.iter_nodes(kind="memory") if m.source == f"vault:{NOTE}"
                  and m.content == line[2:-1])
    note = vault / NOTE
    text = note.read_text(encoding="utf-8").replace(line, "")
    note.write_text(text.replace("## Budget\n", "## Budget\n" + line), encoding="utf-8")
    mem.ingest(str(vault))
    moved = store.get_node(bullet.id)
    assert moved is not None and moved.metadata["heading_path"] == ["Lighthouse", "Budget"]
    assert moved.title == "Lighthouse" and _restored(store, bullet.id)[0] == "Lighthouse"
    # the front matter now titles the note otherwise than its first heading: the titles are stored again
    note.write_text(note.read_text(encoding="utf-8").replace("title: Lighthouse", "title: Beacon"), encoding="utf-8")
    mem.ingest(str(vault))
    retitled = store.get_node(bullet.id)
    assert retitled is not None and retitled.title == "Beacon"
    assert _stored(store, bullet.id) == ("Beacon", "", vt.RECOMPUTED_HASH)
    sections = [m for m in store.iter_nodes(kind="memory") if m.source == f"vault:{NOTE}"
                and m.metadata["memory_kind"] == "section"]
    assert sections and all(m.title.startswith("Beacon") for m in sections)  # type: ignore[union-attr]
    assert all(_restored(store, m.id)[0] == m.title for m in sections)
    assert_index_matches_rows(store)


def _old_way(store: SQLiteStore, rows: list[tuple[Any, ...]], source: str) -> None:
    """Write packed rows as a store before this change did: content '' with the full hash and title in the row."""
    vault = store.vault
    with store.transaction():
        vault._write_many("INSERT INTO nodes (id, kind, title, content, content_hash, category, importance, tags,"
                          " entities, source, created_at, updated_at, last_accessed_at, access_count,"
                          " effective_importance, deleted_at, metadata, inserted_at, proactive)"
                          " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,NULL,0,?,NULL,?,?,?)",
                          [(*r[:3], "", *r[4:]) for r in rows])
        vault._index_rows(rows, None, None)
        vault.write_texts({source: {r[0]: r[3] for r in rows}})


def _section(node_id: str, title: str | None, text: str, path: list[str], kind: str = "section") -> tuple[Any, ...]:
    from mnemon.core.model import Memory
    meta = {"memory_kind": kind, "line": 3, "heading_path": path}
    source = node_id.rsplit(":", 2)[0]  # vault:<path>
    return node_row(Memory(id=node_id, content=text, title=title, source=source, created_at=WHEN,
                           category="context", importance=2, metadata=meta))


def test_rows_written_the_old_way_read_and_refresh_as_before(tmp_path: Path) -> None:
    store = SQLiteStore(str(tmp_path / "old.db"))
    rows = [_section("vault:old.md:section:a", "Old > Part", "First text", ["Old", "Part"]),
            _section("vault:old.md:task:b", "Old", "Call the vendor", ["Old"], "task"),
            _section("vault:old.md:section:c", "Not rebuilt", "Third text", ["Old"])]
    _old_way(store, rows, "vault:old.md")
    for r in rows:
        assert _stored(store, r[0]) == (r[2], "", r[4])  # the full hash, as written
        node = store.get_node(r[0])
        assert node is not None and (node.title, node.content, node.content_hash) == (r[2], r[3], r[4])
        assert _restored(store, r[0]) == (r[2], r[3], r[4])
    assert_index_matches_rows(store)
    vault = store.vault
    with store.transaction():  # the same values again: nothing to rewrite, the old rows stay as they are
        vault.refresh_node_rows(rows, pack=True)
        vault.write_texts({"vault:old.md": {r[0]: r[3] for r in rows}})
    assert [_stored(store, r[0])[2] for r in rows] == [r[4] for r in rows]
    changed = _section("vault:old.md:section:a", "Old > Part", "FIRST text", ["Old", "Part"])
    with store.transaction():  # a changed text is told from the old row's full hash, and written the new way
        vault.refresh_node_rows([changed], pack=True)
        vault.write_texts({"vault:old.md": {changed[0]: changed[3]}})
    assert _stored(store, changed[0]) == (None, "", vt.RECOMPUTED_HASH_AND_TITLE)
    assert _restored(store, changed[0]) == ("Old > Part", "FIRST text", content_hash("FIRST text"))
    assert store.get_node(changed[0]).content == "FIRST text"  # type: ignore[union-attr]
    assert_index_matches_rows(store)
    store.close()


_HEADING = st.text(min_size=0, max_size=30)


@settings(max_examples=80, deadline=None)
@given(st.text(min_size=1, max_size=300),
       st.lists(_HEADING, min_size=0, max_size=4), st.sampled_from(["section", "observation", "task"]),
       st.one_of(st.none(), _HEADING), st.booleans())
def test_any_text_title_and_heading_path_round_trip(tmp_path_factory: pytest.TempPathFactory, text: str,
                                                    path: list[str], kind: str, other_title: str | None,
                                                    rebuildable: bool) -> None:
    """Whatever the text, title and heading path, a packed row reads back what was written — its title left out
    only when the metadata rebuilds it."""
    store = _STORES.get("store") or _STORES.setdefault(
        "store", SQLiteStore(str(tmp_path_factory.mktemp("rt") / "rt.db")))
    n = _STORES.setdefault("n", [0])
    n[0] += 1
    node_id = f"vault:rt.md:{kind}:{n[0]}"
    rebuilt = vt.rebuilt_title(_section(node_id, None, text, path, kind)[13])
    assert rebuilt == ((" > ".join(path) if kind == "section" else path[0]) if path else None)
    title = rebuilt if rebuildable and rebuilt is not None else other_title
    row = _section(node_id, title, text, path, kind)
    vault = store.vault
    with store.transaction():
        vault.insert_node_rows([row], pack=True)
        vault.write_texts({"vault:rt.md": {row[0]: text}})
    stored = _stored(store, row[0])
    assert stored[1] == "" and len(stored[2]) == 1
    assert (stored[2] == vt.RECOMPUTED_HASH_AND_TITLE) == (title is not None and title == rebuilt)
    node = store.get_node(row[0])
    assert node is not None and (node.title, node.content, node.content_hash) == (title, text, content_hash(text))
    assert node.metadata == {**json.loads(row[13]), "note": "rt.md"}
    assert _restored(store, row[0]) == (title, text, content_hash(text))


_STORES: dict[str, Any] = {}


def test_the_store_functions_rebuild_what_was_left_out() -> None:
    import sqlite3
    conn = sqlite3.connect(":memory:")
    vt.register_vault_text_function(conn)
    body = vt.encode({7: "é x"}, {})
    hashes = [conn.execute("SELECT mnemon_vault_hash('vault:a.md', ?, ?)", (b, seq)).fetchone()[0]
              for b, seq in ((body, 7), (body, 7), (body, 8), (None, 7), (vt.encode({7: "other"}, {}), 7))]
    assert hashes == [content_hash("é x")] * 2 + [content_hash("")] * 2 + [content_hash("other")]
    compact = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode  # as the planner writes metadata
    meta = compact({"memory_kind": "section", "line": 2, "heading_path": ["A", "B > C", 'D "]" é']})
    assert conn.execute("SELECT mnemon_vault_title(?)", (meta,)).fetchone()[0] == 'A > B > C > D "]" é'
    meta = compact({"memory_kind": "task", "line": 4, "observation_kind": "heading_path", "heading_path": ["Note", "P"],
                    "dates": []})
    assert conn.execute("SELECT mnemon_vault_title(?)", (meta,)).fetchone()[0] == "Note"
    for other in ({"memory_kind": "task", "heading_path": []}, {"memory_kind": "heading", "heading_path": ["A"]},
                  {"line": 1, "heading_path": ["A"]}, {"memory_kind": "task", "line": 1}):
        assert vt.rebuilt_title(compact(other)) is None
    assert vt.packed_columns("Note", meta) == (None, "", vt.RECOMPUTED_HASH_AND_TITLE)
    assert vt.packed_columns("Other", meta) == ("Other", "", vt.RECOMPUTED_HASH)
    assert vt.packed_columns("Note", "{}") == ("Note", "", vt.RECOMPUTED_HASH)
