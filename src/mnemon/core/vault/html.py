"""Raw HTML blocks: lines a reader sees as HTML, not Markdown, so the parser extracts nothing from them.

CommonMark's rule, which Obsidian follows ("Markdown inside HTML is not rendered"): a line starting (after at most
three spaces) with ``<pre``, ``<script``, ``<style`` or ``<textarea`` opens a block that runs to the line holding its
closing tag; one starting with a block-level tag (``<div>``, ``</table>``, ``<details>``…) opens a block that runs to
the next blank line; and so does a line that is one complete tag and nothing else (``<span class="x">``), when no
paragraph is open above it. Read as Markdown, ``<div>`` over ``- [ ] task`` and ``[[Link]]`` made an open loop and
an edge the note's reader never sees. Content after a blank line inside a ``<div>`` is Markdown again, as rendered.

Comments are the comment pass's (`parser.blank_comments`): blocks are looked for in the lines it left, so a tag a
comment holds opens none, while a line a comment fills is no blank line ending one.
"""
from __future__ import annotations

import itertools
import re
from typing import Sequence

from mnemon.core.vault.model import ParseWarning

# a line that may open an HTML block: the note is searched for these, so a note without one costs one scan
_OPENER = re.compile(r"\n {0,3}<")
_RAW = re.compile(r"<(pre|script|style|textarea)(?:[ \t>]|$)", re.IGNORECASE)
_RAW_END = re.compile(r"</(?:pre|script|style|textarea)>", re.IGNORECASE)
_BLOCK = re.compile(
    r"</?(?:address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir"
    r"|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head|header|hr|html|iframe|legend|li"
    r"|link|main|menu|menuitem|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td"
    r"|tfoot|th|thead|title|tr|track|ul)(?:[ \t>]|/>|$)", re.IGNORECASE)
# one complete open or closing tag alone on its line (attribute values quoted or not)
_LONE_TAG = re.compile(
    r"(?:<[A-Za-z][A-Za-z0-9-]*(?:[ \t]+[A-Za-z_:][\w.:-]*(?:[ \t]*=[ \t]*(?:[^\s\"'=<>`]+|'[^'\n]*'|\"[^\"\n]*\"))?)*"
    r"[ \t]*/?>|</[A-Za-z][A-Za-z0-9-]*[ \t]*>)[ \t]*")
_HEADING = re.compile(r" {0,3}#{1,6}(?:[ \t]|$)")


def html_block_lines(prose: str, coded: Sequence[str]) -> tuple[list[int], ParseWarning | None]:
    """The indexes of the lines of a note's HTML blocks, in order, given its text with code emptied and comments
    blanked (`prose`) and its lines with code emptied (`coded`, the same lengths); and the warning that a ``<pre>``
    (or script, style, textarea) is never closed, so the rest of the note is HTML, as an unclosed fence's is code."""
    padded = "\n" + prose  # (so the first line counts as one after a newline)
    openers = _OPENER.finditer(padded)
    first = next(openers, None)
    if first is None:
        return [], None
    shown = prose.split("\n")
    found: list[int] = []
    warning = None
    line, counted, end = -1, 0, 0
    for opener in itertools.chain((first,), openers):
        line += padded.count("\n", counted, opener.start() + 1)
        counted = opener.start() + 1
        if line < end:
            continue  # inside the block just passed
        text = shown[line].lstrip(" ")
        if raw := _RAW.match(text):
            end = next((index + 1 for index in range(line, len(shown))
                        if "</" in shown[index] and _RAW_END.search(shown[index])), 0)
            if not end:
                end = len(shown)
                message = f"<{raw.group(1).lower()}> never closed; the rest is HTML"
                warning = ParseWarning("unclosed_html_block", message, line + 1)
        elif _BLOCK.match(text) or (_LONE_TAG.fullmatch(text) and _after_block(coded, line)):
            end = line + 1
            while end < len(coded) and coded[end].strip():
                end += 1
        else:
            continue
        found.extend(range(line, end))
    return found, warning


def _after_block(coded: Sequence[str], line: int) -> bool:
    """Whether no paragraph is open above `line` (front matter is emptied): a lone tag there is the paragraph's text
    (CommonMark)."""
    return line == 0 or not coded[line - 1].strip() or bool(_HEADING.match(coded[line - 1]))
