"""The vector matrix saved beside a SQLite database (`<db>-vectors`), so a new process maps it instead of reading
every vector out of SQLite (≈ 60 ms at 10k memories, ≈ 0.6 s at 100k, for each CLI `recall` or `remember`).

One file: a JSON header line (format, provider, the store's `vector_state` token, where each array lies) and the raw
arrays, written whole to a temporary file and renamed into place, so a reader sees the old file or the new one. It is
a cache, never data: it is used only when its token equals the store's committed state, and written only from a
state read outside any write transaction.
"""
from __future__ import annotations

import json
import mmap
import os

import numpy as np

FORMAT = "mnemon-vectors/1"


def save(path: str, provider: str, state: str, ids: list[str], mat: np.ndarray) -> None:
    arrays = {"ids": np.array(ids, dtype=str) if ids else np.zeros(0, dtype="<U1"),
              "mat": np.ascontiguousarray(mat, dtype="<f4")}
    layout, offset = {}, 0
    for name, arr in arrays.items():
        layout[name] = [arr.dtype.str, list(arr.shape), offset]
        offset += arr.nbytes + (-arr.nbytes % 8)
    head = json.dumps({"format": FORMAT, "provider": provider, "state": state, "arrays": layout}).encode() + b"\n"
    start = len(head) + (-len(head) % 8)
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        with open(tmp, "wb") as fh:
            fh.write(head.ljust(start, b" "))
            for arr in arrays.values():
                fh.write(memoryview(arr).cast("B"))  # the array's own bytes, not a copy of them
                fh.write(b"\0" * (-arr.nbytes % 8))
        os.replace(tmp, path)
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass


def load(path: str, provider: str, state: str) -> tuple[list[str], np.ndarray] | None:
    """(ids, matrix) saved for exactly this provider and state, else None. The matrix is a private copy-on-write
    mapping: the index may update rows in place without touching the file."""
    try:
        with open(path, "rb") as fh:
            head = json.loads(fh.readline())
            if head.get("format") != FORMAT or head.get("provider") != provider or head.get("state") != state:
                return None
            start = fh.tell() + (-fh.tell() % 8)
            buf = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_COPY)
        arrays = {}
        for name, (dtype, shape, offset) in head["arrays"].items():
            count = int(np.prod(shape)) if shape else 1
            arrays[name] = np.frombuffer(buf, dtype=np.dtype(dtype), count=count, offset=start + offset).reshape(shape)
    except (OSError, KeyError, ValueError, TypeError):
        return None
    mat = arrays["mat"]
    return arrays["ids"].tolist(), (mat if mat.ndim == 2 else np.zeros((0, 0), dtype=np.float32))
