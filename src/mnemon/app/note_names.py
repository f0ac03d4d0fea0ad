"""File names the note editor makes: the checks on a note path's names and on whether it may be written, the
temporary file beside a note, a backup.

A file name is at most `NAME_MAX` bytes (255 on ext4, btrfs, XFS and APFS). The editor's own names add to the note's:
`.<name>.<token>.tmp` (18 bytes more) and `<name>.<stamp>.bak` (27 more), so a note whose name was 229-255 bytes —
80 characters of CJK or accented text — could be read but never edited (every write failed with `internal`). The
names the editor makes are cut to fit, a backup's with a hash of the whole name so two long names never share one.

A name may hold no control character (C0, DEL, C1): a newline in a name made one note read as two lines in every
listing, diff and log, and an escape sequence in one is run by the terminal that shows it.
"""
from __future__ import annotations

import hashlib
import os
import re
import stat
from pathlib import Path

from ..core.errors import Conflict, InvalidInput, ReadOnly

NAME_MAX = 255
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def _size(name: str) -> int:
    return len(os.fsencode(name))


def _cut(name: str, limit: int) -> str:
    """The longest prefix of `name` (whole characters) of at most `limit` bytes."""
    size = 0
    for index, char in enumerate(name):
        size += _size(char)
        if size > limit:
            return name[:index]
    return name


def check_names(parts: list[str], raw: str) -> None:
    """Refuse a path with a name no file system takes (the write failed with `internal` naming an OSError), or one
    with a control character in it."""
    for part in parts:
        control = _CONTROL.search(part)
        if control:
            raise InvalidInput(f"{part[:40]!r} holds the control character U+{ord(control.group()):04X}; a file or "
                               "folder name may not hold control characters: rename it", path=raw,
                               character=f"U+{ord(control.group()):04X}")
        if _size(part) > NAME_MAX:
            raise InvalidInput(f"{part[:40]}… is {_size(part)} bytes long; a file or folder name may have at most "
                               f"{NAME_MAX} bytes (UTF-8): shorten it", path=raw, name_bytes=_size(part))


def check_folders(root: Path, parts: list[str], raw: str) -> None:
    """Refuse a path one of whose folders is a file (`a.md/b.md`): a dry run reported the note as created and the
    write failed with `internal` (FileExistsError)."""
    if len(parts) < 2 or root.joinpath(*parts[:-1]).is_dir():
        return
    for depth in range(1, len(parts)):
        folder = root.joinpath(*parts[:depth])
        if folder.exists() and not folder.is_dir():
            file = "/".join(parts[:depth])
            raise InvalidInput(f"{file} is a file, not a folder: no note can be inside it", path=raw, file=file)


def check_writable(path: Path, rel: str, *, doing: str = "edit it", file: bool = True) -> None:
    """Refuse (`readonly`) to write a note the user may not write, or into a folder they may not write in: the
    rename that makes a write atomic replaced a read-only note without a word (and a folder refused only after the
    backup was made, with `internal`).

    Root may write any file, but a note or folder its owner made read-only (`chmod 444`, `chmod a-w`) is the owner
    saying "do not change this": run as root (an agent in a container, a cron job), it is refused as the owner
    would be refused, not written over without a word. `file=False` asks only for the folder (a note moved away
    unchanged loses a name there: `mv` asks nothing of the file); `doing` ends the message."""
    if file and path.exists() and not _may_write(path, os.W_OK):
        raise ReadOnly(f"{rel} is read-only (no permission to write it); nothing was written: make it writable "
                       f"(chmod u+w) to {doing}", path=rel)
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not _may_write(folder, os.W_OK | os.X_OK):
        raise ReadOnly(f"no permission to write in the folder of {rel} ({folder}); nothing was written: make it "
                       f"writable (chmod u+w) to {doing}", path=rel, folder=str(folder))


def _may_write(path: Path, mode: int) -> bool:
    if not os.access(path, mode):
        return False
    return not (hasattr(os, "geteuid") and os.geteuid() == 0) or bool(path.stat().st_mode & stat.S_IWUSR)


def check_backup_room(root: Path, parts: list[str], rel: str) -> None:
    """Refuse (`conflict`) to back `rel` up when a file stands where its backup folder (`parts`, from the vault's
    backup folder down) would be: the edit failed with `internal` (FileExistsError) where its dry run had said ok."""
    for depth in range(1, len(parts) + 1):
        folder = root.joinpath(*parts[:depth])
        if not folder.exists():
            return
        if not folder.is_dir():
            file = "/".join(parts[:depth])
            raise Conflict(f"{file} is a file where the editor keeps the backups of {rel} (a folder); nothing was "
                           "written: move it away to edit the note", path=rel, file=file)


def temp_name(name: str, token: str) -> str:
    """The hidden temporary file a note is written to before its rename (never `.md`: ingest passes over it)."""
    tail = f".{token}.tmp"
    return "." + _cut(name, NAME_MAX - 1 - _size(tail)) + tail


def backup_name(name: str, suffix: str) -> str:
    """`<name><suffix>` (suffix: `.<stamp>.bak`), or when that is too long, the name cut short and a hash of it."""
    if _size(name) + _size(suffix) <= NAME_MAX:
        return name + suffix
    digest = "~" + hashlib.sha256(os.fsencode(name)).hexdigest()[:12]
    return _cut(name, NAME_MAX - _size(digest) - _size(suffix)) + digest + suffix
