"""The vector matrix saved beside a SQLite database, so a new process maps it instead of reading every vector out of
SQLite (≈ 60 ms at 10k memories, ≈ 0.6 s at 100k, for each CLI `recall` or `remember`).

Two files: `<db>-vectors` holds a fixed 4 KiB header and then the float32 rows, one after another; `<db>-vectors.ids`
holds a token line and then each row's node id, NUL-terminated. The header names the provider, the store's
`vector_state` token the rows are of, the row count, how many bytes of the ids file belong to them and that file's
token, with a CRC-32 of those ids bytes and a sum of the rows, all under a CRC-32 of its own. A process that only
added memories appends their rows and ids past the end and then rewrites the header in place, so a `remember` costs a
few KB of writes instead of the whole matrix (15 MB at 10k, 150 MB at 100k). A forgotten (or re-embedded) memory's
row stays where it is and its id is overwritten in place with a tombstone of the same length (a changed row is
appended anew), so a forget costs a few bytes too and row positions never move — an approximate index keyed by
position stays valid (`vector_ann.py`). Once tombstones pass a tenth of the rows, or anything else changed, both
files are rewritten under temporary names and renamed in.

It is a cache, never data: used only when its state equals the store's committed state and the two files carry the
same token; written only from a state the index knows to be the store's, outside any write transaction
(`VectorIndex.persist`). Appenders take an exclusive lock and give up if another holds it. Readers take no lock:
rows and ids are written before the header that counts them, and a header of another state, token or format (an
older mnemon's file) is a copy of another moment, passed over without a word.

A *damaged* copy raises `Damaged` and the caller reads the store instead, saying so: files shorter than the header
counts (a full disk, a cut copy), a header failing its CRC, ids failing theirs, rows whose sum differs. Before that
verdict the reader looks once more holding a shared lock, because an appender between its writes (ids tombstoned in
place, the header not yet rewritten) looks like damage for that moment. What the checks cost at 100k × 384 rows on
this 2-core machine: the header and sizes nothing measurable, the ids' CRC-32 0.9 ms (3.7 MB of ids), the rows' sum
5.4 ms (150 MB as 64-bit words, memory-bound); a new process's load and first exact scan take ≈ 10 ms longer in all
(best of 25: 22 → 32 ms; the sum takes the first touch of every page from the scan). A CRC-32 or Adler-32 of the
rows would also catch words that swapped places but costs 37–64 ms a load; the sum catches any flipped bit and any
changed run whose words do not happen to add up the same — enough for a cache whose failure is a wrong recall, never
lost data — and an append adds its rows' sum, so a `remember` never re-reads the matrix. From `verify_rows_up_to`
rows on (where a process answers from the approximate index and touches a few hundred rows) the rows' sum is not
checked: it would read the whole matrix that index exists to avoid reading; the header, sizes and ids still are.
"""
from __future__ import annotations

import json
import mmap
import secrets
import zlib
from collections.abc import Sequence
from typing import Any

import numpy as np

from .array_file import word_sum, write_atomic
from .cache_paths import ids_path

try:
    import fcntl
except ImportError:  # not on Windows: there a process saves the matrix whole, as before appends existed
    fcntl = None  # type: ignore[assignment]

FORMAT = "mnemon-vectors/3"  # /3 adds `ids_crc` and `rows_sum`: a /2 file is a stale copy, rebuilt without a word
HEAD_BYTES = 4096  # the header block; rows start here, so they stay aligned and the header can be rewritten in place
TOMBSTONE = "\x01"  # a dead row's id bytes are all this: no node id holds it (ids are validated printable text)
LOCK_WAIT_S = 2.0  # how long a reader that found damage waits for an appender's lock before passing the copy over


class Damaged(Exception):
    """The saved matrix is not what its header says (cut short, or a checksum fails): never to be used."""


def _header(fields: dict[str, Any]) -> bytes:
    body = json.dumps({"format": FORMAT, **fields}, sort_keys=True)
    raw = json.dumps({"crc": zlib.crc32(body.encode()), "body": body}).encode() + b"\n"
    if len(raw) > HEAD_BYTES:
        raise ValueError("vector file header too long")
    return raw.ljust(HEAD_BYTES, b" ")


def _read_header(raw: bytes) -> dict[str, Any] | None:
    """The header of the current format; None for any other (stale: an older mnemon wrote it); `Damaged` when the
    block is no header at all or fails its checksum."""
    try:
        outer = json.loads(raw.split(b"\n", 1)[0])
        if isinstance(outer, dict) and "body" not in outer and str(outer.get("format")).startswith("mnemon-vectors/"):
            return None  # the first layout's header: a plain JSON line
        body = outer["body"]
        if zlib.crc32(body.encode()) != outer["crc"]:
            raise Damaged("its header fails its checksum")
        head = json.loads(body)
    except (ValueError, KeyError, TypeError, AttributeError):
        raise Damaged("its header is unreadable") from None
    return head if isinstance(head, dict) and head.get("format") == FORMAT else None


def _header_or_none(raw: bytes) -> dict[str, Any] | None:
    try:
        return _read_header(raw)
    except Damaged:
        return None


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
                        "ids_bytes": len(blob), "token": token, "dead": 0, "ids_crc": zlib.crc32(blob),
                        "rows_sum": word_sum(rows.data.cast("B"))})
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
    reader would use changed, when the files are not that matrix, another process is writing them, the ids to
    tombstone fail their checksum, or writing fails: the caller then saves whole.

    The checksums are carried forward, never recomputed from what the files hold, so an append cannot make a
    damaged copy pass: the new rows' sum is added to the old, the new ids continue the old CRC, and a tombstone
    (which changes ids in place) is written only into ids that pass their CRC first."""
    if fcntl is None:
        return False
    try:
        rows = np.ascontiguousarray(mat, dtype="<f4")
        with open(path, "r+b") as fh:
            try:
                fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return False
            head = _header_or_none(fh.read(HEAD_BYTES))
            if (head is None or head.get("provider") != provider or (head.get("state"), head.get("rows")) != base
                    or head.get("dim") != rows.shape[1]):
                return False
            old_bytes, ids_crc = int(head["ids_bytes"]), int(head["ids_crc"])
            with open(ids_path(path), "r+b") as ih:
                if ih.readline() != str(head["token"]).encode() + b"\n":
                    return False
                if dead:
                    ih.seek(0)
                    blob = bytearray(ih.read(old_bytes))
                    if len(blob) != old_bytes or zlib.crc32(blob) != ids_crc:
                        return False
                    for offset, size in dead:
                        if offset + size >= old_bytes:
                            return False
                        blob[offset : offset + size] = TOMBSTONE.encode() * size
                    ids_crc = zlib.crc32(blob)
                    for offset, size in dead:
                        ih.seek(offset)
                        ih.write(TOMBSTONE.encode() * size)
                added = _ids_blob(ids)
                ih.seek(old_bytes)
                ih.write(added)
                ids_bytes = ih.tell()
                ids_crc = zlib.crc32(added, ids_crc)
            start = base[1] * rows.shape[1] * 4
            if len(rows):  # (a forget alone adds none; an empty view cannot be cast to bytes)
                fh.seek(HEAD_BYTES + start)
                fh.write(rows.data.cast("B"))
            fh.flush()  # rows before the header that counts them
            fh.seek(0)
            # every tombstone counts, in old rows and among the new ones (a memory added and forgotten since): the
            # count decides when the copy is compacted
            tombstones = len(dead) + sum(1 for i in ids if i.startswith(TOMBSTONE))
            total = (int(head["rows_sum"]) + (word_sum(rows.data.cast("B"), start) if len(rows) else 0)) % 2**64
            fh.write(_header({**head, "state": state, "rows": base[1] + len(ids), "ids_bytes": ids_bytes,
                              "dead": int(head.get("dead", 0)) + tombstones, "ids_crc": ids_crc,
                              "rows_sum": total}))
    except (OSError, ValueError, KeyError, TypeError):
        return False
    return True


def saved_state(path: str, provider: str) -> str | None:
    """The store state the saved matrix is of (its header alone), when it is this provider's."""
    try:
        with open(path, "rb") as fh:
            head = _header_or_none(fh.read(HEAD_BYTES))
    except OSError:
        return None
    return str(head["state"]) if head is not None and head.get("provider") == provider else None


Loaded = tuple[list[str], np.ndarray, str, list[int]]


def load(path: str, provider: str, state: str, *, verify_rows_up_to: int | None = None) -> Loaded | None:
    """(ids, matrix, ids token, dead row positions) saved for exactly this provider and state; None when there is
    no such copy (none, or one of another state, provider or format). `Damaged` when the copy's files are not what
    its header says. The rows' sum is checked unless the copy holds `verify_rows_up_to` rows or more. The matrix is
    a private copy-on-write mapping: the index may update rows in place without touching the file. A dead row's id
    is a tombstone string, which names no node."""
    try:
        return _load(path, provider, state, verify_rows_up_to)
    except Damaged:
        pass
    # an appender holds the exclusive lock between its writes: look again once it is done, as a reader that came
    # after it would (a whole save renames both files in: reopening sees the new ones)
    try:
        with open(path, "rb") as fh:
            if not _shared_lock(fh):
                return None  # a writer is at it still: a copy being written is not this moment's
            return _load(path, provider, state, verify_rows_up_to)
    except OSError:
        return None


def _shared_lock(fh: Any) -> bool:
    if fcntl is None:
        return True  # no appends without locks: nothing is ever written in place
    import time

    deadline = time.monotonic() + LOCK_WAIT_S
    while True:
        try:
            fcntl.flock(fh, fcntl.LOCK_SH | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.005)


def _load(path: str, provider: str, state: str, verify_rows_up_to: int | None) -> Loaded | None:
    try:
        with open(path, "rb") as fh:
            head = _read_header(fh.read(HEAD_BYTES))
            if head is None or head.get("provider") != provider or head.get("state") != state:
                return None
            n, dim, ids_bytes = int(head["rows"]), int(head["dim"]), int(head["ids_bytes"])
            if n < 0 or dim <= 0 or ids_bytes <= 0:
                raise Damaged("its header counts are impossible")
            if fh.seek(0, 2) < HEAD_BYTES + n * dim * 4:
                raise Damaged("its rows are cut short")
            with open(ids_path(path), "rb") as ih:
                blob = ih.read(ids_bytes)
            token = str(head["token"]).encode() + b"\n"
            if not blob.startswith(token):
                return None  # the ids of another save (one renamed in between our two opens)
            if len(blob) != ids_bytes:
                raise Damaged("its ids are cut short")
            if zlib.crc32(blob) != int(head["ids_crc"]):
                raise Damaged("its ids fail their checksum")
            try:
                ids = blob[len(token):-1].decode().split("\0") if n else []
            except UnicodeDecodeError:
                raise Damaged("its ids are not text") from None
            if len(ids) != n or (n and not blob.endswith(b"\0")):
                raise Damaged("its ids do not match its rows")
            buf = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_COPY)
        if (verify_rows_up_to is None or n < verify_rows_up_to) and n and word_sum(
                memoryview(buf)[HEAD_BYTES : HEAD_BYTES + n * dim * 4]) != int(head["rows_sum"]):
            raise Damaged("its rows fail their checksum")
        mat = np.frombuffer(buf, dtype="<f4", count=n * dim, offset=HEAD_BYTES).reshape(n, dim)
        dead = [k for k, i in enumerate(ids) if i.startswith(TOMBSTONE)] if TOMBSTONE.encode() in blob else []
    except OSError:
        return None  # gone, or not ours to read: no copy, as when none was ever saved
    except (ValueError, KeyError, TypeError) as exc:
        raise Damaged(f"its header does not describe its files ({exc.__class__.__name__})") from None
    return ids, mat, str(head["token"]), dead


def load_saved(path: str) -> tuple[dict[str, Any], np.ndarray] | None:
    """(header, matrix) of whatever state the file holds, read-only, without its ids: for the approximate index's
    builder, which keys rows by position under the file's token. None unless its rows pass their sum: an index
    built over damaged rows would propose the wrong neighbours until the copy is next saved whole."""
    try:
        with open(path, "rb") as fh:
            head = _header_or_none(fh.read(HEAD_BYTES))
            if head is None:
                return None
            n, dim = int(head["rows"]), int(head["dim"])
            if n <= 0 or dim <= 0:
                return None
            buf = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
        mat = np.frombuffer(buf, dtype="<f4", count=n * dim, offset=HEAD_BYTES).reshape(n, dim)
        if word_sum(mat.data.cast("B")) != int(head["rows_sum"]):
            return None
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return head, mat
