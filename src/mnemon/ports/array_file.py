"""Named numpy arrays in one file beside a database, mapped by the next process instead of read and copied.

Layout: a JSON header line (the caller's fields, plus where each array lies) padded to 8 bytes, then each array's raw
bytes, each padded to 8. A file is written whole to a temporary name and renamed into place, so a concurrent reader
sees the old file or the new one. The recall graph (`graph_index.py`) is saved this way, a cache, never data; the
vector matrix (`vector_file.py`) uses `write_atomic` with a layout of its own that can grow in place.
"""
from __future__ import annotations

import json
from collections.abc import Iterable
import mmap
import os
from typing import Any

import numpy as np


def save_arrays(path: str, header: dict[str, Any], arrays: dict[str, np.ndarray]) -> None:
    """Write `arrays` under `header`; the temporary file is removed if writing fails."""
    layout, offset = {}, 0
    for name, arr in arrays.items():
        layout[name] = [arr.dtype.str, list(arr.shape), offset]
        offset += arr.nbytes + (-arr.nbytes % 8)
    head = json.dumps({**header, "arrays": layout}).encode() + b"\n"
    start = len(head) + (-len(head) % 8)
    chunks: list[Any] = [head.ljust(start, b" ")]
    for arr in arrays.values():
        chunks += [np.ascontiguousarray(arr).data.cast("B"), b"\0" * (-arr.nbytes % 8)]  # no copy of the array
    write_atomic(path, chunks)


def write_atomic(path: str, chunks: Iterable[Any], *, durable: bool = False) -> None:
    """Write the byte chunks to a temporary name and rename it into place, so a concurrent reader sees the old file
    or the new one; the temporary file is removed if writing fails. `durable`: synced to disk before the rename (an
    export: a crash right after must not leave a renamed but empty file). What a killed writer left behind under its
    temporary name is removed first."""
    _remove_orphans(path)
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        with open(tmp, "wb") as fh:
            for chunk in chunks:
                fh.write(chunk)
            if durable:
                fh.flush()
                os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _remove_orphans(path: str) -> None:
    """`<path>.<pid>.tmp` files whose process is gone (killed mid-write): never renamed, never to be."""
    folder, name = os.path.split(os.path.abspath(path))
    try:
        leftovers = [entry for entry in os.listdir(folder) if entry.startswith(name + ".") and entry.endswith(".tmp")]
    except OSError:
        return
    for entry in leftovers:
        pid = entry[len(name) + 1 : -len(".tmp")]
        if not pid.isdigit() or int(pid) == os.getpid() or _alive(int(pid)):
            continue
        try:
            os.unlink(os.path.join(folder, entry))
        except OSError:
            pass


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # (another user's process: alive)
        return True
    return True


def load_arrays(path: str, *, writable: bool = False) -> tuple[dict[str, Any], dict[str, np.ndarray]] | None:
    """(header, arrays) of a saved file; None when it is missing or unreadable. Arrays are views of the mapped
    file: read-only, or (`writable`) private copy-on-write pages that never reach the file."""
    try:
        with open(path, "rb") as fh:
            head = json.loads(fh.readline())
            start = fh.tell() + (-fh.tell() % 8)
            buf = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_COPY if writable else mmap.ACCESS_READ)
        arrays = {}
        for name, (dtype, shape, offset) in head.pop("arrays").items():
            count = int(np.prod(shape)) if shape else 1
            arrays[name] = np.frombuffer(buf, dtype=np.dtype(dtype), count=count,
                                         offset=start + offset).reshape(shape)
    except (OSError, KeyError, ValueError, TypeError, AttributeError):
        return None
    return head, arrays
