"""A note's containment edges read back from its items (ports/store/contained_sqlite.py, app/vault/contained.py):
exactly the edges the same ingest stores as rows, decisions turn them into rows under the same id, the counts and
the recall graph follow every change, and a store written before keeps its rows."""
from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mnemon.core.model import Edge
from mnemon.ports.graph_index import GraphSnapshot
from mnemon.ports.store.vault_sqlite import SQLiteVault

from app.test_recall_graph import same_graph

# the stored edges: rows and coded rows (coded_edges_sqlite.py)
_STORED = "SELECT (SELECT COUNT(*) FROM edge_rows) + (SELECT COUNT(*) FROM coded_edges)"
CONTAINMENT = ("has_section", "has_heading", "has_blocked", "has_risk", "has_done", "has_correction", "has_fact")
NOTE = "Projects/tidewatch.md"


def _edges(mem: Any) -> dict[tuple[str, str, str], tuple[Any, ...]]:
    """Every edge as the store reads it, by (src, dst, type): values without id and times."""
    return {(e.src, e.dst, e.type): (e.sub_type, e.weight, e.confidence, e.status, e.evidence, e.origin, e.rule,
                                     e.source_path, tuple(sorted(e.metadata.items())))
            for e in mem.rt.store.iter_edges()}


def _rows_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(SQLiteVault, "derives_edges", property(lambda self: False))


def _counted(mem: Any) -> Counter[tuple[str, str]]:
    """`edge_counts` against a count of the edges the view reads, and the walks' view of the ends against it."""
    conn = mem.rt.store.conn
    heads = "id, src, dst, type, sub_type, weight, confidence, status"
    assert sorted(conn.execute(f"SELECT {heads} FROM edge_heads")) == sorted(conn.execute(f"SELECT {heads} FROM edges"))
    kept = Counter({(t, s): n for t, s, n in conn.execute("SELECT type, status, n FROM edge_counts") if n})
    read = Counter({(t, s): n for t, s, n in conn.execute("SELECT type, status, COUNT(*) FROM edges GROUP BY 1, 2")})
    assert kept == read
    return read


def _a_derived(mem: Any, relation: str = "has_section") -> Edge:
    return next(e for e in mem.rt.store.iter_edges() if e.type == relation and (e.id or 0) < 0)


def test_derived_edges_read_back_exactly_as_the_rows_the_same_ingest_writes(make_mem, example_vault: Path,
                                                                                tmp_path: Path, monkeypatch) -> None:
    derived = make_mem("none", db=tmp_path / "derived.db")
    derived.ingest(str(example_vault))
    with monkeypatch.context() as m:
        _rows_only(m)
        rows = make_mem("none", db=tmp_path / "rows.db")
        rows.ingest(str(example_vault))
        assert _edges(rows) == _edges(derived)
    conn = derived.rt.store.conn
    kinds = {t for (t,) in conn.execute("SELECT DISTINCT type FROM derived_edges")}
    assert {"has_section", "has_heading"} <= kinds and kinds <= set(CONTAINMENT)
    stored = conn.execute(_STORED).fetchone()[0]
    assert stored + conn.execute("SELECT COUNT(*) FROM derived_edges").fetchone()[0] == len(_edges(derived))
    assert stored < rows.rt.store.conn.execute(_STORED).fetchone()[0]
    assert derived.ingest(str(example_vault))["edges"] == rows.ingest(str(example_vault))["edges"]
    _counted(derived)
    # edits move lines, drop and add items: still the same edges
    text = (example_vault / NOTE).read_text(encoding="utf-8")
    (example_vault / NOTE).write_text("# Intro\n\nA new first section.\n\n- [ ] call the harbour master\n\n" + text,
                                      encoding="utf-8")
    derived.ingest(str(example_vault))
    with monkeypatch.context() as m:
        _rows_only(m)
        rows.ingest(str(example_vault))
        assert _edges(rows) == _edges(derived)
    _counted(derived)


def test_a_decision_turns_a_derived_edge_into_a_row_under_the_same_id(make_mem, example_vault: Path,
                                                                       tmp_path: Path) -> None:
    mem = make_mem("none", db=tmp_path / "m.db")
    mem.ingest(str(example_vault))
    edge = _a_derived(mem)
    before = mem.explain_edge(edge.id)["edge"]
    mem.kill_edge(edge.id, reason="not a real section")
    conn = mem.rt.store.conn
    assert conn.execute("SELECT status FROM edge_rows WHERE id = ?", (edge.id,)).fetchone() == ("killed",)
    after = mem.explain_edge(edge.id)
    assert after["edge"]["status"] == "killed"
    assert {k: v for k, v in after["edge"].items() if k not in ("status", "updated_at", "strength", "truth_policy")} == \
        {k: v for k, v in before.items() if k not in ("status", "updated_at", "strength", "truth_policy")}
    assert [e["event"] for e in after["debug_log"]] == ["created", "killed"]
    _counted(mem)
    # the tombstone survives a rebuild of its note and blocks the edge's return
    path = example_vault / edge.source_path
    path.write_text(path.read_text(encoding="utf-8") + "\n- one more line\n", encoding="utf-8")
    mem.ingest(str(example_vault))
    assert mem.rt.store.get_edge(edge.id).status == "killed"
    assert [e.id for e in mem.rt.store.iter_edges() if (e.src, e.dst, e.type) == (edge.src, edge.dst, edge.type)] \
        == [edge.id]
    _counted(mem)
    # validate and weaken decide too; promoting candidates activates derived ones
    other = _a_derived(mem, "has_heading")
    mem.validate_edge(other.id, reason="checked")
    assert mem.rt.store.get_edge(other.id).status == "active"
    third = _a_derived(mem, "has_blocked")
    mem.weaken_edge(third.id, reason="stale")
    assert mem.rt.store.get_edge(third.id).weight < third.weight
    mem.promote_candidates(mode="all")
    assert not [e for e in mem.rt.store.iter_edges() if e.type == "has_section" and e.status == "candidate"]
    _counted(mem)


def test_forgetting_an_item_retires_its_derived_edge(make_mem, example_vault: Path, tmp_path: Path) -> None:
    mem = make_mem("none", db=tmp_path / "m.db")
    mem.ingest(str(example_vault))
    edge = _a_derived(mem, "has_blocked")
    mem.forget(edge.dst)
    assert mem.rt.store.get_edge(edge.id).status == "retired"
    note_edges = mem.rt.store.edges_of([edge.src], statuses=("active", "candidate"))
    assert edge.id not in {e.id for e in note_edges}
    _counted(mem)


def test_the_recall_graph_follows_derived_edges_exactly_as_a_full_read(make_mem, example_vault: Path,
                                                                        tmp_path: Path) -> None:
    mem = make_mem("none", db=tmp_path / "m.db")
    mem.ingest(str(example_vault))
    rt = mem.rt
    snap = rt.graph.snapshot()
    assert same_graph(snap, GraphSnapshot.build(rt.store))
    text = (example_vault / NOTE).read_text(encoding="utf-8")
    (example_vault / NOTE).write_text(text + "\n## Later\n\nA section added.\n\n- [ ] blocked by the permit\n",
                                      encoding="utf-8")
    (example_vault / "Projects" / "new-note.md").write_text("# New\n\n## Part\n\nText.\n\n- [x] done it\n",
                                                             encoding="utf-8")
    mem.ingest(str(example_vault))
    grown = rt.graph.snapshot()
    assert same_graph(grown, GraphSnapshot.build(rt.store))
    mem.kill_edge(_a_derived(mem, "has_blocked").id, reason="no")  # active → killed: out of the graph
    assert same_graph(rt.graph.snapshot(), GraphSnapshot.build(rt.store))
    assert rt.graph.snapshot().edge_count == grown.edge_count - 1


def test_a_store_of_materialised_edges_only_still_gives_new_rows_positive_ids(make_mem, example_vault: Path,
                                                                               tmp_path: Path) -> None:
    mem = make_mem("none", db=tmp_path / "m.db")
    mem.ingest(str(example_vault))
    store = mem.rt.store
    with store.transaction():
        store.conn.execute("DELETE FROM edge_rows")  # (only the derived edges are left)
    edge = _a_derived(mem)
    mem.kill_edge(edge.id, reason="x")
    assert store.conn.execute("SELECT MAX(id) FROM edge_rows").fetchone()[0] == edge.id < 0
    a, b = mem.remember("pump seals wear out")["id"], mem.remember("order pump seals")["id"]
    new = store.upsert_edge(Edge(src=a, dst=b, type="semantic", evidence="seals", origin="agent"))
    assert new > 0 and store.get_edge(new).src == a


def test_a_store_written_with_rows_keeps_them_and_never_doubles_an_edge(make_mem, example_vault: Path,
                                                                        tmp_path: Path, monkeypatch) -> None:
    db = tmp_path / "m.db"
    with monkeypatch.context() as m:
        _rows_only(m)
        mem = make_mem("none", db=db)
        mem.ingest(str(example_vault))
    before = _edges(mem)
    stored = mem.rt.store.conn.execute(_STORED).fetchone()[0]
    path = example_vault / NOTE
    path.write_text(path.read_text(encoding="utf-8") + "\n- [ ] one more task\n", encoding="utf-8")
    mem.ingest(str(example_vault))
    keys = [(e.src, e.dst, e.type) for e in mem.rt.store.iter_edges()]
    assert len(keys) == len(set(keys)) == len(before) + 1  # the task's containment edge (its section's is replaced)
    task = next(e for e in mem.rt.store.iter_edges() if e.type == "has_blocked" and "one more task" in e.evidence)
    assert (task.id or 0) < 0  # new: derived
    assert mem.rt.store.conn.execute(_STORED).fetchone()[0] >= stored - 2  # old: still stored
    _counted(mem)


_OPS = st.lists(st.sampled_from(["kill", "validate", "weaken", "forget", "edit", "remove", "promote"]),
                min_size=1, max_size=6)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=_OPS, pick=st.integers(min_value=0, max_value=10_000))
def test_counts_and_the_view_agree_after_any_mix_of_decisions_and_edits(make_mem, tmp_path_factory, ops: list[str],
                                                                        pick: int) -> None:
    import shutil

    from conftest import EXAMPLE_VAULT

    root = tmp_path_factory.mktemp("mix")
    vault = root / "vault"
    shutil.copytree(EXAMPLE_VAULT, vault)
    mem = make_mem("none", db=root / "m.db")
    mem.ingest(str(vault))
    notes = sorted(vault.rglob("*.md"))
    for k, op in enumerate(ops):
        derived = [e for e in mem.rt.store.iter_edges() if (e.id or 0) < 0]
        edge = derived[(pick + k) % len(derived)] if derived else None
        note = notes[(pick + k) % len(notes)]
        if op in ("kill", "validate", "weaken") and edge is not None:
            getattr(mem, f"{op}_edge")(edge.id, reason="test")
        elif op == "forget" and edge is not None:
            mem.forget(edge.dst)
        elif op == "edit" and note.exists():
            note.write_text(note.read_text(encoding="utf-8") + f"\n## Added {k}\n\n- [ ] task {k}\n", encoding="utf-8")
            mem.ingest(str(vault))
        elif op == "remove" and note.exists():
            note.unlink()
            mem.ingest(str(vault))
        elif op == "promote":
            mem.promote_candidates(mode="all")
        _counted(mem)
        keys = [(e.src, e.dst, e.type) for e in mem.rt.store.iter_edges()]
        assert len(keys) == len(set(keys))
    assert same_graph(mem.rt.graph.snapshot(), GraphSnapshot.build(mem.rt.store))


def test_a_bulk_load_forgets_what_it_inserted_once_a_node_is_deleted(tmp_path: Path) -> None:
    """Inside `bulk_load` the vault keeps the seqs it inserted; SQLite may give a deleted row's seq to the next row,
    so a deletion voids them (`SQLiteStore.hard_delete` → `forget_inserted`)."""
    from mnemon.core.model import Memory
    from mnemon.ports.store.sqlite import SQLiteStore

    store = SQLiteStore(str(tmp_path / "bulk.db"))
    vault = store.vault

    def node(i: str) -> Memory:
        return Memory(id=i, kind="heading", title=i, content="", source="vault:a.md", created_at="2026-01-01T00:00:00Z")

    with store.transaction(), vault.bulk_load():
        vault.insert_nodes([node("heading:a.md#x"), node("heading:a.md#y")])
        seq_y = vault._inserted_rows()["heading:a.md#y"][0]
        store.hard_delete(["heading:a.md#y"])
        assert vault._inserted_rows() == {}
        vault.insert_nodes([node("heading:a.md#z")])  # the freed seq, given again
        assert vault._inserted_rows() == {"heading:a.md#z": (seq_y, "2026-01-01T00:00:00Z")}
    store.close()


_LINES = st.sampled_from([
    "## Plan", "## Plan", "### Plan", "# Title", "- waiting on the vendor reply", "- waiting on the vendor reply",
    "- [ ] pay the invoice", "- [x] pay the invoice", "1. blocked by missing approval", "2. paid in full",
    "  - correction: the count was wrong", "* deadline is close 2026-03-01", "Plain text with ops@example.org.",
    "- see [[Other]] and #tag", "", "```", "- inside a fence maybe", "> - quoted bullet", "- risk: the crane may fail",
])


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(notes=st.lists(st.lists(_LINES, min_size=1, max_size=14), min_size=1, max_size=3),
       crlf=st.booleans(), edit=st.lists(_LINES, max_size=4))
def test_any_notes_read_back_the_edges_a_rows_only_store_writes(make_mem, tmp_path_factory, notes: list[list[str]],
                                                               crlf: bool, edit: list[str]) -> None:
    """Duplicate bullets and headings, a task checked and unchecked, numbered and nested items, fences, CRLF: what
    the derived edges read back is what a store keeping every edge as a row holds, cold and after an edit."""
    root = tmp_path_factory.mktemp("any")
    vault = root / "vault"
    vault.mkdir()
    newline = "\r\n" if crlf else "\n"
    for k, lines in enumerate(notes):
        (vault / f"n{k}.md").write_text(newline.join(lines) + newline, encoding="utf-8")
    derived = make_mem("none", db=root / "derived.db")
    with pytest.MonkeyPatch.context() as m:
        _rows_only(m)
        rows = make_mem("none", db=root / "rows.db")
    for step in range(2):
        if step:
            (vault / "n0.md").write_text(newline.join([*edit, *notes[0]]) + newline, encoding="utf-8")
        derived.ingest(str(vault))
        with pytest.MonkeyPatch.context() as m:
            _rows_only(m)
            rows.ingest(str(vault))
            assert _edges(derived) == _edges(rows)
        _counted(derived)


def test_edges_around_anchors_are_what_the_whole_view_gives(make_mem, example_vault: Path) -> None:
    """`edge_heads_around` reads a note's derived edges through its headings' ids and the kept memories instead of
    every item of the note: the same edges as through the whole `edge_heads` view, for any anchors and kept ids."""
    mem = make_mem("none")
    mem.ingest(str(example_vault))
    mem.kill_edge(_a_derived(mem, "has_heading").id, reason="test")  # a row now, killed
    mem.validate_edge(_a_derived(mem).id, reason="test")
    vault, conn = mem.rt.store.vault, mem.rt.store.conn
    assert vault.derives_edges
    ids = [i for (i,) in conn.execute("SELECT id FROM nodes WHERE deleted_at IS NULL ORDER BY seq")]
    notes = [i for i in ids if i.startswith("note:")]

    @settings(max_examples=40, deadline=None)
    @given(anchors=st.lists(st.sampled_from(ids), max_size=12, unique=True),
           keep=st.lists(st.sampled_from(ids + notes), max_size=6, unique=True),
           relations=st.sampled_from([CONTAINMENT, ("has_section", "has_done"), ()]),
           statuses=st.sampled_from([("active", "candidate", "killed"), ("candidate",), ("killed",)]))
    def same(anchors: list[str], keep: list[str], relations: tuple[str, ...], statuses: tuple[str, ...]) -> None:
        got = vault.edge_heads_around(anchors + notes[:1], keep, relations, statuses)
        with pytest.MonkeyPatch.context() as m:
            _rows_only(m)  # the view, reading every item of each note
            assert got == vault.edge_heads_around(anchors + notes[:1], keep, relations, statuses)

    same()
