"""A large import runs its graph rules in a second process (`import_pipeline`): same graph, same oplog, and a
failure there rolls the whole import back."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mnemon.app import import_pipeline
from mnemon.app.append_batch import AppendBatch
from mnemon.app.memory import Mnemon
from mnemon.core.errors import MnemonError

from conftest import FakeClock
from .test_append_batch import _graph, _items


@pytest.fixture(autouse=True)
def _sqlite_only(facade_backend: str) -> None:
    if facade_backend != "sqlite":
        pytest.skip("the child process reads a SQLite file; a PostgreSQL store imports in one process")


@pytest.fixture
def piped(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every import of 2+ memories takes the pipeline, 25 memories per flush; returns the batch sizes it took."""
    monkeypatch.setattr(import_pipeline, "PIPELINE_MIN", 2)
    monkeypatch.setattr(import_pipeline, "CHUNK", 25)
    taken: list[int] = []
    real = import_pipeline.write_all

    def spy(rt: Any, ordered: Any, db: str) -> Any:
        taken.append(len(ordered))
        return real(rt, ordered, db)

    monkeypatch.setattr(import_pipeline, "write_all", spy)
    return taken


def test_the_pipeline_grows_the_graph_of_one_process_and_of_one_write_per_memory(
        make_mem: Callable[..., Mnemon], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, piped: list[int]) -> None:
    clock = FakeClock()
    stores = {name: make_mem("none", db=tmp_path / f"{name}.db", clock=clock) for name in ("piped", "batch", "one")}
    for batch in (_items(11, 130, 1), _items(12, 90, 10)):  # the second continues stored history
        assert stores["piped"].import_json({"insights": batch})["errors"] == 0
        with monkeypatch.context() as patched:
            patched.setenv(import_pipeline.DISABLE_ENV, "0")
            stores["batch"].import_json({"insights": batch})
            patched.setattr(AppendBatch, "applies", staticmethod(lambda store, created: False))
            stores["one"].import_json({"insights": batch})
        clock.advance(hours=1)
    # both batches went through the child (what repeats a stored or an earlier memory of the batch is skipped)
    assert len(piped) == 2 and piped[0] == 130
    graphs = {name: _graph(m) for name, m in stores.items()}
    assert len(graphs["piped"][0]) == sum(piped) and len(graphs["piped"][1]) > 800
    assert graphs["piped"] == graphs["batch"] == graphs["one"]  # memories, edges with metadata, oplog
    counts = [{k: m.status()[k] for k in ("total_insights", "edges_by_type", "edges_by_status", "oplog_count")}
              for m in stores.values()]
    assert counts[0]["total_insights"] == sum(piped) and counts[0] == counts[1] == counts[2]  # the kept edge counts too


def test_a_failure_in_the_rule_process_rolls_the_whole_import_back(
        make_mem: Callable[..., Mnemon], monkeypatch: pytest.MonkeyPatch, piped: list[int]) -> None:
    m = make_mem("none")
    m.import_json({"insights": _items(13, 30, 1)})
    before = _graph(m)
    # the child cannot open the file it is given: it reports the error, the writer raises and rolls back
    monkeypatch.setattr(import_pipeline, "snapshot_for", lambda rt, n: "/nonexistent/mnemon.db")
    with pytest.raises(MnemonError, match="rule process failed"):
        m.import_json({"insights": _items(14, 40, 5)})
    assert _graph(m) == before  # not one memory, edge or oplog row of the failed import
    monkeypatch.setattr(import_pipeline, "CHILD_ARGS", ("-c", "import sys; sys.stderr.write('gone'); sys.exit(3)"))
    monkeypatch.setattr(import_pipeline, "snapshot_for", lambda rt, n: rt.store.snapshot_path())
    with pytest.raises(MnemonError, match=r"stopped \(exit 3\): gone"):
        m.import_json({"insights": _items(15, 40, 5)})
    assert _graph(m) == before
    monkeypatch.setattr(import_pipeline, "CHILD_ARGS", ("-m", "mnemon.app.import_pipeline"))
    out = m.import_json({"insights": _items(14, 40, 5)})  # and the store takes the same import afterwards
    assert out["imported"] == 40 and out["errors"] == 0


def test_a_failed_import_through_the_cli_is_a_json_error_and_loses_nothing(
        cli_run: Callable[..., Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, piped: list[int]) -> None:
    import json

    monkeypatch.setenv("MNEMON_EMBED_PROVIDER", "none")  # an import with vectors writes one memory at a time
    draft = tmp_path / "draft.json"
    draft.write_text(json.dumps({"insights": _items(16, 20, 1)}), encoding="utf-8")
    code, out = cli_run(["import", str(draft)])
    assert code == 0 and out["imported"] == 20 and piped == [20]
    monkeypatch.setattr(import_pipeline, "CHILD_ARGS", ("-c", "import sys; sys.exit(2)"))
    draft.write_text(json.dumps({"insights": _items(17, 20, 5)}), encoding="utf-8")
    code, out = cli_run(["import", str(draft)])
    assert code != 0 and out["error"]["code"]
    code, out = cli_run(["status"])
    assert code == 0 and out["total_insights"] == 20


def test_without_an_interpreter_to_start_the_import_runs_in_one_process(
        make_mem: Callable[..., Mnemon], monkeypatch: pytest.MonkeyPatch, piped: list[int]) -> None:
    import sys

    m = make_mem("none")
    monkeypatch.setattr(sys, "executable", "/nonexistent/python3")  # an embedded interpreter, say
    out = m.import_json({"insights": _items(18, 40, 1)})
    assert piped == [40] and out["imported"] == 40 and out["errors"] == 0  # asked, declined, written here
    assert len(_graph(m)[1]) > 100
