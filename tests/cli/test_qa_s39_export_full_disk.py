"""A file a command writes that the machine cannot take is the machine's condition, not the user's input: `mnemon
export --out FILE` onto a full disk answered `invalid_input` ("cannot write …: No space left on device"), as if the
path were wrong. It is `store_error` (the code the store's own full-disk refusal has) with what to do; a path the user
gave that cannot hold the file (a folder, a missing parent) stays `invalid_input`. Nothing is left behind either way."""
from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import small_tmpfs


def _full_disk_at(target: Path) -> None:
    """The file write_atomic writes `target` through (`<target>.<pid>.tmp`), made a link to /dev/full: every write to
    it fails with ENOSPC, as on a disk that filled, with no mount needed."""
    os.symlink("/dev/full", f"{target}.{os.getpid()}.tmp")


@pytest.fixture
def stored(cli_run: Callable[..., tuple[int, Any]], tmp_path: Path) -> Path:
    db = tmp_path / "m.db"
    assert cli_run(["--db", db, "remember", "The harbour crane was fixed on Monday"])[0] == 0
    return db


@pytest.mark.parametrize("command", [["export"], ["graph", "--format", "html"]])
def test_a_full_disk_is_store_error_with_the_remedy(cli_run: Callable[..., tuple[int, Any]], stored: Path,
                                                    tmp_path: Path, command: list[str]) -> None:
    target = tmp_path / "out" / "backup.json"
    target.parent.mkdir()
    _full_disk_at(target)
    code, out = cli_run(["--db", stored, *command, "--out", target])
    assert code == 1 and out["error"]["code"] == "store_error", out
    message = out["error"]["message"]
    assert "No space left on device" in message and str(target.parent) in message and "free" in message, message
    assert out["error"]["details"]["path"] == str(target)
    assert sorted(os.listdir(target.parent)) == []  # no partial file, no temporary one


def test_a_bad_path_stays_invalid_input(cli_run: Callable[..., tuple[int, Any]], stored: Path, tmp_path: Path) -> None:
    code, out = cli_run(["--db", stored, "export", "--out", tmp_path / "missing" / "backup.json"])
    assert code == 1 and out["error"]["code"] == "invalid_input", out
    code, out = cli_run(["--db", stored, "export", "--out", tmp_path])
    assert code == 1 and out["error"]["code"] == "invalid_input", out


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 16 KiB tmpfs: a real filesystem that fills."""
    yield from small_tmpfs(tmp_path / "small", "16k")


def test_an_export_onto_a_disk_that_fills_is_store_error(cli_run: Callable[..., tuple[int, Any]], stored: Path,
                                                         small_disk: Path) -> None:
    with (small_disk / "filler").open("wb", buffering=0) as filler, pytest.raises(OSError):  # filled by another file
        while True:
            filler.write(b"x" * 4096)
    code, out = cli_run(["--db", stored, "export", "--out", small_disk / "backup.json"])
    assert code == 1 and out["error"]["code"] == "store_error", out
    assert sorted(os.listdir(small_disk)) == ["filler"]
