"""Reference-style Markdown links: ``[text][label]``, ``[label][]`` and ``[label]``, whose destination is given once by
a definition on a line of its own anywhere in the note, ``[label]: destination "optional title"`` (CommonMark). A
reader follows them as any other link; read only as inline ``[text](destination)``, they made no edge at all. The
first definition of a label wins, labels match case-insensitively with their whitespace collapsed, a footnote
(``[^1]``) is no label, and a reference without a definition is text.
"""
from __future__ import annotations

import re
from typing import Iterator, Mapping

# a definition: up to three spaces of indent, the label, a destination (``<…>`` may hold spaces), an optional title
DEFINITION = re.compile(
    r"\n {0,3}\[([^\[\]\n]+)\]:[ \t]*(<[^<>\n]*>|[^\s<>]+)"
    r"(?:[ \t]+(?:\"[^\"\n]*\"|'[^'\n]*'|\([^()\n]*\)))?[ \t]*(?=\n|$)"
)
_REFERENCE = re.compile(r"\[([^\[\]\n]+)\](?:\[([^\[\]\n]*)\])?")
_NOT_BEFORE = frozenset("[]!\\")  # inside a wikilink (``[[a]]``), an image, or an escaped bracket


def _label(text: str) -> str:
    return " ".join(text.split()).casefold()


def _definitions(text: str) -> dict[str, tuple[int, str]]:
    """Label → (offset in `text` of its destination, the destination as written, angle brackets kept)."""
    found: dict[str, tuple[int, str]] = {}
    for match in DEFINITION.finditer("\n" + text):
        label = _label(match.group(1))
        if label and not label.startswith("^"):
            found.setdefault(label, (match.start(2) - 1, match.group(2)))
    return found


def _uses(text: str, defined: Mapping[str, tuple[int, str]]) -> Iterator[tuple[int, str, str]]:
    """(offset, link text, label) of each reference in `text` whose label is `defined`."""
    for match in _REFERENCE.finditer(text):
        start, end = match.span()
        if start and text[start - 1] in _NOT_BEFORE or text[end:end + 1] in ("(", ":", "]"):
            continue  # an inline link's text, a definition's label, or a wikilink's inside
        label = _label(match.group(2) or match.group(1))
        if label in defined:
            yield start, match.group(1).strip(), label


def reference_links(text: str) -> list[tuple[int, str, str]]:
    """(offset, link text, destination) of each reference in `text` (a note's prose) with a definition."""
    defined = _definitions(text) if "]:" in text else {}
    return [(start, shown, defined[label][1]) for start, shown, label in _uses(text, defined)] if defined else []


def used_definitions(text: str) -> list[tuple[int, str]]:
    """(offset, destination as written) of each definition in `text` some reference uses: where a link's path is
    written, for whoever rewrites it (a note move)."""
    defined = _definitions(text) if "]:" in text else {}
    used = {label for _start, _shown, label in _uses(text, defined)} if defined else set()
    return sorted(defined[label] for label in used)
