"""The vector matrix saved beside a SQLite database, so a new process maps it instead of reading every vector out of
SQLite (≈ 60 ms at 10k memories, ≈ 0.6 s at 100k, for each CLI `recall` or `remember`).

Two files: `<db>-vectors` holds a fixed 4 KiB header and then the float32 rows, one after another; `<db>-vectors.ids`
holds a token line and then each row's node id, NUL-terminated. The header names the provider, the store's
`vector_state` token the rows are of, the row count, how many bytes of the ids file belong to them and that file's
token, under a checksum. A process that only added memories appends their rows and ids past the end and then rewrites
the header in place, so a `remember` costs a few KB of writes instead of the whole matrix (15 MB at 10k, 150 MB at
100k). A forgotten (or re-embedded) memory's row stays where it is and its id is overwritten in place with a
tombstone of the same length (a changed row is appended anew), so a forget costs a few bytes too and row positions
never move — an approximate index keyed by position stays valid (`vector_ann.py`). Once tombstones pass a tenth of
the rows, or anything else changed, both files are rewritten under temporary names and renamed in.

It is a cache, never data: used only when its state equals the store's committed state, its checksum holds and the
two files carry the same token; written only from a state the index knows to be the store's, outside any write
transaction (`VectorIndex.persist`). Readers never lock: rows and ids are written before the header that counts them,
and a torn or stale header fails its checksum or its state. Appenders take an exclusive lock and give up if another
holds it.
"""
from __future__ import annotations

import json
import mmap
import secrets
import zlib
from collections.abc import Sequence
from typing import Any

import numpy as np

from .array_file import write_atomic
from .cache_paths import ids_path

try:
    import fcntl
except ImportError:  # not on Windows: there a process saves the matrix whole, as before appends existed
    fcntl = None  # type: ignore[assignment]

FORMAT = "mnemon-vectors/2"
HEAD_BYTES = 4096  # the header block; rows start here, so they stay aligned and the header can be rewritten in place
TOMBSTONE = "\x01"  # a dead row's id bytes are all this: no node id holds it (ids are validated printable text)


def _header(fields: dict[str, Any]) -> bytes:
    body = json.dumps({"format": FORMAT, **fields}, sort_keys=True)
    raw = json.dumps({"crc": zlib.crc32(body.encode()), "body": body}).encode() + b"\n"
    if len(raw) > HEAD_BYTES:
        raise ValueError("vector file header too long")
    return raw.ljust(HEAD_BYTES, b" ")


def _read_header(raw: bytes) -> dict[str, Any] | None:
    try:
        outer = json.loads(raw.split(b"\n", 1)[0])
        body = outer["body"]
        if zlib.crc32(body.encode()) != outer["crc"]:
            return None
        head = json.loads(body)
    except (ValueError, KeyError, TypeError, AttributeError):
        return None
    return head if isinstance(head, dict) and head.get("format") == FORMAT else None


def _ids_blob(ids: list[str]) -> bytes:
    """NUL-terminated ids; a dead row's id may be a tombstone (only TOMBSTONE characters), a live one never starts
    like one (it would load as dead)."""
    if any("\0" in i or (i.startswith(TOMBSTONE) and i.strip(TOMBSTONE)) for i in ids):
        raise ValueError("a node id holds a NUL byte or starts like a tombstone")
    return "".join(i + "\0" for i in ids).encode()


def id_offsets(token: str, ids: list[str], positions: list[int]) -> list[tuple[int, int]]:
    """(byte offset, byte length) in the ids file of each position's id, for tombstoning it."""
    wanted = set(positions)
    out, at = {}, len(token) + 1
    for k, i in enumerate(ids):
        size = len(i.encode())
        if k in wanted:
            out[k] = (at, size)
        at += size + 1
    return [out[k] for k in positions]


def save(path: str, provider: str, state: str, ids: list[str], mat: np.ndarray) -> str | None:
    """Write both files whole; their new ids token, or None when they could not be written. Best effort: a cache
    that cannot be written is simply not there for the next process."""
    try:
        token = secrets.token_hex(8)
        blob = token.encode() + b"\n" + _ids_blob(ids)
        rows = np.ascontiguousarray(mat, dtype="<f4")
        head = _header({"provider": provider, "state": state, "dim": int(rows.shape[1]), "rows": len(ids),
                        "ids_bytes": len(blob), "token": token, "dead": 0})
        # the ids file first: a reader between the two renames sees a new token under the old header and declines
        write_atomic(ids_path(path), [blob])
        write_atomic(path, [head, rows.data.cast("B")])
    except (OSError, ValueError):
        return None
    return token


def append(path: str, provider: str, base: tuple[str, int], state: str, ids: list[str], mat: np.ndarray,
           dead: Sequence[tuple[int, int]] = ()) -> bool:
    """Add rows to a saved matrix that holds exactly `base` (its state, its row count) and tombstone the ids at
    `dead` ((offset, length) in the ids file, from `id_offsets`), naming it `state` after. False, with nothing a
    reader would use changed, when the files are not that matrix, another process is writing them, or writing
    fails: the caller then saves whole."""
    if fcntl is None:
        return False
    try:
        rows = np.ascontiguousarray(mat, dtype="<f4")
        with open(path, "r+b") as fh:
            try:
                fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return False
            head = _read_header(fh.read(HEAD_BYTES))
            if (head is None or head.get("provider") != provider or (head.get("state"), head.get("rows")) != base
                    or head.get("dim") != rows.shape[1]):
                return False
            with open(ids_path(path), "r+b") as ih:
                if ih.readline() != str(head["token"]).encode() + b"\n":
                    return False
                for offset, size in dead:
                    if offset + size >= int(head["ids_bytes"]):
                        return False
                    ih.seek(offset)
                    ih.write(TOMBSTONE.encode() * size)
                ih.seek(int(head["ids_bytes"]))
                ih.write(_ids_blob(ids))
                ids_bytes = ih.tell()
            if len(rows):  # (a forget alone adds none; an empty view cannot be cast to bytes)
                fh.seek(HEAD_BYTES + base[1] * rows.shape[1] * 4)
                fh.write(rows.data.cast("B"))
            fh.flush()  # rows before the header that counts them
            fh.seek(0)
            # every tombstone counts, in old rows and among the new ones (a memory added and forgotten since): the
            # count decides when the copy is compacted
            tombstones = len(dead) + sum(1 for i in ids if i.startswith(TOMBSTONE))
            fh.write(_header({**head, "state": state, "rows": base[1] + len(ids), "ids_bytes": ids_bytes,
                              "dead": int(head.get("dead", 0)) + tombstones}))
    except (OSError, ValueError, KeyError, TypeError):
        return False
    return True


def saved_state(path: str, provider: str) -> str | None:
    """The store state the saved matrix is of (its header alone), when it is this provider's."""
    try:
        with open(path, "rb") as fh:
            head = _read_header(fh.read(HEAD_BYTES))
    except OSError:
        return None
    return str(head["state"]) if head is not None and head.get("provider") == provider else None


def load(path: str, provider: str, state: str) -> tuple[list[str], np.ndarray, str, list[int]] | None:
    """(ids, matrix, ids token, dead row positions) saved for exactly this provider and state, else None. The
    matrix is a private copy-on-write mapping: the index may update rows in place without touching the file. A dead
    row's id is a tombstone string, which names no node."""
    try:
        with open(path, "rb") as fh:
            head = _read_header(fh.read(HEAD_BYTES))
            if head is None or head.get("provider") != provider or head.get("state") != state:
                return None
            n, dim = int(head["rows"]), int(head["dim"])
            with open(ids_path(path), "rb") as ih:
                blob = ih.read(int(head["ids_bytes"]))
            token = str(head["token"]).encode() + b"\n"
            if not blob.startswith(token) or (n and not blob.endswith(b"\0")):
                return None
            ids = blob[len(token):-1].decode().split("\0") if n else []
            if len(ids) != n or dim <= 0:
                return None
            buf = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_COPY)
        mat = np.frombuffer(buf, dtype="<f4", count=n * dim, offset=HEAD_BYTES).reshape(n, dim)
        # found in the ids themselves, not by the header's count: a reader whose header predates a forget may read
        # an ids file the forget already tombstoned (ids are overwritten in place before the header), and must not
        # take that row for a live one under a junk id
        dead = [k for k, i in enumerate(ids) if i.startswith(TOMBSTONE)] if TOMBSTONE.encode() in blob else []
    except (OSError, ValueError, KeyError, TypeError, UnicodeDecodeError):
        return None
    return ids, mat, str(head["token"]), dead


def load_saved(path: str) -> tuple[dict[str, Any], np.ndarray] | None:
    """(header, matrix) of whatever state the file holds, read-only, without its ids: for the approximate index's
    builder, which keys rows by position under the file's token."""
    try:
        with open(path, "rb") as fh:
            head = _read_header(fh.read(HEAD_BYTES))
            if head is None:
                return None
            n, dim = int(head["rows"]), int(head["dim"])
            if n <= 0 or dim <= 0:
                return None
            buf = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
        mat = np.frombuffer(buf, dtype="<f4", count=n * dim, offset=HEAD_BYTES).reshape(n, dim)
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return head, mat
