"""A time budget for a regular expression a user typed: one that backtracks without end (`(a|aa)+$` against a line
of sixty a's and a full stop) must be refused, not left running.

The patterns run on the `regex` module, not `re`, for two reasons. Its searches take a `timeout`, which bounds one
search wherever it runs — `re` can only be interrupted by a signal, and a signal timer exists only on the main thread
of a POSIX process, so the HTTP server's, the MCP server's and the daemon's handler threads had no bound inside a
search at all. And with `concurrent=True` a search lets go of the GIL, so one runaway pattern does not freeze the
other requests of a server while it runs out its time. Its `V0` syntax is `re`'s."""
from __future__ import annotations

import time
from collections.abc import Callable

import regex


PatternError = regex.error


class OutOfTime(Exception):
    """The budget is spent."""


def compile_pattern(pattern: str, *, case_sensitive: bool) -> regex.Pattern[str]:
    """The pattern compiled as `re` would read it; `regex.error` when it is not one."""
    return regex.compile(pattern, regex.V0 | (0 if case_sensitive else regex.IGNORECASE))


def budgeted(pattern: regex.Pattern[str], seconds: float) -> tuple[Callable[[str], bool], Callable[[], None]]:
    """(whether a text holds a match, a check to call between texts), together spending at most `seconds` from now:
    each search gets what is left of the budget as its timeout. Both raise `OutOfTime` when it is spent."""
    end = time.monotonic() + seconds

    def check() -> None:
        if time.monotonic() >= end:
            raise OutOfTime

    def hit(text: str) -> bool:
        left = end - time.monotonic()
        if left <= 0:
            raise OutOfTime
        try:
            return pattern.search(text, timeout=left, concurrent=True) is not None
        except TimeoutError:
            raise OutOfTime from None

    return hit, check
