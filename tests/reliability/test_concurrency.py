"""Many processes on one store at once: 8 × 200 distinct memories all present with no lock errors, and writers and
readers together leave a saved vector matrix that is exactly what the store holds."""
from __future__ import annotations

import multiprocessing as mp
import os
import sqlite3
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from mnemon.app.config import Config

WRITERS = 8
PER_WRITER = 200


def _writer(db: str, worker: int, start_at: float, errors: "mp.Queue[str]") -> None:
    try:
        from mnemon.app.config import load_config
        from mnemon.app.memory import Mnemon

        cfg = load_config({"MNEMON_EMBED_PROVIDER": "none", "MNEMON_MAX_INSIGHTS": "0", "HOME": os.path.dirname(db)},
                          db=db)
        while time.time() < start_at:  # line everyone up so the writes really overlap
            time.sleep(0.001)
        with Mnemon.open(cfg) as m:
            for i in range(PER_WRITER):
                # distinct contents that share words, so the diff and graph engine do real work
                out = m.remember(f"worker {worker} finished build {i} on runner {i % 5} w{worker}n{i}",
                                 source=f"agent-{worker % 3}")
                if out["action"] != "added":
                    errors.put(f"worker {worker} note {i}: {out['action']}")
    except BaseException as exc:  # report, never hang the parent
        errors.put(f"worker {worker}: {type(exc).__name__}: {exc}")


def test_eight_writers_lose_nothing(tmp_path: Path) -> None:
    db = str(tmp_path / "shared.db")
    ctx = mp.get_context("spawn" if sys.platform == "darwin" else "fork")
    errors: "mp.Queue[str]" = ctx.Queue()
    start_at = time.time() + 1.0
    procs = [ctx.Process(target=_writer, args=(db, w, start_at, errors)) for w in range(WRITERS)]
    began = time.perf_counter()
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout=170)
    elapsed = time.perf_counter() - began
    hung = [p.pid for p in procs if p.is_alive()]
    for p in procs:
        if p.is_alive():
            p.kill()
    reported = []
    while not errors.empty():
        reported.append(errors.get())
    assert not hung, f"writers still running after 170 s: {hung}"
    assert not reported, "\n".join(reported[:20])
    assert all(p.exitcode == 0 for p in procs)
    con = sqlite3.connect(db)
    contents = {r[0] for r in con.execute("SELECT content FROM nodes WHERE kind = 'memory' AND deleted_at IS NULL")}
    remembers = con.execute("SELECT COUNT(*) FROM oplog WHERE op = 'remember'").fetchone()[0]
    con.close()
    expected = {f"worker {w} finished build {i} on runner {i % 5} w{w}n{i}"
                for w in range(WRITERS) for i in range(PER_WRITER)}
    assert contents == expected
    assert remembers == WRITERS * PER_WRITER
    print(f"\n{WRITERS * PER_WRITER} concurrent remembers in {elapsed:.1f} s")


def _hash_cfg(db: str) -> "Config":
    from mnemon.app.config import load_config

    env = {"MNEMON_EMBED_PROVIDER": "hash", "MNEMON_MAX_INSIGHTS": "0", "HOME": os.path.dirname(db)}
    # the approximate-index variant lowers its thresholds in the test's environment, which forked workers inherit
    env.update({k: os.environ[k] for k in ("MNEMON_ANN_MIN_ROWS", "MNEMON_ANN_COLD_MIN_ROWS") if k in os.environ})
    return load_config(env, db=db)


def _vector_writer(db: str, worker: int, start_at: float, errors: "mp.Queue[str]") -> None:
    try:
        from mnemon.app.memory import Mnemon

        while time.time() < start_at:
            time.sleep(0.001)
        for i in range(20):  # a process per few writes, as CLI calls would be
            with Mnemon.open(_hash_cfg(db)) as m:
                added = m.remember(f"worker {worker} shipped release {i} of the billing api w{worker}r{i}",
                                   source="agent")["id"]
                m.recall(f"release {i} billing", limit=3)
                if i % 4 == 0:
                    m.forget(added)
    except BaseException as exc:
        errors.put(f"writer {worker}: {type(exc).__name__}: {exc}")


def _vector_reader(db: str, worker: int, start_at: float, errors: "mp.Queue[str]") -> None:
    try:
        from mnemon.app.memory import Mnemon

        while time.time() < start_at:
            time.sleep(0.001)
        for _ in range(30):
            with Mnemon.open(_hash_cfg(db)) as m:  # each closes by saving the matrix it read, if still current
                m.recall("billing api release", limit=5)
    except BaseException as exc:
        errors.put(f"reader {worker}: {type(exc).__name__}: {exc}")


@pytest.mark.parametrize("approximate", [False, True], ids=["exact", "approximate-index"])
def test_the_saved_vector_matrix_stays_true_to_the_store_under_concurrent_writers_and_readers(
        tmp_path: Path, approximate: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    from mnemon.app.memory import Mnemon
    from mnemon.ports import vector_ann, vector_file

    if approximate:  # every process uses the index from 20 rows on, and builds start (for real) as the store grows
        pytest.importorskip("usearch.index")
        monkeypatch.setenv("MNEMON_ANN_MIN_ROWS", "20")
        monkeypatch.setenv("MNEMON_ANN_COLD_MIN_ROWS", "20")
    db = str(tmp_path / "vectors.db")
    with Mnemon.open(_hash_cfg(db)) as m:
        m.remember("seed memory about the billing api", source="agent")
    ctx = mp.get_context("spawn" if sys.platform == "darwin" else "fork")
    errors: "mp.Queue[str]" = ctx.Queue()
    start_at = time.time() + 1.0
    procs = [ctx.Process(target=_vector_writer, args=(db, w, start_at, errors)) for w in range(3)]
    procs += [ctx.Process(target=_vector_reader, args=(db, r, start_at, errors)) for r in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout=170)
    reported = []
    while not errors.empty():
        reported.append(errors.get())
    assert not reported, "\n".join(reported[:20])
    with Mnemon.open(_hash_cfg(db)) as m:
        m.recall("billing api release", limit=5)  # the last reader: saves the final state if no one did
    with Mnemon.open(_hash_cfg(db)) as m:
        store, ident = m.rt.store, m.rt.provider.identity()
        state = store.vector_state()
        saved = vector_file.load(f"{db}-vectors", ident, state)  # type: ignore[arg-type]
        assert saved is not None, "the final state was never saved"
        ids, mat = store.load_vectors(ident)
        live = [k for k in range(len(saved[0])) if k not in set(saved[3])]  # forgotten rows are tombstones
        assert [saved[0][k] for k in live] == ids and (saved[1][live] == mat).all()  # exactly what the store holds
        assert len(ids) == 1 + 3 * 20 - 3 * 5  # every live memory, none of the forgotten
    if not approximate:
        return

    def builds_done() -> None:
        deadline = time.time() + 90
        while vector_ann.build_running(f"{db}-vectors") and time.time() < deadline:
            time.sleep(0.05)

    # the build a worker started goes on to the newest saved matrix; a request that found a build about to end is
    # made again by the next process that searches (each asks while the index is behind). A build process started
    # by a search may take seconds on a loaded machine to hold its lock, so a few quick rounds can all come before
    # it: ask again until an index is used, within a deadline
    deadline = time.time() + 120
    while time.time() < deadline:
        builds_done()
        with Mnemon.open(_hash_cfg(db)) as m:
            m.rt.index.search(m.rt.embed_documents(["billing"])[0], 1)  # type: ignore[index]
            if m.rt.index._ann_view is not None and not vector_ann.build_running(f"{db}-vectors"):
                break
        time.sleep(0.2)
    with Mnemon.open(_hash_cfg(db)) as m:
        index = m.rt.index
        for node_id, content in m.rt.store.conn.execute(  # type: ignore[attr-defined]
                "SELECT id, content FROM nodes WHERE kind = 'memory' AND deleted_at IS NULL").fetchall():
            vec = m.rt.embed_documents([content])[0]  # type: ignore[index]
            assert index.search(vec, 1)[0] == (node_id, pytest.approx(1.0, abs=1e-5))
        assert index._ann_view is not None, "the index built in the background was used"
