"""Regexes compiled on first use, and case-insensitive word patterns searched fast in ASCII text.

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

    # the compiled pattern's methods, bound into these slots at the first use: a lookup through `__getattr__` costs
    # ~10x a slot's, and the tokenizer asks its patterns for every text
    _METHODS = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split")
    __slots__ = ("_compiled", "_flags", "_pattern", *_METHODS)

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
        compiled = self.compiled
        for method in LazyRegex._METHODS:
            object.__setattr__(self, method, getattr(compiled, method))
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"LazyRegex({self._pattern!r})"


class AsciiCaseless:
    """Stands in for `re.compile("(?i)" + pattern)` where `pattern` spells every letter in lower case (outside its
    escapes): an ASCII text is searched lower-cased by `pattern` without the flag — the same spans, since lowering
    ASCII maps each character to one and the flag matches an ASCII letter by its lower case — at a third of the cost
    (Python's `re` compares each character of a case-insensitive alternation of words case by case); other text by
    the flagged pattern. Recall asks these of every newer candidate that may change an older one."""

    __slots__ = ("caseless", "_lowered")

    def __init__(self, pattern: str) -> None:
        if re.search(r"[A-Z]", re.sub(r"\\.", "", pattern)):
            raise ValueError(f"upper-case letters in a caseless pattern: {pattern!r}")
        self.caseless = re.compile("(?i)" + pattern)
        self._lowered = re.compile(pattern)

    def span(self, text: str) -> tuple[int, int] | None:
        """Where the first match in `text` is, or None."""
        m = self._lowered.search(text.lower()) if text.isascii() else self.caseless.search(text)
        return None if m is None else m.span()

    def found_in(self, text: str) -> bool:
        return (self._lowered.search(text.lower()) if text.isascii() else self.caseless.search(text)) is not None

    def blanked(self, text: str) -> str:
        """`text` with each match replaced by a space (`sub(" ", text)`)."""
        if not text.isascii():
            return self.caseless.sub(" ", text)
        pieces: list[str] = []
        done = 0
        for m in self._lowered.finditer(text.lower()):
            pieces += (text[done:m.start()], " ")
            done = m.end()
        return "".join(pieces) + text[done:] if pieces else text
