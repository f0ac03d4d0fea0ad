"""The embedding provider interface and the settings every provider is built from.

A provider turns text into float32 rows of unit length, so cosine similarity is a plain dot product and
the caller's brute-force matrix never has to re-normalise. Subclasses implement two methods,
`_embed_documents_batch` and `_embed_query`; batching, input checks and normalisation live here once.

`identity()` is what the store records next to every vector. Two providers with the same identity must
produce interchangeable vectors; anything that changes the vector space (model, truncation width,
weights revision) must change it, so a model switch is detected instead of silently mixing spaces.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

import math
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar


from mnemon.core.errors import InvalidInput, ProviderMismatch, ProviderUnavailable

if TYPE_CHECKING:
    Vectors = npt.NDArray[np.float32]
else:  # numpy is imported on first use, so a provider that makes no vectors never loads it
    Vectors = "numpy.ndarray[float32]"

ENV_PREFIX = "MNEMON_EMBED_"


# no embedding model has more dimensions, and no machine this runs on more cores: a larger value is a typo, which
# used to become a multi-terabyte allocation (an `internal` MemoryError)
MAX_SETTING = {"DIMENSIONS": 16384, "THREADS": 1024}


def _parse_positive_int(environ: Mapping[str, str], key: str) -> int | None:
    raw = environ.get(key, "").strip()
    if not raw:
        return None
    try:
        value = int(raw)
    except ValueError:
        raise InvalidInput(f"{key} must be a whole number, got {raw!r}", setting=key, value=raw) from None
    if value <= 0:
        raise InvalidInput(f"{key} must be at least 1, got {value}", setting=key, value=raw)
    limit = MAX_SETTING.get(key.removeprefix(ENV_PREFIX))
    if limit is not None and value > limit:
        raise InvalidInput(f"{key} must be at most {limit}, got {value}", setting=key, value=raw)
    return value


def _parse_positive_float(environ: Mapping[str, str], key: str) -> float | None:
    raw = environ.get(key, "").strip()
    if not raw:
        return None
    try:
        value = float(raw)
    except ValueError:
        raise InvalidInput(f"{key} must be a number of seconds, got {raw!r}", setting=key, value=raw) from None
    if not math.isfinite(value) or value <= 0:
        raise InvalidInput(f"{key} must be a positive number of seconds, got {raw!r}", setting=key, value=raw)
    return value


def _blank_to_none(value: str | None) -> str | None:
    if value is None:
        return None
    value = value.strip()
    return value or None


@dataclass(frozen=True)
class EmbedSettings:
    """Knobs for whichever provider is chosen; each provider reads only the ones that apply to it.

    The same settings object is handed to every provider (the app may fall back from `ollama` to `local`),
    so local providers deliberately ignore `endpoint`, `model`, `api_key` and `dimensions` rather than
    failing on a value meant for an HTTP server. `threads` defaults to 1 because OpenMP spin-waiting on
    a busy 2-core machine turns an 11 ms query into seconds.
    """

    endpoint: str | None = None
    model: str | None = None
    api_key: str | None = None
    dimensions: int | None = None
    threads: int = 1
    timeout: float = 30.0
    threads_chosen: bool = False  # MNEMON_EMBED_THREADS was set: never overridden, not even for a bulk job

    def __post_init__(self) -> None:
        if self.dimensions is not None and (isinstance(self.dimensions, bool) or self.dimensions <= 0):
            raise InvalidInput(f"embedding dimensions must be a positive integer, got {self.dimensions!r}")
        if isinstance(self.threads, bool) or self.threads < 1:
            raise InvalidInput(f"embedding threads must be at least 1, got {self.threads!r}")
        if not math.isfinite(self.timeout) or self.timeout <= 0:
            raise InvalidInput(f"embedding timeout must be a positive number of seconds, got {self.timeout!r}")

    @classmethod
    def from_env(cls, environ: Mapping[str, str]) -> EmbedSettings:
        """Build settings from MNEMON_EMBED_* variables; blank values count as unset.

        Called by the composition root with `os.environ` (or a test's dict); providers never read the
        environment themselves, so the same process can hold differently configured providers.
        """
        threads = _parse_positive_int(environ, ENV_PREFIX + "THREADS")
        timeout = _parse_positive_float(environ, ENV_PREFIX + "TIMEOUT")
        return cls(
            endpoint=_blank_to_none(environ.get(ENV_PREFIX + "ENDPOINT")),
            model=_blank_to_none(environ.get(ENV_PREFIX + "MODEL")),
            api_key=_blank_to_none(environ.get(ENV_PREFIX + "API_KEY")),
            dimensions=_parse_positive_int(environ, ENV_PREFIX + "DIMENSIONS"),
            threads=threads if threads is not None else 1,
            timeout=timeout if timeout is not None else 30.0,
            threads_chosen=threads is not None,
        )


def normalise_rows(matrix: npt.ArrayLike) -> Vectors:
    """Return float32 rows of unit L2 length; all-zero rows stay zero instead of becoming NaN."""
    import numpy as np
    rows = np.asarray(matrix, dtype=np.float32)
    if rows.ndim != 2:
        raise ValueError(f"expected a 2-d matrix, got shape {rows.shape}")
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    unit = np.zeros_like(rows)
    np.divide(rows, norms, out=unit, where=norms > 0)
    return unit


def _check_texts(texts: Sequence[str]) -> list[str]:
    if isinstance(texts, str):
        raise InvalidInput("embed_documents takes a list of texts, not a single string; use embed_query")
    checked = list(texts)
    for position, text in enumerate(checked):
        if not isinstance(text, str):
            raise InvalidInput(f"text #{position} is {type(text).__name__}, expected str", position=position)
    return checked


class EmbeddingProvider(ABC):
    """One source of embeddings. Subclasses set the class attributes and implement two methods.

    `family` is the identity prefix: interchangeable implementations (the `local` alias and `e5`) share it
    so switching between them never forces a re-embed.
    """

    name: ClassVar[str]
    family: ClassVar[str]
    produces_vectors: ClassVar[bool] = True
    batch_size: ClassVar[int] = 64

    @property
    @abstractmethod
    def model_id(self) -> str: ...

    @property
    @abstractmethod
    def dimensions(self) -> int:
        """Width of the vectors; 0 for a provider that makes none, or an HTTP model not yet asked."""

    def identity(self) -> str:
        return f"{self.family}:{self.model_id}:{self._identity_width()}"

    def _identity_width(self) -> str:
        # Must be knowable without embedding anything: the store checks identity before the first call.
        return str(self.dimensions)

    @abstractmethod
    def available(self) -> bool:
        """Cheap check that embedding would work now; never raises."""

    def prefer_bulk_threads(self) -> int | None:
        """Called by a process about to embed many texts and nothing else (a CLI ingest or backfill): a local model
        may use more cores for it. Returns the threads the model will use; None for a provider without threads."""
        return None

    @abstractmethod
    def _embed_documents_batch(self, texts: list[str]) -> npt.ArrayLike:
        """Embed at most `batch_size` non-empty-list texts as documents (passages); any float rows."""

    @abstractmethod
    def _embed_query(self, text: str) -> npt.ArrayLike:
        """Embed one search query; a 1-d float vector."""

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        import numpy as np
        checked = _check_texts(texts)
        if not checked:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        parts = [
            self._as_rows(self._embed_documents_batch(checked[start : start + self.batch_size]),
                          expected_rows=len(checked[start : start + self.batch_size]))
            for start in range(0, len(checked), self.batch_size)
        ]
        matrix = parts[0] if len(parts) == 1 else np.concatenate(parts, axis=0)
        return normalise_rows(matrix)

    def embed_query(self, text: str) -> Vectors:
        import numpy as np
        if not isinstance(text, str):
            raise InvalidInput(f"query must be str, got {type(text).__name__}")
        vector = np.asarray(self._embed_query(text), dtype=np.float32).reshape(1, -1)
        return normalise_rows(self._as_rows(vector, expected_rows=1)).reshape(-1)

    def _as_rows(self, produced: npt.ArrayLike, expected_rows: int) -> Vectors:
        import numpy as np
        rows = np.asarray(produced, dtype=np.float32)
        if rows.ndim != 2 or rows.shape[0] != expected_rows:
            raise ProviderUnavailable(
                f"embedding provider {self.name!r} returned shape {rows.shape} for {expected_rows} texts",
                provider=self.name,
            )
        declared = self.dimensions
        if declared and rows.shape[1] != declared:
            raise ProviderMismatch(
                f"embedding provider {self.name!r} returned {rows.shape[1]}-d vectors but declares {declared}",
                provider=self.name, expected=declared, got=int(rows.shape[1]),
            )
        if not np.isfinite(rows).all():
            raise ProviderUnavailable(f"embedding provider {self.name!r} returned NaN or infinite values",
                                      provider=self.name)
        return rows

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.identity()}>"
