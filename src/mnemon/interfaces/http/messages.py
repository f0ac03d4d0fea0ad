"""Words for refusals of the HTTP layer, where the library's own would leave a caller guessing what went wrong."""
from __future__ import annotations

import http.client
from urllib.parse import unquote_plus

from ...core.errors import InvalidInput

# http.server reads a request line, and http.client each header line, up to this many bytes, and this many headers
LINE_LIMIT: int = getattr(http.client, "_MAXLINE", 65536)
HEADER_LIMIT: int = getattr(http.client, "_MAXHEADERS", 100)


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


def transport_refusal(code: int, message: str | None, explain: str | None) -> str:
    """What http.server's own refusal of a request means: for 414 and 431 it said "HTTP 414" or "Line too long",
    neither saying what was too long nor the limit."""
    if code == 414:
        return f"the request line is longer than {LINE_LIMIT} bytes: send long arguments as a POST's JSON body"
    if code == 431:
        return (f"the request has more than {HEADER_LIMIT} headers" if message == "Too many headers" else
                f"a header line is longer than {LINE_LIMIT} bytes")
    return message or explain or f"HTTP {code}"
