"""A store created through the resident process: it was made with the file mode mask of whoever started the process,
not of the caller. A user whose shell has `umask 077` got a world-readable store (644, its folder 755) when the
process had been started from a `umask 022` shell, where a call of its own made it 600 and 700.
"""
from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

from conftest import parse_one_json

from .test_daemon import daemon_env, start, status

__all__ = ["daemon_env"]  # the fixture, shared with test_daemon.py


def _remember(env: dict[str, str], home: Path, text: str, umask: int) -> Any:
    proc = subprocess.run([sys.executable, "-m", "mnemon", "--home", str(home), "--store", "diary", "remember", text],
                          capture_output=True, text=True, env=env, timeout=60, umask=umask)
    assert proc.returncode == 0 and "Traceback" not in proc.stdout + proc.stderr, proc.stdout + proc.stderr
    return parse_one_json(proc.stdout)


def _modes(folder: Path) -> dict[str, int]:
    return {p.name: stat.S_IMODE(p.stat().st_mode) for p in [folder, *folder.iterdir()]}


def test_a_store_made_through_it_has_the_callers_file_mode_mask(daemon_env: dict[str, str], tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        start(daemon_env)  # started from a shell that lets others read
    finally:
        os.umask(old)
    served = status(daemon_env)["served"]  # type: ignore[index]
    assert _remember(daemon_env, tmp_path / "home", "my private diary entry", 0o077)["action"] == "added"
    assert status(daemon_env)["served"] == served + 1  # type: ignore[index]  # the resident process ran it
    modes = _modes(tmp_path / "home" / "data" / "diary")
    assert modes and all(mode & 0o077 == 0 for mode in modes.values()), {k: oct(v) for k, v in modes.items()}
