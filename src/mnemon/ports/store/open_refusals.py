"""Why a SQLite file cannot be opened as a store, in words that point at what to fix: SQLite says "unable to open
database file" or "disk I/O error" whatever the cause, and a store in WAL mode needs its folder too (it makes
`<db>-wal` and `<db>-shm` beside the file on every open, a read's included)."""
from __future__ import annotations

import os
import sqlite3
import stat

# what a first open makes beside the database (the -shm file's first block, an empty -wal) with some slack
ROOM_TO_OPEN = 64 * 1024


def has_room(folder: str) -> bool:
    """Whether the disk holding `folder` can take the files an open makes beside the database."""
    try:
        st = os.statvfs(folder)
    except (OSError, AttributeError):  # (no statvfs on Windows: assumed, as before)
        return True
    return st.f_bavail * st.f_frsize >= ROOM_TO_OPEN


_SPECIAL_FILES = ((stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISCHR, "a character device"),
                  (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def special_file(path: str) -> str | None:
    """What `path` is when it is there but neither a regular file nor a folder (a named pipe, a device, a socket),
    else None. SQLite fails on such a path with "disk I/O error", which read as a read-only folder."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return None
    return next((what for kind, what in _SPECIAL_FILES if kind(mode)), None)


def parent_failure(parent: str, exc: OSError) -> str:
    """Why the directory meant to hold the database cannot be made, in words that point at the path to fix."""
    existing = parent
    while not os.path.lexists(existing) and os.path.dirname(existing) != existing:
        existing = os.path.dirname(existing)
    if os.path.exists(existing) and not os.path.isdir(existing):
        return f"{existing} is not a directory"
    if isinstance(exc, PermissionError):
        return f"no permission to create the directory {parent}"
    return f"the directory {parent} cannot be created ({exc.strerror or exc})"


def open_failure(path: str, readonly: bool, exc: sqlite3.DatabaseError) -> str:
    """SQLite's words for an open that failed, with the cause when it is one of the machine's: no permission, no
    room on the disk, or a folder (a read-only mount) where the files beside the database cannot be made."""
    if str(exc) not in ("unable to open database file", "disk I/O error"):
        return str(exc)
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.exists(path):
        if not os.access(parent, os.W_OK | os.X_OK):
            return f"{exc} (no permission to create a file in {parent})"
        return str(exc)
    read_it = "" if readonly else ": --readonly reads it without writing"
    if not has_room(parent):
        return (f"{exc} (no room left on the disk holding {parent} for the -wal and -shm files SQLite makes beside "
                f"the database: free some space there{read_it and '; --readonly reads it meanwhile'})")
    if not os.access(path, os.R_OK if readonly else os.R_OK | os.W_OK):
        return f"{exc} (no permission to {'read' if readonly else 'read and write'} it{read_it})"
    if not readonly:
        return (f"{exc} (SQLite could not make the -wal and -shm files it keeps beside the database: the folder "
                f"{parent} may be read-only{read_it})")
    return str(exc)
