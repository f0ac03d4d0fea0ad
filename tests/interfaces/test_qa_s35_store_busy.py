"""Another process writing to the same SQLite store for longer than a call waits (an ingest's batch, a bulk import,
a second agent's transaction): the call fails with its own code, `store_busy` — retryable, exit 1, HTTP 503 with
`Retry-After` — instead of the 500 `store_error` a broken disk gets, and how long it waits is a setting
(`busy_wait`, MNEMON_BUSY_WAIT) for an agent that would rather retry than block for a minute. Nothing is lost: the
same call made again once the lock is gone stores it."""
from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
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

SRC = Path(__file__).resolve().parents[2] / "src"


@contextmanager
def _write_lock_held(db: Path) -> Iterator[None]:
    """Another process's open write transaction on the store (a connection of this test's own)."""
    other = sqlite3.connect(db, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        yield
        other.execute("ROLLBACK")
    finally:
        other.close()


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MNEMON_")}
    env.update(HOME=str(tmp_path / "home"), XDG_CONFIG_HOME=str(tmp_path / "xdg"), MNEMON_HOME=str(tmp_path / "mh"),
               MNEMON_DAEMON="off", MNEMON_EMBED_PROVIDER="hash", PYTHONPATH=str(SRC), **extra)
    return env


def _mnemon(env: dict[str, str], db: Path, *args: str) -> tuple[int, Any]:
    done = subprocess.run([sys.executable, "-m", "mnemon", "--db", str(db), *args], env=env, capture_output=True,
                          text=True, timeout=120)
    return done.returncode, json.loads(done.stdout)  # one JSON document, whatever happened


def test_a_write_blocked_by_another_writer_is_store_busy_and_loses_nothing(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    env = _env(tmp_path, MNEMON_BUSY_WAIT="0.3")
    assert _mnemon(env, db, "remember", "The staging cluster runs Qdrant")[0] == 0
    with _write_lock_held(db):
        code, out = _mnemon(env, db, "remember", "The standup moved to Tuesday")
    assert code == 1 and out["ok"] is False
    assert out["error"]["code"] == "store_busy" and out["error"]["details"] == {"retryable": True}
    assert "MNEMON_BUSY_WAIT" in out["error"]["message"]
    assert _mnemon(env, db, "remember", "The standup moved to Tuesday")[0] == 0  # the same call, once it is free
    assert _mnemon(env, db, "status")[1]["total_insights"] == 2


def test_the_wait_is_a_setting_and_a_bad_one_is_refused(tmp_path: Path) -> None:
    assert load_config(_env(tmp_path)).busy_wait_s == 60.0
    assert load_config(_env(tmp_path, MNEMON_BUSY_WAIT="5s")).busy_wait_s == 5.0
    code, out = _mnemon(_env(tmp_path, MNEMON_BUSY_WAIT="soon"), tmp_path / "m.db", "status")
    assert code == 1 and out["error"]["code"] == "invalid_input" and "busy_wait" in out["error"]["message"]


def test_the_http_api_answers_503_with_retry_after(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    mem = Mnemon.open(load_config(_env(tmp_path, MNEMON_BUSY_WAIT="0.3"), db=str(db)))
    mem.remember("The staging cluster runs Qdrant")
    server = make_server(Api(lambda: mem, allow_writes=True), "127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        request = urllib.request.Request(f"http://127.0.0.1:{server.server_address[1]}/api/remember",
                                         data=json.dumps({"content": "The standup moved to Tuesday"}).encode(),
                                         headers={"Content-Type": "application/json"}, method="POST")
        with _write_lock_held(db), pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=30)
        assert refused.value.code == 503 and refused.value.headers["Retry-After"] == "5"
        assert json.loads(refused.value.read())["error"]["code"] == "store_busy"
        with urllib.request.urlopen(request, timeout=30) as again:
            assert again.status == 200
    finally:
        server.shutdown()
        server.server_close()
        mem.close()
    assert Mnemon.open(load_config(_env(tmp_path), db=str(db))).status()["total_insights"] == 2
