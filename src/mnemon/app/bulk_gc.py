"""Cyclic garbage collection paused for bulk writes (vault ingest, import)."""
from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused_gc() -> Iterator[None]:
    """No cyclic garbage collection inside: bulk writes allocate millions of short-lived, acyclic tuples, strings and
    edge values, and the collector's passes over them (and over everything else the process holds) cost a fifth of a
    vault writer's time. Reference counting still frees everything; a cycle made meanwhile waits for the next
    collection."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
