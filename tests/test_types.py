"""The package says it is typed (it ships `py.typed`): mypy, pinned in the test extras, finds nothing in `src/`.
Third-party modules without type information are listed in pyproject.toml (`[[tool.mypy.overrides]]`)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_the_package_type_checks(tmp_path: Path) -> None:
    pytest.importorskip("mypy", reason="mypy is in the test extras; install them to run this check")
    proc = subprocess.run([sys.executable, "-m", "mypy", "src", "--cache-dir", str(tmp_path / "mypy-cache")],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
