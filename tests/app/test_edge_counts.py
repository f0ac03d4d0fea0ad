"""`status` reads edge counts kept per (type, status) instead of counting every edge row: the counts must follow every
way edges are written, changed and removed — here compared with a full count after each kind of write."""
from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

from mnemon.app.memory import Mnemon

from .test_vault_payload import PAYLOAD


def _assert_counts_match(m: Mnemon, step: str) -> None:
    conn = m.rt.store.conn  # type: ignore[attr-defined]
    kept = {(t, s): n for t, s, n in conn.execute("SELECT type, status, n FROM edge_counts WHERE n != 0")}
    # every edge the view reads: rows, and on SQLite a note's containment edges read from its items (contained_sqlite.py)
    rows = {(t, s): n for t, s, n in conn.execute("SELECT type, status, COUNT(*) FROM edges GROUP BY type, status")}
    assert kept == rows, step
    status = m.status()
    assert status["edges_by_type"] == {t: n for (t, s), n in sorted(rows.items()) if s == "active"}, step
    assert sum(status["edges_by_status"].values()) == sum(rows.values()), step


def test_edge_counts_follow_every_kind_of_edge_write(make_mem: Callable[..., Mnemon], tmp_path: Path,
                                                     example_vault: Path) -> None:
    m = make_mem(db=tmp_path / "counts.db")
    ids = [m.remember(text, source="agent")["id"] for text in (
        "We chose Postgres for billing", "Postgres replication failed twice, so we moved billing to Aurora",
        "Aurora costs grew because of IO", "Kubernetes runs the billing API", "weekly sync notes")]
    _assert_counts_match(m, "remember")
    m.link(ids[0], ids[4], "semantic", weight=0.4)
    m.link(ids[0], ids[4], "semantic", weight=0.6)  # the same edge again: updated, not counted twice
    _assert_counts_match(m, "link")
    m.forget(ids[1])  # its edges retired
    _assert_counts_match(m, "forget")
    m.ingest(str(example_vault))
    _assert_counts_match(m, "ingest")
    note = sorted(example_vault.rglob("*.md"))[0]
    note.write_text(note.read_text(encoding="utf-8") + "\n- [ ] call [[Nobody Yet]] about the counts\n", encoding="utf-8")
    m.ingest(str(example_vault))  # the note's rows dropped and written again
    _assert_counts_match(m, "re-ingest")
    candidates = [r[0] for r in m.rt.store.conn.execute(  # type: ignore[attr-defined]
        "SELECT id FROM edge_rows WHERE status = 'candidate' ORDER BY id LIMIT 3")]
    active = [r[0] for r in m.rt.store.conn.execute(  # type: ignore[attr-defined]
        "SELECT id FROM edge_rows WHERE status = 'active' AND origin != 'auto' ORDER BY id LIMIT 2")]
    if candidates:
        m.validate_edge(candidates[0], reason="checked")
        m.promote_candidates(mode="all")
    m.kill_edge(active[0], reason="wrong")
    m.weaken_edge(active[1], reason="weaker")
    _assert_counts_match(m, "lifecycle")
    m.remember_payload(json.dumps(PAYLOAD))
    m.forget_source(PAYLOAD["source_path"])
    _assert_counts_match(m, "payload")
    shutil.rmtree(example_vault / "People")  # notes gone: their rows removed on the next rebuild
    m.ingest(str(example_vault))
    _assert_counts_match(m, "rebuild after removal")
    m.import_json(json.dumps({"insights": [{"content": f"imported fact {k} about Postgres"} for k in range(5)],
                              "edges": [{"source_index": 0, "target_index": 1, "edge_type": "semantic"}]}))
    _assert_counts_match(m, "import")
    restored = make_mem(db=tmp_path / "restored.db")
    restored.import_json(json.dumps(m.export_json()))
    _assert_counts_match(restored, "restore")


def test_a_store_from_before_the_counts_gets_them_from_its_rows(make_mem: Callable[..., Mnemon],
                                                                tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    m = make_mem(db=db)
    for text in ("Chose Qdrant as the vector database", "Qdrant needs 2 GB of memory", "Qdrant runs in Docker"):
        m.remember(text, source="agent")
    conn = m.rt.store.conn  # type: ignore[attr-defined]
    for sql in ("DROP TRIGGER edge_counts_del", "DROP TRIGGER edge_counts_upd", "DROP TABLE edge_counts",
                "DELETE FROM migrations WHERE name = 'm043_edge_counts'"):
        conn.execute(sql)
    m.close()
    again = make_mem(db=db)  # upgraded on open: the counts taken from the rows
    _assert_counts_match(again, "migrated")
