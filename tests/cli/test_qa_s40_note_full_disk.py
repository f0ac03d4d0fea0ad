"""QA round 40: a note edit on a disk that fills.

`note add-bullet` on a full vault disk answered "cannot write the command's output …: free some space on the disk it
goes to (where its stdout was sent)", pointing at the terminal, not at the vault; it now names the file the disk
refused (the note, or its backup) and the disk to free. A note with other names (hard links, written in place) was
left half written: the first 8 KiB of the new text over the old, the rest cut off; the room is now reserved before a
byte of it is overwritten, so a full disk leaves every name with the note's old bytes."""
from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import small_tmpfs

TEXT = b"# N\r\n\r\n## A\r\nshort line  \r\nlast"


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 64 KiB tmpfs: a real filesystem that fills."""
    yield from small_tmpfs(tmp_path / "small", "64k")


def _fill(disk: Path, leave: int) -> None:
    """Fill `disk` but for about `leave` bytes (tmpfs counts whole 4 KiB pages)."""
    with (disk / "filler").open("wb", buffering=0) as filler:
        try:
            while True:
                filler.write(b"x" * 4096)
        except OSError:
            pass
    with (disk / "filler").open("r+b") as filler:
        filler.truncate(max(0, (disk / "filler").stat().st_size - leave))


@pytest.mark.parametrize("linked", [False, True], ids=["one_name", "hard_linked"])
def test_a_full_disk_names_the_vault_and_leaves_the_note_as_it_was(cli_run: Callable[..., tuple[int, Any]],
                                                                   small_disk: Path, linked: bool) -> None:
    vault = small_disk / "vault"
    vault.mkdir()
    (vault / "n.md").write_bytes(TEXT)
    if linked:
        os.link(vault / "n.md", vault / "other.md")
    _fill(small_disk, 8192)  # room for the backup, not for a bullet of 20 KB
    code, out = cli_run(["note", "add-bullet", "n.md", "--vault", vault, "--heading", "A", "--bullet", "y" * 20_000])
    assert code == 1 and out["error"]["code"] == "store_error", out
    message = out["error"]["message"]
    assert "No space left on device" in message and str(vault) in message and "stdout" not in message, message
    assert (vault / "n.md").read_bytes() == TEXT
    if linked:
        assert (vault / "other.md").read_bytes() == TEXT
        assert (vault / "n.md").stat().st_ino == (vault / "other.md").stat().st_ino
    leftovers = [name for name in os.listdir(vault) if name not in ("n.md", "other.md", ".mnemon-backups")]
    assert leftovers == []


def test_a_backup_the_disk_cannot_take_is_named(cli_run: Callable[..., tuple[int, Any]], small_disk: Path) -> None:
    vault = small_disk / "vault"
    vault.mkdir()
    text = b"# N\n\n## A\n" + b"word " * 5000 + b"\n"
    (vault / "n.md").write_bytes(text)
    _fill(small_disk, 0)
    code, out = cli_run(["note", "add-bullet", "n.md", "--vault", vault, "--heading", "A", "--bullet", "hi"])
    assert code == 1 and out["error"]["code"] == "store_error", out
    assert ".mnemon-backups" in out["error"]["message"] and "stdout" not in out["error"]["message"], out
    assert (vault / "n.md").read_bytes() == text
