"""Vault memory texts stored once per note, compressed (ports/store/vault_texts_sqlite.py): every read path gives the
text back, edits and removals keep the blobs exact, a tombstone keeps its text, old stores read as before."""
from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mnemon.core.model import Edge
from mnemon.ports.store import vault_texts_sqlite as vt
from mnemon.ports.store.sqlite import SQLiteStore

from keyword_index_check import assert_index_matches_rows

NOTE = "People/cleo-marsh.md"


@pytest.fixture
def mem(make_mem, tmp_path: Path):  # type: ignore[no-untyped-def]
    return make_mem("none", db=tmp_path / "texts.db")


def _raw(mem, source: str) -> list[tuple[str, str, str]]:  # type: ignore[no-untyped-def]
    return mem.rt.store.conn.execute("SELECT id, content, content_hash FROM nodes WHERE source = ? AND kind = 'memory'"
                                     " ORDER BY seq", (source,)).fetchall()


def _blob(mem, source: str, evidence: bool = False) -> dict | None:  # type: ignore[no-untyped-def,type-arg]
    """The row texts by seq (or, with `evidence`, the evidence texts by key) of a note's blob."""
    row = mem.rt.store.conn.execute("SELECT body FROM vault_texts WHERE source = ?", (source,)).fetchone()
    if row is None:
        return None
    blob = vt.decode(row[0])
    return blob.evidence if evidence else blob.rows


def _seqs(mem, ids) -> set[int]:  # type: ignore[no-untyped-def]
    return {mem.rt.store.conn.execute("SELECT seq FROM nodes WHERE id = ?", (i,)).fetchone()[0] for i in ids}


def _texts(mem, source: str) -> dict[str, str]:  # type: ignore[no-untyped-def]
    return {m.id: m.content for m in mem.rt.store.iter_nodes(kind="memory") if m.source == source}


def test_vault_memories_keep_their_text_in_the_note_blob_and_read_back_whole(mem, example_vault: Path) -> None:
    mem.ingest(str(example_vault))
    rows = _raw(mem, f"vault:{NOTE}")
    assert rows and all(content == "" and digest for _id, content, digest in rows)
    blob = _blob(mem, f"vault:{NOTE}")
    assert blob is not None and set(blob) == _seqs(mem, [r[0] for r in rows])
    texts = _texts(mem, f"vault:{NOTE}")
    assert set(texts) == {r[0] for r in rows} and all(texts.values())
    assert any("safety certification" in t for t in texts.values())
    store = mem.rt.store
    some = next(iter(texts))
    assert store.get_node(some).content == texts[some]
    assert {i: n.content for i, n in store.get_nodes(list(texts)).items()} == texts
    assert any("safety certification" in m.content for m in store.like_search("safety certification", 5))
    # a user's own memory keeps its text in its row
    mine = mem.remember("the harbour crane needs a new hydraulic seal")
    own = store.conn.execute("SELECT content FROM nodes WHERE id = ?", (mine["id"],)).fetchone()[0]
    assert "hydraulic seal" in own


def test_recall_and_the_keyword_index_use_the_packed_texts(mem, example_vault: Path) -> None:
    mem.ingest(str(example_vault))
    out = mem.recall("safety certification", limit=5)
    hits = [r["insight"] for r in out["results"]]
    assert any("safety certification" in h["content"] for h in hits)
    assert_index_matches_rows(mem.rt.store)


def test_an_edited_note_rewrites_its_blob_and_unindexes_the_old_text(mem, example_vault: Path) -> None:
    mem.ingest(str(example_vault))
    note = example_vault / NOTE
    note.write_text("# Cleo Marsh\n\n- Moved to the [[Tidewatch]] team, waiting on onboarding\n", encoding="utf-8")
    mem.ingest(str(example_vault))
    texts = _texts(mem, f"vault:{NOTE}")
    assert not any("safety certification" in t for t in texts.values())
    assert any("waiting on onboarding" in t for t in texts.values())
    assert set(_blob(mem, f"vault:{NOTE}") or {}) == _seqs(mem, texts)
    assert_index_matches_rows(mem.rt.store)
    assert not mem.rt.store.like_search("safety certification", 5) or all(
        m.source != f"vault:{NOTE}" for m in mem.rt.store.like_search("safety certification", 5))


def test_a_section_a_killed_edge_keeps_still_shows_its_text(mem, example_vault: Path) -> None:
    mem.ingest(str(example_vault))
    source = f"vault:{NOTE}"
    target = next(m for m in mem.rt.store.iter_nodes(kind="memory")
                  if m.source == source and "safety certification" in m.content)
    edge = next(e for e in mem.rt.store.edges_of([target.id], statuses=("active", "candidate"), direction="in"))
    mem.kill_edge(edge.id, reason="wrong")
    (example_vault / NOTE).write_text("# Cleo Marsh\n\nNothing else to say.\n", encoding="utf-8")
    mem.ingest(str(example_vault))
    assert _stored(mem, target.id) == (1, target.content)  # soft-deleted: the tombstone edge holds it
    (example_vault / NOTE).unlink()
    mem.ingest(str(example_vault))
    assert _stored(mem, target.id) == (1, target.content)


def _stored(mem, node_id: str) -> tuple[int, str]:  # type: ignore[no-untyped-def]
    """(deleted?, text) of a row, deleted or not, read the way every store read puts its text back."""
    return mem.rt.store.conn.execute(f"SELECT deleted_at IS NOT NULL, {vt.text_of('nodes')} FROM nodes WHERE id = ?",
                                     (node_id,)).fetchone()


def test_a_removed_note_leaves_no_blob(mem, example_vault: Path) -> None:
    mem.ingest(str(example_vault))
    assert _blob(mem, f"vault:{NOTE}") is not None
    (example_vault / NOTE).unlink()
    mem.ingest(str(example_vault))
    assert _blob(mem, f"vault:{NOTE}") is None
    notes = len(list(example_vault.rglob("*.md")))
    assert mem.rt.store.conn.execute("SELECT COUNT(*) FROM vault_texts").fetchone()[0] == notes


def test_export_carries_the_texts(mem, example_vault: Path, tmp_path: Path) -> None:
    mem.ingest(str(example_vault))
    exported = {n.id: n.content for n in mem.rt.store.iter_nodes() if n.source == f"vault:{NOTE}" and n.kind == "memory"}
    assert exported and all(exported.values())


def test_a_read_only_store_from_before_packing_reads_its_rows(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    store = SQLiteStore(str(db))
    store.conn.execute("DROP TABLE vault_texts")
    store.conn.execute("DELETE FROM migrations WHERE name = ?", (vt.VAULT_TEXTS_MIGRATION[0],))
    store.conn.execute("INSERT INTO nodes (id, kind, title, content, content_hash, source, created_at, updated_at)"
                       " VALUES ('vault:a.md:section:1', 'memory', 'A', 'old text in its row', 'h', 'vault:a.md',"
                       " '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')")
    store.close()
    ro = SQLiteStore(str(db), readonly=True)
    assert ro.get_node("vault:a.md:section:1").content == "old text in its row"
    ro.close()
    upgraded = SQLiteStore(str(db))  # a writable open applies the step; the row keeps its text in place
    assert upgraded.get_node("vault:a.md:section:1").content == "old text in its row"
    upgraded.close()


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.integers(min_value=1, max_value=2**62), st.text(max_size=300), max_size=12),
       st.lists(st.text(max_size=200), max_size=8),
       st.dictionaries(st.integers(min_value=1, max_value=2**62), st.text(max_size=200), max_size=8))
def test_a_blob_decodes_to_what_was_encoded(rows: dict[int, str], evidence: list[str], items: dict[int, str]) -> None:
    notes = {vt.evidence_key(t): t for t in evidence}
    assert vt.decode(vt.encode(rows, notes, items)) == vt.Blob(rows, notes, items)


def test_the_sql_function_cuts_each_row_out_of_its_blob() -> None:
    conn = sqlite3.connect(":memory:")
    vt.register_vault_text_function(conn)
    body = vt.encode({7: "one", 9: "two"}, {vt.evidence_key("- a line"): "- a line"})
    get = lambda k: conn.execute("SELECT mnemon_vault_text(?, ?, ?)", ("vault:a.md", body, k)).fetchone()[0]  # noqa: E731
    assert get(7) == "one" and get(9) == "two" and get(vt.evidence_key("- a line")) == "- a line"
    assert get(8) == "" and get(vt.evidence_key("another")) == ""
    assert conn.execute("SELECT mnemon_vault_text('vault:a.md', NULL, 7)").fetchone()[0] == ""
    other = vt.encode({7: "changed"}, {})  # a new blob for the same note is decoded again, never served stale
    assert conn.execute("SELECT mnemon_vault_text(?, ?, ?)", ("vault:a.md", other, 7)).fetchone()[0] == "changed"


def _raw_edge(mem, edge_id: int) -> tuple[str, str]:  # type: ignore[no-untyped-def]
    """(evidence, source_path) as an edge is stored: a row's columns, or a coded row's key (its path is always the
    note's, its evidence a key: coded_edges_sqlite.py)."""
    conn = mem.rt.store.conn
    row = conn.execute("SELECT evidence, source_path FROM edge_rows WHERE id = ?", (edge_id,)).fetchone()
    coded = conn.execute("SELECT evidence FROM coded_edges WHERE id = ?", (edge_id,)).fetchone()
    return row if coded is None else (coded[0], vt.PACKED_NOTE_PATH)


def _raw_created(store, edge_id: int) -> str:  # type: ignore[no-untyped-def]
    """An edge's stored creation time: '' (or a coded row's NULL) when it is its source node's."""
    return store.conn.execute("SELECT created_at FROM edge_rows WHERE id = ?1 UNION ALL SELECT COALESCE(created_at, '')"
                              " FROM coded_edges WHERE id = ?1", (edge_id,)).fetchone()[0]


def test_an_ingested_edge_names_its_evidence_in_the_note_blob_and_reads_it_back(mem, example_vault: Path) -> None:
    mem.ingest(str(example_vault))
    store = mem.rt.store
    edges = [e for e in store.iter_edges() if e.origin == "ingest" and e.evidence]
    assert edges
    lines = {p: (example_vault / p).read_text(encoding="utf-8").split("\n") for p in {e.source_path for e in edges}}
    derived = 0
    for e in edges:
        line = e.metadata.get("line")
        if e.rule.startswith(("wikilink", "observation")):  # these quote their line
            assert e.evidence == lines[e.source_path][line - 1].strip()
        if (e.id or 0) < 0:  # derived from its item (contained_sqlite.py): no row, its evidence under the item's seq
            derived += 1
            assert _raw_edge(mem, e.id or 0) is None
            body = store.conn.execute("SELECT body FROM vault_texts WHERE source = ?", (f"vault:{e.source_path}",))
            assert vt.decode(body.fetchone()[0]).item_evidence[-(e.id or 0)] == e.evidence
            continue
        key, path = _raw_edge(mem, e.id or 0)
        assert path == vt.PACKED_NOTE_PATH and key == vt.evidence_key(e.evidence) and len(key) == 9
    assert 0 < derived < len(edges)
    one = edges[0]
    assert store.get_edge(one.id).evidence == one.evidence
    assert mem.explain_edge(one.id)["edge"]["evidence_text"] == one.evidence
    # an agent's own edge keeps its evidence in its row
    a, b = mem.remember("pump seals wear out in salt air")["id"], mem.remember("order spare pump seals")["id"]
    mine = store.upsert_edge(Edge(src=a, dst=b, type="semantic", evidence="both about pump seals", origin="agent"))
    assert _raw_edge(mem, mine) == ("both about pump seals", "")


def test_a_killed_edge_keeps_its_evidence_after_its_note_changes(mem, example_vault: Path) -> None:
    mem.ingest(str(example_vault))
    link = next(e for e in mem.rt.store.iter_edges() if e.type == "links_to" and e.src == f"note:{NOTE}")
    mem.kill_edge(link.id, reason="wrong person")
    (example_vault / NOTE).write_text("# Cleo Marsh\n\nNothing else to say.\n", encoding="utf-8")
    mem.ingest(str(example_vault))
    mem.ingest(str(example_vault))  # a second rewrite of the blob keeps what the tombstone still names
    after = mem.rt.store.get_edge(link.id)
    assert after is not None and after.status == "killed" and after.evidence == link.evidence
    assert vt.evidence_key(link.evidence) in (_blob(mem, f"vault:{NOTE}", evidence=True) or {}) or \
        _raw_edge(mem, link.id or 0)[0] == link.evidence  # (a status change may write the text back in its row)


def test_an_edge_stores_its_creation_time_only_when_it_is_not_its_sources(  # type: ignore[no-untyped-def]
        mem, example_vault: Path, clock) -> None:
    mem.rt.clock = clock
    mem.ingest(str(example_vault))
    store = mem.rt.store
    first = next(e for e in store.iter_edges() if e.src == f"note:{NOTE}" and e.type == "links_to")
    assert first.created_at == store.get_nodes([f"note:{NOTE}"])[f"note:{NOTE}"].created_at
    assert _raw_created(store, first.id) == ""
    clock.advance(days=2)
    note = example_vault / NOTE
    note.write_text(note.read_text(encoding="utf-8") + "\n- See also [[Tidewatch]]\n", encoding="utf-8")
    mem.ingest(str(example_vault))
    later = next(e for e in store.iter_edges() if e.src == f"note:{NOTE}" and e.dst == "note:Projects/tidewatch.md")
    raw = _raw_created(store, later.id)
    assert raw == later.created_at > first.created_at  # the note is older than its new link: the row says when
    assert store.get_edge(first.id).created_at == first.created_at
