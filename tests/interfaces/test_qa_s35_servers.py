"""Session 35's QA of the servers as an agent's tool surface: a tools/list cursor, a Host header's port."""
from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mnemon.interfaces.http.server import Api
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


@pytest.mark.parametrize("host", ["127.0.0.1:abc", "localhost:8a", "localhost:-1", "localhost:+80", "[::1]:x",
                                  "localhost:65536", "127.0.0.1:99999999999999999999", "[::1]junk", "localhost: 80",
                                  "localhost:٨٠"])
def test_a_host_whose_port_is_no_port_is_refused(mem, host: str) -> None:
    """`Host: 127.0.0.1:abc` was answered as if addressed to 127.0.0.1; RFC 9112 §3.2 says 400 for an invalid Host,
    as a missing or empty one already was. The absolute form's authority is read the same way."""
    api = Api(lambda: mem)
    for target, headers in (("/api/status", {"host": host}), (f"http://{host}/api/status", {"host": "localhost"})):
        reply = api.handle("GET", target, headers, b"")
        assert reply.status == 400, (host, target, reply.body)
        assert b'"invalid_input"' in reply.body and b"port" in reply.body


@given(st.integers(0, 65535))
def test_every_port_number_is_a_port(port: int) -> None:
    api = Api(lambda: None, loopback_only=True)
    reply = api.handle("OPTIONS", "*", {"host": f"localhost:{port}"}, b"")
    assert reply.status == 204, reply.body


def test_an_empty_port_is_no_port(mem) -> None:
    # RFC 3986 §3.2.3: "localhost:" is the default port (a sender should leave the colon out, a reader takes it)
    assert Api(lambda: mem).handle("GET", "/api/status", {"host": "localhost:"}, b"").status == 200
