"""List items as `add-bullet` reads them: bullets (`-`, `*`, `+`) and numbered items (`1.`, `1)`), as CommonMark.

Under a numbered list a bullet written as `- c` is another list to every renderer, and an item already there as
`1. a` was added again: both kinds are items, for telling whether one is there already and for the marker a new
one takes (the list's last: a bullet's character, or a numbered item's next number).
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

# a list item at any indent (a nested one included): what an item already there may be
_ITEM = re.compile(r"^\s*(?:[-*+]|\d{1,9}[.)])\s")
# the marker (with any task box) in front of an item's text
_MARKER = re.compile(r"^\s*(?:(?:[-*+]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?)?")
# a top-level item of the section's list: a bullet's character, or a numbered item's number and delimiter
_TOP = re.compile(r"(?:([-*+])|(\d{1,9})([.)]))[ \t]")
_LAST_NUMBER = 999_999_999  # CommonMark's numbers have at most 9 digits
_NUMBERED = re.compile(r" {0,3}(\d{1,9})[.)](?:[ \t]|$)")


def item_key(text: str) -> str:
    """An item's text for comparison: without its marker or task box, case, Unicode form (NFC against NFD, as
    `note_headings`) and runs of whitespace aside."""
    return " ".join(unicodedata.normalize("NFC", _MARKER.sub("", text, count=1)).split()).casefold()


def is_item(line: str) -> bool:
    """Whether `line` is a list item (and so, given to add-bullet, is written with the marker it has)."""
    return _ITEM.match(line) is not None


def cannot_interrupt(line: str) -> bool:
    """Whether `line` is a numbered item not numbered 1, which CommonMark does not let start a list right under a
    paragraph: there it is the paragraph's text."""
    numbered = _NUMBERED.match(line)
    return numbered is not None and int(numbered.group(1)) != 1


def next_marker(own: Sequence[str]) -> str | None:
    """The marker a new item of the list in `own` (a section's lines) takes: the last top-level item's bullet, or
    the number after its number (the same one when the list numbers every item alike, `1.` `1.`); None when the
    section has no list."""
    items = [m for m in map(_TOP.match, own) if m]
    if not items:
        return None
    last = items[-1]
    if last.group(1):
        return last.group(1)
    number = int(last.group(2))
    lazy = len(items) > 1 and items[-2].group(2) is not None and int(items[-2].group(2)) == number
    return f"{number if lazy or number >= _LAST_NUMBER else number + 1}{last.group(3)}"
