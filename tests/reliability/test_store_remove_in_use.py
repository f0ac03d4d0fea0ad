"""`store remove` of a store another process has open (`serve`, `mcp`, the daemon, a script) is refused: removed
under it, that process went on answering "added" for writes that landed in a deleted file."""
from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

Run = Callable[..., tuple[int, Any]]

HOLDER = """
import sys
from mnemon.ports.store.sqlite import SQLiteStore
store = SQLiteStore(sys.argv[1])
store.conn.execute("SELECT COUNT(*) FROM nodes").fetchone()
print("open", flush=True)
sys.stdin.readline()
store.close()
"""


@pytest.fixture
def work_store(cli_run: Run, home: Path) -> Path:
    assert cli_run(["store", "create", "work"])[0] == 0
    assert cli_run(["--store", "work", "remember", "the only copy of this memory"])[0] == 0
    return home / "data" / "work" / "mnemon.db"


@pytest.fixture
def held(work_store: Path) -> Iterator[subprocess.Popen[str]]:
    src = Path(__file__).resolve().parents[2] / "src"
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(work_store)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, env={"PYTHONPATH": str(src)})
    assert proc.stdout is not None and proc.stdout.readline().strip() == "open"
    yield proc
    if proc.poll() is None:
        proc.communicate("\n", timeout=60)


def test_a_store_another_process_has_open_is_not_removed(cli_run: Run, work_store: Path,
                                                         held: subprocess.Popen[str]) -> None:
    code, out = cli_run(["store", "remove", "work"])
    assert code == 1 and out["error"]["code"] == "conflict"
    assert "another process" in out["error"]["message"]
    assert work_store.exists()
    held.communicate("\n", timeout=60)  # that process closes the store: nothing holds it now
    assert cli_run(["store", "remove", "work", "--force"])[0] == 0 and not work_store.parent.exists()


def test_a_store_nothing_has_open_is_removed(cli_run: Run, work_store: Path) -> None:
    # (it holds a memory: removed only with --force, tests/cli/test_store_remove_keeps_memories.py)
    assert cli_run(["store", "remove", "work", "--force"])[0] == 0 and not work_store.parent.exists()
