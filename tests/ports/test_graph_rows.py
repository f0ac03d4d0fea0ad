"""The recall graph's node rows put packed titles and texts back in Python (`titles_and_texts`), a note's blobs
decoded once instead of a SQL function call per row: every row must read exactly as the SQL readers (`title_of`,
`text_of`) give it — packed or not, titles left out or kept, metadata in its blob or in its row, blobs missing — in
a full export and in one extended after edits."""
from __future__ import annotations

import json
from contextlib import closing
from pathlib import Path
from typing import Any

from mnemon.ports.store import vault_texts_sqlite as vt

NOTE = "Projects/tidewatch.md"
STORED = "seq, kind, source, title, content, content_hash, metadata"


def _by_sql(conn: Any, where: str = "1", args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The export's node rows as the SQL functions read them (what `_node_rows` selected before)."""
    rows = conn.execute(f"SELECT seq, id, kind, deleted_at IS NOT NULL, category, source, {vt.title_of('nodes')},"
                        f" {vt.text_of('nodes')}, tags, entities, importance, created_at FROM nodes WHERE {where}"
                        " ORDER BY seq", args).fetchall()
    return [(*r[1:8], json.loads(r[8]), json.loads(r[9]), r[10], r[11]) for r in rows]


def _exported(store: Any, after: list[Any] | None = None) -> tuple[list[tuple[Any, ...]], list[Any]]:
    with closing(store.graph_export(after)) as export:
        _generation, nodes, marks, _inside = next(export)
    return [tuple(n) for n in nodes], marks


def _mixed_store(make_mem: Any, example_vault: Path) -> Any:
    """The example vault ingested, a remembered memory, and rows in every state a store may hold them in."""
    mem = make_mem("none")
    mem.ingest(str(example_vault))
    mem.remember("The harbour tide sensor reads high at dawn", category="fact")
    conn = mem.rt.store.conn
    packed = conn.execute(f"SELECT seq, source, {vt.metadata_of('nodes')} FROM nodes WHERE metadata = ?"
                          " AND content_hash = ? ORDER BY seq", (vt.PACKED_METADATA, vt.RECOMPUTED_HASH_AND_TITLE)
                          ).fetchall()
    assert len(packed) > 10
    with mem.rt.store.transaction():
        # a row from before m057: its metadata JSON in the row, its title rebuilt from that
        conn.execute("UPDATE nodes SET metadata = ? WHERE seq = ?", (packed[0][2], packed[0][0]))
        # a packed row whose title is kept (it differs from the rebuilt one)
        conn.execute("UPDATE nodes SET title = 'Kept title', content_hash = ? WHERE seq = ?",
                     (vt.RECOMPUTED_HASH, packed[1][0]))
        # a note whose blobs are gone: its packed rows read back no text and no rebuilt title
        gone = next(s for _seq, s, _m in packed if s not in (packed[0][1], packed[1][1]))
        conn.execute("DELETE FROM vault_texts WHERE source = ?", (gone,))
        conn.execute("DELETE FROM vault_metadata WHERE source = ?", (gone,))
    return mem


def test_a_full_export_reads_every_row_as_the_sql_functions(make_mem, example_vault: Path) -> None:
    mem = _mixed_store(make_mem, example_vault)
    conn = mem.rt.store.conn
    nodes, _marks = _exported(mem.rt.store)
    want = _by_sql(conn)
    assert nodes == want
    # the branches are all there
    assert any(n[5] == "Kept title" for n in nodes)
    assert any(n[6] == "" and n[1] == "memory" and n[4].startswith("vault:") for n in nodes)  # blob gone
    assert sum(1 for n in nodes if n[4].startswith("vault:") and n[1] == "memory" and n[6]) > 10
    assert any(not n[4].startswith("vault:") and n[6] == "The harbour tide sensor reads high at dawn" for n in nodes)


def test_a_few_rows_read_by_key_as_all_rows_by_scan(make_mem, example_vault: Path) -> None:
    mem = _mixed_store(make_mem, example_vault)
    conn = mem.rt.store.conn
    rows = conn.execute(f"SELECT {STORED} FROM nodes ORDER BY seq").fetchall()
    everything = vt.titles_and_texts(conn, rows)
    assert len({r[2] for r in rows}) > 10  # both ways of reading blobs are taken: by key below, by scan here
    for at in range(0, len(rows), 7):
        assert vt.titles_and_texts(conn, rows[at:at + 7]) == everything[at:at + 7]
    assert vt.titles_and_texts(conn, []) == []


def test_an_extended_export_after_edits_reads_the_changed_rows_as_the_sql_functions(make_mem,
                                                                                    example_vault: Path) -> None:
    mem = make_mem("none")
    mem.ingest(str(example_vault))
    store = mem.rt.store
    _nodes, marks = _exported(store)
    last = store.conn.execute("SELECT MAX(seq) FROM nodes").fetchone()[0]
    text = (example_vault / NOTE).read_text(encoding="utf-8")
    (example_vault / NOTE).write_text("# Intro\n\nA new first section.\n\n- [ ] call the harbour master\n\n" + text,
                                      encoding="utf-8")
    mem.ingest(str(example_vault))
    nodes, _ = _exported(store, marks)
    assert nodes, "the edit reads rows again"
    read_again = {n[0] for n in nodes}
    want = [r for r in _by_sql(store.conn) if r[0] in read_again]
    assert sorted(nodes) == sorted(want)
    assert any(r[0] in read_again for r in _by_sql(store.conn, "seq > ?", (last,)))
