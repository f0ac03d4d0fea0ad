"""How the note editor puts a file on disk: whole or not at all (a temporary file beside it, fsync, rename), with
the mode and owner of the note it replaces, and never over another file when asked not to. Run as root, a file or
folder it makes is given the owner and group of the folder it is made in (`owned`)."""
from __future__ import annotations

import errno
import os
import secrets
from pathlib import Path

from ..core.errors import Conflict
from .note_names import temp_name


def atomic_write_text(path: Path, text: str) -> bool:
    """Write a note whole or not at all (temp file, fsync, rename). An edited note keeps its mode and owner; a new
    one gets what any editor would give it (0666 less the umask: mkstemp's 0600 hid new notes from sync tools and
    readers). True when it was written in place, having other names (`atomic_write_bytes`)."""
    return atomic_write_bytes(path, text.encode("utf-8"))


def atomic_write_bytes(path: Path, data: bytes, *, mode: int | None = None, replace: bool = True,
                       like: os.stat_result | None = None) -> bool:
    """`atomic_write_text` for bytes; `mode` forces the file mode, and `replace=False` refuses (`Conflict`) to
    overwrite an existing file, checked by the kernel at the final link rather than by a racy look beforehand.
    A new file takes the owner and group of `like` (a moved note's), else, run as root, of its folder (`owned`).

    A file with other names (hard links: `ln note.md elsewhere.md`) is written in place, as vim and Emacs do, and
    True is returned: the rename gave the edited name a new file and left every other name on the old text, the
    link broken without a word. In place, a crash midway can leave it half written: the caller backs it up first."""
    try:
        return _write(path, data, mode=mode, replace=replace, like=like)
    except OSError as exc:
        if exc.filename is not None:
            raise
        # a write to an open file (a full disk) names none: the refusal would blame the command's output instead
        raise OSError(exc.errno, exc.strerror, str(path)) from exc


def _write(path: Path, data: bytes, *, mode: int | None, replace: bool, like: os.stat_result | None) -> bool:
    there = path.stat() if replace and path.exists() else None
    if there is not None and there.st_nlink > 1:
        write_in_place(path, data)
        return True
    make_folders(path.parent)
    if mode is None and there is not None:
        mode = there.st_mode & 0o777
    tmp = path.parent / temp_name(path.name, secrets.token_hex(6))
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # the kernel applies the umask
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        model = there if there is not None else like
        if model is not None:
            keep_owner(tmp, model)
        else:
            owned(tmp)
        if mode is not None:
            os.chmod(tmp, mode)
        if replace:
            os.replace(tmp, path)
        else:
            link_no_clobber(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return False


def hard_links(path: Path) -> int:
    """How many names the file at `path` has (1 for a file that is not there: a new note will have one)."""
    try:
        return path.stat().st_nlink
    except OSError:
        return 1


def write_in_place(path: Path, data: bytes) -> None:
    """Write `data` into the file itself (every name of it sees it), mode, owner and inode kept. The room a longer
    text needs is taken first: on a disk that filled midway the note was left half new, half old."""
    fd = os.open(path, os.O_WRONLY)
    try:
        _reserve(fd, len(data))
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.ftruncate(fd, len(data))
        os.fsync(fd)
    finally:
        os.close(fd)


def _reserve(fd: int, size: int) -> None:
    """Allocate the file open at `fd` up to `size` bytes, only past its end (nothing of it is written), or raise the
    disk's refusal with the file as it was; a file system that cannot allocate ahead is written as before."""
    was = os.fstat(fd).st_size
    if size <= was or not hasattr(os, "posix_fallocate"):
        return
    try:
        os.posix_fallocate(fd, was, size - was)
    except OSError as exc:
        if exc.errno in (errno.EOPNOTSUPP, errno.ENOSYS, errno.EINVAL):
            return
        os.ftruncate(fd, was)
        raise


def owned(path: Path) -> None:
    """Give a file or folder just made the owner and group of the folder it is in, when run as root (an agent in a
    container, a cron job): a note, backup or backup folder root made in a user's vault was root's, and the user's
    own next edit could not write its backup there, nor the user delete or change the note."""
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        keep_owner(path, path.parent.stat())


def make_folders(folder: Path) -> None:
    """`mkdir -p folder`, each folder made `owned`."""
    missing: list[Path] = []
    while not folder.is_dir() and folder != folder.parent:
        missing.append(folder)
        folder = folder.parent
    for made in reversed(missing):
        try:
            made.mkdir()
        except FileExistsError:
            if not made.is_dir():
                raise
            continue  # (made meanwhile by another process: whoever made it gave it its owner)
        owned(made)


def keep_owner(path: Path, was: os.stat_result) -> None:
    """Give `path` the owner and group the note it replaces had, as far as this user may: run as root (an agent in a
    container, a cron job), an edit made a user's 0640 note root's, and its owner could no longer read it."""
    made = path.stat()
    if (made.st_uid, made.st_gid) == (was.st_uid, was.st_gid) or not hasattr(os, "chown"):
        return
    for uid in (was.st_uid, -1):  # a user who is not root may still keep the group, being in it
        try:
            os.chown(path, uid, was.st_gid)
            return
        except OSError:
            continue


def link_no_clobber(src: Path, path: Path, *, keep_source: bool = False) -> None:
    """Give `src`'s file the name `path` without ever replacing a file there (`Conflict`): the kernel checks, at the
    link. `keep_source` leaves `src` in place when it can (a move removes it last); else `src` is gone after."""
    try:
        os.link(src, path)
    except FileExistsError:
        raise Conflict(f"{path.name} already exists", path=str(path)) from None
    except OSError:
        # file systems without hard links (FAT, some network shares): a plain rename after a last look
        if path.exists():
            raise Conflict(f"{path.name} already exists", path=str(path)) from None
        os.replace(src, path)
        return
    if not keep_source:
        src.unlink()
