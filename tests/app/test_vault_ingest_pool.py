"""A vault ingest planned by worker processes (the path a large vault takes) writes the same store as one planned in
the writing process: same rows, seqs, edges, blob texts and keyword index — also under a bulk load, where the writer
takes new rows' seqs from what it inserted."""
from __future__ import annotations

import zlib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mnemon.app.vault import ingest as vault_ingest
from mnemon.ports.store import vault_texts_sqlite
from mnemon.ports.store.sqlite import _NODE_SELECT

from keyword_index_check import assert_index_matches_rows

def _contents(mem: Any) -> dict[str, list[Any]]:
    conn = mem.rt.store.conn
    return {
        "nodes": conn.execute(f"SELECT seq, {_NODE_SELECT}, proactive FROM nodes ORDER BY seq").fetchall(),
        "edges": conn.execute("SELECT * FROM edges ORDER BY id").fetchall(),
        "texts": [(s, zlib.decompress(b)) for s, b in conn.execute("SELECT source, body FROM vault_texts ORDER BY source")],
        "files": conn.execute("SELECT path, content_hash, note_id, title, aliases, observations, link_keys"
                              " FROM vault_files ORDER BY path").fetchall(),
        # each note's sense event, parsed by whoever planned the note
        "senses": conn.execute("SELECT * FROM sense_events ORDER BY id").fetchall(),
    }


@pytest.mark.parametrize(("workers", "bulk"), [(2, False), (3, False), (2, True)])
def test_planning_in_workers_writes_what_planning_inline_writes(make_mem, tmp_path: Path, clock,  # type: ignore[no-untyped-def]
                                                                 example_vault: Path, monkeypatch: pytest.MonkeyPatch,
                                                                 workers: int, bulk: bool) -> None:
    vault = example_vault
    monkeypatch.setattr(vault_ingest, "BATCH_FILES", 4)  # several write batches
    with monkeypatch.context() as inline_only:
        inline_only.setattr(vault_ingest, "POOL_MIN_FILES", 10_000)
        expected = make_mem("none", db=tmp_path / "expected.db", clock=clock)
        vault_ingest.ingest_vault(expected.rt, vault, workers=1, embed=False)
    monkeypatch.setattr(vault_ingest, "POOL_MIN_FILES", 1)
    looked_up: list[str] = []
    rows_of = vault_texts_sqlite.VaultTexts._rows_of

    def spied(self: vault_texts_sqlite.VaultTexts, source: str, with_evidence: bool) -> Any:
        looked_up.append(source)
        return rows_of(self, source, with_evidence)

    monkeypatch.setattr(vault_texts_sqlite.VaultTexts, "_rows_of", spied)
    if bulk:
        monkeypatch.setattr(vault_ingest, "BULK_MIN_NOTES", 1)
    pooled = make_mem("none", db=tmp_path / "pooled.db", clock=clock)
    out = vault_ingest.ingest_vault(pooled.rt, vault, workers=workers, embed=False)
    assert out["notes_read"] == 13
    got = _contents(pooled)
    assert got["texts"] and len(got["senses"]) == 13 and got == _contents(expected)
    assert bool(looked_up) != bulk  # a bulk load knows the seqs of the rows it inserted
    assert_index_matches_rows(pooled.rt.store)


@given(st.integers(0, 2_000), st.integers(1, 120), st.integers(1, 40))
def test_batches_cover_the_notes_in_order_and_end_small(total: int, batch: int, tail: int) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(vault_ingest, "BATCH_FILES", batch)
        patch.setattr(vault_ingest, "TAIL_BATCH_FILES", tail)
        bounds = vault_ingest._batch_bounds(total)
    assert [i for start, size in bounds for i in range(start, min(start + size, total))] == list(range(total))
    assert all(0 < size <= batch for _start, size in bounds)
    # the notes planned last come in small batches: the writer's share after the workers' last plan is one of them
    assert all(size <= min(batch, tail) for start, size in bounds if start >= total - 2 * batch)



def test_a_packed_plan_comes_back_equal_and_typed(example_vault: Path) -> None:
    import pickle

    from mnemon.app.vault.plan import PlannedEdge, PlannedNode, packed_batch, plan_batch, unpacked_plan

    items = [(str(p.relative_to(example_vault)), p.read_bytes(), p.stat().st_mtime)
             for p in sorted(example_vault.rglob("*.md"))]
    plans = plan_batch(items, ())
    back = [unpacked_plan(p) for p in pickle.loads(pickle.dumps(packed_batch(items, ())))]
    assert back == plans and any(n.contained for p in back for n in p.nodes)
    assert all(type(n) is PlannedNode and (n.contained is None or type(n.contained) is PlannedEdge)
               for p in back for n in p.nodes)
    assert all(type(e) is PlannedEdge for p in back for e in p.edges)
    assert back[0].note_id == plans[0].note_id and [p.observation_count for p in back] == \
        [p.observation_count for p in plans]
