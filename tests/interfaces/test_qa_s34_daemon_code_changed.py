"""A resident process whose code changed on disk (an upgrade, a `git pull` in an editable install): calls of the new
code go to a new process under another fingerprint, and none can reach the old one again; it stayed up until its idle
timeout (15 minutes) with its stores and model open, and neither `mnemon daemon status` nor `mnemon daemon stop` saw
it. It now leaves once it finds, while idle, that the code it was started from is no longer the code on disk.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from mnemon.interfaces.daemon import client

from conftest import SRC

pytestmark = pytest.mark.skipif(not hasattr(__import__("socket"), "AF_UNIX"), reason="needs Unix sockets")


@pytest.fixture
def copy_env(tmp_path: Path) -> Iterator[tuple[dict[str, str], Path]]:
    """A copy of the package to change freely, and an environment whose calls run it (its own daemon directory)."""
    shutil.copytree(SRC / "mnemon", tmp_path / "src" / "mnemon", ignore=shutil.ignore_patterns("__pycache__"))
    directory = tempfile.mkdtemp(prefix="mnd-", dir="/tmp")  # a Unix socket's path must stay short
    env = {**os.environ, "MNEMON_DAEMON": "on", "MNEMON_DAEMON_DIR": directory, "PYTHONPATH": str(tmp_path / "src")}
    yield env, tmp_path / "src" / "mnemon"
    shutil.rmtree(directory, ignore_errors=True)


def _fingerprint(env: dict[str, str]) -> str:
    code = "from mnemon.interfaces.daemon import client; print(client.fingerprint())"
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True,
                          timeout=60).stdout.strip()


def test_a_process_whose_code_changed_on_disk_leaves_before_its_idle_timeout(
        copy_env: tuple[dict[str, str], Path]) -> None:
    env, package = copy_env
    key = _fingerprint(env)
    proc = subprocess.Popen([sys.executable, "-m", "mnemon.interfaces.daemon.server", "--dir",
                             env["MNEMON_DAEMON_DIR"], "--key", key, "--idle", "900"], env=env)
    try:
        for _ in range(600):
            if client.ask(env, {"op": "status"}, key=key) is not None:
                break
            try:
                proc.wait(timeout=0.05)
            except subprocess.TimeoutExpired:
                pass
        assert client.ask(env, {"op": "status"}, key=key)["running"] is True  # type: ignore[index]
        with (package / "core" / "text.py").open("a", encoding="utf-8") as source:
            source.write("\n# an upgrade\n")
        assert _fingerprint(env) != key
        assert proc.wait(timeout=60) == 0  # long before its 900 s without a call
        assert not Path(client.socket_path(env, key)).exists()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
