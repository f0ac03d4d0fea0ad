"""A new SQLite store made by copying one migrated template instead of running every migration again.

Running the seventy-odd schema steps on an empty file costs ≈ 100 ms of DDL; the suite opens thousands of fresh stores
(Hypothesis tests open two per example), so that alone was a large share of CI. The first fresh store of a process
with a given list of migrations runs them for real and becomes the template; every later fresh store with the same
list gets a page-for-page copy (SQLite's backup API, ≈ 5 ms). A test that shortens or changes the list (an older
release's schema) gets a template of its own, and the migration tests call `migrate_sqlite.migrate` directly, so
the steps themselves stay tested. Only the test process copies: a `python -m mnemon` subprocess, and a process the
test forks (eight writers opening one new file at once), migrate as a user's first run does — a copy replaces the
whole file, so one made while another process migrated and wrote there would lose that write. Within the test
process a lock keeps the emptiness check and the copy together.
"""
from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
import threading
from pathlib import Path

from mnemon.ports.store import migrate_sqlite
from mnemon.ports.store import sqlite as sqlite_store

_run_migrations = sqlite_store.migrate
_templates: dict[tuple[tuple[str, str], ...], Path] = {}
_folder: Path | None = None
_copying = threading.Lock()
_test_process = os.getpid()


def _migrate_or_copy(conn: sqlite3.Connection, path: str = "") -> None:
    if os.getpid() != _test_process or path in ("", ":memory:") or not _empty(conn):
        _run_migrations(conn, path)  # an existing store (or another process): its migrations as a user's
        return
    with _copying:
        _copy_or_migrate(conn, path)


def _empty(conn: sqlite3.Connection) -> bool:
    return conn.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchone() is None


def _copy_or_migrate(conn: sqlite3.Connection, path: str) -> None:
    if not _empty(conn):  # (another thread of this process made it meanwhile)
        _run_migrations(conn, path)
        return
    steps = tuple(migrate_sqlite.MIGRATIONS)
    template = _templates.get(steps)
    if template is None:
        _run_migrations(conn, path)
        global _folder
        _folder = _folder or Path(tempfile.mkdtemp(prefix="mnemon-test-templates-"))
        template = _folder / f"template-{len(_templates)}.db"
        with sqlite3.connect(template) as copy:
            conn.backup(copy)
        copy.close()
        _templates[steps] = template
        return
    source = sqlite3.connect(f"file:{template}?mode=ro", uri=True)
    try:
        source.backup(conn)
    finally:
        source.close()


def install() -> None:
    sqlite_store.migrate = _migrate_or_copy


def uninstall() -> None:
    sqlite_store.migrate = _run_migrations
    if _folder is not None:
        shutil.rmtree(_folder, ignore_errors=True)
