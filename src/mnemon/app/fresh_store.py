"""A store this very call created, then refused to write anything into, is removed again: a command refused for its
input (`--store fresh import broken.json`, `remember ""`, `state assert` with bad JSON) used to leave a new, empty
store behind, which `store list` showed as existing. Only a SQLite file the opening itself made, with the folders it
made for it, and only when nothing has changed in it since it was opened; a server schema is left as it is (its
tables are the schema's, which may hold more than mnemon's)."""
from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# what lives beside a SQLite database as `<db>-<name>[.…]`: its log, index and journal, and mnemon's caches and lock
BESIDE = frozenset({"wal", "shm", "journal", "vectors", "graph", "ingest"})


def is_beside(db: Path, name: str) -> bool:
    """Whether file `name` in `db`'s folder is one of `db`'s own (`BESIDE`)."""
    side = name[len(db.name) + 1:] if name.startswith(db.name + "-") else ""
    return side.split(".")[0].split("-")[0] in BESIDE


@dataclass
class Fresh:
    """The database file an opening is about to create, and the folders it makes for it (the deepest first)."""

    path: Path
    folders: list[Path] = field(default_factory=list)
    token: Any = None  # the store's change token once opened: another means something was written


def before_opening(db: Path | str, *, readonly: bool) -> Fresh | None:
    """What opening `db` for writing will create; None when it creates nothing (the file is there, a server URL)."""
    if readonly or not isinstance(db, Path):
        return None
    path = db.absolute()
    if os.path.lexists(path):
        return None
    folders, folder = [], path.parent
    while not os.path.lexists(folder) and folder != folder.parent:
        folders.append(folder)
        folder = folder.parent
    return Fresh(path, folders)


def untouched(fresh: Fresh | None, store: Any) -> bool:
    """Whether the store opened as `fresh` is still as its opening left it: created then, nothing written since."""
    if fresh is None or fresh.token is None:
        return False
    try:
        return bool(store.change_token() == fresh.token)
    except Exception:  # noqa: BLE001 — a store that cannot tell is kept
        return False


def remove(fresh: Fresh) -> None:
    """The database file, the files beside it, and the folders made for it that hold nothing else (best effort)."""
    names: list[str] = []
    with contextlib.suppress(OSError):
        names = os.listdir(fresh.path.parent)
    for name in [fresh.path.name, *(n for n in names if is_beside(fresh.path, n))]:
        with contextlib.suppress(OSError):
            os.remove(fresh.path.parent / name)
    for folder in fresh.folders:
        try:
            folder.rmdir()
        except OSError:  # holds something else now: it stays, and so do the folders above it
            return
