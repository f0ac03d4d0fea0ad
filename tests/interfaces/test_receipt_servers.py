"""`receipt` over MCP and HTTP: the same hashed audit export the command prints, declared read-only (it writes
nothing, not even a log row), with its limit checked as `log`'s is."""
from __future__ import annotations

import json
import sqlite3
from typing import Any

from mnemon.app.memory import Mnemon
from mnemon.interfaces.http.server import Api
from mnemon.interfaces.mcp import handle
from mnemon.interfaces.operations import BY_NAME

LOCAL = {"host": "localhost"}


def _mcp(mem: Mnemon, args: dict[str, Any]) -> dict[str, Any]:
    reply = handle(lambda: mem, {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                                 "params": {"name": "receipt", "arguments": args}})
    assert reply is not None
    return dict(reply["result"])


def _without_time(doc: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in doc.items() if k != "generated_at"}


def test_mcp_and_http_answer_the_facades_receipt(mem: Mnemon) -> None:
    mem.remember("Chose Qdrant as the vector database")
    mem.recall("Qdrant")
    direct = mem.receipt(limit=5)
    over_mcp = _mcp(mem, {"limit": 5})
    assert over_mcp.get("isError") is not True
    assert _without_time(over_mcp["structuredContent"]) == _without_time(direct)
    got = Api(lambda: mem).handle("GET", "/api/receipt?limit=5", LOCAL, b"")
    assert got.status == 200 and _without_time(json.loads(got.body)) == _without_time(direct)
    assert "Qdrant" not in got.body.decode()


def test_it_is_declared_read_only_and_writes_nothing(mem: Mnemon) -> None:
    op = BY_NAME["receipt"]
    assert op.read_only and not op.destructive
    mem.remember("Alice owns the payment service")
    watcher = sqlite3.connect(mem.rt.store.path)
    try:
        before = watcher.execute("PRAGMA data_version").fetchone()[0]
        assert Api(lambda: mem).handle("GET", "/api/receipt", LOCAL, b"").status == 200
        _mcp(mem, {})
        assert watcher.execute("PRAGMA data_version").fetchone()[0] == before
    finally:
        watcher.close()


def test_a_limit_out_of_range_is_invalid_input_over_both(mem: Mnemon) -> None:
    for limit in (0, 10_001):
        reply = _mcp(mem, {"limit": limit})
        assert reply["isError"] is True and reply["structuredContent"]["error"]["code"] == "invalid_input"
        got = Api(lambda: mem).handle("GET", f"/api/receipt?limit={limit}", LOCAL, b"")
        assert got.status == 400 and json.loads(got.body)["error"]["code"] == "invalid_input"
