"""Session 31's QA of the HTTP API and the operation schemas, as an agent developer integrating them meets them:
request framing a proxy in front may read otherwise, query values typed as JSON types them, and arguments the facade
refuses stated in the schema (so a client that checks first is never refused, and nothing it rules out runs)."""
from __future__ import annotations

import socket

import pytest
from jsonschema import Draft202012Validator

from mnemon.core.errors import InvalidInput
from mnemon.interfaces.operations import BY_NAME, check_args

from interfaces.test_http_transport import LEASE, POST_REMEMBER, _answer, server  # noqa: F401  (a fixture)


def _exchange(port: int, request: bytes) -> list[tuple[int, dict[str, str], object]]:
    """Every answer the server writes on one connection before it closes it."""
    answers = []
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(request)
        sock.shutdown(socket.SHUT_WR)
        while True:
            try:
                answers.append(_answer(sock))
            except AssertionError:  # the connection ended
                return answers


# ── Transfer-Encoding ────────────────────────────────────────────────────────
SMUGGLED = b"POST /api/remember HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n" \
           b"Content-Length: %d\r\n\r\n%s" % (len(LEASE), LEASE)


def test_chunked_in_a_second_transfer_encoding_header_is_refused_not_read_as_the_next_request(server, mem) -> None:
    """Only the first Transfer-Encoding was read: "gzip" then "chunked" (one coding list to RFC 9110, and to a proxy
    in front) executed the POST with an empty body and then the bytes of its chunked body as a request of their
    own — here a remember no proxy ever saw as one."""
    port = server(allow_writes=True).server_address[1]
    request = (b"POST /api/status HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
               b"Transfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n" + SMUGGLED)
    answers = _exchange(port, request)
    assert [(status, body["error"]["code"]) for status, _, body in answers] == [(411, "length_required")]
    assert answers[0][1]["connection"] == "close"
    assert mem.status()["total_insights"] == 0


@pytest.mark.parametrize("coding", [b"gzip", b"identity", b"chunked, gzip"])
def test_a_body_under_another_transfer_coding_is_refused_and_nothing_runs(server, mem, coding: bytes) -> None:
    """RFC 9112 §6.3: without chunked last the body's length is unknown; it was read by its Content-Length and run."""
    port = server(allow_writes=True).server_address[1]
    request = POST_REMEMBER + b"Transfer-Encoding: " + coding + b"\r\nContent-Length: %d\r\n\r\n" % len(LEASE) + LEASE
    answers = _exchange(port, request)
    expected = 411 if b"chunked" in coding else 400
    assert [status for status, _, _ in answers] == [expected]
    assert mem.status()["total_insights"] == 0


# ── query values ─────────────────────────────────────────────────────────────
@pytest.mark.parametrize("value", ["1_0", "%2B5", "%205", "5%20", "%D9%A5", "0x5", "05", "nan", "1e400", "9" * 5000])
def test_a_query_number_is_read_as_json_writes_it(server, mem, value: str) -> None:
    """`int()` read "1_0" as the edge 10 and "+5", " 5" or an Arabic five as the edge 5: a typo named another edge
    (and, for a write, would have changed it) instead of being refused."""
    a = mem.remember("Chose Qdrant as the vector database")["id"]
    b = mem.remember("Qdrant runs on the staging cluster")["id"]
    mem.link(a, b, "semantic")
    port = server().server_address[1]
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(f"GET /api/explain_edge?id={value} HTTP/1.1\r\nHost: localhost\r\n"
                     f"Connection: close\r\n\r\n".encode())
        status, _, body = _answer(sock)
    assert (status, body["error"]["code"]) == (400, "invalid_input"), body
    assert "must be an integer" in body["error"]["message"]


@pytest.mark.parametrize("query, expected", [("limit=3", 3), ("limit=3.0", 3), ("limit=-0", None)])
def test_a_query_number_json_would_write_is_taken(server, query: str, expected: int | None) -> None:
    port = server().server_address[1]
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(f"GET /api/log?{query} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".encode())
        status, _, body = _answer(sock)
    # -0 is a number JSON writes, and below log's minimum: the range's refusal, not the parser's
    assert status == (200 if expected else 400), body
    if expected is None:
        assert "must be from 1" in body["error"]["message"]


# ── what the schemas state ───────────────────────────────────────────────────
def test_a_graph_focus_and_folder_together_are_refused_by_the_schema_as_by_the_facade(mem) -> None:
    graph = BY_NAME["graph"]
    validator = Draft202012Validator(graph.schema())
    assert not validator.is_valid({"focus": "n1", "folder": "Projects"})
    with pytest.raises(InvalidInput, match="'focus' and 'folder' cannot both be given"):
        check_args(graph, {"focus": "n1", "folder": "Projects"})
    for alone in ({"focus": "", "folder": "Projects"}, {"folder": "Projects"}, {"focus": "n1", "folder": ""}):
        assert validator.is_valid(alone)
        check_args(graph, alone)  # taken: an empty text is none to the facade too
    assert graph.call(mem, check_args(graph, {"focus": "", "folder": "Projects"}))["folder"] == "Projects/"


@pytest.mark.parametrize("scope, taken", [("mneme://", False), ("mneme:///", False), ("mneme://a b", False),
                                          ("mneme://a\u3000b", False), ("mneme://a\x00", False),
                                          ("mneme://agent/s1", True), ("mneme://agent/s1/ ", True),
                                          ("mneme://a\ufeff", True)])
def test_forget_source_states_the_scope_the_facade_takes(mem, scope: str, taken: bool) -> None:
    """The schema said only "^mneme://": "mneme://" or a scope with a space passed a client's check and was
    refused by the facade."""
    op = BY_NAME["forget_source"]
    assert Draft202012Validator(op.schema()).is_valid({"source_path": scope}) is taken
    if taken:
        assert op.call(mem, check_args(op, {"source_path": scope, "dry_run": True}))["dry_run"] is True
    else:
        with pytest.raises(InvalidInput, match="must be a mneme:// scope"):
            check_args(op, {"source_path": scope})
        with pytest.raises(InvalidInput):
            mem.forget_source(scope, dry_run=True)  # the facade's own rule, which the schema states


@pytest.mark.parametrize("op_name, name", [("retrieve", "as_of"), ("agent_preflight", "as_of"),
                                           ("remember", "created_at")])
def test_a_time_with_a_trailing_newline_is_read_alike_by_python_and_a_javascript_client(op_name: str,
                                                                                      name: str) -> None:
    """Python's `$` also matches before a final newline, ECMA-262's (JSON Schema's) does not: "2026-05-01\\n" was
    taken here while a client checking the schema in JavaScript was told it is no date. Since session 36 the
    pattern takes the spaces the library strips around an instant, a newline among them, on both readings; a
    newline inside it is refused on both."""
    op = BY_NAME[op_name]
    required = {n: "x" for n in op.required if n != name}
    validator = Draft202012Validator(op.schema())
    assert check_args(op, {**required, name: "2026-05-01\n"})[name] == "2026-05-01\n"
    assert validator.is_valid({**required, name: "2026-05-01\n"})
    with pytest.raises(InvalidInput, match="RFC 3339"):
        check_args(op, {**required, name: "2026-05-01\nT09:30"})
    assert not validator.is_valid({**required, name: "2026-05-01\nT09:30"})
    assert check_args(op, {**required, name: "2026-05-01"})[name] == "2026-05-01"
