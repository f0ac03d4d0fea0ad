"""`mnemon serve --allow-writes` while another process holds the store's write lock (a CLI `ingest`, a hook, a second
server writing): a write sent to the server waits for the lock, as it should — and every read sent meanwhile (the
workbench's graph, a recall, status) used to wait behind it, up to the whole busy wait, the page stuck on "Loading…".
In WAL mode a read needs no write lock: it is answered at once, while the write still waits; the write then lands
when the lock is free, and one that waits past the busy wait is still `store_busy`."""
from __future__ import annotations

import json
import os
import sqlite3
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from mnemon.app.config import load_config
from mnemon.app.memory import Mnemon
from mnemon.interfaces.http.server import Api, make_server

GENEROUS_S = 20.0  # a bound nobody meets unless something is stuck; the assertions are on order, not on time


def _open(tmp_path: Path, busy_wait: str = "60") -> Mnemon:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MNEMON_")}
    env.update(MNEMON_HOME=str(tmp_path / "mh"), MNEMON_DAEMON="off", MNEMON_EMBED_PROVIDER="hash",
               MNEMON_BUSY_WAIT=busy_wait)
    return Mnemon.open(load_config(env, db=str(tmp_path / "m.db")))


@contextmanager
def _serving(mem: Mnemon) -> Iterator[str]:
    server = make_server(Api(lambda: mem, allow_writes=True), "127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/api/"
    finally:
        server.shutdown()
        server.server_close()


def _call(url: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
    request = urllib.request.Request(url, data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"},
                                     method="GET" if body is None else "POST")
    try:
        with urllib.request.urlopen(request, timeout=GENEROUS_S * 2) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read())


def _in_thread(fn: Any, *args: Any) -> tuple[threading.Thread, dict[str, Any]]:
    out: dict[str, Any] = {}
    thread = threading.Thread(target=lambda: out.update(reply=fn(*args)), daemon=True)
    thread.start()
    return thread, out


def _waiting_writes(mem: Mnemon, n: int) -> threading.Event:
    """Set once `n` threads have asked SQLite for the store's write lock (the writes sent are waiting for it)."""
    asked = threading.Event()
    threads: set[int] = set()

    def traced(sql: str) -> None:
        if sql.strip().upper().startswith("BEGIN IMMEDIATE"):
            threads.add(threading.get_ident())
            if len(threads) >= n:
                asked.set()

    mem.rt.store.conn.set_trace_callback(traced)  # type: ignore[attr-defined]
    return asked


def reads_answered_beside(api: str, writer: threading.Thread, written: dict[str, Any], release: Any) -> None:
    """Reads sent while `writer` (a remember, beside one memory) waits for another process's write lock are
    answered; the write lands once `release()` frees the lock, and the read after it sees it."""
    for read in ("status", "graph", "recall?query=staging%20cluster"):
        reader, answer = _in_thread(_call, api + read)
        reader.join(GENEROUS_S)
        assert not reader.is_alive(), f"{read} waited behind the write"
        assert answer["reply"][0] == 200, answer
    assert writer.is_alive()  # the write is still waiting for the other process: nothing was skipped
    assert _call(api + "status")[1]["total_insights"] == 1  # and nothing is seen half-written
    release()
    writer.join(GENEROUS_S)
    assert written["reply"][0] == 200, written
    assert _call(api + "status")[1]["total_insights"] == 2  # the read after the write sees it


def test_reads_are_answered_while_a_write_waits_for_another_process(tmp_path: Path) -> None:
    mem = _open(tmp_path)
    mem.remember("The staging cluster runs Qdrant")
    other = sqlite3.connect(tmp_path / "m.db", isolation_level=None)
    try:
        with _serving(mem) as api:
            other.execute("BEGIN IMMEDIATE")  # another process writing
            asked = _waiting_writes(mem, 1)
            writer, written = _in_thread(_call, api + "remember", {"content": "The standup moved to Tuesday"})
            assert asked.wait(GENEROUS_S)
            reads_answered_beside(api, writer, written, lambda: other.execute("COMMIT"))
    finally:
        other.close()
        mem.close()


def test_writes_waiting_together_all_land(tmp_path: Path) -> None:
    mem = _open(tmp_path, busy_wait="60")
    other = sqlite3.connect(tmp_path / "m.db", isolation_level=None)
    try:
        with _serving(mem) as api:
            other.execute("BEGIN IMMEDIATE")
            asked = _waiting_writes(mem, 3)
            writes = [_in_thread(_call, api + "remember", {"content": f"Deploy number {k} went out on a Friday"})
                      for k in range(3)]
            assert asked.wait(GENEROUS_S)
            assert _call(api + "status")[0] == 200
            other.execute("COMMIT")
            for thread, out in writes:
                thread.join(GENEROUS_S)
                assert out["reply"][0] == 200, out
            assert _call(api + "status")[1]["total_insights"] == 3
    finally:
        other.close()
        mem.close()


@pytest.mark.parametrize("busy_wait", ["0", "0.3"])
def test_a_write_still_gives_up_after_the_busy_wait(tmp_path: Path, busy_wait: str) -> None:
    mem = _open(tmp_path, busy_wait=busy_wait)
    other = sqlite3.connect(tmp_path / "m.db", isolation_level=None)
    try:
        with _serving(mem) as api:
            other.execute("BEGIN IMMEDIATE")
            status, out = _call(api + "remember", {"content": "The standup moved to Tuesday"})
            assert status == 503 and out["error"]["code"] == "store_busy"
            assert out["error"]["details"] == {"retryable": True} and "MNEMON_BUSY_WAIT" in out["error"]["message"]
            other.execute("ROLLBACK")
            assert _call(api + "remember", {"content": "The standup moved to Tuesday"})[0] == 200
            assert _call(api + "status")[1]["total_insights"] == 1
    finally:
        other.close()
        mem.close()
