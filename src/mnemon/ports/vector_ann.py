"""An approximate nearest-neighbour index (HNSW, `usearch`) over the vector matrix saved beside a large store.

Why: a `remember` asks for the few nearest memories (semantic edges, the diff, review candidates), a recall for its
vector anchor and the cosines of the few thousand nodes its beam visits. The exact scan reads the whole float32
matrix — 154 MB at 100k memories, 8–16 ms memory-bound on this machine — for that.
An HNSW graph answers in ≈ 0.4 ms and touches a few hundred rows (reference/deps.md §3: usearch f16, recall 1.0 at
100k; qualified again in docs/benchmarks.md on e5 vectors).

How it stays a cache, never data:
- It indexes the first `rows` rows of one saved matrix (`vector_file`, named by that file's ids token), keyed by row
  position. A matrix that is only appended to keeps its token, so the index stays valid and the rows added since
  are scanned exactly; forgotten rows are tombstones the caller skips; a matrix saved whole anew (compacted after
  many forgets, or rebuilt from the store) has a new token and the index is ignored until rebuilt.
- Its answers are candidates only: the caller re-scores them exactly from the float32 rows, drops dead ones, and
  merges the exact scan of the uncovered rows. A wrong or stale index can miss a neighbour, never invent a score.
- It holds one row per vector; the rows holding the same vector as an earlier one (a text stored many times) are
  listed beside it (`-ann-copies`) and come back with the row found, so every copy tied with it is a candidate.
- It is built by a background process (`python -m mnemon.ports.vector_ann <vector file>`, niced, one thread, one
  at a time under a lock) started by a process that found it missing or too far behind, so no write waits for the
  build (≈ 15–30 s at 100k). Without `usearch`, or below `AnnPolicy.min_rows`, everything is the exact scan, as
  before; a policy without `builds` (`MNEMON_ANN=off`) starts none (an index already built is still used).
"""
from __future__ import annotations

import json
import os
import sys
import zlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

try:
    import fcntl
except ImportError:  # Windows: builds are not locked against each other; a duplicate build only wastes time
    fcntl = None  # type: ignore[assignment]

FORMAT = "mnemon-ann/2"  # /2 holds one row per vector and the copies file: a /1 index is rebuilt
# rebuild once the rows the index does not cover (scanned exactly) pass this share of those it does
STALE_SHARE = 0.10
STALE_MIN_ROWS = 2_000
REBUILD_ROUNDS = 3  # builds one background process makes at most, each over the copy saved by then


@dataclass(frozen=True)
class AnnPolicy:
    """When a store gets an approximate index and uses it (the configuration's `ann*` settings)."""
    builds: bool = True  # start background builds (false: never build; an index already built is still used)
    # below this many rows the exact scan is a few milliseconds and an index would only add a file and a build
    min_rows: int = 30_000
    # from this size even a process's first search uses the index: one exact scan (≈ 25 ms at 250k rows) outweighs
    # loading usearch (≈ 60 ms with its imports) plus mapping the index
    cold_min_rows: int = 250_000

    def is_stale(self, rows: int, covered: int) -> bool:
        """Whether a matrix of `rows` rows, of which an index covers `covered`, deserves a (re)build."""
        if rows < self.min_rows:
            return False
        return covered <= 0 or rows - covered > max(STALE_MIN_ROWS, int(covered * STALE_SHARE))
# HNSW parameters measured in reference/deps.md §3 and docs/benchmarks.md (`bench_ann.py`: recall@8 0.999 on real e5
# vectors of LoCoMo, 1.0 on the 100k store of mixed e5 vectors)
CONNECTIVITY, EXPANSION_ADD, EXPANSION_SEARCH = 16, 128, 128


def index_path(vector_path: str) -> str:
    return f"{vector_path}-ann"


def meta_path(vector_path: str) -> str:
    return f"{vector_path}-ann.json"


def copies_path(vector_path: str) -> str:
    return f"{vector_path}-ann-copies"


def lock_path(vector_path: str) -> str:
    return f"{vector_path}-ann.lock"


def available() -> bool:
    """Whether usearch is installed, without loading it (≈ 60 ms with its imports: a CLI process that only asks
    for a build must not pay for it)."""
    import importlib.util

    try:
        return importlib.util.find_spec("usearch") is not None
    except (ImportError, ValueError):
        return False


def loaded() -> bool:
    """Whether this process has loaded usearch already (then an index costs a search nothing more to open)."""
    return "usearch" in sys.modules


@dataclass(frozen=True)
class AnnView:
    """A saved index mapped read-only: the first `rows` rows of the matrix whose ids token is `token`."""
    index: Any
    token: str
    rows: int
    stamp: tuple[int, int]
    # (2, n): a row holding one of the index's vectors, under the row the index knows it by (`_copies`)
    copies: np.ndarray = field(compare=False)

    def nearest(self, query: np.ndarray, count: int) -> np.ndarray:
        """Row positions of about the `count` nearest vectors, nearest first (approximate), each followed by the
        other rows holding the same vector."""
        import numpy as np

        found = self.index.search(np.asarray(query, dtype=np.float32), min(count, self.rows))
        keys = np.asarray(found.keys, dtype=np.int64)
        owners, rows = self.copies
        lo, hi = np.searchsorted(owners, keys, "left"), np.searchsorted(owners, keys, "right")
        held = np.flatnonzero(hi > lo)
        if not len(held):
            return keys
        return np.concatenate([keys, *(rows[lo[i]:hi[i]] for i in held.tolist())])


def _stamp(path: str) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


def _meta_body(fields: dict[str, Any]) -> str:
    body = json.dumps({"format": FORMAT, **fields}, sort_keys=True)
    return json.dumps({"crc": zlib.crc32(body.encode()), "body": body})


def read_meta(vector_path: str) -> dict[str, Any] | None:
    try:
        with open(meta_path(vector_path), encoding="utf-8") as fh:
            outer = json.load(fh)
        body = outer["body"]
        if zlib.crc32(body.encode()) != outer["crc"]:
            return None
        meta = json.loads(body)
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    return meta if isinstance(meta, dict) and meta.get("format") == FORMAT else None


def open_view(vector_path: str, provider: str, token: str, dim: int) -> AnnView | None:
    """The saved index for this provider and matrix token, mapped; None when there is none, it is of another
    matrix, or its file is not the one its metadata describes (a build replaced it meanwhile)."""
    meta = read_meta(vector_path)
    if meta is None or (meta.get("provider"), meta.get("token"), meta.get("dim")) != (provider, token, dim):
        return None
    stamp = _stamp(meta_path(vector_path))
    path, copies_file = index_path(vector_path), copies_path(vector_path)
    if stamp is None or any(_stamp(p) is None or os.path.getsize(p) != meta.get(size) for p, size in (
            (path, "bytes"), (copies_file, "copies_bytes"))):
        return None
    try:
        import numpy as np
        from usearch.index import Index

        index = Index.restore(path, view=True)
        copies = np.load(copies_file, allow_pickle=False)
    except (ImportError, OSError, RuntimeError, ValueError):
        return None
    rows = int(meta["rows"])
    if index is None or index.ndim != dim or len(index) != meta.get("keys") or copies.dtype != np.int64 or (
            copies.ndim != 2 or copies.shape[0] != 2 or (copies.size and not 0 <= copies.min() <= copies.max() < rows)):
        return None
    index.expansion_search = EXPANSION_SEARCH  # type: ignore[misc]  # a setter the stubs miss
    return AnnView(index, token, rows, stamp, copies)


def meta_stamp(vector_path: str) -> tuple[int, int] | None:
    """Changes whenever a build finishes: a process holding a view checks it before each search (one `stat`)."""
    return _stamp(meta_path(vector_path))


def build(vector_path: str, *, threads: int = 1, min_rows: int = AnnPolicy.min_rows) -> dict[str, Any]:
    """Index the saved matrix as it is now, unless another build holds the lock or the index already covers it.
    Returns what it did (for the background process's exit and for tests)."""
    import numpy as np

    from . import vector_file

    with open(lock_path(vector_path), "a+b") as lock:
        if fcntl is not None:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return {"built": False, "reason": "another build is running"}
        saved = vector_file.load_saved(vector_path)
        if saved is None:
            return {"built": False, "reason": "no saved matrix"}
        head, mat = saved
        rows = int(mat.shape[0])
        meta = read_meta(vector_path)
        covered = int(meta["rows"]) if meta and (meta.get("token"), meta.get("provider")) == (
            head["token"], head["provider"]) else 0
        if rows < min_rows:
            return {"built": False, "reason": f"fewer than {min_rows} rows: the exact scan is fast enough",
                    "rows": rows}
        if not AnnPolicy(min_rows=min_rows).is_stale(rows, covered):
            return {"built": False, "reason": "up to date", "rows": rows, "covered": covered}
        from usearch.index import Index

        index = Index(ndim=int(mat.shape[1]), metric="ip", dtype="f16", connectivity=CONNECTIVITY,
                      expansion_add=EXPANSION_ADD)
        mat = np.ascontiguousarray(mat)
        copies = _copies(mat)
        if copies.size:
            keys = np.setdiff1d(np.arange(rows, dtype=np.int64), copies[1], assume_unique=True)
            index.add(keys.astype(np.uint64), mat[keys], threads=threads)
        else:
            index.add(np.arange(rows, dtype=np.uint64), mat, threads=threads)
        copies_size = _replace(copies_path(vector_path), lambda tmp: _save_array(tmp, copies))
        size = _replace(index_path(vector_path), index.save)
        body = _meta_body({"provider": head["provider"], "token": head["token"], "dim": int(mat.shape[1]),
                           "rows": rows, "bytes": size, "keys": len(index), "copies_bytes": copies_size})
        mtmp = f"{meta_path(vector_path)}.{os.getpid()}.tmp"
        try:
            with open(mtmp, "w", encoding="utf-8") as fh:
                fh.write(body)
            os.replace(mtmp, meta_path(vector_path))
        finally:
            if os.path.exists(mtmp):  # a failed write (a full disk) leaves nothing behind
                os.unlink(mtmp)
        return {"built": True, "rows": rows, "bytes": size}


def _copies(mat: np.ndarray) -> np.ndarray:
    """(2, n) int64: under each row whose vector an earlier row holds too, that first row, sorted by it. The index
    holds one row per vector, and a search adds the copies of each row found: HNSW links identical vectors poorly —
    of 170 copies of a template section it returned 8 past some and, asked for more, weaker rows before the
    rest — so the approximate index kept another handful of the tied copies than the exact scan."""
    import numpy as np

    whole = mat.view(np.dtype((np.void, mat.shape[1] * mat.dtype.itemsize))).ravel()
    _, first, inverse = np.unique(whole, return_index=True, return_inverse=True)
    owner = first[inverse.reshape(-1)]
    rows = np.flatnonzero(owner != np.arange(len(owner)))
    order = np.lexsort((rows, owner[rows]))
    return np.stack([owner[rows][order], rows[order]]).astype(np.int64)


def _save_array(path: str, array: np.ndarray) -> None:
    import numpy as np

    with open(path, "wb") as fh:  # (given a name, `np.save` would add ".npy" to it)
        np.save(fh, array, allow_pickle=False)


def _replace(path: str, write: Any) -> int:
    """`write(path of a temporary file)` then the file moved over `path`; its size."""
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        write(tmp)
        size = os.path.getsize(tmp)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return size


def describe(vector_path: str, policy: AnnPolicy = AnnPolicy()) -> dict[str, Any]:
    """For `status`: the saved index's size, what it covers, whether a build is running (no numpy, no usearch)."""
    meta = read_meta(vector_path) or {}
    size = sum(os.path.getsize(p) for p in (index_path(vector_path), copies_path(vector_path),
                                            meta_path(vector_path)) if os.path.exists(p))
    return {"bytes": size, "rows": int(meta.get("rows", 0)), "matrix_token": meta.get("token"),
            "building": build_running(vector_path), "min_rows": policy.min_rows, "builds": policy.builds,
            "unavailable": None}


def describe_none(policy: AnnPolicy, why: str) -> dict[str, Any]:
    """`describe` for a store that can have no index (no vector matrix saved beside it), `why` saying so."""
    return {"bytes": 0, "rows": 0, "matrix_token": None, "building": False, "min_rows": policy.min_rows,
            "builds": False, "unavailable": why}


def build_running(vector_path: str) -> bool:
    """Whether a build holds the lock now (without `flock`, never known: assume not). Asking creates nothing: the
    lock file is the builder's (`status` on a small or read-only store leaves no file behind)."""
    if fcntl is None:
        return False
    try:
        with open(lock_path(vector_path), "rb") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return True
    except FileNotFoundError:
        return False  # no build ever ran here
    except OSError:
        return True  # cannot even open the lock: do not start builds that would fail the same way
    return False


def start_build(vector_path: str, policy: AnnPolicy) -> bool:
    """Build in a detached background process, unless one is running; the caller goes on with the exact scan."""
    if not policy.builds or not available() or build_running(vector_path):
        return False
    import subprocess  # here: ≈ 8 ms to import, and most processes never start a build

    try:
        subprocess.Popen([sys.executable, "-m", "mnemon.ports.vector_ann", vector_path, str(policy.min_rows)],
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         start_new_session=True, close_fds=True)
    except OSError:
        return False
    return True


def main(argv: list[str]) -> int:
    if len(argv) != 2 or not argv[1].isdigit():
        print("usage: python -m mnemon.ports.vector_ann <vector file> <min rows>", file=sys.stderr)
        return 2
    try:
        os.nice(10)  # a background job: the user's own commands come first
    except (OSError, AttributeError):
        pass
    # a matrix saved anew while this build ran (and whose own request found this build holding the lock) is built
    # next, so the index ends up over the newest copy; bounded, so a store rewritten without pause cannot keep it busy
    for _ in range(REBUILD_ROUNDS):
        done = build(argv[0], min_rows=int(argv[1]))
        print(json.dumps(done))
        if not done.get("built"):
            break
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
