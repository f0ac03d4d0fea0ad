"""Session 34's second QA pass of the servers: a HEAD that wrote, a request without Host, arguments named as CLI
flags, a `+` a query string turned into a space, a refused body invited with 100 Continue, 414/431 without words,
and `mcp serve` with its standard output closed."""
from __future__ import annotations

import json
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from interfaces.test_http import server  # noqa: F401 - the fixture, started for real
from interfaces.test_mcp import _env, call

from mnemon.app.memory import Mnemon
from mnemon.interfaces.http.server import MAX_BODY, Api
from mnemon.interfaces.mcp import handle
from mnemon.interfaces.operations import OPERATIONS

LOCAL = {"host": "localhost"}
# the least each read-only operation needs (ids filled in by the test)
READ_ARGS: dict[str, str] = {"recall": "query=pilot", "search": "query=pilot", "show": "id={id}",
                             "related": "id={id}", "status": "", "retrieve": "prompt=pilot", "surface": "prompt=pilot",
                             "agent_preflight": "prompt=pilot", "explain_edge": "id=1", "graph": "",
                             "find_nodes": "query=pilot", "state_list": "", "state_explain": "id=nope", "log": "",
                             "receipt": "limit=5"}


def _data_version(db: sqlite3.Connection) -> int:
    """Changes whenever another connection commits to the database: any write at all."""
    return int(db.execute("PRAGMA data_version").fetchone()[0])


def test_every_read_only_operation_is_listed_here() -> None:
    assert set(READ_ARGS) == {op.name for op in OPERATIONS if op.read_only}


@pytest.mark.parametrize("name", sorted(READ_ARGS))
def test_a_head_writes_nothing(mem: Mnemon, name: str) -> None:
    """`HEAD /api/recall?query=x` ran the whole call: it counted the hits as accessed and logged a recall, for a
    request that gets no body. A HEAD answers with the GET's status and headers, and the store is left as it was."""
    memory_id = mem.remember("The pilot starts in June")["id"]
    api = Api(lambda: mem)
    target = f"/api/{name}?" + READ_ARGS[name].format(id=memory_id)
    watcher = sqlite3.connect(mem.rt.store.path)
    try:
        before = _data_version(watcher)
        head = api.handle("HEAD", target, LOCAL, b"")
        assert _data_version(watcher) == before, f"HEAD {target} wrote to the store"
        got = api.handle("GET", target, LOCAL, b"")
        assert head.status == got.status and head.content_type == got.content_type
        if name in ("recall", "search", "show"):  # what a GET does: so the check above can fail
            assert _data_version(watcher) != before
    finally:
        watcher.close()


def test_a_head_answers_as_the_get_would(mem: Mnemon) -> None:
    mem.remember("The pilot starts in June")
    api = Api(lambda: mem)
    head = api.handle("HEAD", "/api/recall?query=pilot", LOCAL, b"")
    assert head.status == 200 and head.body == api.handle("GET", "/api/recall?query=pilot", LOCAL, b"").body
    assert mem.log()["entries"][0]["op"] == "recall"  # the GET's own entry, and the HEAD left none
    assert [e["op"] for e in mem.log()["entries"]].count("recall") == 1


def _send(port: int, data: bytes, *, wait_for_close: bool = True) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(data)
        out = b""
        while chunk := conn.recv(1 << 16):
            out += chunk
            if not wait_for_close and b"\r\n\r\n" in out:
                break
        return out


def _status_and_envelope(answer: bytes) -> tuple[int, dict[str, Any]]:
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(body)


def test_a_request_without_host_is_a_bad_request(server) -> None:  # noqa: F811
    """RFC 9112 §3.2: a request without a Host header is a 400; it was 403 `forbidden_host`, as if it had named
    another site. A wrong Host is still refused (DNS rebinding)."""
    port = server().server_address[1]
    status, envelope = _status_and_envelope(_send(port, b"GET /api/status HTTP/1.1\r\nConnection: close\r\n\r\n"))
    assert status == 400 and envelope["error"]["code"] == "invalid_input"
    assert "Host" in envelope["error"]["message"]
    empty = b"GET /api/status HTTP/1.1\r\nHost: \r\nConnection: close\r\n\r\n"  # (an http URI's host is never empty)
    status, envelope = _status_and_envelope(_send(port, empty))
    assert status == 400 and envelope["error"]["code"] == "invalid_input"
    status, envelope = _status_and_envelope(_send(port, b"GET /api/status HTTP/1.1\r\nHost: evil.example\r\n"
                                                        b"Connection: close\r\n\r\n"))
    assert status == 403 and envelope["error"]["code"] == "forbidden_host"
    # an absolute-form target names the host itself: no Host header needed
    status, envelope = _status_and_envelope(_send(port, f"GET http://127.0.0.1:{port}/api/status HTTP/1.1\r\n"
                                                        "Connection: close\r\n\r\n".encode()))
    assert status == 200 and "error" not in envelope


def test_an_invalid_as_of_is_named_as_the_caller_gave_it(mem: Mnemon) -> None:
    """MCP `retrieve {"as_of": "2026-02-30"}` said "--as-of '2026-02-30' is not…", a flag an agent never gave,
    while state_list said `as_of`. Both name the argument."""
    for i, (tool, args) in enumerate([("retrieve", {"prompt": "x", "as_of": "2026-02-30"}),
                                      ("agent_preflight", {"prompt": "x", "as_of": "2026-02-30"}),
                                      ("state_list", {"as_of": "2026-02-30"})], 1):
        result = handle(lambda: mem, call(i, tool, args))["result"]  # type: ignore[index]
        error = result["structuredContent"]["error"]
        assert error["code"] == "invalid_input" and "--" not in error["message"], (tool, error)
        assert error["message"].startswith("as_of") and error["details"]["field"] == "as_of", (tool, error)
    api = Api(lambda: mem)
    answer = json.loads(api.handle("GET", "/api/retrieve?prompt=x&as_of=2026-02-30", LOCAL, b"").body)
    assert "--" not in answer["error"]["message"] and "as_of" in answer["error"]["message"]


@pytest.mark.parametrize("name", ["retrieve", "agent_preflight", "state_list"])
def test_a_plus_decoded_to_a_space_is_pointed_out(mem: Mnemon, name: str) -> None:
    """`as_of=2026-05-01T09:30:00+02:00` in a URL: the `+` is a space in a query string, and the refusal said only
    "must be an RFC 3339 / ISO-8601 date or time", with what the caller wrote looking right. It says to write %2B;
    written so, the instant is taken."""
    api = Api(lambda: mem)
    prompt = "" if name == "state_list" else "prompt=pilot&"
    refused = api.handle("GET", f"/api/{name}?{prompt}as_of=2026-05-01T09:30:00+02:00", LOCAL, b"")
    message = json.loads(refused.body)["error"]["message"]
    assert refused.status == 400 and "%2B" in message and "as_of" in message, message
    taken = api.handle("GET", f"/api/{name}?{prompt}as_of=2026-05-01T09:30:00%2B02:00", LOCAL, b"")
    assert taken.status == 200, taken.body
    other = api.handle("GET", f"/api/{name}?{prompt}as_of=2026-05-01T09:30:00x", LOCAL, b"")
    assert other.status == 400 and "%2B" not in json.loads(other.body)["error"]["message"]


def test_a_body_too_large_is_refused_before_it_is_invited(server) -> None:  # noqa: F811
    """With `Expect: 100-continue` a 5 MB body got `100 Continue` and was read before the 413. Now the 413 comes at
    once, and the client never sends the body."""
    port = server().server_address[1]
    head = (f"POST /api/recall HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
            f"Content-Length: {5 * MAX_BODY}\r\nExpect: 100-continue\r\n\r\n").encode()
    answer = _send(port, head)  # the body is never sent: a server that invited it waits for it (and times out)
    assert not answer.startswith(b"HTTP/1.1 100"), answer[:80]
    status, envelope = _status_and_envelope(answer)
    assert status == 413 and envelope["error"]["code"] == "too_large"
    # a body within the limit is still invited
    small = (b"POST /api/status HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
             b"Content-Length: 2\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n")
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(small)
        assert conn.recv(1 << 16).startswith(b"HTTP/1.1 100 Continue")
        conn.sendall(b"{}")
        assert b"200 OK" in conn.recv(1 << 16)


@pytest.mark.parametrize("framing, status", [(b"Transfer-Encoding: chunked\r\n", 411),
                                            (b"Transfer-Encoding: gzip\r\n", 400),
                                            (b"Content-Length: 5\r\nContent-Length: 6\r\n", 400)])
def test_a_body_that_would_not_be_read_is_not_invited(server, framing: bytes, status: int) -> None:  # noqa: F811
    """`curl -T -` sends a chunked body after `Expect: 100-continue`: it was invited, then refused unread and the
    connection closed under a client still sending. The refusal comes instead of the 100."""
    port = server().server_address[1]
    answer = _send(port, b"POST /api/recall HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                         + framing + b"Expect: 100-continue\r\n\r\n")
    assert not answer.startswith(b"HTTP/1.1 100"), answer[:80]
    assert _status_and_envelope(answer)[0] == status


@pytest.mark.parametrize("request_bytes, words", [
    (b"GET /api/status?q=" + b"a" * 70_000 + b" HTTP/1.1\r\nHost: localhost\r\n\r\n", "request line"),
    (b"GET /api/status HTTP/1.1\r\nHost: localhost\r\nX-Long: " + b"a" * 70_000 + b"\r\n\r\n", "header line"),
    (b"GET /api/status HTTP/1.1\r\nHost: localhost\r\n" + b"".join(b"X-%d: 1\r\n" % i for i in range(120))
     + b"\r\n", "headers"),
])
def test_a_request_too_long_says_what_and_the_limit(server, request_bytes: bytes, words: str) -> None:  # noqa: F811
    """414 and 431 answered `{"message": "HTTP 414"}` (or "Line too long", also as the status's reason phrase)."""
    port = server().server_address[1]
    answer = _send(port, request_bytes)
    status, envelope = _status_and_envelope(answer)
    assert status in (414, 431) and envelope["error"]["code"] == "invalid_input"
    message = envelope["error"]["message"]
    assert words in message and any(limit in message for limit in ("65536", "100")), message
    assert answer.split(b"\r\n")[0] in (b"HTTP/1.1 414 Request-URI Too Long",
                                        b"HTTP/1.1 431 Request Header Fields Too Large")


def test_mcp_serve_with_stdout_closed_says_why(tmp_path: Path) -> None:
    """`mnemon mcp serve >&-` exited 1 without a word: no answer could ever reach a client, and nobody was told."""
    proc = subprocess.run(["sh", "-c", '"$0" -m mnemon --db "$1" mcp serve >&-', sys.executable,
                           str(tmp_path / "m.db")], stdin=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          env=_env(tmp_path), timeout=60)
    assert proc.returncode == 1
    assert b"Traceback" not in proc.stderr and b"standard output is closed" in proc.stderr, proc.stderr
