"""A vault memory's metadata JSON kept in its note's metadata blob instead of its row (ports/store/vault_texts_sqlite.py,
m057): every reader gives back exactly what a store keeping it in the rows gives, through edits, tombstones and
removals, and the blob holds what the rows left out and nothing else."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mnemon.ports.store import vault_sqlite
from mnemon.ports.store import vault_texts_sqlite as vt

from keyword_index_check import assert_index_matches_rows

NOTE = "Projects/tidewatch.md"


def _in_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    """Write every metadata into its row, as stores did before m057."""
    monkeypatch.setattr(vault_sqlite, "packs_metadata", lambda metadata: False)


def _reads(mem: Any) -> dict[str, Any]:
    """What the readers of vault memories give: nodes, edges, the observation and vector readers, the graph."""
    store = mem.rt.store
    nodes = {n.id: n for n in store.iter_nodes()}
    sources = sorted({n.source for n in nodes.values() if n.source.startswith("vault:")})
    memories = [i for i, n in nodes.items() if n.kind == "memory"]
    return {
        "nodes": nodes,
        "edges": {(e.id, e.src, e.dst, e.type): (e.weight, e.status, e.evidence, e.source_path, e.metadata)
                  for e in store.iter_edges()},
        "observations": sorted(store.vault.observation_texts(sources)),
        "derived": [(m.id, m.title, m.metadata) for m in store.vault.derived_memories(observations_only=True)],
        "missing_vectors": store.vault.memories_missing_vectors(memories, "none"),
        "graph": sorted(next(store.graph_export())[1]),
    }


def _bare(mem: Any) -> int:
    return mem.rt.store.conn.execute("SELECT COUNT(*) FROM nodes WHERE metadata = ?", (vt.PACKED_METADATA,)).fetchone()[0]


def _blob(mem: Any, source: str) -> dict[int, str] | None:
    row = mem.rt.store.conn.execute("SELECT body FROM vault_metadata WHERE source = ?", (source,)).fetchone()
    return None if row is None else vt.decode_metadata(row[0])


def test_every_reader_gives_what_a_store_keeping_metadata_in_its_rows_gives(make_mem, example_vault: Path,
                                                                            tmp_path: Path, monkeypatch) -> None:
    packed = make_mem("none", db=tmp_path / "packed.db")
    with monkeypatch.context() as m:
        _in_rows(m)
        rows = make_mem("none", db=tmp_path / "rows.db")
    for step in range(3):
        packed.ingest(str(example_vault))
        with monkeypatch.context() as m:
            _in_rows(m)
            rows.ingest(str(example_vault))
        got, want = _reads(packed), _reads(rows)
        assert set(got["nodes"]) == set(want["nodes"])
        for node_id, node in want["nodes"].items():
            assert got["nodes"][node_id].metadata == node.metadata and got["nodes"][node_id].title == node.title
        assert got["edges"] == want["edges"]
        assert {k: got[k] for k in ("observations", "derived", "missing_vectors")} == \
            {k: want[k] for k in ("observations", "derived", "missing_vectors")}
        assert [g[:6] for g in got["graph"]] == [w[:6] for w in want["graph"]]
        assert [p["insight"]["id"] for p in packed.recall("harbour tide sensor")["results"]] == \
            [p["insight"]["id"] for p in rows.recall("harbour tide sensor")["results"]]
        assert_index_matches_rows(packed.rt.store)
        # every vault memory leaves its metadata out; the rows-only store none
        vault_memories = sum(1 for n in got["nodes"].values() if n.kind == "memory" and n.source.startswith("vault:"))
        assert _bare(packed) == vault_memories > 0 and _bare(rows) == 0
        # edits: lines move, a bullet changes, a section goes, a new one comes
        text = (example_vault / NOTE).read_text(encoding="utf-8")
        edited = ("# Intro\n\nA new first section.\n\n- [ ] call the harbour master\n\n" + text) if step == 0 else \
            "\n".join(line for line in text.splitlines() if not line.startswith("## ")) + "\n- blocked: new risk\n"
        (example_vault / NOTE).write_text(edited, encoding="utf-8")


def test_a_blob_holds_exactly_the_metadata_its_rows_leave_out(make_mem, example_vault: Path, tmp_path: Path) -> None:
    mem = make_mem("none", db=tmp_path / "m.db")
    mem.ingest(str(example_vault))
    conn = mem.rt.store.conn
    source = f"vault:{NOTE}"
    bare = dict(conn.execute("SELECT seq, id FROM nodes WHERE source = ? AND metadata = ''", (source,)).fetchall())
    blob = _blob(mem, source)
    assert blob is not None and set(blob) == set(bare)
    for seq, node_id in bare.items():
        node = mem.rt.store.get_node(node_id)
        assert node is not None and {**json.loads(blob[seq]), "note": NOTE} == node.metadata
    # a note that goes takes its blob with it
    (example_vault / NOTE).unlink()
    mem.ingest(str(example_vault))
    assert _blob(mem, source) is None


def _read_back(mem: Any, node_id: str) -> tuple[str, str, dict[str, Any]]:
    """(title, text, metadata) of a row, deleted or not, read the way every store read puts them back."""
    title, text, metadata = mem.rt.store.conn.execute(
        f"SELECT {vt.title_of('nodes')}, {vt.text_of('nodes')}, {vt.metadata_of('nodes')} FROM nodes WHERE id = ?",
        (node_id,)).fetchone()
    return title, text, {**json.loads(metadata), "note": NOTE}


def test_a_tombstone_keeps_its_metadata_after_its_note_changes_and_goes(make_mem, example_vault: Path,
                                                                        tmp_path: Path) -> None:
    mem = make_mem("none", db=tmp_path / "m.db")
    mem.ingest(str(example_vault))
    store = mem.rt.store
    edge = next(e for e in store.iter_edges() if e.type == "has_section" and (e.id or 0) < 0
                and e.source_path == NOTE)
    section = store.get_node(edge.dst)
    assert section is not None and section.metadata.get("heading_path")
    mem.kill_edge(edge.id, reason="not a real section")
    text = (example_vault / NOTE).read_text(encoding="utf-8")
    (example_vault / NOTE).write_text(text.replace(section.content, "Rewritten entirely."), encoding="utf-8")
    mem.ingest(str(example_vault))
    kept = store.conn.execute("SELECT deleted_at IS NOT NULL, metadata FROM nodes WHERE id = ?", (edge.dst,)).fetchone()
    assert kept == (1, vt.PACKED_METADATA)  # soft-deleted, held by the tombstone, its metadata still in the blob
    assert _read_back(mem, edge.dst) == (section.title, section.content, section.metadata)
    assert mem.explain_edge(edge.id)["edge"]["metadata"] == {"line": section.metadata["line"]}
    (example_vault / NOTE).unlink()
    mem.ingest(str(example_vault))
    blob = _blob(mem, f"vault:{NOTE}")
    seq = store.conn.execute("SELECT seq FROM nodes WHERE id = ?", (edge.dst,)).fetchone()[0]
    assert blob is not None and list(blob) == [seq]
    assert _read_back(mem, edge.dst) == (section.title, section.content, section.metadata)


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.integers(min_value=1, max_value=2**62), st.text(max_size=300), max_size=12))
def test_a_metadata_blob_decodes_to_what_was_encoded(metadata: dict[int, str]) -> None:
    assert vt.decode_metadata(vt.encode_metadata(metadata)) == metadata


def test_the_sql_function_reads_a_row_metadata_or_an_empty_object() -> None:
    import sqlite3
    conn = sqlite3.connect(":memory:")
    vt.register_vault_text_function(conn)
    body = vt.encode_metadata({7: '{"line":3}', 9: '{"line":"é"}'})
    got = [conn.execute("SELECT mnemon_vault_metadata('vault:a.md', ?, ?)", (b, seq)).fetchone()[0]
           for b, seq in ((body, 7), (body, 9), (body, 8), (None, 7))]
    assert got == ['{"line":3}', '{"line":"é"}', "{}", "{}"]
    section = '{"memory_kind":"section","line":2,"heading_path":["A","B"]}'
    body = vt.encode_metadata({7: section, 8: '{"line":1}'})
    titles = [conn.execute("SELECT mnemon_vault_packed_title('vault:a.md', ?, ?)", (body, seq)).fetchone()[0]
              for seq in (7, 8, 9)]
    assert titles == ["A > B", None, None] and vt.rebuilt_title(section) == "A > B"


def test_a_store_from_before_m057_reads_read_only_and_upgrades(make_mem, example_vault: Path, tmp_path: Path,
                                                               monkeypatch) -> None:
    from mnemon.ports.store.contained_sqlite import CONTAINED_ARM, PACKED_METADATA_MIGRATION
    from mnemon.ports.store.sqlite import SQLiteStore

    db = tmp_path / "old.db"
    with monkeypatch.context() as m:
        _in_rows(m)
        old = make_mem("none", db=db)
        old.ingest(str(example_vault))
        want = _reads(old)
        old.close()
    store = SQLiteStore(str(db))
    store.conn.execute("DROP TABLE vault_metadata")
    store.conn.execute("DROP VIEW edges")  # the views as m055 made them: the item's line from its row
    store.conn.execute("DROP VIEW derived_edges")
    store.conn.execute(f"CREATE VIEW derived_edges AS {CONTAINED_ARM.replace(vt.metadata_of('i'), 'i.metadata')}")
    store.conn.execute("CREATE VIEW edges AS SELECT * FROM stored_edges UNION ALL SELECT * FROM derived_edges")
    store.conn.execute("DELETE FROM migrations WHERE name = ?", (PACKED_METADATA_MIGRATION[0],))
    store.close()
    ro = make_mem("none", db=db, readonly=True)
    got = _reads(ro)
    assert got["nodes"] == want["nodes"] and got["edges"] == want["edges"]
    ro.close()
    upgraded = make_mem("none", db=db)  # a writable open applies the step; the rows keep their metadata in place
    assert _reads(upgraded)["nodes"] == want["nodes"] and _bare(upgraded) == 0
    (example_vault / NOTE).write_text((example_vault / NOTE).read_text(encoding="utf-8") + "\n- blocked: late\n",
                                      encoding="utf-8")
    upgraded.ingest(str(example_vault))  # the changed note's rows are written the new way
    assert _bare(upgraded) > 0 and _blob(upgraded, f"vault:{NOTE}")
    assert_index_matches_rows(upgraded.rt.store)


def test_an_ingest_that_fails_leaves_nothing_behind_for_the_next(make_mem, example_vault: Path, tmp_path: Path,
                                                                 monkeypatch) -> None:
    """A failed ingest rolls back; the metadata it had planned must not reach the next ingest's blob."""
    mem = make_mem("none", db=tmp_path / "m.db")
    mem.ingest(str(example_vault))
    store = mem.rt.store
    source = f"vault:{NOTE}"
    before = {n.id: n.metadata for n in store.iter_nodes(kind="memory") if n.source == source}
    text = (example_vault / NOTE).read_text(encoding="utf-8")
    (example_vault / NOTE).write_text("# Moved\n\n" + text, encoding="utf-8")  # every line of the note moves
    with monkeypatch.context() as m:
        m.setattr(vault_sqlite.SQLiteVault, "write_texts", lambda *a, **k: (_ for _ in ()).throw(OSError("disk")))
        with pytest.raises(OSError):
            mem.ingest(str(example_vault))
    # the note changed again, at its end: its rows keep their lines, so none is rewritten
    (example_vault / NOTE).write_text(text + "\nOne more closing line.\n", encoding="utf-8")
    mem.ingest(str(example_vault))
    after = {n.id: n.metadata for n in store.iter_nodes(kind="memory") if n.source == source}
    assert {i: after[i] for i in before if i in after} == {i: m for i, m in before.items() if i in after}
    assert len(set(before) & set(after)) >= len(before) - 1
