"""The in-memory recall graph: the array beam and neighbour support give exactly what the reference stages in
core.recall give, and the snapshot follows every write recall can see (and only those)."""
from __future__ import annotations

import heapq
import os
import random
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from mnemon.app.recall_graph import (
    beam_arrays, class_weights, combine_array, entity_signal_of, keyword_signal_of, minmax_array, neighbour_support_of,
    relevance_array,
)
from mnemon.core.intent import Intent
from mnemon.core.model import Link
from mnemon.core.recall.beam import beam_search
from mnemon.core.recall.params import BEAM, BEAM_FANOUT, EDGE_WEIGHTS, RERANK, RERANK_NO_EMBEDDING, BeamParams
from mnemon.core.recall.rerank import (
    Signals, combine, entity_signal, keyword_signal, minmax, neighbour_support, relevance,
)
from mnemon.core.text import memory_tokens
from mnemon.ports.graph_index import GraphIndex, GraphSnapshot

TYPES = [("temporal", "backbone"), ("temporal", "proximity"), ("entity", ""), ("causal", ""), ("semantic", ""),
         ("supersedes", "")]


WORDS = ["deploy", "deployed", "kubernetes", "the", "checkout", "latency", "cache", "Qdrant", "alice", "pods",
         "restarted", "because", "memory", "über", "naïve", "日本語"]


def random_graph(seed: int, n: int = 60, edges: int = 700):
    rng = random.Random(seed)
    ids = [f"n{rng.randrange(10**6):06d}-{k}" for k in range(n)]
    nodes = [(i, "memory" if rng.random() < 0.85 else "note", rng.random() < 0.05, rng.choice("ab"), "user",
              rng.choice([None, "Deploy notes"]), " ".join(rng.choices(WORDS, k=rng.randint(0, 12))),
              rng.sample(["ops", "infra", "Team"], rng.randint(0, 2)),
              rng.sample(["Qdrant", "Alice", "alice", "Kubernetes"], rng.randint(0, 3)), rng.randint(1, 5),
              f"2026-01-{rng.randint(1, 28):02d}T00:00:00Z") for i in ids]
    rows, seen = [], set()
    for _ in range(edges):
        s, d = rng.choice(ids), rng.choice(ids)
        t, sub = rng.choice(TYPES)
        if (s, d, t) in seen:
            continue
        seen.add((s, d, t))
        # coarse weights make exact ties (the tie-breaks are what is under test)
        w = rng.choice([1.0, 0.5, 0.25, rng.random(), 1.3])
        rows.append((s, d, t, sub, w))
    sims = {i: rng.choice([0.0, 0.3, rng.uniform(-0.2, 1.0)]) for i in ids if rng.random() < 0.8}
    return nodes, rows, sims


def reference_neighbors(rows, phi):
    links: dict[str, list[Link]] = {}
    for k, (s, d, t, sub, w) in enumerate(rows):
        links.setdefault(s, []).append(Link(s, d, t, sub, w, k + 1))

    def fn(ids):
        out = {}
        for i in ids:
            ls = links.get(i, [])
            if len(ls) > BEAM_FANOUT:
                ls = heapq.nsmallest(BEAM_FANOUT, ls, key=lambda l: (-(phi.get(l.type, 0.0) * l.weight), l.id))
            if ls:
                out[i] = [(l.dst, l) for l in ls]
        return out
    return fn, links


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("intent", list(Intent))
@pytest.mark.parametrize("budget", ["seed", "tight"])
def test_array_beam_and_support_equal_the_reference_stages_bit_for_bit(seed, intent, budget):
    params = BEAM[intent] if budget == "seed" else BeamParams(3, 3, 25)  # "tight" runs out of visits mid-level
    nodes, rows, sims = random_graph(seed)
    snap = GraphSnapshot.from_rows("g", nodes, [rows])
    phi_map = EDGE_WEIGHTS[intent]
    rng = random.Random(seed)
    anchors = {i: rng.choice([1.0, 0.5, rng.random()]) for i, *_ in rng.sample(nodes, 6)}
    head = {i: (k, gone) for i, k, gone, *_ in nodes}
    for i, *_, title, content, tags, entities, _imp, _at in nodes:
        toks = frozenset(memory_tokens(title, content, tags, entities))
        query = {t: rng.choice([1.0, 0.3, 2.5]) for t in rng.sample(sorted(set(memory_tokens(None, " ".join(WORDS),
                                                                                              [], []))), 4)}
        q_ents = frozenset(rng.sample(["qdrant", "alice", "bob"], 2))
        p = snap.pos[i]
        at = np.array([p], dtype=np.int64)
        assert keyword_signal_of(snap, query, at)[0] == keyword_signal(query, toks)
        assert entity_signal_of(snap, q_ents, at)[0] == entity_signal(q_ents, frozenset(e.lower() for e in entities))
    admit_ids = lambda ids: {i for i in ids if i in head and not head[i][1]}  # noqa: E731
    neighbors, links = reference_neighbors(rows, phi_map)
    ref = beam_search(anchors, neighbors, params, phi_map, lambda e: None if e.type == "supersedes" else e.type,
                      lambda ids: {i: sims[i] for i in ids if i in sims}, admit_ids)

    pos = snap.pos
    phi = class_weights(snap, phi_map, {t: (None if t == "supersedes" else t) for t, _ in TYPES})
    sim_arr = np.zeros(len(snap))
    for i, v in sims.items():
        sim_arr[pos[i]] = v
    got = beam_arrays(snap, {pos[i]: v for i, v in anchors.items()}, params, phi, sim_arr, ~snap.deleted)
    name = snap.ids
    assert {name[p]: v for p, v in got.scores.items()} == ref.scores
    assert {name[p]: v for p, v in got.support.items()} == ref.support
    assert {name[p]: v for p, v in got.via.items()} == ref.via
    assert {name[p]: name[v] for p, v in got.parent.items()} == ref.parent
    assert (got.visited, got.dropped_by_budget) == (ref.visited, ref.dropped_by_budget)

    cands = [i for i in ref.scores if not head[i][1]]
    rel = {i: rng.choice([0.0, 1.0, rng.random()]) for i in cands}
    clipped = {i: max(0.0, v) for i, v in sims.items() if i in cands}
    want = neighbour_support(rel, {i: links[i] for i in cands if rel[i] > 0 and i in links}, set(cands), phi_map,
                             clipped, lambda l: None if l.type == "supersedes" else l.type)
    at = np.array([pos[i] for i in cands], dtype=np.int64)
    have = neighbour_support_of(snap, at, np.array([rel[i] for i in cands], dtype=np.float64), phi,
                                np.maximum(0.0, sim_arr))
    assert {name[p]: v for p, v in zip(at.tolist(), have.tolist()) if v > 0.0} == want


def test_snapshot_follows_writes_but_not_touches(mem):
    rt = mem.rt
    a = mem.remember("Chose Qdrant as the vector database because it runs locally")["id"]
    first = rt.graph.snapshot()
    assert a in first.pos
    mem.recall("Qdrant")  # touches what it returns: no new generation
    assert rt.graph.snapshot() is first
    b = mem.remember("Qdrant runs in a container on the build server")["id"]
    second = rt.graph.snapshot()
    assert second is not first and b in second.pos and second.edge_count > first.edge_count
    mem.forget(b)
    third = rt.graph.snapshot()
    assert third.deleted[third.pos[b]]
    assert b not in [r["insight"]["id"] for r in mem.recall("Qdrant container build server")["results"]]


def test_a_new_process_loads_the_saved_snapshot_and_ignores_a_broken_one(mem, facade_backend):
    if facade_backend == "postgres":  # a database on a server has no "beside it": the user's own cache folder
        home = Path(os.environ["MNEMON_HOME"]) if "MNEMON_HOME" in os.environ else Path.home() / ".mnemon"
        assert mem.rt.graph.path and Path(mem.rt.graph.path).parent == home / "cache"
        assert "://" not in mem.rt.graph.path and "postgres" not in mem.rt.graph.path
    mem.remember("Chose Qdrant as the vector database")
    mem.remember("Qdrant needs 2 GB of memory")
    snap = mem.rt.graph.snapshot()
    path = mem.rt.graph.path
    assert path and os.path.exists(path)
    loaded = GraphSnapshot.load(path)
    assert loaded is not None and loaded.generation == snap.generation
    assert same_graph(loaded, snap)
    with open(path, "wb") as fh:
        fh.write(b"not a snapshot")
    assert GraphSnapshot.load(path) is None
    fresh = GraphIndex(mem.rt.store, cache_dir=mem.rt.cache_dir).snapshot()
    assert same_graph(fresh, snap)  # rebuilt from the store, and saved again
    assert GraphSnapshot.load(path) is not None


def test_a_few_writes_leave_the_saved_snapshot_alone_and_later_processes_extend_it(make_mem, tmp_path, monkeypatch):
    from mnemon.ports import graph_index

    db = tmp_path / "lazy.db"
    mem = make_mem(db=str(db))
    for k in range(4):
        mem.remember(f"Fact {k}: the checkout service runs on Kubernetes")
    mem.recall("checkout")  # built afresh: saved
    path = mem.rt.graph.path
    assert path and os.path.exists(path)
    saved_at = os.stat(path).st_mtime_ns
    mem.close()
    for k in range(3):  # each a process: remember, then recall
        mem = make_mem(db=str(db))
        mem.remember(f"Update {k}: Qdrant replaced the old vector store")
        got = [r["insight"]["id"] for r in mem.recall("Qdrant vector store")["results"]]
        snap = mem.rt.graph.snapshot()
        assert same_graph(snap, GraphSnapshot.build(mem.rt.store))  # extended from the old file: the same graph
        assert got and os.stat(path).st_mtime_ns == saved_at  # and the file was not written again
        mem.close()
    mem = make_mem(db=str(db))  # a process that only reads extends to what the last one extended to: it saves
    mem.recall("Qdrant vector store")
    assert os.stat(path).st_mtime_ns != saved_at
    mem.close()
    mem = make_mem(db=str(db))  # and the next one loads it as it is
    with monkeypatch.context() as m:  # (monkeypatch.undo() would undo the test's own home too)
        m.setattr(GraphSnapshot, "extended", lambda *_a: (_ for _ in ()).throw(AssertionError("extended")))
        assert mem.recall("Qdrant vector store")["results"]
        mem.close()
    saved_at = os.stat(path).st_mtime_ns
    monkeypatch.setattr(graph_index, "save_after", lambda nodes: 2)  # enough read on top of it: saved
    mem = make_mem(db=str(db))
    mem.remember("Update 3: Redis caches the sessions")
    mem.remember("Update 4: Redis evicts the old sessions")
    snap = mem.rt.graph.snapshot()
    assert os.stat(path).st_mtime_ns != saved_at
    loaded = GraphSnapshot.load(path)
    assert loaded is not None and loaded.generation == snap.generation and same_graph(loaded, snap)


def same_graph(a: GraphSnapshot, b: GraphSnapshot) -> bool:
    words = ("ids", "kinds", "categories", "sources", "created")
    # vocabulary ids may differ (an edge class a catch-up meets first may come later in a full read, whose derived
    # edges come first: ports/store/contained_sqlite.py); the words they stand for not
    ids_of = ("tok", "ent", "tok_indptr", "ent_indptr", "cls")
    return (all(getattr(a, k) == getattr(b, k) for k in words)
            and all(np.array_equal(getattr(a, k), getattr(b, k)) for k in GraphSnapshot._ARRAYS if k not in ids_of)
            and [a.classes[c] for c in a.cls.tolist()] == [b.classes[c] for c in b.cls.tolist()]
            and node_words(a) == node_words(b))


def node_words(snap: GraphSnapshot) -> list[tuple[list[str], list[str]]]:
    out = []
    for p in range(len(snap)):
        toks = snap.tok[snap.tok_indptr[p]:snap.tok_indptr[p + 1]].tolist()
        ents = snap.ent[snap.ent_indptr[p]:snap.ent_indptr[p + 1]].tolist()
        out.append((sorted(snap.vocab[t] for t in toks), sorted(snap.entity_vocab[e] for e in ents)))
    return out


def test_added_and_changed_rows_extend_the_snapshot_exactly_as_a_full_read_would(mem, monkeypatch):
    rt = mem.rt
    for k in range(6):
        mem.remember(f"Deploy {k}: the checkout service moved to Kubernetes because latency was high")
    first = rt.graph.snapshot()
    added = [mem.remember(f"Incident {k}: Kubernetes pods restarted after the checkout deploy")["id"]
             for k in range(4)]
    grown = rt.graph.snapshot()
    assert grown.generation[1] == first.generation[1]  # only inserts happened: no full read
    assert all(i in grown.pos for i in added) and grown.edge_count > first.edge_count
    assert same_graph(grown, GraphSnapshot.build(rt.store))
    builds = []
    real_build = GraphSnapshot.build
    monkeypatch.setattr(GraphSnapshot, "build", classmethod(lambda cls, *a, **k: builds.append(1) or
                                                            real_build.__func__(cls, *a, **k)))
    mem.forget(added[0])  # a change, not an insert: the forgotten node and its edges are read again
    after = rt.graph.snapshot()
    assert not builds and after.deleted[after.pos[added[0]]]
    assert after.generation[1] != grown.generation[1]
    assert same_graph(after, GraphSnapshot.build(rt.store))
    mem.rt.store.update_node(replace(mem.rt.store.get_node(added[1]), content="Incident 1: the pods were fine"))
    assert "fine" in node_words(rt.graph.snapshot())[rt.graph.snapshot().pos[added[1]]][0]
    assert same_graph(rt.graph.snapshot(), GraphSnapshot.build(rt.store))
    with rt.store.transaction():  # a deleted edge row can only be followed by reading everything
        rt.store.conn.execute("DELETE FROM edge_rows WHERE id = (SELECT MIN(id) FROM edge_rows)")
    builds.clear()
    assert same_graph(rt.graph.snapshot(), GraphSnapshot.build(rt.store)) and builds == [1, 1]
    # a new process starts from the saved file and reads only what was added since it was saved
    mem.remember("Incident 9: Kubernetes pods restarted again")
    other = GraphIndex(rt.store).snapshot()
    assert same_graph(other, GraphSnapshot.build(rt.store))


@pytest.mark.parametrize("seed", range(20))
def test_rerank_arrays_equal_the_reference_formulas(seed):
    rng = random.Random(seed)
    n = rng.randint(1, 30)
    pick = lambda: rng.choice([0.0, 0.0, 1.0, 0.5, rng.random()])  # noqa: E731
    kw, ent, sim = ([pick() for _ in range(n)] for _ in range(3))
    ids = list(range(n))
    for with_vectors in (True, False):
        want = relevance(dict(enumerate(kw)), dict(enumerate(sim)), ids, with_vectors)
        got = relevance_array(np.array(kw), np.array(sim), with_vectors)
        assert got.tolist() == [want[i] for i in ids]
    graph_in = [pick() for _ in range(n)]
    assert minmax_array(np.array(graph_in)).tolist() == [minmax(dict(enumerate(graph_in)))[i] for i in ids]
    sup = [rng.random() < 0.3 for _ in range(n)]
    for w in (*RERANK.values(), *RERANK_NO_EMBEDDING.values()):
        got = combine_array(np.array(kw), np.array(ent), np.array(sim), np.array(graph_in), np.array(sup), w)
        assert got.tolist() == [combine(Signals(kw[i], ent[i], sim[i], graph_in[i]), w, sup[i]) for i in ids]


def test_a_read_only_store_from_before_the_generation_counter_still_recalls(make_mem, tmp_path):
    db = tmp_path / "old.db"
    writer = make_mem(db=str(db))
    a = writer.remember("Chose Qdrant as the vector database")["id"]
    conn = writer.rt.store.conn
    for name in ("edges_graph_del", "edges_graph_upd", "nodes_graph_del", "nodes_graph_upd", "graph_changes_trim"):
        conn.execute(f"DROP TRIGGER {name}")
    conn.execute("DROP TABLE graph_changes")
    conn.execute("DELETE FROM meta WHERE key IN ('graph_generation', 'graph_mutation')")
    writer.close()
    for leftover in tmp_path.glob("old.db-graph*"):
        leftover.unlink()
    reader = make_mem(db=str(db), readonly=True)
    assert reader.rt.store.graph_generation()[0].startswith("volatile:")
    assert [r["insight"]["id"] for r in reader.recall("Qdrant")["results"]] == [a]
    assert not list(tmp_path.glob("old.db-graph*"))  # nothing written beside a read-only store


@pytest.mark.parametrize("written_after", [4, 3])
def test_a_saved_snapshot_of_another_history_of_the_file_is_never_extended(make_mem, tmp_path, written_after):
    """3: the restored history reaches the very counts the saved one had (inserts only): it used to be served the
    other history's snapshot as current, and recall missed what it had stored."""
    import shutil

    db = tmp_path / "m.db"
    mem = make_mem(db=str(db))
    for k in range(3):
        mem.remember(f"Common start {k}: the checkout service moved to Kubernetes")
    mem.close()
    shutil.copyfile(db, tmp_path / "backup.db")  # the backup diverges from here
    mem = make_mem(db=str(db))
    for k in range(3):
        mem.remember(f"History A {k}: Qdrant runs on the build server")
    mem.recall("Qdrant")  # saves a snapshot of history A beside the file
    mem.close()
    for suffix in ("", "-wal", "-shm"):
        (tmp_path / f"m.db{suffix}").unlink(missing_ok=True)
    shutil.copyfile(tmp_path / "backup.db", db)  # restored: the saved snapshot stays
    mem = make_mem(db=str(db))
    for k in range(written_after):
        mem.remember(f"History B {k}: Redis caches the sessions")
    snap = mem.rt.graph.snapshot()
    assert same_graph(snap, GraphSnapshot.build(mem.rt.store))
    assert not any("Qdrant" in n["insight"]["content"] for n in mem.recall("Qdrant")["results"])
    mem.close()
    fresh = make_mem(db=str(db))  # a new process loads the file beside the database
    assert [r["insight"]["content"][:9] for r in fresh.recall("Redis sessions")["results"]][:1] == ["History B"]


def test_the_combined_sort_key_orders_like_a_lexicographic_sort_even_when_it_would_overflow():
    from mnemon.app.recall_graph import _argsort_keys

    rng = np.random.default_rng(3)
    small = [rng.integers(0, 5, 200), rng.integers(0, 50, 200), np.arange(200)]
    huge = [rng.integers(0, 2 ** 40, 200), rng.integers(0, 2 ** 30, 200), np.arange(200)]
    for keys in (small, huge):
        assert _argsort_keys(keys).tolist() == np.lexsort(keys[::-1]).tolist()


def test_similarities_asked_for_by_position_are_those_of_the_full_array():
    from mnemon.app.recall_graph import PositionSimilarities, VectorRows

    raw = np.array([0.9, -0.3, 0.5], dtype=np.float32)
    calibrate = lambda c: np.clip((c - 0.2) / 0.8, 0.0, 1.0)  # noqa: E731
    # positions 1 and 3 have no vector (-1, or a row the index no longer holds); 0 and 2 lie in other rows
    sims = PositionSimilarities(raw, VectorRows.of(np.array([2, -1, 0, 5])), calibrate)
    full = np.array([calibrate(np.float64(raw[2])), 0.0, calibrate(np.float64(raw[0])), 0.0])
    assert sims[np.array([3, 0, 2, 1, 0])].tolist() == full[[3, 0, 2, 1, 0]].tolist()
    same_order = PositionSimilarities(raw, VectorRows.of(np.arange(3)), calibrate)
    assert same_order[np.array([2, 0])].tolist() == calibrate(raw[[2, 0]].astype(np.float64)).tolist()
    assert PositionSimilarities(None, None, calibrate)[np.array([0, 1])].tolist() == [0.0, 0.0]


def test_read_only_processes_of_a_server_store_share_one_saved_graph(make_mem, facade_backend, monkeypatch):
    """A prompt hook opens the store read-only in a fresh process each time: on a server store each read the whole
    recall graph from the server (1.3 s at 4,000 memories) until one saved it in the user's cache folder."""
    if facade_backend != "postgres":
        return
    writer = make_mem()
    writer.remember("Chose Qdrant as the vector database")
    writer.remember("Qdrant needs 2 GB of memory")
    first = make_mem(db=writer.rt.store.path, readonly=True)
    first.recall("Qdrant")
    second = make_mem(db=writer.rt.store.path, readonly=True)
    second.recall("Qdrant")  # reads the generation again: the snapshot is saved for the next process
    assert second.rt.graph.path and os.path.exists(second.rt.graph.path)
    built: list[int] = []
    real = GraphSnapshot.build.__func__  # type: ignore[attr-defined]
    monkeypatch.setattr(GraphSnapshot, "build",
                        classmethod(lambda cls, *a, **k: (built.append(1), real(cls, *a, **k))[1]))
    third = make_mem(db=writer.rt.store.path, readonly=True)
    assert third.recall("Qdrant")["results"] and not built
