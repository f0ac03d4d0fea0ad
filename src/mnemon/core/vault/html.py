"""Raw HTML blocks: lines a reader sees as HTML, not Markdown, so the parser extracts nothing from them.

CommonMark's rule, which Obsidian follows ("Markdown inside HTML is not rendered"): a line starting (after at most
three spaces) with ``<pre``, ``<script``, ``<style`` or ``<textarea`` opens a block that runs to the line holding its
closing tag; one starting with a block-level tag (``<div>``, ``</table>``, ``<details>``…) opens a block that runs to
the next blank line; and so does a line that is one complete tag and nothing else (``<span class="x">``), when no
paragraph is open above it. Read as Markdown, ``<div>`` over ``- [ ] task`` and ``[[Link]]`` made an open loop and
an edge the note's reader never sees. Content after a blank line inside a ``<div>`` is Markdown again, as rendered.

A block may open inside block quotes and one list item (``> <div>``, ``- <div>``, ``> - <div>``): CommonMark's
container blocks. It then also ends where they do, at a line without the quote's markers or not indented into the
item (an HTML block has no lazy continuation). A line indented four spaces or more opens one only inside a list
item whose content it is indented at most three spaces past (`ListItems`): ``- item`` over a blank line and
``    <div>`` is the item's ``  <div>``; elsewhere it is a paragraph's text or code. A block indented into an item
ends where the item does, and a list marker inside a block is its text.

Comments are the comment pass's (`comments.blank_comments`): blocks are looked for in the lines it left, so a tag a
comment holds opens none, while a line a comment fills is no blank line ending one.
"""
from __future__ import annotations

import itertools
import re
from typing import Sequence

from mnemon.core.vault.model import ParseWarning

# a line that may open an HTML block, at the margin, inside block quotes and a list item, or indented into an item
# (`_Items` decides past three spaces): the note is searched for these, so a note without one costs one scan ('>'
# and '[ \t]' never compete, so a line of them is linear)
_OPENER = re.compile(r"\n[ \t]*(?:>[ \t]*)*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?<")
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
# a list item's marker after its line's indentation (tabs expanded); a nested item opening with a tag
_MARKER = re.compile(r"(?:[-*+]|\d{1,9}[.)])(?= |$)")
_ITEM_MARKER = re.compile(r"(?:[-*+]|\d{1,9}[.)])(?=[ \t]|$)")
_QUOTED_LINE = re.compile(r"(?:[ \t]*>[ \t]?)*")
_MARKER_BEFORE_TAG = re.compile(r"(?:[-*+]|\d{1,9}[.)]) {1,4}<")
# a line that ends the items it is not indented into even with no blank line before it, as a paragraph's line does
# not: a heading, a quote, a fence, a thematic break (which is no item, though "* * *" looks like one)
_ENDS_ITEM = re.compile(r"#{1,6}(?:[ \t]|$)|>|```|~~~|([-*_])(?:[ \t]*\1){2,}[ \t]*$")


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
    items = ListItems(coded)
    for opener in itertools.chain((first,), openers):
        line += padded.count("\n", counted, opener.start() + 1)
        counted = opener.start() + 1
        if line < end:
            continue  # inside the block just passed
        containers = _CONTAINERS.match(shown[line])
        if containers is not None:
            text = shown[line][containers.end() - 1:]
            quoted = containers.group(1).count(">")
            item = len(containers.group(2) or "")
            # (a lone tag first in an item, or right below a block just ended, follows no paragraph)
            lone_opens = bool(item) or end == line or _after_block(coded, line, quoted)
            if not quoted and not item and containers.end() > 1:  # indented 1-3 columns: maybe into an item
                item = items.holder(line, containers.end() - 1) or 0
        elif (in_item := items.opener(line, shown[line])) is not None:
            text, item, lone_opens = in_item
            lone_opens = lone_opens or end == line
            quoted = 0
        else:
            continue
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
        elif _BLOCK.match(text) or (lone_opens and _LONE_TAG.fullmatch(text)):
            end = line + 1
            while end < len(coded) and _contains(coded, end, quoted, item):
                end += 1
        else:
            continue
        found.extend(range(line, end))
        items.blocks.append((line, end))
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


def item_column(line: str) -> tuple[int, int]:
    """(Indentation, content column) of a line inside its quotes: a list item's content column, else its indentation."""
    body = _QUOTED_LINE.sub("", line, 1).expandtabs(4)
    text = body.lstrip(" ")
    lead = len(body) - len(text)
    marker = _ITEM_MARKER.match(text)
    if marker is None:
        return lead, lead
    spaces = len(text) - marker.end() - len(text[marker.end():].lstrip(" "))
    return lead, lead + marker.end() + (spaces if 1 <= spaces <= 4 and text[marker.end():].strip() else 1)


class ListItems:
    """The list items open at each line of a note (its lines with code emptied), read forward once as asked, line
    after line: each item's content column, outermost first. A line inside an HTML block found above (`blocks`:
    (first line, end), in order) is its text, no item's marker, and the line below one is no lazy continuation; a
    block quote's items are not followed."""

    def __init__(self, lines: Sequence[str]) -> None:
        self.lines = lines
        self.blocks: list[tuple[int, int]] = []
        self.read = self.next_block = 0
        self.open: list[int] = []
        self.after_blank = True
        self.after_block = False

    def holder(self, at: int, lead: int) -> int | None:
        """The content column of the innermost list item open at line `at` that a line indented `lead` columns is
        in, or None."""
        while self.read < at:
            self._next(self.read)
            self.read += 1
        return next((column for column in reversed(self.open) if column <= lead), None)

    def opener(self, at: int, line: str) -> tuple[str, int, bool] | None:
        """For line `at` (`line` as shown), indented four columns or more and starting (after the indentation and
        maybe a list marker) with '<': its text from the '<' on, the content column of the list item a block it
        opens is in, and whether a lone tag may open one (no paragraph goes on above it); None when it is in no
        item, or indented four columns or more into one (the item's indented code)."""
        body = line.lstrip(" \t")
        indent = line[:len(line) - len(body)]
        lead = len(indent.expandtabs(4)) if "\t" in indent else len(indent)
        if lead < 4 or not body.startswith("<") and _MARKER_BEFORE_TAG.match(body) is None:
            return None  # (a quote's line: `_CONTAINERS` reads it, or nothing does)
        holder = self.holder(at, lead)
        if holder is None or lead - holder > 3:
            return None
        nested = _MARKER_BEFORE_TAG.match(body)
        if nested is not None:  # (a nested item opening with the tag: the block is in that item)
            return body[nested.end() - 1:], lead + nested.end() - 1, True
        return body, holder, self.after_blank

    def _next(self, index: int) -> None:
        line = self.lines[index]
        after_blank, after_block = self.after_blank, self.after_block
        self.after_blank = not line.strip()
        while self.next_block < len(self.blocks) and self.blocks[self.next_block][1] <= index:
            self.next_block += 1
        block = self.blocks[self.next_block] if self.next_block < len(self.blocks) else (-1, -1)
        self.after_block = block[0] <= index < block[1]
        if self.after_blank or block[0] < index < block[1]:
            return  # ("- x" inside a '<div>' block is its text)
        expanded = line.expandtabs(4) if "\t" in line else line
        body = expanded.lstrip(" ")
        lead = len(expanded) - len(body)
        ends = _ENDS_ITEM.match(body)
        marker = None if ends else _MARKER.match(body)
        if marker is not None and lead - next((column for column in reversed(self.open) if column <= lead), 0) > 3:
            marker = None  # (indented four columns past any item: code, or a paragraph's text)
        if marker is not None or ends is not None or after_blank or after_block:
            while self.open and self.open[-1] > lead:  # (else a paragraph's line, maybe lazy)
                self.open.pop()
        if marker is not None:
            spaces = len(body) - marker.end() - len(body[marker.end():].lstrip(" "))
            self.open.append(lead + marker.end() + (spaces if 1 <= spaces <= 4 and body.strip() != marker.group(0)
                                                    else 1))
