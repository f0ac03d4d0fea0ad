"""QA round (session 38): `forget` with `undo` over MCP and HTTP — the CLI's `forget --undo ID`, no new tool (the
tools/list budget: tests/interfaces/test_qa_s37_contract6.py)."""
from __future__ import annotations

import json
from typing import Any

from mnemon.app.memory import Mnemon
from mnemon.interfaces.http.server import Api
from mnemon.interfaces.mcp import handle


def _mcp(mem: Mnemon, args: dict[str, Any]) -> tuple[bool, dict[str, Any]]:
    reply = handle(lambda: mem, {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                                 "params": {"name": "forget", "arguments": args}})
    assert reply is not None
    return bool(reply["result"]["isError"]), reply["result"]["structuredContent"]


def _http(mem: Mnemon, args: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    answer = Api(lambda: mem, allow_writes=True).handle(
        "POST", "/api/forget", {"host": "localhost", "content-type": "application/json"}, json.dumps(args).encode())
    return answer.status, json.loads(answer.body)


def test_mcp_forget_undo_revives_and_a_dry_run_changes_nothing(mem: Mnemon) -> None:
    node = mem.remember("the boiler is serviced every October")["id"]
    failed, gone = _mcp(mem, {"id": node})
    assert not failed and gone["status"] == "deleted"
    failed, plan = _mcp(mem, {"id": node, "undo": True, "dry_run": True})
    assert not failed and plan["status"] == "would_revive" and plan["revived"][0]["id"] == node
    failed, out = _mcp(mem, {"id": node, "undo": True})
    assert not failed and out["status"] == "revived" and mem.show(node)["id"] == node
    failed, again = _mcp(mem, {"id": node, "undo": True})
    assert failed and again["error"]["code"] == "conflict" and again["error"]["details"]["reason"] == "active"


def test_mcp_dry_run_without_undo_previews_the_forget(mem: Mnemon) -> None:
    node = mem.remember("the gate code changes monthly")["id"]
    failed, out = _mcp(mem, {"id": node, "dry_run": True})
    assert not failed and out["status"] == "would_delete" and out["dry_run"] is True
    assert mem.show(node)["id"] == node  # not forgotten


def test_http_forget_undo_answers_as_the_cli(mem: Mnemon, cli_run: Any, tmp_path: Any) -> None:
    node = mem.remember("the roof was re-tiled in 2024")["id"]
    status, _ = _http(mem, {"id": node})
    assert status == 200
    status, out = _http(mem, {"id": node, "undo": True})
    assert status == 200 and out["status"] == "revived" and [r["id"] for r in out["revived"]] == [node]
    status, refused = _http(mem, {"id": "nope", "undo": True})
    assert status == 404 and refused["error"]["code"] == "not_found"
    assert refused["error"]["details"]["refused"][0]["reason"] == "unknown"
