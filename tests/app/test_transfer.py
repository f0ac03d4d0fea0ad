"""import / export: exact restore, dedup, --dry-run, historical created_at, hostile files."""
from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from mnemon.app.memory import Mnemon
from mnemon.core.errors import InvalidInput, MnemonError, StoreError


def _edges(m: Mnemon) -> set[tuple[Any, ...]]:
    return {(e.src, e.dst, e.type, e.sub_type, round(e.weight, 6), e.status, e.origin, e.created_at)
            for e in m.rt.store.iter_edges(statuses=("active", "candidate"))}


def _nodes(m: Mnemon) -> dict[str, dict[str, Any]]:
    return {n.id: n.to_dict() | {"inserted_at": n.inserted_at} for n in m.rt.store.iter_nodes()}


def test_export_then_import_restores_ids_contents_timestamps_and_edges(make_mem: Callable[..., Mnemon],
                                                                       tmp_path: Path) -> None:
    src = make_mem(db=tmp_path / "a.db")
    ids = [src.remember(t, category="fact", importance=2 + k % 3, tags="x,y", source=f"s{k % 2}",
                        created_at=f"2025-0{k + 1}-01T08:00:00Z")["id"]
           for k, t in enumerate(["Kubernetes runs the API", "We moved to Kubernetes because costs grew",
                                  "Kubernetes 学习笔记", "weekly sync notes"])]
    src.link(ids[0], ids[3], "semantic", weight=0.42, meta='{"why": "agent said so"}')
    src.show(ids[1])
    doc = src.export_json()
    dst = make_mem(db=tmp_path / "b.db")
    out = dst.import_json(json.dumps(doc))
    assert out["imported"] == 4 and out["skipped"] == 0
    assert _nodes(dst) == _nodes(src)
    assert _edges(dst) == _edges(src)
    assert dst.rt.store.vector_coverage(dst.rt.provider.identity()) == (4, 4)
    # and once more is a no-op
    again = dst.import_json(doc)
    assert again["imported"] == 0 and again["skipped"] == 4 and _nodes(dst) == _nodes(src)


def test_import_draft_honours_historical_created_at_and_orders_the_backbone(mem: Mnemon) -> None:
    doc = {"schema_version": "1", "source": "journal", "insights": [
        {"content": "third entry", "created_at": "2024-03-01T00:00:00Z"},
        {"content": "first entry", "created_at": "2024-01-01T00:00:00Z"},
        {"content": "second entry", "created_at": "2024-02-01T00:00:00Z"},
    ]}
    out = mem.import_json(doc)
    assert out["imported"] == 3
    by_content = {n.content: n for n in mem.rt.store.iter_nodes()}
    assert by_content["first entry"].created_at == "2024-01-01T00:00:00.000000Z"
    assert by_content["first entry"].source == "journal"
    backbone = {(mem.rt.store.get_node(e.src).content, mem.rt.store.get_node(e.dst).content)  # type: ignore[union-attr]
                for e in mem.rt.store.iter_edges(statuses=("active",)) if e.sub_type == "backbone"}
    assert backbone == {("first entry", "second entry"), ("second entry", "first entry"),
                        ("second entry", "third entry"), ("third entry", "second entry")}


def test_import_splices_history_into_an_existing_backbone(mem: Mnemon) -> None:
    mem.remember("jan", source="j", created_at="2024-01-01T00:00:00Z")
    mem.remember("mar", source="j", created_at="2024-03-01T00:00:00Z")
    mem.import_json({"insights": [{"content": "feb", "source": "j", "created_at": "2024-02-01T00:00:00Z"}]})
    chain = {(mem.rt.store.get_node(e.src).content, mem.rt.store.get_node(e.dst).content)  # type: ignore[union-attr]
             for e in mem.rt.store.iter_edges(statuses=("active",)) if e.sub_type == "backbone"}
    assert ("jan", "mar") not in chain and {("jan", "feb"), ("feb", "mar")} <= chain


def test_import_dedups_against_the_store_and_within_the_file(mem: Mnemon) -> None:
    existing = mem.remember("already here")["id"]
    out = mem.import_json({"insights": [{"content": "already here"}, {"content": "new one"},
                                        {"content": "new one"}]})
    assert (out["imported"], out["skipped"]) == (1, 2)
    actions = [(r["action"], r.get("id")) for r in out["results"]]
    assert actions[0] == ("skipped", existing)
    assert actions[2][0] == "skipped" and actions[2][1] == actions[1][1]
    assert mem.rt.store.count_active() == 2


def test_import_no_diff_keeps_repeats(mem: Mnemon) -> None:
    mem.remember("already here")
    out = mem.import_json({"insights": [{"content": "already here"}, {"content": "already here"}]}, no_diff=True)
    assert out["imported"] == 2 and mem.rt.store.count_active() == 3


def test_dry_run_reports_and_writes_nothing(mem: Mnemon) -> None:
    mem.remember("already here")
    before = mem.rt.store.stats()
    out = mem.import_json({"insights": [{"content": "already here"}, {"content": "fresh"}, {"content": ""}],
                           "edges": []}, dry_run=True)
    assert out["dry_run"] is True and out["would_import"] == 1 and out["skipped"] == 1 and out["errors"] == 1
    assert [r["action"] for r in out["results"]] == ["skipped", "would_add", "error"]
    after = mem.rt.store.stats()
    assert (after["total_insights"], after["edge_count"], after["oplog_count"]) == \
        (before["total_insights"], before["edge_count"], before["oplog_count"])


def test_import_edges_by_index(mem: Mnemon) -> None:
    out = mem.import_json({"insights": [{"content": "cause thing"}, {"content": "effect thing"}],
                           "edges": [{"source_index": 0, "target_index": 1, "edge_type": "causal", "weight": 0.8}]})
    a, b = out["results"][0]["id"], out["results"][1]["id"]
    edge = mem.rt.store.find_edge(a, b, "causal")
    assert edge is not None and edge.weight == 0.8 and mem.rt.store.find_edge(b, a, "causal") is None


@pytest.mark.parametrize("raw", [
    "not json", "42", '{"insights": 5}', '{"schema_version": "9", "insights": []}',
    '{"insights": [], "edges": [{"source_index": 0, "target_index": 0, "edge_type": "causal"}]}',
    '{"insights": [{"content": "a"}, {"content": "b"}], "edges": [{"source_index": true, "target_index": 1,'
    ' "edge_type": "causal"}]}',
    # an export whose shape is wrong (a bad row is reported by its index instead: test_restore.py)
    '{"kind": "mnemon-export", "insights": 5}',
    '{"kind": "mnemon-export", "schema_version": "9", "insights": [{"content": "a", "id": "x"}]}',
    '{"kind": "mnemon-export", "insights": [{"content": "a", "id": "x"}], "edges": 5}',
    '{"kind": "mnemon-export", "insights": [{"content": "a", "id": "x"}], "edges": [{"source_id": "x"}',
])
def test_malformed_files_are_invalid_input_and_write_nothing(mem: Mnemon, raw: str) -> None:
    with pytest.raises(InvalidInput):
        mem.import_json(raw)
    assert mem.rt.store.count_active() == 0


def test_bad_items_are_reported_per_item_and_the_rest_imported(mem: Mnemon) -> None:
    out = mem.import_json({"insights": [{"content": "good"}, {"content": "x", "tags": 5}, "nope",
                                        {"content": "bad \ud800"}, {"content": "ok", "category": "fact"}]})
    assert out["imported"] == 2 and out["errors"] == 3
    assert all(r["error"]["code"] == "invalid_input" for r in out["results"] if r["action"] == "error")


_json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
                            lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=8), kids,
                                                                                      max_size=4), max_leaves=12)
_insight = st.fixed_dictionaries({}, optional={"content": st.text(max_size=40) | _json_values,
                                               "category": st.sampled_from(["fact", "x"]) | _json_values,
                                               "importance": st.integers(-1, 7) | _json_values,
                                               "tags": _json_values, "entities": _json_values,
                                               "created_at": st.text(max_size=25) | _json_values,
                                               "id": st.text(max_size=5), "vector": _json_values,
                                               "access_count": _json_values})


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.fixed_dictionaries({"insights": st.lists(_insight | _json_values, max_size=5)},
                             optional={"kind": st.just("mnemon-export"), "edges": _json_values,
                                       "schema_version": st.sampled_from(["1", 1, "2"]), "source": _json_values}))
def test_any_import_document_is_a_result_or_a_typed_error(mem_none: Mnemon, doc: dict[str, Any]) -> None:
    try:
        out = mem_none.import_json(json.dumps(doc))
    except MnemonError as exc:
        assert exc.code == "invalid_input"
        return
    assert out["imported"] + out["skipped"] + out["errors"] == len(doc["insights"])


# ── export and restore at any size: written and read as a stream ──────────────

def _source_store(make_mem: Callable[..., Mnemon], tmp_path: Path) -> Mnemon:
    src = make_mem(db=tmp_path / "src.db")
    for k, text in enumerate(["Kubernetes runs the API", "We moved to Kubernetes because costs grew",
                              "Kubernetes 学习笔记", "weekly sync notes about the API", "the API needs rate limits"]):
        src.remember(text, category="fact", source=f"s{k % 2}", created_at=f"2025-0{k + 1}-01T08:00:00Z")
    return src


def test_export_is_written_as_the_store_is_read(make_mem: Callable[..., Mnemon], tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    src = _source_store(make_mem, tmp_path)
    read_edges: list[bool] = []
    iter_edges = src.rt.store.iter_edges
    monkeypatch.setattr(src.rt.store, "iter_edges", lambda **kw: (read_edges.append(True), iter_edges(**kw))[1])
    pieces = src.export_stream()
    first_insight = [next(pieces), next(pieces)]
    assert not read_edges and json.loads(first_insight[1].lstrip(",\n"))["content"]  # an insight, edges not read yet
    text = "".join(first_insight) + "".join(pieces)
    assert read_edges and json.loads(text) == json.loads(json.dumps(src.export_json())) | {
        "exported_at": json.loads(text)["exported_at"]}


@pytest.mark.parametrize("chunk", [7, 1 << 20])
def test_a_streamed_export_restores_exactly(make_mem: Callable[..., Mnemon], tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch, chunk: int) -> None:
    import io

    from mnemon.ports import json_stream

    monkeypatch.setattr(json_stream, "CHUNK", chunk)
    src = _source_store(make_mem, tmp_path)
    text = "".join(src.export_stream())
    dst = make_mem(db=tmp_path / "dst.db")
    assert dst.import_json(io.StringIO(text), dry_run=True)["would_import"] == 5
    assert _nodes(dst) == {}
    out = dst.import_json(io.StringIO(text))
    assert out["imported"] == 5 and out["edges_inserted"] == len(_edges(src))
    assert _nodes(dst) == _nodes(src) and _edges(dst) == _edges(src)
    assert dst.rt.store.vector_coverage(dst.rt.provider.identity()) == (5, 5)
    again = dst.import_json(io.StringIO(text))
    assert again["imported"] == 0 and again["skipped"] == 5 and _edges(dst) == _edges(src)


def test_a_bad_edge_at_the_end_of_a_streamed_export_is_reported_by_its_index(make_mem: Callable[..., Mnemon],
                                                                            tmp_path: Path) -> None:
    import io

    src = _source_store(make_mem, tmp_path)
    doc = json.loads("".join(src.export_stream()))
    doc["edges"].append({"source_id": doc["insights"][0]["id"], "target_id": "", "edge_type": "semantic"})
    dst = make_mem(db=tmp_path / "dst.db")
    out = dst.import_json(io.StringIO(json.dumps(doc)))
    bad = len(doc["edges"]) - 1
    assert out["edge_errors"] == 1 and out["edge_results"][0]["index"] == bad
    assert out["edge_results"][0]["error"]["message"].startswith(f"export edge {bad}: target_id")
    assert _nodes(dst) == _nodes(src) and _edges(dst) == _edges(src)


def test_a_streamed_export_cut_short_writes_nothing(make_mem: Callable[..., Mnemon], tmp_path: Path) -> None:
    import io

    text = "".join(_source_store(make_mem, tmp_path).export_stream())
    dst = make_mem(db=tmp_path / "dst.db")
    with pytest.raises(InvalidInput):
        dst.import_json(io.StringIO(text[: text.rindex("}", 0, len(text) - 5)]))
    assert _nodes(dst) == {} and _edges(dst) == set()


def test_an_export_whose_kind_follows_its_insights_still_restores(make_mem: Callable[..., Mnemon],
                                                                  tmp_path: Path) -> None:
    import io

    src = _source_store(make_mem, tmp_path)
    doc = json.loads("".join(src.export_stream()))
    reordered = {"insights": doc.pop("insights"), **doc}  # hand-edited: "kind" now after the insights
    dst = make_mem(db=tmp_path / "dst.db")
    assert dst.import_json(io.StringIO(json.dumps(reordered)))["imported"] == 5
    assert _nodes(dst) == _nodes(src) and _edges(dst) == _edges(src)


def test_the_cli_exports_one_document_that_the_cli_restores(cli_run: Callable[..., tuple[int, Any]],
                                                            cli_raw: Callable[..., tuple[int, str, str]],
                                                            tmp_path: Path) -> None:
    a, b = tmp_path / "a.db", tmp_path / "b.db"
    for text in ("Kubernetes runs the API", "We moved to Kubernetes because costs grew"):
        assert cli_run(["--db", a, "remember", text])[0] == 0
    code, out, _ = cli_raw(["--db", a, "export"])
    assert code == 0 and len(json.loads(out)["insights"]) == 2
    (tmp_path / "backup.json").write_text(out, encoding="utf-8")
    code, restored = cli_run(["--db", b, "import", tmp_path / "backup.json"])
    assert code == 0 and restored["imported"] == 2
    assert cli_run(["--db", b, "status"])[1]["edge_count"] == cli_run(["--db", a, "status"])[1]["edge_count"]
    (tmp_path / "broken.json").write_bytes(b'{"kind": "mnemon-export", "insights": [\xff]}')
    code, err = cli_run(["--db", b, "import", tmp_path / "broken.json"])
    assert code != 0 and err["error"]["code"] == "invalid_input"


def test_export_to_a_file_is_all_or_nothing(cli_run: Callable[..., tuple[int, Any]],
                                            cli_raw: Callable[..., tuple[int, str, str]], tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    db, backup = tmp_path / "a.db", tmp_path / "backup.json"
    for text in ("Kubernetes runs the API", "We moved to Kubernetes because costs grew"):
        assert cli_run(["--db", db, "remember", text])[0] == 0
    code, summary = cli_run(["--db", db, "export", "--out", backup])
    assert code == 0 and summary["ok"] and summary["bytes"] == backup.stat().st_size
    written, printed = json.loads(backup.read_text(encoding="utf-8")), json.loads(cli_raw(["--db", db, "export"])[1])
    assert {k: v for k, v in written.items() if k != "exported_at"} == \
        {k: v for k, v in printed.items() if k != "exported_at"} and len(written["insights"]) == 2
    before = backup.read_bytes()

    def failing(self: Mnemon, include_vectors: bool = True) -> Iterator[str]:
        yield '{"kind": "mnemon-export", "insights": ['
        raise StoreError("disk read failed halfway")

    monkeypatch.setattr(Mnemon, "export_stream", failing)
    code, err = cli_run(["--db", db, "export", "--out", backup])
    assert code != 0 and err["error"]["code"] == "store_error"
    assert backup.read_bytes() == before, "the earlier backup is untouched"
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == [], "no partial file left"
    code, err = cli_run(["--db", db, "export", "--out", tmp_path / "no" / "such" / "dir.json"])
    assert code != 0 and err["error"]["code"] == "invalid_input"


def test_two_imports_of_one_draft_at_once_store_each_memory_once(make_mem: Callable[..., Mnemon],
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    first, second = make_mem(), make_mem()  # two writers of one store (a file, or one PostgreSQL schema)
    draft = {"insights": [{"content": f"draft memory number {k}"} for k in range(30)] + [{"content": "draft memory "
                                                                                          "number 0"}]}
    bulk_transaction = first.rt.store.bulk_transaction

    def second_import_first() -> Any:
        # the other writer gets the write lock between this import's repeat check and its transaction
        assert second.import_json(draft)["imported"] == 30
        return bulk_transaction()

    monkeypatch.setattr(first.rt.store, "bulk_transaction", second_import_first)
    out = first.import_json(draft)
    assert (out["imported"], out["skipped"], out["embedded"]) == (0, 31, 0)
    assert first.rt.store.count_active() == 30
    stored = {n.content: n.id for n in first.rt.store.iter_nodes()}
    assert [r["id"] for r in out["results"]] == [stored[f"draft memory number {k % 30}"] for k in range(31)]


def test_a_draft_without_an_insights_array_is_refused(mem) -> None:
    """`{"memories": [...]}` used to import nothing and exit 0."""
    import io

    for raw in ('{"schema_version": "1", "memories": [{"content": "hello"}]}', '{"schema_version": "1"}'):
        for given in (raw, io.StringIO(raw)):
            with pytest.raises(InvalidInput, match="'insights' array"):
                mem.import_json(given)
    assert mem.import_json('{"schema_version": "1", "insights": []}')["imported"] == 0


def test_an_export_killed_midway_leaves_no_temporary_file_behind_for_good(mem, tmp_path) -> None:
    """kill -9 during `export --out` left `<path>.<pid>.tmp`, never removed; the next write of that path does."""
    import subprocess
    import sys

    mem.remember("one memory worth a backup")
    target = tmp_path / "backup.json"
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    orphan = tmp_path / f"backup.json.{int(dead.stdout)}.tmp"
    orphan.write_text('{"kind": "mnemon-export", "insig')  # what a killed writer leaves
    mine = tmp_path / "backup.json.notapid.tmp"
    mine.write_text("not ours to judge")
    out = mem.export_to(str(target))
    assert out["bytes"] > 0 and not orphan.exists() and mine.exists()
