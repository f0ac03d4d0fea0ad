"""Finding text in a note whatever its Unicode form: "é" typed as one code point (NFC, a keyboard, an agent) is the
"e" plus combining accent macOS and its sync tools write (NFD). `note replace --find Café` answered `not_found` on
such a note and `note search-content café` missed it, while the reader sees the same word.

A match is a run of whole characters (a base letter with its accents: never "Cafe" inside "Café") whose canonical
decomposition is the text looked for; its span is in the note's own text, so a replace rewrites that span and
nothing else (every other byte, and the diff, stay the note's own)."""
from __future__ import annotations

import unicodedata
from collections.abc import Callable


def spans(text: str, find: str) -> list[tuple[int, int]]:
    """The non-overlapping spans of `text`, left to right, canonically equivalent to `find` and made of whole
    characters. A `find` that starts with an accent is looked for as written: it names no whole character, and
    removing a stray accent is an edit a user makes."""
    if not find or (text.isascii() and find.isascii()) or unicodedata.combining(find[0]):
        return _exact(text, find)
    for form in ("NFD", "NFC"):  # the usual notes: one form throughout, found in place
        if unicodedata.is_normalized(form, text):
            key = unicodedata.normalize(form, find)
            return _whole(text, key, lambda pos: pos == len(text) or not unicodedata.combining(text[pos]))
    # mixed forms (a note edited on two systems): each character with its marks decomposed apart, since canonical
    # decomposition never reorders across a character of combining class 0 (checked: Tibetan has exceptions)
    starts = [i for i, ch in enumerate(text) if not unicodedata.combining(ch)] or [0]
    starts = ([0] if starts[0] else []) + starts
    pieces = [unicodedata.normalize("NFD", text[a:b]) for a, b in zip(starts, [*starts[1:], len(text)])]
    flat = "".join(pieces)
    if flat != unicodedata.normalize("NFD", text):
        return _exact(text, find)
    at: dict[int, int] = {}  # where a character starts in `flat` → where it starts in `text`
    offset = 0
    for piece, start in zip(pieces, starts):
        at[offset] = start
        offset += len(piece)
    at[offset] = len(text)
    return [(at[a], at[b]) for a, b in _whole(flat, unicodedata.normalize("NFD", find), at.__contains__)]


def _whole(text: str, key: str, starts_character: Callable[[int], bool]) -> list[tuple[int, int]]:
    """The non-overlapping occurrences of `key` in `text` that begin and end where a character begins."""
    found: list[tuple[int, int]] = []
    pos = text.find(key)
    while pos >= 0:
        end = pos + len(key)
        if starts_character(pos) and starts_character(end):
            found.append((pos, end))
            pos = text.find(key, end)
        else:
            pos = text.find(key, pos + 1)
    return found


def _exact(text: str, find: str) -> list[tuple[int, int]]:
    found: list[tuple[int, int]] = []
    pos = text.find(find) if find else -1
    while pos >= 0:
        found.append((pos, pos + len(find)))
        pos = text.find(find, pos + len(find))
    return found


def replaced(text: str, where: list[tuple[int, int]], replacement: str) -> str:
    """`text` with each span of `where` (in order, not overlapping) replaced by `replacement`."""
    out: list[str] = []
    last = 0
    for start, end in where:
        out += [text[last:start], replacement]
        last = end
    return "".join(out) + text[last:]


def folded(text: str, *, case_sensitive: bool) -> str:
    """`text` as a search compares it: composed (NFC), and case-folded unless `case_sensitive` (folding can
    decompose: "ǰ" folds to "ǰ", so the fold is composed again)."""
    composed = unicodedata.normalize("NFC", text)
    return composed if case_sensitive else unicodedata.normalize("NFC", composed.casefold())


def literal_hit(query: str, *, case_sensitive: bool) -> Callable[[str], bool]:
    """Whether a line holds `query` as a reader sees it: whatever the Unicode form of either, and the case."""
    needle = folded(query, case_sensitive=case_sensitive)
    if needle.isascii() and case_sensitive:
        return lambda line: needle in line
    return lambda line: needle in folded(line, case_sensitive=case_sensitive)
