"""Regexes compiled on first use.

Every CLI command is a new process, and Python compiles each module-level regex at import. A character class over
the CJK blocks costs ~2 ms to compile (the compiler visits each of its ~40,000 code points), and most texts are
ASCII and never reach it; so such patterns are declared lazily and the callers skip them for ASCII text.

    >>> HAS_DIGIT = LazyRegex(r"\\d")
    >>> HAS_DIGIT.search("release 2") is not None
    True
"""
from __future__ import annotations

import re
from typing import Any


class LazyRegex:
    """Stands in for `re.compile(pattern, flags)`; compiles on the first attribute used (`search`, `finditer`…)."""

    __slots__ = ("_compiled", "_flags", "_pattern")

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self._pattern = pattern
        self._flags = flags
        self._compiled: re.Pattern[str] | None = None

    @property
    def compiled(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self._pattern, self._flags)
        return self._compiled

    def __getattr__(self, name: str) -> Any:
        return getattr(self.compiled, name)

    def __repr__(self) -> str:
        return f"LazyRegex({self._pattern!r})"
