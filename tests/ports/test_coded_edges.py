"""Ingested edges stored as narrow coded rows (ports/store/coded_edges_sqlite.py): they read back exactly as the rows
the same ingest writes, a decision moves one into `edge_rows` under the same id, ids are one space and never given
twice, and the counts and the recall graph follow every change."""
from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mnemon.core.model import Edge
from mnemon.ports.graph_index import GraphSnapshot
from mnemon.ports.store import vault_sqlite
from mnemon.ports.store.coded_edges_sqlite import VERBATIM, edge_metadata, fit

from app.test_recall_graph import same_graph
from ports.test_contained_edges import _counted, _edges

NOTE = "Projects/tidewatch.md"


def _rows_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vault_sqlite, "coded_row", lambda kinds, edge_id, row: None)


def _coded(mem: Any) -> set[int]:
    return {r[0] for r in mem.rt.store.conn.execute("SELECT id FROM coded_edges")}


def _a_coded(mem: Any, relation: str = "links_to") -> Edge:
    coded = _coded(mem)
    return next(e for e in mem.rt.store.iter_edges() if e.type == relation and e.id in coded)


def test_coded_rows_read_back_exactly_as_the_rows_the_same_ingest_writes(make_mem, example_vault: Path,
                                                                         tmp_path: Path, monkeypatch) -> None:
    coded = make_mem("none", db=tmp_path / "coded.db")
    coded.ingest(str(example_vault))
    with monkeypatch.context() as m:
        _rows_only(m)
        rows = make_mem("none", db=tmp_path / "rows.db")
        rows.ingest(str(example_vault))
        assert _edges(rows) == _edges(coded)
        assert not _coded(rows)
    # every link, date, email and tag edge of a first ingest is coded
    kinds = {e.type for e in coded.rt.store.iter_edges() if e.id in _coded(coded)}
    assert {"links_to", "mentions_date", "has_tag"} <= kinds
    assert coded.rt.store.conn.execute("SELECT COUNT(*) FROM edge_rows WHERE type IN ('links_to', 'has_tag')"
                                       ).fetchone()[0] == 0
    # edits above the links shift their lines (re-coded in place), a link goes, one comes
    path = example_vault / NOTE
    text = path.read_text(encoding="utf-8")
    first_link = next(line for line in text.splitlines() if "[[" in line)
    path.write_text("# Intro\n\nNew first lines.\n\n" + text.replace(first_link, "") + "\n- see [[Harbour Log]]\n",
                    encoding="utf-8")
    coded.ingest(str(example_vault))
    with monkeypatch.context() as m:
        _rows_only(m)
        rows.ingest(str(example_vault))
        assert _edges(rows) == _edges(coded)
    _counted(coded)
    ids = [e.id for e in coded.rt.store.iter_edges()]
    assert len(ids) == len(set(ids))


def test_a_decision_moves_a_coded_row_into_edge_rows_under_the_same_id(make_mem, example_vault: Path,
                                                                       tmp_path: Path) -> None:
    mem = make_mem("none", db=tmp_path / "m.db")
    mem.ingest(str(example_vault))
    edge = _a_coded(mem)
    before = mem.explain_edge(edge.id)["edge"]
    mem.kill_edge(edge.id, reason="not that note")
    conn = mem.rt.store.conn
    assert edge.id not in _coded(mem)
    assert conn.execute("SELECT status FROM edge_rows WHERE id = ?", (edge.id,)).fetchone() == ("killed",)
    after = mem.explain_edge(edge.id)
    keep = ("status", "updated_at", "strength", "truth_policy")
    assert {k: v for k, v in after["edge"].items() if k not in keep} == \
        {k: v for k, v in before.items() if k not in keep}
    assert [e["event"] for e in after["debug_log"]] == ["created", "killed"]
    _counted(mem)
    # the tombstone survives a rebuild of its note and blocks the edge's return
    path = example_vault / edge.source_path
    path.write_text("New first line.\n\n" + path.read_text(encoding="utf-8"), encoding="utf-8")
    mem.ingest(str(example_vault))
    assert mem.rt.store.get_edge(edge.id).status == "killed"
    assert [e.id for e in mem.rt.store.iter_edges() if (e.src, e.dst, e.type) == (edge.src, edge.dst, edge.type)] \
        == [edge.id]
    # validate and weaken decide too; promoting candidates activates coded ones
    other = _a_coded(mem, "mentions_date")
    mem.validate_edge(other.id, reason="checked")
    assert mem.rt.store.get_edge(other.id).status == "active" and other.id not in _coded(mem)
    third = _a_coded(mem)
    mem.weaken_edge(third.id, reason="stale")
    assert mem.rt.store.get_edge(third.id).weight < third.weight
    mem.promote_candidates(mode="all")
    assert not [e for e in mem.rt.store.iter_edges() if e.type == "links_to" and e.status == "candidate"]
    _counted(mem)


def test_an_edge_id_is_never_given_twice_across_rows_and_coded_rows(make_mem, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "a.md").write_text("# A\n\nSee [[B]].\n", encoding="utf-8")
    (vault / "b.md").write_text("# B\n\nback to [[A]] and [[C]]\n", encoding="utf-8")
    mem = make_mem("none", db=tmp_path / "m.db")
    mem.ingest(str(vault))
    top = max(_coded(mem))
    mem.kill_edge(top, reason="history that must stay its own")
    (vault / "b.md").write_text("# B\n\nnothing now\n", encoding="utf-8")  # the killed edge stays; C's goes
    mem.ingest(str(vault))
    (vault / "c.md").write_text("# C\n\nsee [[A]]\n", encoding="utf-8")
    mem.ingest(str(vault))
    a, b = mem.remember("pump seals wear out")["id"], mem.remember("order pump seals")["id"]
    mine = mem.rt.store.upsert_edge(Edge(src=a, dst=b, type="semantic", evidence="seals", origin="agent"))
    ids = [e.id for e in mem.rt.store.iter_edges() if (e.id or 0) > 0]
    assert len(ids) == len(set(ids)) and mine == max(ids)
    new = [e for e in mem.rt.store.iter_edges() if e.src == "note:c.md" and e.type == "links_to"]
    assert new and all((e.id or 0) > top for e in new)
    assert [ev["event"] for ev in mem.explain_edge(new[0].id)["debug_log"]] == ["created"]


def test_the_recall_graph_follows_coded_rows_exactly_as_a_full_read(make_mem, example_vault: Path,
                                                                    tmp_path: Path) -> None:
    mem = make_mem("none", db=tmp_path / "m.db")
    mem.ingest(str(example_vault))
    rt = mem.rt
    assert same_graph(rt.graph.snapshot(), GraphSnapshot.build(rt.store))
    path = example_vault / NOTE
    path.write_text(path.read_text(encoding="utf-8") + "\n- see [[Harbour Log]] on 2026-04-02 #ops\n", encoding="utf-8")
    mem.ingest(str(example_vault))
    grown = rt.graph.snapshot()
    assert same_graph(grown, GraphSnapshot.build(rt.store))
    mem.validate_edge(_a_coded(mem).id, reason="yes")  # candidate → active: into the graph
    assert same_graph(rt.graph.snapshot(), GraphSnapshot.build(rt.store))
    assert rt.graph.snapshot().edge_count == grown.edge_count + 1


def test_a_store_opened_read_only_before_coded_rows_reads_its_edges(make_mem, example_vault: Path,
                                                                     tmp_path: Path, monkeypatch) -> None:
    import sqlite3

    from mnemon.ports.store.contained_sqlite import _FROM_NOTES, _edge_heads_view
    from mnemon.ports.store.edge_rows import EDGES_ARM
    from mnemon.ports.store.sqlite import SQLiteStore

    db = tmp_path / "old.db"
    with monkeypatch.context() as m:
        _rows_only(m)
        mem = make_mem("none", db=db)
        mem.ingest(str(example_vault))
        expected = _edges(mem)
        mem.close()
    con = sqlite3.connect(db)  # as the mnemon before m066 left it: no coded tables, its views
    con.executescript(f"""
        DROP VIEW edges; DROP VIEW stored_edges; DROP VIEW edge_heads;
        DROP TABLE coded_edges; DROP TABLE edge_kinds; DELETE FROM migrations WHERE name = 'm066_coded_edges';
        CREATE VIEW stored_edges AS {EDGES_ARM};
        CREATE VIEW edges AS SELECT * FROM stored_edges UNION ALL SELECT * FROM derived_edges;
        {_edge_heads_view(_FROM_NOTES)}""")
    con.close()
    store = SQLiteStore(str(db), readonly=True)
    assert {(e.src, e.dst, e.type) for e in store.iter_edges()} == set(expected)
    assert store.graph_generation()[0] and store.graph_export
    store.close()
    mem = make_mem("none", db=db)  # a writable open upgrades it: its rows stay rows, read as before
    assert _edges(mem) == expected and not _coded(mem)


_TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12)


@settings(max_examples=300, deadline=None)
@given(st.one_of(
    st.builds(lambda t, n: {"key": t.casefold(), "target": t, "line": n}, _TEXT, st.integers(0, 10**6)),
    st.builds(lambda k, t, n: {"key": k, "target": t, "line": n}, _TEXT, _TEXT, st.integers(-5, 10**6)),
    st.builds(lambda t, n: {"text": t, "line": n}, _TEXT, st.integers(0, 10**6)),
    st.builds(lambda n: {"line": n}, st.integers(-5, 10**6)),
    st.dictionaries(st.sampled_from(["key", "target", "line", "text", "alias"]), _TEXT, max_size=4)),
    st.booleans())
def test_a_coded_rows_metadata_is_rebuilt_character_for_character(meta: dict[str, Any], ascii_only: bool) -> None:
    import json

    text = json.dumps(meta, ensure_ascii=ascii_only, separators=(",", ":"))
    shape, line, value = fit(text)
    assert edge_metadata(shape, line, value) == text
    if shape != VERBATIM:  # a rebuilt shape keeps only the line and one text
        assert value is None or value in meta.values()


_OPS = st.lists(st.sampled_from(["kill", "validate", "weaken", "forget", "edit", "unlink", "remove", "promote"]),
                min_size=1, max_size=6)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=_OPS, pick=st.integers(min_value=0, max_value=10_000))
def test_counts_and_the_views_agree_after_any_mix_of_decisions_and_edits(make_mem, tmp_path_factory, ops: list[str],
                                                                         pick: int) -> None:
    from conftest import EXAMPLE_VAULT

    root = tmp_path_factory.mktemp("mix")
    vault = root / "vault"
    shutil.copytree(EXAMPLE_VAULT, vault)
    mem = make_mem("none", db=root / "m.db")
    mem.ingest(str(vault))
    notes = sorted(vault.rglob("*.md"))
    for k, op in enumerate(ops):
        coded = sorted(_coded(mem))
        edge = mem.rt.store.get_edge(coded[(pick + k) % len(coded)]) if coded else None
        note = notes[(pick + k) % len(notes)]
        if op in ("kill", "validate", "weaken") and edge is not None:
            getattr(mem, f"{op}_edge")(edge.id, reason="test")
        elif op == "forget" and edge is not None:
            mem.forget(edge.src)
        elif op == "edit" and note.exists():
            note.write_text(f"Line {k} on top, [[Note {k}]] 2026-0{k % 9 + 1}-02.\n\n"
                            + note.read_text(encoding="utf-8"), encoding="utf-8")
            mem.ingest(str(vault))
        elif op == "unlink" and note.exists():
            note.write_text(note.read_text(encoding="utf-8").replace("[[", "[ ["), encoding="utf-8")
            mem.ingest(str(vault))
        elif op == "remove" and note.exists():
            note.unlink()
            mem.ingest(str(vault))
        elif op == "promote":
            mem.promote_candidates(mode="all")
        _counted(mem)
        ids = [e.id for e in mem.rt.store.iter_edges()]
        keys = [(e.src, e.dst, e.type) for e in mem.rt.store.iter_edges()]
        assert len(keys) == len(set(keys)) and len(ids) == len(set(ids))
    assert same_graph(mem.rt.graph.snapshot(), GraphSnapshot.build(mem.rt.store))
