"""QA session 36, the interfaces' contract, third round: `forget --days-threshold` over MCP and HTTP, the
cross-field rules of action_record, sense_add and predict_add stated in their schemas, instants the schema and the
library read alike, and `run-once` reading the config's follow_symlinks as `ingest` does."""
from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from mnemon.app.memory import Mnemon
from mnemon.interfaces import operations
from mnemon.interfaces.mcp import handle

from conftest import FakeClock

CliRun = Callable[..., tuple[int, Any]]


def _mcp(mem: Any, method: str, params: dict[str, Any], *, read_only: bool = False) -> dict[str, Any]:
    reply = handle(lambda: mem, {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}, read_only=read_only)
    assert reply is not None
    return dict(reply["result"])


def _http(mem: Any, name: str, args: dict[str, Any], **options: Any) -> tuple[int, dict[str, Any]]:
    from mnemon.interfaces.http.server import Api

    reply = Api(lambda: mem, **options).handle("POST", f"/api/{name}", {"host": "localhost",
                                                                       "content-type": "application/json"},
                                               json.dumps(args).encode())
    return reply.status, json.loads(reply.body)


# ── 1. forget --days-threshold over the servers ────────────────────────────────────────────────────────────────
def _bills(make_mem: Callable[..., Mnemon], tmp_path: Path) -> Mnemon:
    mem = make_mem("hash", clock=FakeClock(datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)))
    (tmp_path / "v").mkdir()
    (tmp_path / "v" / "bills.md").write_text("# Bills\n\n- Paid the plumber invoice on 2026-01-10\n"
                                             "- Gas contract renewal due 2026-03-20\n", encoding="utf-8")
    mem.ingest(str(tmp_path / "v"))
    return mem


def test_forget_dated_is_a_tool_and_a_route_with_its_dry_run(make_mem: Callable[..., Mnemon], tmp_path: Path) -> None:
    """`mnemon forget --days-threshold 30 [--dry-run]` ages past-dated bullets; an agent over MCP or HTTP had no
    way to do it (no tool, no route): forget_dated, one facade call, its dry run changing nothing."""
    mem = _bills(make_mem, tmp_path)
    tools = {t["name"]: t for t in _mcp(mem, "tools/list", {})["tools"]}
    assert "forget_dated" in tools and tools["forget_dated"]["annotations"]["destructiveHint"] is True
    dry = _mcp(mem, "tools/call", {"name": "forget_dated", "arguments": {"days_threshold": 30, "dry_run": True}})
    dry = dry["structuredContent"]
    assert (dry["dry_run"], dry["forgotten_count"], dry["cutoff_date"]) == (True, 1, "2026-01-30")
    assert [e["text"] for e in dry["forgotten_edges"]] == ["Paid the plumber invoice on 2026-01-10"]
    assert mem.rt.store.get_edge(dry["forgotten_edges"][0]["id"]).status == "active"  # the dry run changed nothing
    status, done = _http(mem, "forget_dated", {"days_threshold": 30}, allow_writes=True)
    assert status == 200 and done["dry_run"] is False and done["forgotten_count"] == 1
    assert mem.rt.store.get_edge(done["forgotten_edges"][0]["id"]).status == "candidate"
    # a write: not on a read-only server; a threshold out of range is the schema's refusal, as the CLI's
    assert "forget_dated" not in {t["name"] for t in _mcp(mem, "tools/list", {}, read_only=True)["tools"]}
    assert _http(mem, "forget_dated", {"days_threshold": 30})[0] == 403
    status, refused = _http(mem, "forget_dated", {"days_threshold": -1}, allow_writes=True)
    assert status == 400 and refused["error"]["code"] == "invalid_input"
    assert not Draft202012Validator(operations.BY_NAME["forget_dated"].schema()).is_valid({"days_threshold": -1})


def test_forget_dateds_limit_is_the_librarys() -> None:
    from mnemon.app.vault import lifecycle

    assert operations.MAX_FORGET_DAYS == lifecycle.MAX_FORGET_DAYS
