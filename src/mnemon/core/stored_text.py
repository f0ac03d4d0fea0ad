"""Text both backends store alike, and queries held to the same rule: its own small module, so that a recall, a
search or a prompt hook checks its query without loading the whole of `validation` (tests/cli/test_startup.py)."""
from __future__ import annotations

from .errors import InvalidInput


def check_unicode(value: str, what: str) -> None:
    # lone surrogates arrive from undecodable argv bytes or "\\ud800" escapes in JSON; SQLite and hashing
    # cannot encode them, so refuse them here rather than fail deep inside the write
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidInput(f"{what} is not valid Unicode text (it contains unpaired surrogate code points)") from None


def check_storable(value: str, what: str, field: str) -> None:
    """Text both backends store alike: valid Unicode without NUL (PostgreSQL text cannot hold one, SQLite can, so
    a NUL is refused on both — as in content)."""
    check_unicode(value, what)
    if "\x00" in value:
        raise InvalidInput(f"{what} must not contain NUL characters", field=field)


def check_query_text(value: str, what: str = "query") -> None:
    """A query or prompt is refused as stored text is (`remember`'s content): no memory holds a NUL or an unpaired
    surrogate, and PostgreSQL's text cannot hold a NUL — a read answered for one would differ by backend."""
    check_storable(value, what, field=what.lstrip("-"))
