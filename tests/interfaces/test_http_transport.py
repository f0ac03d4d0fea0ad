"""`mnemon serve` at the transport: bursts of connections, request framing, the bytes of the request target and of
the token, and a stop that lets requests in flight finish. Raw sockets where an HTTP client would hide the case."""
from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from mnemon.interfaces.http.server import Api, make_server

from interfaces.test_http import _env, _raw  # tests/ is on sys.path

LEASE = b'{"content": "The office lease ends in May"}'
POST_REMEMBER = b"POST /api/remember HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"


@pytest.fixture
def server(mem) -> Iterator[Callable[..., Any]]:
    """A server to start with `Api` options; not yet answering when `serving=False` (its socket listens, nothing
    accepts). Request threads are joined on the way out."""
    made = []

    def start(*, serving: bool = True, timeout: float | None = None, **options: Any) -> Any:
        srv = make_server(Api(lambda: mem, **options), "127.0.0.1", 0, **({} if timeout is None else
                                                                          {"timeout": timeout}))
        srv.daemon_threads = False  # joined by server_close below
        made.append(srv)
        if serving:
            serve(srv)
        return srv

    yield start
    for srv in made:
        if srv in SERVING:
            srv.shutdown()  # (waits for `serve_forever`: on a server never served it would wait for good)
            SERVING.discard(srv)
        srv.server_close()


SERVING: set[Any] = set()


def serve(srv: Any) -> None:
    SERVING.add(srv)
    threading.Thread(target=srv.serve_forever, daemon=True).start()


def _answer(sock: socket.socket) -> tuple[int, dict[str, str], Any]:
    """One HTTP answer read off a raw socket: status, headers (lower-case names) and the JSON body."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(1 << 16)
        if not chunk:
            raise AssertionError(f"the connection ended without an answer: {data!r}")
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    while len(body) < int(headers.get("content-length", 0)):
        chunk = sock.recv(1 << 16)
        if not chunk:
            break
        body += chunk
    return int(lines[0].split()[1]), headers, json.loads(body) if body else None


def _send(port: int, request: bytes, *, close_sending: bool = False) -> tuple[int, dict[str, str], Any]:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(request)
        if close_sending:
            sock.shutdown(socket.SHUT_WR)
        return _answer(sock)


# ── 1. the listen queue ──────────────────────────────────────────────────────
def test_a_burst_of_connections_waits_in_the_listen_queue_and_every_one_is_answered(server) -> None:
    """64 clients connecting before the server accepts any of them (as when its accepting thread lags behind a
    burst): with the stdlib's queue of 5 the rest were dropped (a SYN retry of 1-3 s here, a reset elsewhere)."""
    srv = server(serving=False)
    port = srv.server_address[1]
    clients: list[socket.socket] = []
    try:
        for _ in range(64):
            clients.append(socket.create_connection(("127.0.0.1", port), timeout=2))
        serve(srv)
        for sock in clients:
            sock.sendall(b"GET /api/status HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        for sock in clients:
            status, _, payload = _answer(sock)
            assert status == 200 and payload["total_insights"] == 0
    finally:
        for sock in clients:
            sock.close()


# ── 2. request framing ───────────────────────────────────────────────────────
def test_a_body_shorter_than_its_content_length_is_refused_and_nothing_is_stored(server, mem) -> None:
    port = server(allow_writes=True).server_address[1]
    request = POST_REMEMBER + b"Content-Length: 100\r\n\r\n" + LEASE  # a whole JSON object, but 64 bytes short
    status, headers, err = _send(port, request, close_sending=True)
    assert (status, err["error"]["code"]) == (400, "invalid_input")
    assert f"after {len(LEASE)} of the 100 bytes" in err["error"]["message"]
    assert headers["connection"] == "close"
    assert mem.status()["total_insights"] == 0


def test_a_body_that_stalls_gets_an_answer_and_nothing_is_stored(server, mem) -> None:
    port = server(allow_writes=True, timeout=0.3).server_address[1]
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(POST_REMEMBER + b"Content-Length: 100\r\n\r\n" + LEASE)
        status, _, err = _answer(sock)
    assert (status, err["error"]["code"]) == (400, "invalid_input") and "did not arrive" in err["error"]["message"]
    assert mem.status()["total_insights"] == 0


def _lengths(templates: list[str]) -> bytes:
    return "".join(f"Content-Length: {t.format(n=len(LEASE))}\r\n" for t in templates).encode()


@pytest.mark.parametrize("lengths", [["{n}", "50"], ["{n}, 50"], ["+{n}"], ["4_3"], [""]])
def test_content_lengths_that_disagree_or_are_malformed_are_refused(server, mem, lengths: list[str]) -> None:
    """Two lengths leave nobody sure where the body ends (the way to smuggle a second request past a proxy)."""
    port = server(allow_writes=True).server_address[1]
    fields = _lengths(lengths)
    status, headers, err = _send(port, POST_REMEMBER + fields + b"\r\n" + LEASE)
    assert (status, err["error"]["code"]) == (400, "invalid_input") and "Content-Length" in err["error"]["message"]
    assert headers["connection"] == "close"
    assert mem.status()["total_insights"] == 0


@pytest.mark.parametrize("lengths", [["{n}", "{n}"], ["{n}, {n}"], ["0{n}"]])
def test_a_length_repeated_unchanged_is_one_length(server, mem, lengths: list[str]) -> None:
    """RFC 9110 §8.6 lets a recipient take identical repeats as the one value they agree on."""
    port = server(allow_writes=True).server_address[1]
    fields = _lengths(lengths)
    status, _, done = _send(port, POST_REMEMBER + fields + b"Connection: close\r\n\r\n" + LEASE)
    assert status == 200 and done["action"] == "added"
    assert mem.show(done["id"])["content"] == "The office lease ends in May"


# ── 3. the request target is UTF-8 ───────────────────────────────────────────
@pytest.mark.parametrize("target", ["/api/find_nodes?query=Zürich", "/api/find_nodes?query=Z%C3%BCrich"])
def test_a_query_in_utf8_is_read_as_utf8_raw_or_percent_encoded(server, target: str) -> None:
    port = server().server_address[1]
    request = f"GET {target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".encode()
    status, _, found = _send(port, request)
    assert status == 200 and found["query"] == "Zürich"


@pytest.mark.parametrize("target", [b"/api/find_nodes?query=%ff%fe", b"/api/find_nodes?query=\xff\xfe",
                                    b"/api/find_nodes?query=Z%C3", b"/api/%ff", b"/api/status?%ff=1"])
def test_a_target_that_is_not_utf8_is_refused_not_guessed_at(server, target: bytes) -> None:
    port = server().server_address[1]
    status, _, err = _send(port, b"GET " + target + b" HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
    assert (status, err["error"]["code"]) == (400, "invalid_input") and "UTF-8" in err["error"]["message"]


# ── 7. a token in any script ──────────────────────────────────────────────────
def test_a_non_ascii_token_matches_the_utf8_bytes_a_client_sends(server) -> None:
    token = "schlüssel-日本-à"  # "à" ends in byte A0, a space to str.strip once read as ISO-8859-1
    port = server(token=token).server_address[1]
    assert _raw(port, "GET", "/api/status", {"Authorization": b"Bearer " + token.encode()})[0] == 200
    assert _raw(port, "GET", "/api/status", {"Authorization": b"Bearer  " + token.encode() + b" "})[0] == 200
    for wrong in ("schlüssel-日本-a", "schlüssel-日本-", token.encode().decode("latin-1")):
        status, body, _ = _raw(port, "GET", "/api/status", {"Authorization": b"Bearer " + wrong.encode()})
        assert status == 401 and json.loads(body)["error"]["code"] == "unauthorized", wrong


# ── 4. a stop lets the requests in flight finish ─────────────────────────────
def test_sigterm_lets_a_request_in_flight_finish_before_the_process_exits(tmp_path: Path, make_mem) -> None:
    """The stop is deterministic: the request's headers are in (the server said 100 Continue) and half its body
    when SIGTERM comes; the server stops listening, ends an idle connection at once, waits for the rest of the
    body, answers (closing the connection) and exits 0 with the memory stored."""
    db = tmp_path / "m.db"
    env = _env(tmp_path)
    subprocess.run([sys.executable, "-m", "mnemon", "--db", str(db), "remember", "The pilot starts in June"],
                   env=env, check=True, capture_output=True, timeout=60)
    proc = subprocess.Popen([sys.executable, "-m", "mnemon", "--db", str(db), "serve", "--port", "0",
                             "--allow-writes"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        port = int(json.loads(proc.stdout.readline())["url"].rsplit(":", 1)[1].strip("/"))  # type: ignore[union-attr]
        idle = socket.create_connection(("127.0.0.1", port), timeout=10)
        busy = socket.create_connection(("127.0.0.1", port), timeout=10)
        busy.sendall(POST_REMEMBER + f"Content-Length: {len(LEASE)}\r\nExpect: 100-continue\r\n\r\n".encode()
                     + LEASE[:10])
        assert busy.recv(100).startswith(b"HTTP/1.1 100")
        proc.send_signal(signal.SIGTERM)
        assert idle.recv(100) == b""  # an idle connection is ended at once, not after its 30 s
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:  # the listening socket closes: the stop is under way
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
            except ConnectionRefusedError:
                break
            time.sleep(0.05)
        else:
            raise AssertionError("the server kept accepting connections after SIGTERM")
        assert proc.poll() is None  # still there, waiting for the body
        busy.sendall(LEASE[10:])
        status, headers, done = _answer(busy)
        assert status == 200 and done["action"] == "added" and headers["connection"] == "close"
        assert busy.recv(100) == b""
        out, err = proc.communicate(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0 and out == "" and "Traceback" not in err and err == ""
    assert make_mem(db=db).show(done["id"])["content"] == "The office lease ends in May"


def test_a_sigterm_sent_as_the_ready_line_is_printed_stops_the_server_cleanly(tmp_path: Path) -> None:
    """A supervisor may stop the server the moment it reads the ready line: the handler is in place before it, so
    the process exits 0 through the graceful stop instead of being killed by the signal's default action."""
    script = (
        "import os, signal, sys\n"
        "from mnemon.app.config import load_config\n"
        "from mnemon.app.memory import Mnemon\n"
        "from mnemon.interfaces.http.server import serve\n"
        "mem = Mnemon.open(load_config(dict(os.environ)))\n"
        "serve(lambda: mem, host='127.0.0.1', port=0, announce=lambda doc: os.kill(os.getpid(), signal.SIGTERM))\n"
        "mem.close()\n"
        "print('stopped')\n")
    done = subprocess.run([sys.executable, "-c", script], env=_env(tmp_path), capture_output=True, text=True,
                          timeout=60)
    assert (done.returncode, done.stdout.strip()) == (0, "stopped"), done.stderr
