"""show / forget / link / related / gc / log / status as a user sees them."""
from __future__ import annotations

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.errors import InvalidInput, NotFound


def test_show_returns_the_memory_with_its_edges_and_counts_the_access(mem: Mnemon) -> None:
    a = mem.remember("We run everything on Kubernetes")
    b = mem.remember("Kubernetes upgrades are monthly")
    shown = mem.show(a["id"])
    assert shown["content"] == "We run everything on Kubernetes" and shown["access_count"] == 1
    assert any(e["target_id"] == b["id"] or e["source_id"] == b["id"] for e in shown["edges"])
    assert mem.show(a["id"])["access_count"] == 2


def test_forget_soft_deletes_retires_edges_and_logs(mem: Mnemon) -> None:
    a = mem.remember("We run everything on Kubernetes")
    b = mem.remember("Kubernetes upgrades are monthly")
    out = mem.forget(a["id"])
    assert out["status"] == "deleted" and out["edges_retired"] >= 2
    with pytest.raises(NotFound):
        mem.show(a["id"])
    with pytest.raises(NotFound):
        mem.forget(a["id"])
    assert mem.rt.store.get_node(a["id"], include_deleted=True) is not None  # row kept
    assert [e["id"] for e in mem.show(b["id"])["edges"]] == []
    assert [e["insight_id"] for e in mem.log(op="forget")["entries"]] == [a["id"]]
    assert a["id"] not in {r["id"] for r in mem.related(b["id"])["related"]}
    assert mem.status()["total_insights"] == 1


def test_link_creates_symmetric_or_directed_edges(mem: Mnemon) -> None:
    a, b = mem.remember("alpha one")["id"], mem.remember("beta two")["id"]
    out = mem.link(a, b, "semantic", weight="0.7", meta='{"why": "same topic"}')
    assert out["status"] == "linked" and out["weight"] == 0.7 and out["metadata"]["why"] == "same topic"
    assert {(e.src, e.dst) for e in mem.rt.store.edges_of([a], types=["semantic"], direction="both")} == \
        {(a, b), (b, a)}
    mem.link(a, b, "causal", sub_type="enables")
    causal = mem.rt.store.edges_of([a], types=["causal"], direction="both")
    assert [(e.src, e.dst, e.sub_type) for e in causal] == [(a, b, "enables")]
    mem.link(a, b, "supersedes")
    assert mem.rt.store.find_edge(b, a, "supersedes") is None


def test_link_again_replaces_instead_of_duplicating(mem: Mnemon) -> None:
    a, b = mem.remember("alpha one")["id"], mem.remember("beta two")["id"]
    mem.link(a, b, "entity", weight=0.2)
    mem.link(a, b, "entity", weight=0.9)
    [edge] = [e for e in mem.rt.store.edges_of([a], types=["entity"]) if e.dst == b]
    assert edge.weight == 0.9


@pytest.mark.parametrize("args, kwargs", [
    (("self", "self", "semantic"), {}),
    (("A", "B", "friendship"), {}),
    (("A", "B", "semantic"), {"weight": "1.5"}),
    (("A", "B", "semantic"), {"weight": "nan"}),
    (("A", "B", "semantic"), {"weight": "heavy"}),
    (("A", "B", "semantic"), {"meta": "[1,2]"}),
    (("A", "B", "semantic"), {"meta": "{not json"}),
    (("A", "B", "causal"), {"sub_type": "blames"}),
])
def test_link_refuses_bad_input(mem: Mnemon, args: tuple[str, str, str], kwargs: dict[str, str]) -> None:
    ids = {"A": mem.remember("alpha one")["id"], "B": mem.remember("beta two")["id"]}
    ids["self"] = ids["A"]
    src, dst, etype = args
    with pytest.raises(InvalidInput):
        mem.link(ids[src], ids[dst], etype, **kwargs)
    assert mem.rt.store.oplog(10, op="link") == []


def test_link_to_a_missing_memory_is_not_found(mem: Mnemon) -> None:
    a = mem.remember("alpha one")["id"]
    with pytest.raises(NotFound):
        mem.link(a, "no-such-id", "semantic")


def test_related_walks_depth_and_type(mem: Mnemon) -> None:
    a, b, c = (mem.remember(t, source=f"s{k}")["id"] for k, t in enumerate(["one x", "two y", "three z"]))
    mem.link(a, b, "causal")
    mem.link(b, c, "causal")
    near = mem.related(a, depth=1, edge_type="causal")["related"]
    assert [(r["id"], r["depth"]) for r in near] == [(b, 1)]
    deep = mem.related(a, depth=2, edge_type="causal")["related"]
    assert [(r["id"], r["depth"], r["via_edge_type"]) for r in deep] == [(b, 1, "causal"), (c, 2, "causal")]
    with pytest.raises(InvalidInput):
        mem.related(a, depth=0)
    with pytest.raises(InvalidInput):
        mem.related(a, edge_type="bogus")


def test_gc_lists_weak_non_immune_memories_and_keep_makes_immune(mem: Mnemon, clock) -> None:  # type: ignore[no-untyped-def]
    mem.rt.clock = clock
    weak = mem.remember("weak thing", importance=1)["id"]
    strong = mem.remember("strong thing", importance=5)["id"]
    clock.advance(days=90)
    out = mem.gc(threshold=0.5)
    ids = [c["insight"]["id"] for c in out["candidates"]]
    assert weak in ids and strong not in ids
    assert out["candidates"][0]["days_since_access"] == pytest.approx(90, abs=0.01)
    kept = mem.gc(keep=weak)
    assert kept["status"] == "retained" and kept["new_access"] == 3 and kept["immune"] is True
    assert weak not in [c["insight"]["id"] for c in mem.gc(threshold=0.5)["candidates"]]
    assert mem.rt.store.get_node(weak) is not None  # gc never deletes by itself


def test_log_is_newest_first_and_validates_limit(mem: Mnemon) -> None:
    a = mem.remember("first")["id"]
    b = mem.remember("second")["id"]
    entries = mem.log(limit=2)["entries"]
    assert [e["insight_id"] for e in entries] == [b, a] and entries[0]["op"] == "remember"
    with pytest.raises(InvalidInput):
        mem.log(limit=0)


def test_status_counts_categories_edges_entities_and_embedding_coverage(mem: Mnemon) -> None:
    mem.remember("Kubernetes runs the API", category="fact")
    mem.remember("Kubernetes costs too much", category="decision", source="other")
    st = mem.status()
    assert st["total_insights"] == 2 and st["by_category"] == {"decision": 1, "fact": 1}
    assert st["edges_by_type"].get("entity", 0) == 2
    assert {"entity": "Kubernetes", "count": 2} in st["top_entities"]
    assert st["embedding"]["coverage"] == "100%" and st["embedding"]["mismatch"] == []
    assert st["db_size_bytes"] > 0


def test_provider_change_is_detected_not_mixed(make_mem, tmp_path) -> None:  # type: ignore[no-untyped-def]
    db = tmp_path / "switch.db"
    h = make_mem("hash", db=db)
    h.remember("embedded by hash")
    h.close()
    other = make_mem("none", db=db)
    st = other.status()["embedding"]
    assert st["mismatch"] == ["hash:signed-bow-v1:256"] or st["mismatch"] == sorted(st["stored_by_provider"])
    assert "hint" in other.status()["embedding"]


def test_status_reports_the_caches_saved_beside_the_database(make_mem, tmp_path) -> None:  # type: ignore[no-untyped-def]
    db = tmp_path / "caches.db"
    m = make_mem("hash", db=db)
    assert m.status()["cache_bytes"] == {"graph": 0, "vectors": 0, "vector_ann": 0}
    assert m.status()["embedding"]["approximate_index"] == {"rows": 0, "matrix_token": None, "building": False,
                                                            "min_rows": 30000, "builds": True, "unavailable": None}
    assert not (tmp_path / "caches.db-vectors-ann.lock").exists(), "asking about the index creates no file"
    m.remember("Kubernetes runs the API")
    m.recall("what runs the API")  # builds the recall graph and reads the vectors
    m.close()
    again = make_mem("hash", db=db)
    sizes = again.status()["cache_bytes"]
    assert sizes["graph"] > 0 and sizes["vectors"] > 0
    assert sizes["vectors"] == sum((tmp_path / name).stat().st_size for name in ("caches.db-vectors",
                                                                             "caches.db-vectors.ids"))


def test_a_forget_keeps_the_saved_vector_matrix_current_instead_of_leaving_it_stale(make_mem, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from mnemon.ports import vector_file

    db = tmp_path / "keep.db"
    m = make_mem("hash", db=db)
    ids = [m.remember(f"note {k} about the Kubernetes upgrade plan")["id"] for k in range(3)]
    m.close()
    saved = tmp_path / "keep.db-vectors"
    inode = saved.stat().st_ino
    again = make_mem("hash", db=db)  # a fresh process (a CLI `forget`): it never searched
    again.forget(ids[1])
    again.close()
    assert saved.stat().st_ino == inode, "tombstoned in place, not rewritten"
    third = make_mem("hash", db=db)
    store = third.rt.store
    loaded = vector_file.load(str(saved), third.rt.provider.identity(), store.vector_state())  # type: ignore[arg-type]
    assert loaded is not None and loaded[3] == [1], "current for the next process, with the forgotten row dead"
    third.rt.store.load_vectors = lambda *_a: (_ for _ in ()).throw(AssertionError("read every vector"))  # type: ignore[method-assign]
    found = {r["insight"]["id"] for r in third.recall("Kubernetes upgrade plan")["results"]}
    assert ids[1] not in found and ids[0] in found


def test_with_save_caches_off_nothing_is_written_beside_the_database(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from mnemon.app.config import load_config

    db = tmp_path / "nocache.db"
    env = {"MNEMON_EMBED_PROVIDER": "hash", "MNEMON_SAVE_CACHES": "false", "HOME": str(tmp_path)}
    with Mnemon.open(load_config(env, db=str(db))) as m:
        m.remember("Kubernetes runs the API")
        assert m.recall("what runs the API")["results"]
        assert m.status()["cache_bytes"] == {"graph": 0, "vectors": 0, "vector_ann": 0}
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("nocache.db-")) in (
        [], ["nocache.db-shm", "nocache.db-wal"])


def test_of_two_forgets_of_one_memory_at_once_only_one_forgets(make_mem, tmp_path, monkeypatch) -> None:
    """Both used to answer "deleted" and log a forget: the check ran before the write lock was taken."""
    from mnemon.app import curation
    from mnemon.core.errors import NotFound

    db = str(tmp_path / "m.db")
    mine, other = make_mem(db=db), make_mem(db=db)
    mid = mine.remember("The on-call rotation starts on Mondays")["id"]
    real, raced = curation.require_memory, []

    def racing(rt, node_id):  # the other process forgets it between this call's check and its write
        node = real(rt, node_id)
        if not raced:
            raced.append(node_id)
            other.forget(node_id)
        return node

    monkeypatch.setattr(curation, "require_memory", racing)
    with pytest.raises(NotFound):
        mine.forget(mid)
    assert len(mine.rt.store.oplog(10, op="forget")) == 1
