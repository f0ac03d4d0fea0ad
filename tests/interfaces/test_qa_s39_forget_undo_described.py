"""QA round (session 39): every argument of every tool says what it does in tools/list — `forget`'s `undo` had no
description (`{"type": "boolean"}`), so an agent reading the schema could not tell it brings a memory back — and
tools/list stays within its budget (tests/interfaces/test_qa_s37_contract6.py)."""
from __future__ import annotations

from typing import Any

from mnemon.interfaces.mcp import handle


def _tools() -> list[dict[str, Any]]:
    reply = handle(lambda: None, {"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
    assert reply is not None
    return list(reply["result"]["tools"])


def test_forget_says_what_undo_does() -> None:
    forget = next(t for t in _tools() if t["name"] == "forget")
    undo = forget["inputSchema"]["properties"]["undo"]
    assert undo["type"] == "boolean" and "forgotten" in undo.get("description", "") and "back" in undo["description"]


def test_every_argument_of_every_tool_is_described() -> None:
    bare = [(t["name"], name) for t in _tools() for name, spec in t["inputSchema"]["properties"].items()
            if not str(spec.get("description", "")).strip()]
    assert bare == []
