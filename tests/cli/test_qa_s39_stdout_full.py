"""A command whose output goes to a disk that cannot take it (`mnemon export > /mnt/full/backup.json`; here
/dev/full) answered `internal` ("OSError: [Errno 28] No space left on device") on stderr: a bug to report, it said,
where the machine ran out of room. It is `store_error`, as a full disk under `--out` is, saying what to do."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"


@pytest.mark.parametrize("command", [["export"], ["recall", "harbour crane"]])
def test_output_to_a_full_disk_is_store_error_not_a_bug(tmp_path: Path, command: list[str]) -> None:
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    db = str(tmp_path / "m.db")
    mnemon = [sys.executable, "-m", "mnemon", "--db", db]
    subprocess.run([*mnemon, "remember", "The harbour crane was fixed on Monday"], env=env, check=True,
                   capture_output=True, timeout=60)
    with open("/dev/full", "w") as full:
        done = subprocess.run([*mnemon, *command], env=env, stdout=full, stderr=subprocess.PIPE, text=True,
                              timeout=60)
    assert done.returncode == 1
    error = json.loads(done.stderr)["error"]  # (stdout took nothing: the envelope comes on stderr)
    assert error["code"] == "store_error", error
    assert "No space left on device" in error["message"] and "free" in error["message"], error
