"""Name → factory registry for embedding providers.

Built-ins register through `register_provider`, the same call a third-party package makes, so there is
one path to test. Factories take the caller's `EmbedSettings` and return a provider; they import
provider modules lazily so looking up `hash` never imports an HTTP client or a native engine.
"""
from __future__ import annotations

import re
import threading
from collections.abc import Callable

from mnemon.core.errors import Conflict, InvalidInput

from .base import EmbeddingProvider, EmbedSettings

ProviderFactory = Callable[[EmbedSettings], EmbeddingProvider]

# `local` is the offline default. On LoCoMo (10 conversations, 1,536 scored questions, cosine over turns)
# e5 reached recall_any@5 0.476 / NDCG@10 0.369 against USE-m3's 0.266 / 0.198, and its 384-d rows make
# the brute-force matrix smaller. USE stays registered for bulk ingestion, where it is ~50x faster.
LOCAL_DEFAULT = "e5"

_NAME = re.compile(r"[a-z][a-z0-9_-]{0,39}")
_factories: dict[str, ProviderFactory] = {}
_lock = threading.Lock()


def register_provider(name: str, factory: ProviderFactory, *, replace: bool = False) -> None:
    """Make `factory` available as `name`. Re-registering a taken name needs `replace=True`."""
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise InvalidInput(
            f"provider name must be lowercase letters, digits, '-' or '_' (starting with a letter), got {name!r}",
            name=name,
        )
    if not callable(factory):
        raise InvalidInput(f"provider factory for {name!r} must be callable", name=name)
    with _lock:
        if name in _factories and not replace:
            raise Conflict(f"embedding provider {name!r} is already registered; pass replace=True to override",
                           name=name)
        _factories[name] = factory


def unregister_provider(name: str) -> None:
    """Remove a registration (tests and plugins that clean up after themselves); unknown names are ignored."""
    with _lock:
        _factories.pop(name, None)


def list_providers() -> list[str]:
    with _lock:
        return sorted(_factories)


def get_provider(name: str, settings: EmbedSettings | None = None) -> EmbeddingProvider:
    """Build the provider registered as `name` (case-insensitive) from `settings`."""
    key = name.strip().lower() if isinstance(name, str) else ""
    with _lock:
        factory = _factories.get(key)
        known = sorted(_factories)
    if factory is None:
        raise InvalidInput(
            f"unknown embedding provider {name!r}; known providers: {', '.join(known)}",
            name=name,
            known=known,
        )
    provider = factory(settings if settings is not None else EmbedSettings())
    if not isinstance(provider, EmbeddingProvider):
        raise InvalidInput(f"factory for embedding provider {key!r} returned {type(provider).__name__}, "
                           f"not an EmbeddingProvider", name=key)
    return provider


def _e5(settings: EmbedSettings) -> EmbeddingProvider:
    from .local import E5Provider

    return E5Provider(settings)


def _use(settings: EmbedSettings) -> EmbeddingProvider:
    from .local import USEProvider

    return USEProvider(settings)


def _ollama(settings: EmbedSettings) -> EmbeddingProvider:
    from .ollama import OllamaProvider

    return OllamaProvider(settings)


def _openai(settings: EmbedSettings) -> EmbeddingProvider:
    from .openai_compat import OpenAICompatibleProvider

    return OpenAICompatibleProvider(settings)


def _none(settings: EmbedSettings) -> EmbeddingProvider:
    from .offline import NoVectorsProvider

    return NoVectorsProvider(settings)


def _hash(settings: EmbedSettings) -> EmbeddingProvider:
    from .offline import HashingProvider

    return HashingProvider(settings)


def register_builtin_providers(register: Callable[..., None] = register_provider) -> None:
    builtins: dict[str, ProviderFactory] = {
        "e5": _e5,
        "use": _use,
        "ollama": _ollama,
        "openai": _openai,
        "none": _none,
        "hash": _hash,
    }
    builtins["local"] = builtins[LOCAL_DEFAULT]
    for name, factory in builtins.items():
        register(name, factory, replace=True)


register_builtin_providers()
