"""Small stdlib-only JSON-over-HTTP helpers shared by the HTTP providers, plus model conventions.

Kept free of any provider knowledge: each provider turns `HttpFailure`/`Unreachable` into a
`ProviderUnavailable` whose message says what to start, pull or set.
"""
from __future__ import annotations

import http.client
import ipaddress
import json
import re
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from mnemon.core.errors import InvalidInput, ProviderMismatch, ProviderUnavailable
from mnemon.core.surface import embed_all

from .base import EmbeddingProvider

PROBE_TIMEOUT_SECONDS = 0.5
# A "down" answer is re-checked after this long, so a long-lived server notices an Ollama started later;
# an "up" answer is kept for the process, which is what makes every later call free.
UNAVAILABLE_RECHECK_SECONDS = 30.0


class HttpFailure(Exception):
    """The server answered with an HTTP error status."""

    def __init__(self, status: int, body: str) -> None:
        super().__init__(f"HTTP {status}: {body[:200]}")
        self.status = status
        self.body = body

    def server_message(self) -> str:
        """The `error` text servers put in JSON bodies (Ollama, OpenAI), else the start of the body."""
        try:
            parsed = json.loads(self.body)
        except ValueError:
            return self.body.strip()[:200]
        if isinstance(parsed, dict):
            error = parsed.get("error")
            if isinstance(error, dict):
                error = error.get("message")
            if isinstance(error, str):
                return error
        return self.body.strip()[:200]


class Unreachable(Exception):
    """No HTTP answer at all: refused, timed out, DNS failure, connection dropped."""


def normalise_endpoint(endpoint: str, provider: str, strip_suffixes: tuple[str, ...] = ()) -> str:
    """Check the endpoint is an http(s) URL and drop a trailing slash or a route the user pasted in."""
    parsed = urllib.parse.urlsplit(endpoint.strip())
    if parsed.username is not None or parsed.password is not None:  # it would be printed in every error, and fail
        raise InvalidInput(f"embedding endpoint for {provider!r} must not carry a user or password: put an API key"
                           " in MNEMON_EMBED_API_KEY", provider=provider)
    if parsed.scheme not in ("http", "https") or not parsed.hostname:
        raise InvalidInput(
            f"embedding endpoint for {provider!r} must be an http(s) URL like http://127.0.0.1:11434, "
            f"got {endpoint!r}",
            provider=provider,
            endpoint=endpoint,
        )
    cleaned = endpoint.strip().rstrip("/")
    for suffix in strip_suffixes:
        if cleaned.endswith(suffix):
            cleaned = cleaned[: -len(suffix)].rstrip("/")
    return cleaned


def _is_loopback(url: str) -> bool:
    host = urllib.parse.urlsplit(url).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


# A corporate http_proxy without a matching no_proxy would route 127.0.0.1 through the proxy and fail;
# local model servers are never meant to be proxied. Remote endpoints keep the environment's proxies.
_DIRECT_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def _open(request: urllib.request.Request, timeout: float) -> tuple[int, bytes]:
    opener = _DIRECT_OPENER if _is_loopback(request.full_url) else urllib.request.build_opener()
    deadline = time.monotonic() + timeout
    try:
        with opener.open(request, timeout=timeout) as response:
            return int(response.status), _read_by(response, deadline, timeout)
    except urllib.error.HTTPError as error:
        body = error.read().decode("utf-8", "replace") if error.fp is not None else ""
        raise HttpFailure(error.code, body) from None
    except urllib.error.URLError as error:
        raise Unreachable(str(error.reason)) from None
    except (TimeoutError, ConnectionError, http.client.HTTPException, OSError) as error:
        raise Unreachable(str(error) or type(error).__name__) from None


def _read_by(response: Any, deadline: float, timeout: float) -> bytes:
    """The body, read in pieces against the whole call's deadline: the socket timeout bounds each read only, so a
    server that trickled its answer held a call for as long as it liked."""
    pieces: list[bytes] = []
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise Unreachable(f"timed out after {timeout:g} s (MNEMON_EMBED_TIMEOUT)")
        sock = getattr(getattr(getattr(response, "fp", None), "raw", None), "_sock", None)
        if sock is not None:
            sock.settimeout(left)
        piece = response.read1(65536) if hasattr(response, "read1") else response.read()
        if not piece:
            return b"".join(pieces)
        pieces.append(piece)


def status_advice(status: int) -> str | None:
    """What a person can do about an answer that is no model's fault, or None (the provider words the rest): the
    same "check the model" hint for a rate limit or a crash sent people the wrong way."""
    if status == 200:
        return "the server answered with something that is not JSON: is the endpoint an embedding API?"
    if status == 429:
        return f"the server is rate-limiting: try again later (the memory is kept; {embed_all()} adds vectors)"
    if status >= 500:
        return "the server failed on its side: see its log, then try again"
    return None


def unreachable_advice(error: Unreachable, timeout: float, start_hint: str) -> str:
    """A server that did not answer in time is running: the timeout, not starting it, is what to look at."""
    if "timed out" in str(error).lower():
        return f"it did not answer within {timeout:g} s: raise MNEMON_EMBED_TIMEOUT or lighten the server's load"
    return start_hint


def post_json(url: str, payload: Mapping[str, Any], headers: Mapping[str, str], timeout: float) -> Any:
    request = urllib.request.Request(
        url,
        data=json.dumps(payload).encode("utf-8"),
        headers={"Content-Type": "application/json", "Accept": "application/json", **headers},
        method="POST",
    )
    _, body = _open(request, timeout)
    try:
        return json.loads(body)
    except ValueError:
        raise HttpFailure(200, body.decode("utf-8", "replace")) from None


def get_json(url: str, headers: Mapping[str, str], timeout: float) -> Any:
    """GET and parse JSON; an empty or non-JSON 2xx body parses to None."""
    request = urllib.request.Request(url, headers={"Accept": "application/json", **headers}, method="GET")
    _, body = _open(request, timeout)
    try:
        return json.loads(body) if body else None
    except ValueError:
        return None


class AvailabilityCache:
    """Remembers probe answers per key: "up" for the process, "down" for a short recheck interval."""

    def __init__(self, recheck_seconds: float = UNAVAILABLE_RECHECK_SECONDS) -> None:
        self._recheck_seconds = recheck_seconds
        self._answers: dict[tuple[str, ...], tuple[bool, float]] = {}
        self._lock = threading.Lock()

    def get(self, key: tuple[str, ...]) -> bool | None:
        with self._lock:
            cached = self._answers.get(key)
        if cached is None:
            return None
        up, checked_at = cached
        if up or time.monotonic() - checked_at < self._recheck_seconds:
            return up
        return None

    def put(self, key: tuple[str, ...], up: bool) -> bool:
        with self._lock:
            self._answers[key] = (up, time.monotonic())
        return up

    def forget(self, key: tuple[str, ...]) -> None:
        with self._lock:
            self._answers.pop(key, None)

    def clear(self) -> None:
        with self._lock:
            self._answers.clear()


AVAILABILITY = AvailabilityCache()

_E5_NAME = re.compile(r"(^|[-_/.:])e5([-_/.:]|$)")


def task_prefixes(model: str) -> tuple[str, str]:
    """(query prefix, document prefix) a model family was trained with; wrong or missing ones cost recall.

    Chosen by model name because HTTP servers pass text through unchanged.
    """
    lowered = model.lower()
    if "nomic-embed" in lowered:
        return "search_query: ", "search_document: "
    if _E5_NAME.search(lowered):
        return "query: ", "passage: "
    if "mxbai-embed" in lowered:
        return "Represent this sentence for searching relevant passages: ", ""
    return "", ""


class HttpEmbeddingProvider(EmbeddingProvider):
    """What the HTTP providers share: width learned from the first answer and checked on every later one."""

    server_label: ClassVar[str] = "the embedding server"

    def __init__(self, endpoint: str | None, requested_dimensions: int | None, timeout: float) -> None:
        self._endpoint = endpoint
        self._requested_dimensions = requested_dimensions
        self._learned_dimensions = 0
        self._timeout = timeout

    @property
    def endpoint(self) -> str | None:
        return self._endpoint

    @property
    def dimensions(self) -> int:
        """Requested width, else the width of the first answer; 0 until the server has been asked."""
        return self._requested_dimensions or self._learned_dimensions

    @property
    def _probe_timeout(self) -> float:
        # available() must stay cheap even when the embed timeout is generous.
        return min(PROBE_TIMEOUT_SECONDS, self._timeout)

    def _identity_width(self) -> str:
        # The native width is fixed by the model name already in the identity; only truncation adds to it.
        return str(self._requested_dimensions) if self._requested_dimensions else "native"

    def _malformed(self, detail: str) -> ProviderUnavailable:
        return ProviderUnavailable(
            f"{self.server_label} at {self._endpoint} sent an unexpected answer: {detail}", provider=self.name
        )

    def _accept(self, rows: list[Any]) -> npt.NDArray[np.float32]:
        try:
            matrix = np.asarray(rows, dtype=np.float32)
        except (TypeError, ValueError):
            raise self._malformed("embeddings are not equal-length lists of numbers") from None
        if matrix.ndim != 2 or matrix.shape[1] == 0:
            raise self._malformed("embeddings are not equal-length lists of numbers")
        if not np.isfinite(matrix).all() or not np.abs(matrix).sum(axis=1).all():
            # an all-zero row can be found by no query: stored, it would count as embedded and never be redone
            raise self._malformed("an all-zero or non-finite vector")
        width = int(matrix.shape[1])
        expected = self._requested_dimensions or self._learned_dimensions
        if expected and width != expected:
            raise ProviderMismatch(
                f"model {self.model_id!r} at {self._endpoint} returned {width}-d vectors where {expected}-d were "
                f"expected; the model behind this name changed, or the server ignores MNEMON_EMBED_DIMENSIONS",
                provider=self.name,
                expected=expected,
                got=width,
            )
        self._learned_dimensions = width
        return matrix
