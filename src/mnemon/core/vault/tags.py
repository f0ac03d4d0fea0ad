"""Inline tags (``#name``, as Obsidian and Logseq write them): where each starts and its name.

A name runs over the combining marks of its letters. Text pasted on macOS, and file names there, are decomposed
(NFD: "é" is "e" and U+0301), and a mark is no word character to `re`: ``#café`` written so was the tag "cafe",
``#Café/Menu`` "cafe" too, and "café#menu" a tag "menu" (the accent before the '#' read as no word).
`normalise_tag` composes the name (NFC), so a tag is one tag whatever form it is typed in."""
from __future__ import annotations

import re
import unicodedata

from .frontmatter import normalise_tag

_TAG = re.compile(r"#(\w[\w/-]*)")
_REST = re.compile(r"[\w/-]*")
_NOT_BEFORE_TAG = frozenset("#&/\\:])'\"`")  # plus any word character: "page#frag", "&#39;", "C#"


def _is_mark(ch: str) -> bool:
    return not ch.isascii() and unicodedata.category(ch)[0] == "M"


def inline_tags(clean: str) -> list[tuple[int, str]]:
    """(offset of its '#', name) of each inline tag of `clean` (the prose with code, links and URLs blanked)."""
    found: list[tuple[int, str]] = []
    end = len(clean)
    match = _TAG.search(clean)
    while match is not None:
        start, stop = match.start(), match.end()
        while stop < end and _is_mark(clean[stop]):  # (a decomposed letter's accent, and the word after it)
            rest = _REST.match(clean, stop + 1)
            stop = rest.end() if rest else stop + 1
        before = clean[start - 1] if start else " "
        if not (before in _NOT_BEFORE_TAG or before.isalnum() or before == "_" or _is_mark(before)):
            name = normalise_tag(clean[start + 1:stop].rstrip("/-"))
            if name and not name.replace("/", "").isdigit():
                found.append((start, name))
        match = _TAG.search(clean, stop)
    return found
