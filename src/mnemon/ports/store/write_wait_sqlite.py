"""Waiting for SQLite's write lock without keeping this process's other calls waiting too."""
from __future__ import annotations

import sqlite3
import threading
import time
from typing import Any

from .base import take_turns


def is_busy(exc: sqlite3.OperationalError) -> bool:
    text = str(exc).lower()
    return "locked" in text or "busy" in text


def begin_taking_turns(conn: sqlite3.Connection, turns: threading.Condition, wait_ms: int) -> bool:
    """BEGIN IMMEDIATE on `conn`, waiting up to `wait_ms` for another connection's write to end: True once begun,
    False when it did not end in time. The caller holds the lock under `turns` (at any depth): it is given up between
    two asks, so the calls of other threads sharing `conn` run meanwhile — reads, which in WAL mode need no write
    lock, answered at once — instead of queueing behind this write for up to the whole wait (`mnemon serve` while a
    CLI ingest wrote: every page stuck on "Loading…"). SQLite's own busy wait would keep the lock all along."""

    def attempt() -> bool:
        conn.execute("PRAGMA busy_timeout = 0")
        try:
            conn.execute("BEGIN IMMEDIATE")
            return True
        except sqlite3.OperationalError as exc:
            if not is_busy(exc):
                raise
            return False
        finally:  # the others' calls, and this one's statements once begun, wait as configured
            conn.execute(f"PRAGMA busy_timeout = {int(wait_ms)}")

    return take_turns(attempt, turns, wait_ms)


def retry_busy(fn: Any, budget_ms: int) -> Any:
    """`fn()`, again with backoff while it meets SQLITE_BUSY, for up to `budget_ms` (steps SQLite's busy handler
    is not consulted for: switching a fresh file to WAL, creating its schema)."""
    deadline = time.monotonic() + budget_ms / 1000
    delay = 0.01
    while True:
        try:
            return fn()
        except sqlite3.OperationalError as exc:
            if not is_busy(exc) or time.monotonic() > deadline:
                raise
            time.sleep(delay)
            delay = min(delay * 2, 0.5)
