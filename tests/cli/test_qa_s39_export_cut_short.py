"""`export --out` whose file cannot be written to the end (a full disk, a file size limit): the error came as one
JSON document, but stderr then carried a traceback ("Exception ignored in: <generator object export_chunks …>
sqlite3.ProgrammingError: Cannot operate on a closed database"): the export's half-read stream was left open, its
read transaction with it, until the process collected it after the store had closed."""
from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from mnemon.app.config import load_config
from mnemon.app.memory import Mnemon

SRC = Path(__file__).resolve().parents[2] / "src"
FILE_LIMIT = 40_000  # bytes a file of the export's process may reach: the store's -shm fits, the export does not


def _limited() -> None:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG) instead of killing us
    resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_LIMIT, FILE_LIMIT))


@pytest.mark.skipif(not hasattr(resource, "RLIMIT_FSIZE"), reason="needs a file size limit")
def test_an_export_cut_short_is_one_error_and_no_traceback(tmp_path: Path) -> None:
    db, out = tmp_path / "m.db", tmp_path / "backup.json"
    with Mnemon.open(load_config(dict(os.environ), db=str(db))) as mem:
        for n in range(20):  # ≈ 4 KB of export each, vectors included
            mem.remember(f"the harbour crane {n} was serviced on Monday")
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    done = subprocess.run([sys.executable, "-m", "mnemon", "--db", str(db), "export", "--out", str(out)], env=env,
                          capture_output=True, text=True, timeout=60, preexec_fn=_limited)
    assert done.returncode == 1, done.stdout
    # (the machine's limit, not the user's input: store_error, as a full disk's: test_qa_s39_export_full_disk.py)
    assert json.loads(done.stdout)["error"]["code"] == "store_error"
    assert done.stderr == ""
    assert not out.exists() and [p.name for p in tmp_path.iterdir() if p.name.startswith("backup")] == []
