"""The vector matrix saved beside a SQLite database (`<db>-vectors`), so a new process maps it instead of reading
every vector out of SQLite (≈ 60 ms at 10k memories, ≈ 0.6 s at 100k, for each CLI `recall` or `remember`).

Saved as named arrays (`array_file.py`) under a header naming the provider and the store's `vector_state` token. It is
a cache, never data: it is used only when its token equals the store's committed state, and written only from a state
the index knows to be the store's, outside any write transaction (`VectorIndex.persist`).
"""
from __future__ import annotations

import numpy as np

from .array_file import load_arrays, save_arrays

FORMAT = "mnemon-vectors/1"


def save(path: str, provider: str, state: str, ids: list[str], mat: np.ndarray) -> None:
    """Best effort: a cache that cannot be written is simply not there for the next process."""
    try:
        save_arrays(path, {"format": FORMAT, "provider": provider, "state": state},
                    {"ids": np.array(ids, dtype=str), "mat": np.ascontiguousarray(mat, dtype="<f4")})
    except OSError:
        pass


def load(path: str, provider: str, state: str) -> tuple[list[str], np.ndarray] | None:
    """(ids, matrix) saved for exactly this provider and state, else None. The matrix is a private copy-on-write
    mapping: the index may update rows in place without touching the file."""
    got = load_arrays(path, writable=True)
    if got is None:
        return None
    head, arrays = got
    if head.get("format") != FORMAT or head.get("provider") != provider or head.get("state") != state:
        return None
    if set(arrays) != {"ids", "mat"} or arrays["mat"].ndim != 2 or len(arrays["ids"]) != arrays["mat"].shape[0]:
        return None
    return arrays["ids"].tolist(), arrays["mat"]
