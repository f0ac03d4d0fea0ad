"""Session 33's QA of `mnemon serve` against slow clients: the 30 s timeout bounded each socket read, not a request,
so a client sending one header byte every 29 s held its connection for good, and `max_connections` such clients
made every other client get 503 before any token was checked. A request's head and body must now arrive within a
deadline of its first byte; past it the connection gets 408 `request_timeout` and its slot is free again.

The deadline here is a small configured one (`make_server(deadline=...)`) and the per-read timeout a large one, so
only the whole-request clock can end the trickle; the margins are wide (the trickle would go on for 40 deadlines)."""
from __future__ import annotations

import select
import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from mnemon.interfaces.http.server import Api, make_server

from interfaces.test_http_transport import LEASE, POST_REMEMBER, _answer  # tests/ is on sys.path

DEADLINE = 0.5  # seconds from a request's first byte
IDLE = 10.0  # each read's own timeout: never reached by a trickle of one byte every STEP seconds
STEP = 0.2
TRICKLE_FOR = 40 * DEADLINE  # how long a client keeps trickling before the test calls the connection held


@pytest.fixture
def server(mem) -> Iterator[Callable[..., Any]]:
    """A serving server with `make_server` options; its request threads are joined on the way out."""
    made = []

    def start(*, allow_writes: bool = False, **options: Any) -> Any:
        srv = make_server(Api(lambda: mem, allow_writes=allow_writes), "127.0.0.1", 0, **options)
        srv.daemon_threads = False  # joined by server_close below
        made.append(srv)
        threading.Thread(target=srv.serve_forever, daemon=True).start()
        return srv

    yield start
    for srv in made:
        srv.shutdown()
        srv.server_close()


def _trickle(sock: socket.socket, data: bytes) -> bool:
    """Send `data` one byte at a time, STEP seconds apart, until the server answers (True) or TRICKLE_FOR has passed
    or the bytes run out (False)."""
    stop = time.monotonic() + TRICKLE_FOR
    for k in range(len(data)):
        if select.select([sock], [], [], 0)[0]:
            return True
        if time.monotonic() > stop:
            return False
        try:
            sock.sendall(data[k:k + 1])
        except OSError:  # the server already closed it: its answer is waiting to be read
            return True
        if select.select([sock], [], [], STEP)[0]:
            return True
    return False


def _held_forever(data: bytes) -> bytes:
    """`data` padded with header lines that never end the head, so a trickle of it outlasts TRICKLE_FOR."""
    return data + b"X-Slow: " + b"a" * int(TRICKLE_FOR / STEP + 10)


def _closed(sock: socket.socket) -> bool:
    sock.settimeout(IDLE)
    try:
        return sock.recv(1 << 16) == b""
    except ConnectionResetError:
        return True


def test_a_request_head_trickled_byte_by_byte_gets_408_and_frees_its_slot(server) -> None:
    srv = server(timeout=IDLE, deadline=DEADLINE, max_connections=1)
    port = srv.server_address[1]
    with socket.create_connection(("127.0.0.1", port), timeout=IDLE) as slow:
        answered = _trickle(slow, _held_forever(b"GET /api/status HTTP/1.1\r\nHost: localhost\r\n"))
        assert answered, f"no answer after {TRICKLE_FOR:g} s of a head trickled one byte per {STEP:g} s"
        status, headers, err = _answer(slow)
        assert (status, err["error"]["code"]) == (408, "request_timeout"), err
        assert "did not arrive whole" in err["error"]["message"] and headers["connection"] == "close"
        assert _closed(slow)
    # the one slot is free again: the next client is answered, not refused with 503; and each request of a kept-alive
    # connection has its own deadline, from its own first byte (a wait between requests is the idle timeout's)
    with socket.create_connection(("127.0.0.1", port), timeout=IDLE) as sock:
        for _ in range(2):
            sock.sendall(b"GET /api/status HTTP/1.1\r\nHost: localhost\r\n\r\n")
            status, _, payload = _answer(sock)
            assert status == 200 and payload["total_insights"] == 0
            time.sleep(3 * DEADLINE)


def test_a_body_trickled_byte_by_byte_gets_408_and_nothing_is_stored(server, mem) -> None:
    port = server(allow_writes=True, timeout=IDLE, deadline=DEADLINE).server_address[1]
    body = LEASE + b" " * int(TRICKLE_FOR / STEP + 10)  # (JSON allows the trailing spaces)
    with socket.create_connection(("127.0.0.1", port), timeout=IDLE) as slow:
        slow.sendall(POST_REMEMBER + f"Content-Length: {len(body)}\r\n\r\n".encode())
        assert _trickle(slow, body), f"no answer after {TRICKLE_FOR:g} s of a body trickled one byte per {STEP:g} s"
        status, headers, err = _answer(slow)
        assert (status, err["error"]["code"]) == (408, "request_timeout"), err
        assert headers["connection"] == "close" and _closed(slow)
    assert mem.status()["total_insights"] == 0
