"""Providers that need nothing but numpy: `none` (no vectors, the seed's token-overlap fallback) and `hash`.

`hash` is a deterministic stand-in for a real model in tests and benchmarks: a signed, hashed bag of
words (and, since Chinese has no spaces, CJK characters and character bigrams) folded into a fixed width. Texts that share
words get a higher cosine, which is all recall's vector stage needs to be exercised end to end.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

import unicodedata
from collections.abc import Sequence


from mnemon.core.errors import ProviderUnavailable
from mnemon.core.lazy_regex import LazyRegex

from .base import EmbeddingProvider, EmbedSettings

# Scripts written without spaces between words: split into overlapping character bigrams instead.
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af\U00020000-\U0002ffff"
_TOKEN = LazyRegex(f"([{_CJK}]+)|([^\\W_{_CJK}]+)")  # ~4 ms to compile: only `hash` needs it, not `none`

DEFAULT_HASH_DIMENSIONS = 256


def hash_tokens(text: str) -> list[str]:
    """Case-folded word tokens; CJK runs give each character (one-character words such as 猫 are
    common) plus each overlapping bigram (most words are two characters)."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    tokens: list[str] = []
    for match in _TOKEN.finditer(folded):
        cjk_run, word = match.group(1), match.group(2)
        if word:
            tokens.append(word)
        else:
            tokens.extend(cjk_run)
            tokens.extend(cjk_run[i : i + 2] for i in range(len(cjk_run) - 1))
    return tokens


class NoVectorsProvider(EmbeddingProvider):
    """Explicit "no embeddings": recall falls back to keyword and token-overlap signals."""

    name = "none"
    family = "none"
    produces_vectors = False

    def __init__(self, settings: EmbedSettings | None = None) -> None:
        del settings  # nothing to configure; accepted so every factory has the same shape

    @property
    def model_id(self) -> str:
        return "none"

    @property
    def dimensions(self) -> int:
        return 0

    def identity(self) -> str:
        return "none"

    def available(self) -> bool:
        return True

    def _refuse(self) -> ProviderUnavailable:
        return ProviderUnavailable(
            "provider 'none' makes no vectors; set MNEMON_EMBED_PROVIDER to local, ollama or openai "
            "to enable vector recall",
            provider=self.name,
        )

    def _embed_documents_batch(self, texts: list[str]) -> npt.ArrayLike:
        raise self._refuse()

    def _embed_query(self, text: str) -> npt.ArrayLike:
        raise self._refuse()

    def embed_documents(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        # Refuse even an empty list: a caller that got here has a configuration bug worth surfacing.
        raise self._refuse()


class HashingProvider(EmbeddingProvider):
    """Signed feature hashing of word tokens; stable across processes and machines (no `hash()` salt)."""

    name = "hash"
    family = "hash"
    batch_size = 1024

    def __init__(self, settings: EmbedSettings | None = None) -> None:
        wanted = settings.dimensions if settings is not None else None
        self._dimensions = wanted or DEFAULT_HASH_DIMENSIONS

    @property
    def model_id(self) -> str:
        return "signed-bow-v1"

    @property
    def dimensions(self) -> int:
        return self._dimensions

    def available(self) -> bool:
        return True

    def _vector(self, text: str) -> npt.NDArray[np.float32]:
        import hashlib  # here, as numpy: `none` imports this module but never embeds

        import numpy as np
        vector = np.zeros(self._dimensions, dtype=np.float32)
        for token in hash_tokens(text):
            digest = int.from_bytes(hashlib.blake2b(token.encode("utf-8"), digest_size=8).digest(), "little")
            # The low bit picks the sign so colliding tokens cancel on average instead of piling up.
            sign = 1.0 if digest & 1 else -1.0
            vector[(digest >> 1) % self._dimensions] += sign
        return vector

    def _embed_documents_batch(self, texts: list[str]) -> npt.ArrayLike:
        import numpy as np
        return np.stack([self._vector(text) for text in texts])

    def _embed_query(self, text: str) -> npt.ArrayLike:
        return self._vector(text)
