"""`recall --source` naming a source no memory has says so, on the CLI, MCP's operation and HTTP alike.

`mnemon recall Postgres --source nobody` answered `{"results":[],"hint":"sparse_results"}` and nothing else, the
answer of a store with few matches, while `--cat nobody` is refused: a category is one of a closed set, a source is
any name a writer chose, so the filter is kept and the answer warns that no memory has that source (with the
nearest source some memory has, for a typo).
"""
from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

from mnemon.app.memory import Mnemon
from mnemon.interfaces.operations import BY_NAME, check_args

from interfaces.test_http import serve  # noqa: F401  (a fixture)


def _store(mem: Mnemon) -> None:
    mem.remember("We switched from MySQL to Postgres because of JSON support", category="decision")
    mem.remember("Postgres migration caused two hours of downtime", category="fact", source="claude-code")


def test_the_cli_warns_about_a_source_no_memory_has(tmp_path: Path, cli_run) -> None:
    db = str(tmp_path / "m.db")
    for text, source in (("We switched from MySQL to Postgres because of JSON support", "user"),
                         ("Postgres migration caused two hours of downtime", "claude-code")):
        assert cli_run(["--db", db, "remember", text, "--source", source])[0] == 0
    code, out = cli_run(["--db", db, "recall", "Postgres", "--source", "nobody"])
    assert code == 0 and out["results"] == []
    assert any("'nobody'" in w and "no memory has source" in w for w in out["warnings"]), out
    code, out = cli_run(["--db", db, "recall", "Postgres", "--source", "claude-cod", "--brief"])
    assert any("'claude-code'" in w for w in out["warnings"]), out  # the near miss is named
    code, out = cli_run(["--db", db, "recall", "Postgres", "--source", "claude-code"])
    assert code == 0 and len(out["results"]) == 1 and "warnings" not in out


def test_mcp_operation_and_http_warn_alike(mem: Mnemon, serve) -> None:  # noqa: F811
    _store(mem)
    op = BY_NAME["recall"]
    by_op = op.call(mem, check_args(op, {"query": "Postgres", "source": "nobody"}))
    status, by_http, _ = serve()("/api/recall?query=Postgres&source=nobody")
    assert status == 200
    for out in (by_op, by_http):
        assert out["results"] == [] and any("'nobody'" in w for w in out["warnings"]), out


def test_a_forgotten_memorys_source_is_no_memorys(mem: Mnemon) -> None:
    gone = mem.remember("The Postgres replica lives in Frankfurt", source="ops-bot")["id"]
    mem.forget(gone)
    out = mem.recall("Postgres replica", source="ops-bot")
    assert out["results"] == [] and any("'ops-bot'" in w for w in out["warnings"])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), min_size=1, max_size=40))
def test_a_warning_exactly_when_no_memory_has_the_source(mem: Mnemon, source: str) -> None:
    if not mem.recall("Postgres", limit=1)["results"]:
        _store(mem)
    out = mem.recall("Postgres", source=source)
    warned = any("no memory has source" in w for w in out.get("warnings", []))
    assert warned == (source not in ("user", "claude-code"))
    if warned:
        assert out["results"] == []
