"""`store set` replaces the active-store pointer whole or not at all: a write that fails midway (a full disk, a
crash) left it cut short or empty, naming a store nobody made — the next write made it there, away from the
user's memories."""
from __future__ import annotations

import builtins
import errno
from pathlib import Path
from typing import Any

import pytest

from mnemon.app.config import active_store
from mnemon.app.stores import create_store, set_store
from mnemon.core.errors import StoreError


class _FullDisk:
    def __init__(self, fh: Any) -> None:
        self._fh = fh

    def write(self, data: Any) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    def __enter__(self) -> "_FullDisk":
        return self

    def __exit__(self, *exc: object) -> None:
        self._fh.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._fh, name)


def test_a_pointer_write_that_fails_leaves_the_old_pointer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    create_store(tmp_path, "work")
    create_store(tmp_path, "other")
    set_store(tmp_path, "work")
    real_open = builtins.open

    def full_disk_open(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        fh = real_open(file, mode, *args, **kwargs)
        return _FullDisk(fh) if "w" in mode and str(file).startswith(str(tmp_path / "active")) else fh

    with monkeypatch.context() as m:  # (monkeypatch.undo() would undo the test's own home too)
        m.setattr(builtins, "open", full_disk_open)
        m.setattr("io.open", full_disk_open)
        with pytest.raises(StoreError, match="still names 'work'"):
            set_store(tmp_path, "other")
    assert active_store(tmp_path) == "work"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith("active")] == ["active"]  # no temporary left
