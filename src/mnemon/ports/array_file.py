"""Named numpy arrays in one file beside a database, mapped by the next process instead of read and copied.

Layout: a JSON header line padded to 8 bytes, then each array's raw bytes, each padded to 8. The header holds the
caller's fields, where each array lies, how many bytes the arrays take and the sum of their 64-bit words, all under
a CRC-32 of its own. A file is written whole to a temporary name and renamed into place, so a concurrent reader sees
the old file or the new one. The recall graph (`graph_index.py`) is saved this way, a cache, never data; the vector
matrix (`vector_file.py`) uses `write_atomic` and `word_sum` with a layout of its own that can grow in place.

A file cut short or changed since it was written (a full disk, a copy, a flipped bit) loads as no file at all, so
the caller rebuilds from the store instead of walking a graph whose offsets point anywhere (an `IndexError` out of a
recall, or wrong neighbours). The sum reads every byte once: ≈ 4 ms for the 107 MB graph of a 100k-memory store
(a CRC-32 would take ≈ 26 ms); a file without the checksummed header (written before it) is no file either.
"""
from __future__ import annotations

import json
import zlib
from collections.abc import Iterable
import mmap
import os
from typing import Any

import numpy as np


def word_sum(data: Any, start: int = 0) -> int:
    """The sum, modulo 2**64, of the little-endian 64-bit words that the bytes `data` make where they lie in a
    region, `start` bytes after its beginning, a last partial word counted as if padded with zeros: the sum of a
    region is the sum of its parts' sums, so a file that grows by appends adds their sums. Memory-bound (≈ 6 ms for
    150 MB here, where zlib's CRC-32 takes ≈ 37): it catches every flipped bit and any changed run whose words do not
    happen to add up the same, not words that swapped places."""
    raw = np.frombuffer(data, dtype=np.uint8)
    total, at = 0, 0
    if start % 8 and len(raw):
        at = min(8 - start % 8, len(raw))
        total = int.from_bytes(raw[:at].tobytes(), "little") << (8 * (start % 8))
    whole = (len(raw) - at) // 8 * 8
    if whole:
        total += int(raw[at : at + whole].view("<u8").sum(dtype=np.uint64))
    if at + whole < len(raw):
        total += int.from_bytes(raw[at + whole :].tobytes(), "little")
    return total % 2**64


def save_arrays(path: str, header: dict[str, Any], arrays: dict[str, np.ndarray]) -> None:
    """Write `arrays` under `header`; the temporary file is removed if writing fails."""
    layout, offset, total = {}, 0, 0
    for name, arr in arrays.items():
        layout[name] = [arr.dtype.str, list(arr.shape), offset]
        if arr.nbytes:
            total += word_sum(np.ascontiguousarray(arr).data.cast("B"), offset)
        offset += arr.nbytes + (-arr.nbytes % 8)
    body = json.dumps({**header, "arrays": layout, "bytes": offset, "sum": total % 2**64})
    head = json.dumps({"crc": zlib.crc32(body.encode()), "body": body}).encode() + b"\n"
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
    """(header, arrays) of a saved file; None when it is missing, unreadable, of the layout before its checksums, or
    not what its header says (cut short, changed). Arrays are views of the mapped file: read-only, or (`writable`)
    private copy-on-write pages that never reach the file."""
    try:
        with open(path, "rb") as fh:
            outer = json.loads(fh.readline())
            start = fh.tell() + (-fh.tell() % 8)
            body = outer["body"]
            if zlib.crc32(body.encode()) != outer["crc"]:
                return None
            head = json.loads(body)
            size = int(head.pop("bytes"))
            if fh.seek(0, 2) < start + size:
                return None
            buf = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_COPY if writable else mmap.ACCESS_READ)
        if word_sum(memoryview(buf)[start : start + size]) != int(head.pop("sum")):
            return None
        arrays = {}
        for name, (dtype, shape, offset) in head.pop("arrays").items():
            count = int(np.prod(shape)) if shape else 1
            arrays[name] = np.frombuffer(buf, dtype=np.dtype(dtype), count=count,
                                         offset=start + offset).reshape(shape)
    except (OSError, KeyError, ValueError, TypeError, AttributeError):
        return None
    return head, arrays
