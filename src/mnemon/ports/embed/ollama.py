"""Ollama over its native HTTP API: `POST /api/embed`, falling back to the legacy `/api/embeddings`.

Ollama releases before 0.3 only have the legacy one-text-per-call route; the fallback is taken when the
new route itself is missing (a plain 404 page), never when Ollama says the *model* is missing.
"""
from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from mnemon.core.errors import ProviderUnavailable

from .base import EmbedSettings
from .transport import (
    AVAILABILITY,
    HttpEmbeddingProvider,
    HttpFailure,
    Unreachable,
    get_json,
    normalise_endpoint,
    post_json,
    status_advice,
    task_prefixes,
    unreachable_advice,
)

DEFAULT_ENDPOINT = "http://127.0.0.1:11434"
DEFAULT_MODEL = "nomic-embed-text"


def _without_latest(name: str) -> str:
    # Ollama lists "nomic-embed-text:latest" for a model pulled as "nomic-embed-text"; both are one model.
    return name[: -len(":latest")] if name.endswith(":latest") else name


class _RouteMissing(Exception):
    pass


class OllamaProvider(HttpEmbeddingProvider):
    name = "ollama"
    family = "ollama"
    server_label = "Ollama"

    def __init__(self, settings: EmbedSettings | None = None) -> None:
        settings = settings or EmbedSettings()
        endpoint = normalise_endpoint(settings.endpoint or DEFAULT_ENDPOINT, self.name, ("/api",))
        super().__init__(endpoint, settings.dimensions, settings.timeout)
        self._endpoint: str = endpoint
        self._model = settings.model or DEFAULT_MODEL
        self._use_legacy_route = False
        self._query_prefix, self._document_prefix = task_prefixes(self._model)

    @property
    def model_id(self) -> str:
        return _without_latest(self._model)

    def available(self) -> bool:
        key = (self.name, self._endpoint, self._model)
        cached = AVAILABILITY.get(key)
        if cached is not None:
            return cached
        try:
            tags = get_json(f"{self._endpoint}/api/tags", {}, timeout=self._probe_timeout)
        except (HttpFailure, Unreachable):
            return AVAILABILITY.put(key, False)
        models = tags.get("models") if isinstance(tags, dict) else None
        names = [m.get("name", "") for m in models if isinstance(m, dict)] if isinstance(models, list) else []
        return AVAILABILITY.put(key, any(_without_latest(listed) == self.model_id for listed in names))

    def _embed_documents_batch(self, texts: list[str]) -> npt.ArrayLike:
        return self._embed([self._document_prefix + text for text in texts])

    def _embed_query(self, text: str) -> npt.ArrayLike:
        return self._embed([self._query_prefix + text]).reshape(-1)

    def _embed(self, inputs: list[str]) -> npt.NDArray[np.float32]:
        if not self._use_legacy_route:
            try:
                return self._accept(self._embed_batch_route(inputs))
            except _RouteMissing:
                self._use_legacy_route = True
        rows = [self._embed_legacy_route(text) for text in inputs]
        if self._requested_dimensions:
            # The legacy route cannot truncate; /api/embed truncates then re-normalises, so do the same.
            rows = [row[: self._requested_dimensions] for row in rows]
        return self._accept(rows)

    def _call(self, route: str, payload: dict[str, Any]) -> Any:
        try:
            return post_json(f"{self._endpoint}{route}", payload, {}, timeout=self._timeout)
        except Unreachable as error:
            advice = unreachable_advice(error, self._timeout, "start it with `ollama serve`, or set "
                                        "MNEMON_EMBED_ENDPOINT to a running server")
            raise ProviderUnavailable(f"cannot reach Ollama at {self._endpoint} ({error}); {advice}",
                                      provider=self.name, endpoint=self._endpoint) from None
        except HttpFailure as failure:
            message = failure.server_message()
            if failure.status == 404 and "not found" in message.lower() and "model" in message.lower():
                AVAILABILITY.forget((self.name, self._endpoint, self._model))
                raise ProviderUnavailable(
                    f"Ollama at {self._endpoint} does not have model {self._model!r}; "
                    f"run `ollama pull {self._model}`",
                    provider=self.name,
                    model=self._model,
                ) from None
            if failure.status == 404:
                raise _RouteMissing() from None
            advice = status_advice(failure.status) or "check that it is an embedding model"
            raise ProviderUnavailable(
                f"Ollama did not embed with {self._model!r} (HTTP {failure.status}: {message}); {advice}",
                provider=self.name,
                status=failure.status,
            ) from None

    def _embed_batch_route(self, inputs: list[str]) -> list[Any]:
        payload: dict[str, Any] = {"model": self._model, "input": inputs}
        if self._requested_dimensions:
            payload["dimensions"] = self._requested_dimensions
        answer = self._call("/api/embed", payload)
        embeddings = answer.get("embeddings") if isinstance(answer, dict) else None
        if not isinstance(embeddings, list) or len(embeddings) != len(inputs):
            raise self._malformed(f"/api/embed: expected {len(inputs)} embeddings")
        return embeddings

    def _embed_legacy_route(self, text: str) -> list[Any]:
        try:
            answer = self._call("/api/embeddings", {"model": self._model, "prompt": text})
        except _RouteMissing:
            raise ProviderUnavailable(
                f"{self._endpoint} answers neither /api/embed nor /api/embeddings; is it an Ollama server? "
                f"For an OpenAI-compatible server use the 'openai' provider",
                provider=self.name,
            ) from None
        embedding = answer.get("embedding") if isinstance(answer, dict) else None
        if not isinstance(embedding, list) or not embedding:
            raise self._malformed("/api/embeddings: no embedding in the answer")
        return embedding
