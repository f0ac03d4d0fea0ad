"""A --db that names a named pipe (FIFO) or a device is refused for what it is. `--db FIFO remember x` blamed "the
folder … may be read-only" (SQLite's "disk I/O error" on a pipe), `--db FIFO status` called the pipe "an empty file,
not a mnemon store … a write makes a new store in it" — which the write then refused."""
from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")


@pytest.mark.parametrize("command", [["remember", "alpha"], ["status"], ["recall", "alpha"], ["--readonly", "status"]])
def test_a_named_pipe_is_refused_as_not_a_database_file(cli_run: Callable[..., tuple[int, Any]], tmp_path: Path,
                                                        command: list[str]) -> None:
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    globals_, rest = (command[:1], command[1:]) if command[0] == "--readonly" else ([], command)
    code, reply = cli_run(["--db", str(pipe), *globals_, *rest])
    assert code == 1 and reply["error"]["code"] == "store_error", reply
    message = reply["error"]["message"]
    assert "named pipe" in message and "not a regular file" in message, message
    assert "read-only" not in message and "empty file" not in message
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]  # no -wal, -shm or cache files beside it


@pytest.mark.skipif(not os.path.exists("/dev/null"), reason="needs /dev/null")
@pytest.mark.parametrize("command", [["remember", "alpha"], ["status"]])
def test_a_device_is_refused_as_not_a_database_file(cli_run: Callable[..., tuple[int, Any]],
                                                    command: list[str]) -> None:
    code, reply = cli_run(["--db", "/dev/null", *command])
    assert code == 1 and reply["error"]["code"] == "store_error", reply
    assert "device" in reply["error"]["message"] and "not a regular file" in reply["error"]["message"]
