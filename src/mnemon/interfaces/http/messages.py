"""Words for refusals of the HTTP layer, where the library's own would leave a caller guessing what went wrong."""
from __future__ import annotations

from urllib.parse import unquote_plus

from ...core.errors import InvalidInput


def plus_hint(exc: InvalidInput, query: str) -> InvalidInput:
    """`exc`, saying that a `+` is a space in a query string when the argument it refuses was written with one:
    `as_of=2026-05-01T09:30:00+02:00` arrives as "…09:30:00 02:00", which looks right to whoever wrote it."""
    name = exc.details.get("field")
    written = [value for key, _, value in (pair.partition("=") for pair in query.split("&"))
               if "+" in value and unquote_plus(key, errors="replace") == name]
    if not written:
        return exc
    return InvalidInput(f"{exc.message} (in a query string a '+' is a space: write a + in {name} as %2B)",
                        **exc.details)
