"""Embedding providers: text in, unit-length float32 rows out, each stamped with an identity.

    from mnemon.ports.embed import EmbedSettings, get_provider
    provider = get_provider("local", EmbedSettings.from_env(os.environ))
    if provider.available():
        matrix = provider.embed_documents(["..."])   # (n, provider.dimensions), rows L2-normalised
        query = provider.embed_query("...")          # (provider.dimensions,)

Built-ins: local (= e5), e5, use, ollama, openai, hash, none. Third parties call `register_provider`.
"""
from __future__ import annotations

from .base import EmbeddingProvider, EmbedSettings, Vectors, normalise_rows
from .registry import LOCAL_DEFAULT, get_provider, list_providers, register_provider, unregister_provider

__all__ = [
    "LOCAL_DEFAULT",
    "EmbedSettings",
    "EmbeddingProvider",
    "Vectors",
    "get_provider",
    "list_providers",
    "normalise_rows",
    "register_provider",
    "unregister_provider",
]
