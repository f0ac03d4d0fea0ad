"""mnemon: a local-first graph memory for LLM agents.

The public Python API is the facade and its configuration; everything else is internal. Names are resolved on
first use so that `import mnemon` (and the CLI start-up) stays cheap.

    >>> from mnemon import Mnemon, load_config          # doctest: +SKIP
    >>> with Mnemon.open(load_config()) as m:           # doctest: +SKIP
    ...     m.remember("Chose Qdrant as the vector database", category="decision")
"""
from __future__ import annotations

from importlib import import_module
from typing import Any

__all__ = ["Config", "Mnemon", "MnemonError", "load_config", "open_store"]
__version__ = "0.1.0"

_HOMES = {"Config": "mnemon.app.config", "load_config": "mnemon.app.config", "Mnemon": "mnemon.app.memory",
          "open_store": "mnemon.app.memory", "MnemonError": "mnemon.core.errors"}


def __getattr__(name: str) -> Any:
    if name in _HOMES:
        return getattr(import_module(_HOMES[name]), name)
    raise AttributeError(f"module 'mnemon' has no attribute {name!r}")
