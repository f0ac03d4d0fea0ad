"""Session 35's QA of the servers as an agent's tool surface: a tools/list cursor, a Host header's port, a request
refused from its head alone under `Expect: 100-continue`, link's sub-type, a read-only server's OpenAPI document."""
from __future__ import annotations

import json
import socket
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mnemon.interfaces.http.server import Api
from mnemon.interfaces.mcp import INVALID_PARAMS, handle

from interfaces.test_http_transport import _answer, server  # noqa: F401  (tests/ is on sys.path; a fixture)


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
                                  "localhost:٨٠", ":8765"])
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


def _first_answer(port: int, head: bytes) -> tuple[int, dict[str, str], Any]:
    """What the server says to a request head that waits for `100 Continue` before sending its body."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(head)
        return _answer(sock)


def _head(method: str, path: str, *extra: str, length: int = 1 << 19) -> bytes:
    lines = [f"{method} {path} HTTP/1.1", "Host: localhost", "Content-Type: application/json",
             f"Content-Length: {length}", "Expect: 100-continue", *extra]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


@pytest.mark.parametrize(("options", "head", "status", "code"), [
    ({"token": "s3cret"}, _head("POST", "/api/recall"), 401, "unauthorized"),
    ({"token": "s3cret"}, _head("POST", "/api/recall", "Authorization: Bearer wrong"), 401, "unauthorized"),
    ({}, _head("POST", "/api/remember"), 403, "readonly"),
    ({"allow_writes": True}, _head("POST", "/api/nope"), 404, "not_found"),
    ({"allow_writes": True, "mount": "/mnemon"}, _head("POST", "/elsewhere"), 404, "not_found"),
    ({"allow_writes": True}, _head("PUT", "/api/remember"), 405, "method_not_allowed"),
    ({"allow_writes": True}, _head("POST", "/"), 405, "method_not_allowed"),
    ({"allow_writes": True}, _head("POST", "/api/remember?dry_run=true"), 400, "invalid_input"),
    ({"allow_writes": True}, _head("POST", "/api/remember").replace(b"application/json", b"text/plain"), 415,
     "unsupported_media_type"),
])
def test_a_request_refused_whatever_its_body_is_refused_before_100_continue(
        server, options: dict[str, Any], head: bytes, status: int, code: str) -> None:  # noqa: F811
    """A client that asks `Expect: 100-continue` sends its body only once invited: a request with no token, a write
    to a read-only server, an unknown path or a method the path does not take was invited (100 Continue) and the
    body sent for nothing, to be refused once read. The refusal is now the first answer, and the connection
    closes (the body may still follow)."""
    srv = server(**options)
    got, headers, body = _first_answer(srv.server_address[1], head)
    assert (got, body["error"]["code"]) == (status, code), body
    assert headers.get("connection") == "close"
    if status == 401:
        assert headers["www-authenticate"].startswith("Bearer")


def test_a_request_that_may_succeed_is_still_invited(server) -> None:  # noqa: F811
    srv = server(token="s3cret", allow_writes=True)
    body = b'{"content": "The office lease ends in May"}'
    with socket.create_connection(("127.0.0.1", srv.server_address[1]), timeout=10) as sock:
        sock.sendall(_head("POST", "/api/remember", "Authorization: Bearer s3cret", length=len(body)))
        assert sock.recv(100).startswith(b"HTTP/1.1 100 Continue")
        sock.sendall(body)
        status, _, answer = _answer(sock)
    assert status == 200 and answer["action"] == "added"


def test_a_write_to_a_read_only_server_is_refused_as_readonly_whatever_its_body(mem) -> None:
    """The answer must not depend on whether the client asked for 100 Continue: a bad body to a read-only server
    was 400 invalid_input without it and would be 403 readonly with it. Read-only comes first either way."""
    api = Api(lambda: mem)
    for body in (b"{not json", b'{"content": ""}', b'{"content": "ok"}'):
        reply = api.handle("POST", "/api/remember", {"host": "localhost", "content-type": "application/json"}, body)
        assert reply.status == 403 and b'"readonly"' in reply.body, body


@pytest.mark.parametrize("edge_type", [None, "semantic", "temporal", "entity", "supersedes"])
def test_a_causal_sub_type_on_another_edge_is_refused_and_nothing_linked(mem, edge_type: str | None) -> None:
    """`link` with sub_type "enables" and no edge_type stored a semantic edge named "enables" and answered "linked":
    the agent believed it recorded a cause, which no causal walk ever reads. The schema says so (a client that checks
    it is told first), check_args refuses it over MCP and HTTP, and the library refuses it on the command line."""
    from jsonschema import Draft202012Validator

    from mnemon.app import curation
    from mnemon.core.errors import InvalidInput
    from mnemon.interfaces.operations import BY_NAME, check_args

    a = mem.remember("The cache was cold after the deploy")["id"]
    b = mem.remember("Login latency doubled on Monday")["id"]
    args = {"source_id": a, "target_id": b, "sub_type": "enables", **({"edge_type": edge_type} if edge_type else {})}
    op = BY_NAME["link"]
    assert not Draft202012Validator(op.schema()).is_valid(args)
    with pytest.raises(InvalidInput, match="sub_type"):
        check_args(op, args)
    with pytest.raises(InvalidInput, match="causal"):
        mem.link(a, b, edge_type or "semantic", sub_type="enables")
    assert all(e.sub_type != "enables" for e in mem.rt.store.edges_of([a], direction="both"))
    causal = {**args, "edge_type": "causal"}
    assert Draft202012Validator(op.schema()).is_valid(causal)
    assert op.call(mem, check_args(op, causal))["sub_type"] == "enables"
    assert curation.CAUSAL_SUB_TYPES == tuple(op.properties["sub_type"]["enum"])


def test_a_read_only_servers_openapi_document_offers_only_what_it_serves(mem) -> None:
    """The OpenAPI document of a read-only `mnemon serve` described remember, forget, kill_edge … as POST operations,
    so an agent framework that makes a tool of each (an OpenAPI toolkit, a GPT action) offered writes that could only
    fail 403 readonly; `mnemon --readonly mcp serve` lists only the reading tools. A server that allows writes
    describes them all."""
    from mnemon.interfaces.operations import OPERATIONS

    def paths(**options: Any) -> set[str]:
        answer = Api(lambda: mem, **options).handle("GET", "/api/openapi.json", {"host": "localhost"}, b"")
        assert answer.status == 200
        return set(json.loads(answer.body)["paths"])

    assert paths() == {f"/api/{op.name}" for op in OPERATIONS if op.read_only}
    assert paths(allow_writes=True) == {f"/api/{op.name}" for op in OPERATIONS}
