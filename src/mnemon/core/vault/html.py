"""Raw HTML blocks: lines a reader sees as HTML, not Markdown, so the parser extracts nothing from them.

CommonMark's rule, which Obsidian follows ("Markdown inside HTML is not rendered"): a line starting (after at most
three spaces) with ``<pre``, ``<script``, ``<style`` or ``<textarea`` opens a block that runs to the line holding its
closing tag; one starting with a block-level tag (``<div>``, ``</table>``, ``<details>``…) opens a block that runs to
the next blank line; and so does a line that is one complete tag and nothing else (``<span class="x">``), when no
paragraph is open above it. Read as Markdown, ``<div>`` over ``- [ ] task`` and ``[[Link]]`` made an open loop and
an edge the note's reader never sees. Content after a blank line inside a ``<div>`` is Markdown again, as rendered.

A block may open inside block quotes and one list item (``> <div>``, ``- <div>``, ``> - <div>``): CommonMark's
container blocks. It then also ends where they do, at a line without the quote's markers or not indented into the
item (an HTML block has no lazy continuation). A list item indented four spaces or more is not looked at.

Comments are the comment pass's (`parser.blank_comments`): blocks are looked for in the lines it left, so a tag a
comment holds opens none, while a line a comment fills is no blank line ending one.
"""
from __future__ import annotations

import itertools
import re
from typing import Sequence

from mnemon.core.vault.model import ParseWarning

# a line that may open an HTML block, at the margin or inside block quotes and a list item: the note is searched
# for these, so a note without one costs one scan ('>' and '[ \t]' never compete, so a line of them is linear)
_OPENER = re.compile(r"\n {0,3}(?:>[ \t]*)*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?<")
# what a line's container blocks take before an HTML block: quote markers (each may take one space), then a list
# marker and its 1-4 spaces, or up to 3 spaces (more is code); group 1 the quotes, group 2 the marker
_CONTAINERS = re.compile(r"((?:(?: {0,3}>)+[ \t]?)?)(?:( {0,3}(?:[-*+]|\d{1,9}[.)]) {1,4})| {0,3})<")
_QUOTES = re.compile(r"(?: {0,3}>)*[ \t]?")
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
        containers = _CONTAINERS.match(shown[line])
        if containers is None:
            continue
        text = shown[line][containers.end() - 1:]
        quoted = containers.group(1).count(">")
        item = len(containers.group(2) or "")
        if raw := _RAW.match(text):
            end = line + 1
            closed = _RAW_END.search(text, raw.end()) if "</" in text else None
            while not closed and end < len(shown):
                goes_on = _contains(shown, end, quoted, item)
                if goes_on is None and item:  # a blank line: the item goes on if the next line is still in it
                    below = next((index for index in range(end + 1, len(shown)) if shown[index].strip()), end)
                    if below == end or not _contains(shown, below, quoted, item):
                        break
                    end = below
                elif goes_on is False:
                    break
                closed = _RAW_END.search(shown[end]) if "</" in shown[end] else None
                end += 1
            if not closed:  # no closing tag: said when nothing the note goes on with is left out of the block
                if not any(shown[index].strip() for index in range(end, len(shown))):
                    message = f"<{raw.group(1).lower()}> never closed; the rest is HTML"
                    warning = ParseWarning("unclosed_html_block", message, line + 1)
        elif _BLOCK.match(text) or (_LONE_TAG.fullmatch(text) and (item or _after_block(coded, line, quoted))):
            end = line + 1
            while end < len(coded) and _contains(coded, end, quoted, item):
                end += 1
        else:
            continue
        found.extend(range(line, end))
    return found, warning


def _contains(lines: Sequence[str], at: int, quoted: int, item: int) -> bool | None:
    """Whether line `at` goes on a block opened inside `quoted` quote markers and a list item whose content is
    indented `item` columns — a line leaving either ends it (lazy continuation is a paragraph's only) — or None when
    it is blank inside them (which ends any block but a ``<pre>``'s)."""
    line = lines[at]
    if quoted:
        quotes = _QUOTES.match(line)
        if quotes is None or quotes.group(0).count(">") < quoted:
            return False
        line = line[quotes.end():]
    if not line.strip():
        return None
    if item:
        rest = line.expandtabs(4) if "\t" in line else line
        return len(rest) - len(rest.lstrip(" ")) >= item
    return True


def _after_block(coded: Sequence[str], line: int, quoted: int) -> bool:
    """Whether no paragraph is open above `line` (front matter is emptied), inside its `quoted` quote markers: a lone
    tag there is the paragraph's text (CommonMark)."""
    if line == 0:
        return True
    above = coded[line - 1]
    if quoted:
        quotes = _QUOTES.match(above)
        if quotes is None or quotes.group(0).count(">") < quoted:
            return True  # (the quote starts on `line`, and a paragraph it interrupts is outside it)
        above = above[quotes.end():]
    return not above.strip() or bool(_HEADING.match(above))
