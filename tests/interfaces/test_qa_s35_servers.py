"""Session 35's QA of the servers as an agent's tool surface: a tools/list cursor."""
from __future__ import annotations

from typing import Any

import pytest

from mnemon.interfaces.mcp import INVALID_PARAMS, handle


def _list(params: Any) -> dict[str, Any]:
    reply = handle(lambda: None, {"jsonrpc": "2.0", "id": 7, "method": "tools/list", "params": params})
    assert reply is not None and reply["id"] == 7
    return reply


@pytest.mark.parametrize("cursor", ["", "abc", "next", 2, True, ["page2"], {"page": 2}])
def test_tools_list_refuses_a_cursor_it_never_gave(cursor: Any) -> None:
    """MCP: an invalid cursor is -32602. The list was answered whole whatever the cursor said, so a client paging
    with a stale or made-up cursor read page one again as if it were the next (and could loop for ever)."""
    reply = _list({"cursor": cursor})
    assert "result" not in reply and reply["error"]["code"] == INVALID_PARAMS
    assert "cursor" in reply["error"]["message"]


def test_tools_list_without_a_cursor_lists_every_tool() -> None:
    for params in ({}, {"cursor": None}, None):
        reply = _list(params)
        assert reply["result"]["tools"] and "nextCursor" not in reply["result"]
