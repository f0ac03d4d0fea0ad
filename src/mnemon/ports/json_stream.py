"""A JSON object read from a text stream one member at a time, with chosen array members handed over item by item.

`mnemon export` of a 100k-memory store is ≈ 1.8 GB of JSON; `json.load` would hold all of it, and every insight and
edge as a dict, at once (≈ 10 GB). This reader keeps one item in memory: the standard library's decoder parses each
value (`raw_decode`), this module only walks the object's punctuation between them and refills the buffer.
"""
from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any

from ..core.errors import InvalidInput

CHUNK = 1 << 20
MAX_VALUE = 256 << 20  # one value (an insight, an edge, a member) larger than this is refused, not buffered on
_WS = " \t\n\r"
_DELIMITERS = _WS + ",:]}"


_TOKEN_START = re.compile(r"-?[0-9]*(\.[0-9]*)?([eE][-+]?[0-9]*)?\Z")


def ends_cut(text: str, pos: int, why: str) -> bool:
    """Whether a decoding error at `pos` of the whole `text` means the text ended before the document did: a
    string left open, nothing left where a value or delimiter was due, or what is left the start of a literal or a
    number ("tr", "-1.", "2e"). A mistake in the middle ('{bad') is no cut."""
    if why.startswith("Unterminated string"):
        return True
    rest = text[pos:].rstrip()
    return not rest or any(word.startswith(rest) for word in ("true", "false", "null")) or bool(
        _TOKEN_START.match(rest))


def not_json(why: str, line: int, *, cut: bool) -> InvalidInput:
    """The refusal of an import file that is not JSON: the decoder's words (less the dangling 'at' of
    'Unterminated string starting at', whose place its own message adds) and the line; when the text ended before
    the document did (`cut`), that the file was cut short — an interrupted export, copy or download."""
    where = f"{why.removesuffix(' at')} at line {line}"
    if cut:
        return InvalidInput(f"import file is not valid JSON: it ends before the document does ({where}): the file was "
                            "cut short (an interrupted export, copy or download); nothing of it was imported")
    return InvalidInput(f"import file is not valid JSON: {where}")


class ObjectStream:
    """`members()` yields (key, value) of the top-level object in file order; for a key in `streamed` whose value
    is an array, the value is an iterator over its items, which must be used up (or is drained) before the next
    member is read."""

    def __init__(self, read: Callable[[int], str], streamed: frozenset[str]) -> None:
        self._read = read
        self._streamed = streamed
        self._buf = ""
        self._at = 0
        self._eof = False
        self._lines_before = 1  # line number of the buffer's first character, for error messages
        self._decoder = json.JSONDecoder()

    # ── buffer ───────────────────────────────────────────────────────────────
    def _more(self) -> bool:
        if self._eof:
            return False
        chunk = self._read(CHUNK)
        if not chunk:
            self._eof = True
            return False
        self._lines_before += self._buf.count("\n", 0, self._at)
        self._buf = self._buf[self._at :] + chunk
        self._at = 0
        return True

    def _peek(self) -> str:
        """The next character that is not white space ('' at the end), not consumed."""
        while True:
            while self._at < len(self._buf) and self._buf[self._at] in _WS:
                self._at += 1
            if self._at < len(self._buf):
                return self._buf[self._at]
            if not self._more():
                return ""

    def _expect(self, chars: str) -> str:
        c = self._peek()
        if not c or c not in chars:
            self._fail(f"expected {' or '.join(repr(x) for x in chars)}, found {c!r}" if c else "unexpected end",
                       cut=not c)
        self._at += 1
        return c

    def _value(self) -> Any:
        """Decode the next value; one that reaches the end of the buffer is decoded again with more text, so a number
        cut by a chunk boundary is never read short."""
        self._peek()
        while True:
            try:
                value, end = self._decoder.raw_decode(self._buf, self._at)
            except json.JSONDecodeError as exc:
                # more text helps only when the value ran into the end of the buffer (a cut escape, number or
                # literal is reported a few characters before it, an unterminated string where it starts); a
                # mistake in the middle fails now, without reading the rest
                short = exc.pos >= len(self._buf) - 16 or exc.msg.startswith("Unterminated string")
                if short and len(self._buf) - self._at <= MAX_VALUE and self._more():
                    continue
                self._at = exc.pos
                self._fail(exc.msg if short or exc.pos < len(self._buf) else "unexpected end",
                           cut=short and self._eof and ends_cut(self._buf, exc.pos, exc.msg))
            # a value is whole once a delimiter follows it: "1." of "1.25" decodes as 1 and stops at the "."
            if (end < len(self._buf) and self._buf[end] in _DELIMITERS) or not self._more():
                self._at = end
                return value

    def _fail(self, why: str, *, cut: bool = False) -> Any:
        raise not_json(why, self._lines_before + self._buf.count("\n", 0, self._at), cut=cut)

    # ── grammar ──────────────────────────────────────────────────────────────
    def members(self) -> Iterator[tuple[str, Any]]:
        self._expect("{")
        if self._peek() == "}":
            self._at += 1
        else:
            while True:
                key = self._value()
                if not isinstance(key, str):
                    self._fail("object keys must be strings")
                self._expect(":")
                if key in self._streamed and self._peek() == "[":
                    self._at += 1
                    items = self._items()
                    yield key, items
                    for _ in items:  # what the caller left unread
                        pass
                else:
                    yield key, self._value()
                if self._expect(",}") == "}":
                    break
        if self._peek():
            self._fail("extra data after the document")

    def _items(self) -> Iterator[Any]:
        if self._peek() == "]":
            self._at += 1
            return
        while True:
            yield self._value()
            if self._expect(",]") == "]":
                return
