"""A store keeps a vector per memory and provider identity (m061): embedding with another provider adds its vectors
beside the first one's instead of replacing them, so switching back costs no second embedding (with a remote
provider, no second bill)."""
from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from mnemon.core.model import Memory, iso, utcnow

from .fake_servers import FakeConfig, FakeOllama, running

STEP = "m061_vectors_per_provider"


def _memory(store: Any, mid: str) -> Memory:
    m = Memory(id=mid, content=f"memory {mid}", created_at=iso(utcnow()), updated_at=iso(utcnow()))
    with store.transaction():
        store.insert_node(m)
    return m


def test_a_providers_vector_replaces_its_own_never_another_providers(store: Any) -> None:
    a, b = _memory(store, "a"), _memory(store, "b")
    with store.transaction():
        store.put_vector("a", "x:model:3", np.array([1, 0, 0], dtype=np.float32), a.content_hash, a.created_at)
        store.put_vector("b", "x:model:3", np.array([0, 1, 0], dtype=np.float32), b.content_hash, b.created_at)
        store.put_vector("a", "y:model:2", np.array([0, 1], dtype=np.float32), a.content_hash, a.created_at)
    assert store.vector_providers() == {"x:model:3": 2, "y:model:2": 1}
    ids, mat = store.load_vectors("x:model:3")
    assert ids == ["a", "b"] and mat.tolist() == [[1, 0, 0], [0, 1, 0]]
    assert [m.id for m in store.nodes_missing_vectors("y:model:2")] == ["b"]
    assert store.nodes_missing_vectors("x:model:3") == []
    with store.transaction():  # y re-embeds a: its own row changes, x's stays as it was
        store.put_vector("a", "y:model:2", np.array([1, 0], dtype=np.float32), a.content_hash, a.created_at)
        store.put_vector("b", "y:model:2", np.array([0, 1], dtype=np.float32), b.content_hash, b.created_at)
    assert store.load_vectors("y:model:2")[1].tolist() == [[1, 0], [0, 1]]
    assert store.load_vectors("x:model:3")[1].tolist() == [[1, 0, 0], [0, 1, 0]]
    assert store.vector_coverage("x:model:3") == store.vector_coverage("y:model:2") == (2, 2)
    assert store.vector_providers() == {"x:model:3": 2, "y:model:2": 2}


def test_an_older_sqlite_store_keeps_its_vectors_through_the_upgrade(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    import mnemon.ports.store.migrate_sqlite as sqlite_backend
    from mnemon.ports.store.schema_sqlite import MIGRATIONS
    from mnemon.ports.store.sqlite import SQLiteStore

    from .test_migrations import _store_before

    db = _store_before(tmp_path / "old.db", STEP, monkeypatch)
    con = sqlite3.connect(db)
    con.executescript("""
        INSERT INTO nodes (seq, id, content, content_hash, created_at, updated_at) VALUES (1, 'a', 'A', 'ha', 't', 't'),
            (2, 'b', 'B', 'hb', 't', 't');
    """)
    rows = [(2, "x:m:2", 2, "hb", np.array([0, 1], dtype="<f4").tobytes(), "t"),
            (1, "x:m:2", 2, "ha", np.array([1, 0], dtype="<f4").tobytes(), "t")]
    con.executemany("INSERT INTO vectors (node_seq, provider, dim, content_hash, vec, created_at) VALUES (?,?,?,?,?,?)",
                    rows)
    con.commit()
    con.close()
    monkeypatch.setattr(sqlite_backend, "MIGRATIONS", MIGRATIONS)
    store = SQLiteStore(str(db))
    assert store.conn.execute("SELECT node_seq, provider, dim, content_hash, vec, created_at FROM vectors"
                              " ORDER BY node_seq").fetchall() == sorted(rows)
    with store.transaction():
        store.put_vector("a", "y:m:3", np.array([0, 0, 1], dtype=np.float32), "ha", "t")
    assert store.load_vectors("x:m:2")[0] == ["a", "b"] and store.load_vectors("y:m:3")[0] == ["a"]
    plan = " ".join(r[3] for r in store.conn.execute(
        "EXPLAIN QUERY PLAN SELECT node_seq FROM vectors WHERE provider = ? ORDER BY node_seq", ("x:m:2",)))
    assert "vectors_provider" in plan and "TEMP B-TREE" not in plan  # a provider's rows in node order, unsorted
    store.conn.execute("DELETE FROM nodes WHERE id = 'a'")  # (rows written by hand: never keyword indexed)
    assert store.vector_providers() == {"x:m:2": 1}  # a node's vectors of every provider go with it
    store.close()


@pytest.mark.postgres
def test_an_older_postgresql_schema_keeps_its_vectors_through_the_upgrade(pg_store: Any) -> None:
    from .test_postgres_store import _schema_before

    with _schema_before(pg_store, STEP) as (conn, steps):
        conn.execute("INSERT INTO nodes (seq, id, content, content_hash, created_at, updated_at) VALUES"
                     " (1, 'a', 'A', 'ha', 't', 't'), (2, 'b', 'B', 'hb', 't', 't')")
        conn.execute("INSERT INTO vectors (node_seq, provider, dim, content_hash, vec, created_at) VALUES"
                     " (1, 'x:m:2', 2, 'ha', '[1,0]', 't'), (2, 'x:m:2', 2, 'hb', '[0,1]', 't')")
        conn.execute(steps[STEP])
        assert conn.execute("SELECT node_seq, provider FROM vectors ORDER BY node_seq").fetchall() == [
            (1, "x:m:2"), (2, "x:m:2")]
        conn.execute("INSERT INTO vectors (node_seq, provider, dim, content_hash, vec, created_at) VALUES"
                     " (1, 'y:m:3', 3, 'ha', '[0,0,1]', 't')")  # beside x's, not instead of it
        assert conn.execute("SELECT provider, COUNT(*) FROM vectors GROUP BY provider ORDER BY provider"
                            ).fetchall() == [("x:m:2", 2), ("y:m:3", 1)]


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return str(tmp_path / "switch.db") if request.param == "sqlite" else str(request.getfixturevalue("pg_db_url"))


def test_switching_providers_and_embedding_all_keeps_the_first_providers_vectors(
        db: str, cli_run: Callable[..., tuple[int, Any]], monkeypatch: pytest.MonkeyPatch) -> None:
    """The reported loss: a store embedded by `hash`, then `embed --all` under Ollama, then back to `hash` — every
    `hash` vector had been replaced, and switching back embedded the store again."""
    texts = ["the cat sat on the mat", "quarterly revenue grew twelve percent", "deploy the service on friday"]
    for text in texts:
        assert cli_run(["--db", db, "--embed", "hash", "remember", text])[0] == 0
    with running(FakeOllama(FakeConfig())) as server:
        monkeypatch.setenv("MNEMON_EMBED_ENDPOINT", server.base_url)
        monkeypatch.setenv("MNEMON_EMBED_MODEL", "nomic-embed-text")
        code, out = cli_run(["--db", db, "--embed", "ollama", "embed", "--all"])
        assert code == 0 and out["succeeded"] == 3
        ollama = cli_run(["--db", db, "--embed", "ollama", "embed", "--status"])[1]
        monkeypatch.delenv("MNEMON_EMBED_ENDPOINT")
        monkeypatch.delenv("MNEMON_EMBED_MODEL")
        posts = len(server.posts("/api/embed"))
    code, status = cli_run(["--db", db, "--embed", "hash", "embed", "--status"])
    assert status["embedded"] == 3 and status["coverage"] == "100%"
    assert status["stored_by_provider"] == {"hash:signed-bow-v1:256": 3, "ollama:nomic-embed-text:native": 3}
    assert ollama["embedded"] == 3 and ollama["stored_by_provider"] == status["stored_by_provider"]
    code, out = cli_run(["--db", db, "--embed", "hash", "embed", "--all"])
    assert code == 0 and out["status"] == "complete", "nothing to embed again after switching back"
    code, out = cli_run(["--db", db, "--embed", "hash", "recall", "cat on the mat"])
    top = out["results"][0]
    assert top["insight"]["content"] == texts[0] and top["signals"]["similarity"] > 0 and "warnings" not in out
    assert posts >= 1


def test_recall_says_the_model_now_answers_another_width_than_the_stores_vectors(
        tmp_path: Path, cli_run: Callable[..., tuple[int, Any]], monkeypatch: pytest.MonkeyPatch) -> None:
    """A model pulled again under the same name (768-d, then 1024-d): `remember` was refused with provider_mismatch,
    but `recall` in a new process answered with similarity 0 everywhere and no word of why."""
    db = str(tmp_path / "width.db")
    config = FakeConfig()
    with running(FakeOllama(config)) as server:
        monkeypatch.setenv("MNEMON_EMBED_ENDPOINT", server.base_url)
        for text in ("the harbour crane broke on monday", "ana fixed the crane hydraulics"):
            assert cli_run(["--db", db, "--embed", "ollama", "remember", text])[0] == 0
        code, before = cli_run(["--db", db, "--embed", "ollama", "recall", "crane"])
        assert code == 0 and before["results"][0]["signals"]["similarity"] != 0 and "warnings" not in before
        config.models["nomic-embed-text:latest"] = 1024
        code, out = cli_run(["--db", db, "--embed", "ollama", "recall", "crane"])
    assert code == 0 and len(out["results"]) == 2  # still answered, by keywords and the graph
    assert all(r["signals"]["similarity"] == 0 for r in out["results"])
    assert any("1024" in w and "768" in w and "ollama:nomic-embed-text:native" in w for w in out["warnings"])


def test_a_long_lived_process_recalls_with_a_warning_when_the_model_changes_width(
        make_mem: Callable[..., Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """The same change seen by one process that keeps its provider (`serve`, `mcp serve`): recall failed whole with
    provider_mismatch (HTTP 502), where a new process answered by keywords and the graph and said why."""
    config = FakeConfig()
    with running(FakeOllama(config)) as server:
        monkeypatch.setenv("MNEMON_EMBED_ENDPOINT", server.base_url)
        mem = make_mem("ollama")
        mem.remember("the harbour crane broke on monday")
        assert "warnings" not in mem.recall("crane")
        config.models["nomic-embed-text:latest"] = 1024
        out = mem.recall("crane")
    assert [r["insight"]["content"] for r in out["results"]] == ["the harbour crane broke on monday"]
    assert out["results"][0]["signals"]["similarity"] == 0
    assert any("1024" in w and "768" in w and "recalled by keywords and the graph" in w for w in out["warnings"])


@pytest.mark.parametrize("long_lived", [False, True], ids=["new process", "long-lived process"])
def test_a_memory_remembered_after_the_model_changed_width_is_kept_without_a_vector(
        long_lived: bool, make_mem: Callable[..., Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """`remember` under a model that now answers another width than the store's vectors was refused whole
    (provider_mismatch): the memory was lost, though a model that cannot be reached keeps it without a vector."""
    config = FakeConfig()
    with running(FakeOllama(config)) as server:
        monkeypatch.setenv("MNEMON_EMBED_ENDPOINT", server.base_url)
        first = make_mem("ollama")
        first.remember("the harbour crane broke on monday")
        config.models["nomic-embed-text:latest"] = 1024
        mem = first if long_lived else make_mem("ollama", db=first.rt.store.path)
        out = mem.remember("the valve on the crane was replaced on friday")
        recalled = mem.recall("valve")
    assert out["action"] == "added"
    assert any("1024" in w and "768" in w and "without a vector" in w for w in out["warnings"])
    assert [r["insight"]["id"] for r in recalled["results"]] == [out["id"]]
    assert mem.status()["embedding"]["embedded"] == 1  # the first memory's vector only: nothing of the new width


def test_embed_all_after_the_model_changed_width_says_how_to_embed_the_store_anew(
        tmp_path: Path, cli_run: Callable[..., tuple[int, Any]], monkeypatch: pytest.MonkeyPatch) -> None:
    """`embed --all` refused with "re-embed with another model name or provider", which no command does; the way
    out that works is a new identity for the model (another model name, or MNEMON_EMBED_DIMENSIONS)."""
    db = str(tmp_path / "anew.db")
    config = FakeConfig()
    with running(FakeOllama(config)) as server:
        monkeypatch.setenv("MNEMON_EMBED_ENDPOINT", server.base_url)
        assert cli_run(["--db", db, "--embed", "ollama", "remember", "the harbour crane broke on monday"])[0] == 0
        config.models["nomic-embed-text:latest"] = 1024
        assert cli_run(["--db", db, "--embed", "ollama", "remember", "the valve was replaced on friday"])[0] == 0
        code, out = cli_run(["--db", db, "--embed", "ollama", "embed", "--all"])
        assert code != 0 and out["error"]["code"] == "provider_mismatch"
        assert "MNEMON_EMBED_DIMENSIONS" in out["error"]["message"] and "embed --all" in out["error"]["message"]
        monkeypatch.setenv("MNEMON_EMBED_DIMENSIONS", "1024")  # as it says: the model under a new identity
        code, out = cli_run(["--db", db, "--embed", "ollama", "embed", "--all"])
    assert code == 0 and out["succeeded"] == 2 and out["identity"] == "ollama:nomic-embed-text:1024"
