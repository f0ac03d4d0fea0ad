"""A bulk import on two cores: a child process runs the graph rules while this process writes what they produce.

An import that only extends the store's history goes through `AppendBatch`: `write_memory` once per memory against
in-memory answers, then bulk inserts. Those are two halves of about equal cost — pure-Python rules and SQLite
inserts — and one process does them one after the other. Here a child process runs the rules (the same
`write_memory` over an `AppendBatch`, whose store is a read-only connection to the same file) and sends each flush
(`Buffered`: node, entity, edge and oplog rows) down a pipe; this process writes one flush while the child computes
the next. The graph is the one the single-process path builds.

The child must see the store exactly as this transaction does. It connects after this process took the write lock
and before it wrote anything (`Store.snapshot_path` is only given then): nobody else can commit until this
transaction ends, and what this one writes stays invisible to other connections until it commits — after the child
is done. So every question the child asks is answered from the state before the batch, which is what `AppendBatch`
assumes.

The child is a fresh interpreter (`python -m mnemon.app.import_pipeline`), not a fork: a forked child would inherit
this process's SQLite connection and its lock state, which SQLite says must not cross a fork. Starting one costs
~0.15 s, so only batches of `PIPELINE_MIN` memories or more go this way.
"""
from __future__ import annotations

import os
import pickle
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import IO, Any

from ..core.errors import StoreError
from ..core.model import parse_iso, utcnow
from ..core.validation import MemoryInput
from .append_batch import AppendBatch
from .runtime import Runtime

PIPELINE_MIN = 3_000  # memories from which a second process pays for its start
CHUNK = 500  # memories per flush sent back: large enough for bulk SQL, small enough that the last write is short
FIRST_CHUNK = 250  # the first flush is smaller: the writer waits for it with nothing else to do
DISABLE_ENV = "MNEMON_IMPORT_PIPELINE"  # "0": every import in one process
CHILD_ARGS = ("-m", "mnemon.app.import_pipeline")  # how the interpreter is told to run `_child`


@dataclass(frozen=True)
class Job:
    db: str
    items: list[tuple[int, MemoryInput]]
    audit_content: bool
    now: str | None  # the caller's clock when it is not the wall clock (a test's), read once; None: the wall clock
    chunk: int = CHUNK
    first_chunk: int = FIRST_CHUNK


def snapshot_for(rt: Runtime, count: int) -> str | None:
    """The database file a child can read this batch's starting state from, when the batch is worth a child."""
    if count < PIPELINE_MIN or os.environ.get(DISABLE_ENV) == "0":
        return None
    return rt.store.snapshot_path()


def write_all(rt: Runtime, ordered: list[tuple[int, MemoryInput]], db: str) -> Iterator[tuple[int, str]] | None:
    """(index, memory id) for every item, written into `rt.store` by this process, computed by a child process; None
    when no child can be started here (no usable interpreter): the caller then imports in one process."""
    job = Job(db, ordered, rt.audit_content, None if rt.clock is utcnow else rt.now_iso(),
              chunk=CHUNK, first_chunk=min(FIRST_CHUNK, CHUNK))
    env = dict(os.environ)
    package_root = str(Path(__file__).resolve().parents[2])  # the directory holding the `mnemon` package
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH", "")) if p)
    errors = tempfile.TemporaryFile()
    try:
        # started in the package's own directory: `-m` looks there first, not in whatever the caller's is
        proc = subprocess.Popen([sys.executable, *CHILD_ARGS], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=errors, env=env, cwd=package_root)
    except OSError:
        errors.close()
        return None
    return _written(rt, job, proc, errors)


def _written(rt: Runtime, job: Job, proc: subprocess.Popen[bytes], errors: IO[bytes]) -> Iterator[tuple[int, str]]:
    assert proc.stdin is not None and proc.stdout is not None
    try:
        try:
            pickle.dump(job, proc.stdin, protocol=pickle.HIGHEST_PROTOCOL)
            proc.stdin.close()
        except BrokenPipeError:
            pass  # the child died at start: reading its answer says why
        while True:
            try:
                kind, payload = pickle.load(proc.stdout)
            except EOFError:
                proc.wait()
                errors.seek(0)
                tail = errors.read()[-2000:].decode("utf-8", "replace").strip()
                raise StoreError(f"the import's rule process stopped (exit {proc.returncode}): {tail}") from None
            if kind == "done":
                return
            if kind == "error":
                raise StoreError(f"the import's rule process failed: {payload}")
            ids, buffered = payload
            buffered.write(rt.store)
            yield from ids
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        errors.close()


# ── the child ────────────────────────────────────────────────────────────────
def _child(job_in: IO[bytes], out: IO[bytes]) -> None:
    from ..ports.embed.offline import NoVectorsProvider
    from ..ports.store.sqlite import SQLiteStore
    from .bulk_gc import paused_gc
    from .remember import write_memory

    job: Job = pickle.load(job_in)

    def send(message: tuple[str, Any]) -> None:
        pickle.dump(message, out, protocol=pickle.HIGHEST_PROTOCOL)
        out.flush()

    try:
        store = SQLiteStore(job.db, readonly=True)
        fixed = parse_iso(job.now) if job.now is not None else None

        def clock() -> datetime:
            return fixed if fixed is not None else utcnow()

        batch = AppendBatch(store)
        rt = Runtime(store=batch, provider=NoVectorsProvider(), max_insights=0,  # type: ignore[arg-type]
                     audit_content=job.audit_content, clock=clock, save_caches=False)
        ids: list[tuple[int, str]] = []
        chunk = job.first_chunk
        with paused_gc():
            for idx, inp in job.items:
                ids.append((idx, write_memory(rt, inp, None, prune=False, origin="import").memory.id))
                if batch.pending >= chunk:
                    send(("rows", (ids, batch.take())))
                    ids, chunk = [], job.chunk
            send(("rows", (ids, batch.take())))
        store.close()
        send(("done", None))
    except BaseException as exc:  # noqa: BLE001 — whatever stops the rules is reported to the writer, which rolls back
        send(("error", f"{type(exc).__name__}: {exc}"))


if __name__ == "__main__":
    # the pipe to the writer carries pickles only: anything printed goes to stderr
    _out = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    _child(sys.stdin.buffer, _out)
