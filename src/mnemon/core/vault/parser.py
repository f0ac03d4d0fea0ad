"""`parse_note`: one Markdown note → a `ParsedNote`. Pure: text in, values out, never raises on content.

Fence detection walks the lines once; everything else is a handful of whole-note regex scans whose offsets
map back to lines by bisection. Code blocks, fenced or indented (`code.py`), are opaque: nothing inside them is a
heading, link, tag, task, date or email — Mneme matched bullets inside fences (reference §8.2 item 2). Inline code
spans are blanked (same length, so offsets stay valid) before anything is extracted from a line; so is math (``$…$``,
``$$…$$``, and a ``$$`` block is opaque as a fence is, when something closes it).
Lines are counted on ``\\n`` after folding ``\\r\\n``/``\\r``, 1-based.

Comments — ``<!-- … -->`` and Obsidian's ``%% … %%``, on one line or across lines — are hidden from the reader, so
nothing inside them is extracted either (a commented-out task was an open loop, a commented link an edge); a
research-resolution payload, which lives in an HTML comment, is still read. A ``%%`` never closed hides the rest of
the note, as in Obsidian; a ``<!--`` never closed is text.
Setext headings (``Title`` over ``===`` or ``---``) are headings, as every renderer shows them.

Raw HTML blocks (`html.py`) are opaque too: a tag opening a block hides the lines up to its end, as CommonMark
and Obsidian render them as HTML.

A note of a Logseq graph (`logseq.py`, given as `logseq`) is read as Logseq writes it: its page properties, task
markers, journal day, namespaced name, ``#[[tags]]`` and ``((block references))`` (the graph's blocks given in
`logseq.blocks`); any other note as CommonMark and Obsidian read it. Not handled, on purpose: tables.
"""
from __future__ import annotations

import base64
import binascii
import json
import posixpath
import re
from bisect import bisect_right
from dataclasses import replace
from itertools import accumulate
from operator import add
from typing import AbstractSet, Mapping, NamedTuple, Sequence
from urllib.parse import unquote

from mnemon.core.errors import InvalidInput
from mnemon.core.vault.code import NOT_SETEXT_TEXT, around_code_spans, blank_code_spans, code_blanked_lines
from mnemon.core.vault.comments import (blank_comments, reader_lines, unclosed_comment, visible_text,
                                        without_block_ids)
from mnemon.core.vault.dates import date_spans
from mnemon.core.vault.frontmatter import normalise_tag, split_front_matter
from mnemon.core.vault.html import ListItems, html_block_lines, item_column
from mnemon.core.vault.links import display_links, link_block, relative_target, split_link_target
from mnemon.core.vault.logseq import (BRACKET_TAG, PRIORITY, LogseqGraph, block_refs, front_matter, note_blocks,
                                      page_name, planned_dates, task_of, with_refs)
from mnemon.core.vault.model import (
    EVIDENCE_MAX_CHARS,
    BlockRef,
    DateMention,
    EmailMention,
    EmbeddedPayload,
    FrontMatter,
    Heading,
    ListItem,
    ListMarker,
    MarkdownLink,
    Observation,
    ParsedNote,
    ParseWarning,
    Section,
    Tag,
    TaskItem,
    WikiLink,
)
from mnemon.core.vault.observations import (
    DEFAULT_HINTS,
    MAX_ITEM_CHARS,
    MAX_OBSERVATIONS_PER_NOTE,
    MIN_ITEM_CHARS,
    is_kept,
    score_parts,
    score_task,
)
from mnemon.core.vault.references import DEFINITION, reference_links
from mnemon.core.vault.tags import inline_tags

# Whole-note patterns: one C-level scan per note instead of a Python loop per line. Each starts with a literal
# ("\n", "[[", "#", "@") because a leading look-behind or character class makes Python's regex engine attempt
# a match at every offset, which dominated ingest time. Line patterns run over "\n" + text.
# Every pattern is written so no two quantifiers compete for the same characters: a hostile or broken note
# (20,000 spaces on one line) must cost linear time, not minutes.
ATX_HEADING = re.compile(r" {0,3}(#{1,6})[ \t]+([^\n]*)")
_HEADING = re.compile(r"\n {0,3}(#{1,6})[ \t]+([^\n]*)")
# The marks in a task's box. ``- [-]`` is a cancelled task (Obsidian renders it as one; the Tasks plugin's
# "cancelled"): closed like ``[x]``, where as a bullet it kept "[-]" in its text and its date and words made it an
# open loop. Other marks (``[/]``, ``[>]``, ``- [1] Smith 2020``) stay bullets. Whoever reads a task's evidence line
# back to its text strips the same boxes (app/context.py).
TASK_MARKS = " xX-"
_CLOSED_TASK = frozenset(TASK_MARKS) - {" "}
_LIST_ITEM = re.compile(
    r"\n([ \t]*(?:>[ \t]*)*)(?:([-*+])|(\d{1,9})[.)])[ \t]+"
    rf"(?:\[([{re.escape(TASK_MARKS)}])\](?=[ \t\n]|$)[ \t]*)?([^\n]*)"
)
# An Obsidian block identifier ending an item (``- pay the invoice ^inv``): a link target, hidden when rendered.
BLOCK_ID = re.compile(r" \^[A-Za-z0-9-]+$")
_THEMATIC_BREAK = re.compile(r"^[ \t>]*([-*_])(?:[ \t]*\1){2,}[ \t]*$")
# A setext underline: what makes the paragraph lines right above it a heading (level 1 for "=", 2 for "-").
_SETEXT_UNDERLINE = re.compile(r"\n {0,3}(?:(=)=*|-+)[ \t]*(?=\n|$)")
SETEXT_LINE = re.compile(r" {0,3}(?:(=)=*|-+)[ \t]*")
WIKILINK = re.compile(r"\[\[([^\[\]\n]+?)\]\]")
MD_LINK = re.compile(  # (a title in "…", '…' or (…), as CommonMark allows)
    r"\[([^\]\n]*)\]\([ \t]*(<[^<>\n]*>|[^\s()]+(?:\([^\s()]*\)[^\s()]*)*)"
    r"(?:[ \t]+(?:\"[^\"\n]*\"|'[^'\n]*'|\([^()\n]*\)))?[ \t]*\)"
)
URL_SCHEME = re.compile(r"^(?:[a-zA-Z][a-zA-Z0-9+.-]*:|//)")
_SCHEME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+.-")
_URL_END = re.compile(r"[\s<>]")
# A URL without a scheme, as GFM links it: "www." and a domain at a word's start, up to a space or '<' — its path's
# '@' is no email ("www.site.com/gil@example.com" named gil@example.com), nor its digits a date. A domain ending in
# '@' is an address's local part ("www.admin@example.com"), left as it is.
_WWW_URL = re.compile(r"www\.[\w-]+(?:\.[\w-]+)*(?![\w@-])[^\s<]*")
_MD_DESTINATION = re.compile(r"\]\([^)\n]*\)")
_EMAIL_LOCAL_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._%+-")
_EMAIL_DOMAIN = re.compile(r"@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}(?![\w-])")
# a top-level front-matter key (at the start of its line); the keys whose values name or file a note, not dates
_FRONT_KEY = re.compile(r"([^\s#:\-][^:]*)::?(?=[ \t]|$)")  # (up to the first ":", so linear; "::" is Logseq's)
_UNDATED_KEYS = frozenset({"title", "aliases", "alias", "tags", "tag", "type"})
_PAYLOAD = re.compile(r"<!--[ \t]*mneme-research-resolution-b64:[ \t]*([A-Za-z0-9_\-+/=]+)[ \t]*-->")

# Folder names Mneme maps to node types; the nearest matching folder wins, front matter `type` beats both.
_FOLDER_TYPES: dict[str, str] = {
    "people": "person", "person": "person", "projects": "project", "project": "project",
    "places": "place", "place": "place", "finance": "finance", "money": "finance",
    "events": "event", "event": "event",
}


def _evidence(line: str) -> str:
    return line.strip()[:EVIDENCE_MAX_CHARS]


def heading_text_of(raw: str) -> str:
    """Heading text without an optional closing run of '#' (which must follow a space to count as one)."""
    text = raw.rstrip(" \t")
    without_hashes = text.rstrip("#")
    if len(without_hashes) != len(text) and (not without_hashes or without_hashes[-1] in " \t"):
        text = without_hashes
    return text.strip(" \t")


_ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")  # a backslash before ASCII punctuation: that character, as written
_SHOWN_LINK = re.compile("!?" + MD_LINK.pattern)


def _shown_prose(text: str) -> str:
    if "](" in text:
        text = _SHOWN_LINK.sub(lambda m: m.group(0) if m.start() and text[m.start() - 1] == "\\" else m.group(1),
                               text)
    return _ESCAPED.sub(r"\1", text) if "\\" in text else text


def shown_heading(text: str) -> str:
    """A heading's text as it reads rendered: a Markdown link (or image) as its text, a backslash-escaped character
    as itself (``## Title\\#`` reads "Title#"), inline code as written. Wikilinks stay as written (the plan shows
    them as their names): a heading's id (``heading:<path>#<slug>``) is made of its text, and ``## See [[Spec]]``
    keeps the id its links have named; ``## See [Spec](Spec.md)`` gets the one ``[[Note#See Spec]]`` names."""
    if "](" not in text and "\\" not in text:
        return text
    if "`" not in text:
        return _shown_prose(text)
    return around_code_spans(text, _shown_prose, str)  # (inline code as written)


def _collapse(text: str) -> str:
    return " ".join(text.split())


def _display_title(text: str) -> str:
    """A heading as the title a reader sees: each link as its text (``[Spec](Spec.md)`` reads "Spec")."""
    shown = display_links(text)
    return _collapse(MD_LINK.sub(lambda link: link.group(1), shown) if "](" in shown else shown)


def _stem(rel_path: str) -> str:
    name = rel_path.rsplit("/", 1)[-1]
    return name[:-3] if name.lower().endswith(".md") else name


def _note_type(rel_path: str, front: FrontMatter | None) -> str:
    if front is not None and front.note_type:
        return front.note_type
    for folder in reversed(rel_path.split("/")[:-1]):
        mapped = _FOLDER_TYPES.get(folder.lower())
        if mapped:
            return mapped
    return "note"


def resolve_markdown_target(rel_path: str, destination: str) -> str | None:
    """The note a local destination names (``….md``, or a name without an extension), or None when it is not one /
    leaves the vault: a vault path for ``/…`` and for ``./…`` or ``../…`` (relative to the linking note's folder);
    any other destination as written, looked up as a wikilink is — the forms Obsidian writes as "shortest path"
    (``Beta%20Spec.md``, a note in any folder) and "absolute path in vault" (``People/Ada%20Quill.md``), where the
    linking note's folder comes first (`links.nearest_first`), so a relative one to a note beside or below it still
    reaches that note."""
    path = destination.split("#", 1)[0].split("?", 1)[0]
    path = unquote(path).replace("\\", "/")
    name = path.rpartition("/")[2]
    if not path.lower().endswith(".md") and (not name or "." in name):
        return None  # another file (an image, a PDF), a folder; ``[Overview](../Overview)`` names a note as with .md
    if path.startswith("/"):
        joined = path.lstrip("/")
    elif path.startswith(("./", "../")):
        joined = posixpath.join(posixpath.dirname(rel_path), path)
    else:
        joined = path
    normal = posixpath.normpath(joined)
    if normal == ".." or normal.startswith("../") or normal.startswith("/"):
        return None
    return normal


def _decode_payload(encoded: str) -> object:
    padded = encoded + "=" * (-len(encoded) % 4)
    raw = base64.urlsafe_b64decode(padded.replace("+", "-").replace("/", "_"))
    return json.loads(raw.decode("utf-8"))


def setext_headings(prose_lines: Sequence[str], underlines: Sequence[int]) -> list[tuple[int, int, int]]:
    """(first text line index, underline index, level) of each setext heading, given the indexes of the prose lines
    that look like underlines (`SETEXT_LINE`), in order. The heading's text is the paragraph right above: the lines
    back to a blank line, an ATX heading or a thematic break. A paragraph that continues a list item, quote, table
    or HTML block is that block's text, and so is an underline less indented than the list item the paragraph is in
    (lazily: "- a", a blank line, "  b", "==="); a line just used as an underline ends the paragraph above the next."""
    found: list[tuple[int, int, int]] = []
    last_underline = -2
    items: ListItems | None = None
    # each underline that underlines nothing: where its paragraph starts, and whether it is a block's text; the next
    # underline's paragraph goes on from there (a walk back over all of it per underline was quadratic)
    going_on: dict[int, tuple[int, bool]] = {}
    for underline in underlines:
        first, block_text = underline, False
        while first > 0 and first - 1 != last_underline:
            above = prose_lines[first - 1]
            if not above.strip() or ATX_HEADING.match(above) or _THEMATIC_BREAK.match(above):
                break
            if first - 1 in going_on:
                first, block_text = going_on[first - 1]
                break
            first -= 1
            if NOT_SETEXT_TEXT.match(above):
                block_text = True  # a lazy continuation: no heading
                break
        going_on[underline] = first, block_text
        if block_text:
            continue
        if first < underline and prose_lines[first][:1] in " \t":  # (maybe a list item's paragraph: one it is in
            items = items or ListItems(prose_lines)  # has its underline indented into it too, or goes on lazily)
            holder = items.holder(first, item_column(prose_lines[first])[0])
            if holder is not None and item_column(prose_lines[underline])[0] < holder:
                first = underline
        if first < underline:
            level = 1 if prose_lines[underline].lstrip(" ").startswith("=") else 2
            found.append((first, underline, level))
            last_underline = underline
            del going_on[underline]
    return found


def _paragraph_column(prose_lines: Sequence[str], index: int, items: AbstractSet[int],
                      wrapped: Mapping[int, int]) -> int | None:
    """The content column of the list item whose paragraph goes on right above line `index` (0: one no list holds),
    or None when no paragraph does. A line numbered past 1 ("2024. Then …") indented that far goes on it: an ordered
    list that does not start at 1 cannot interrupt a paragraph (CommonMark), so "We shipped the release in" over
    "2024. Then the vendor …" is one sentence, and so is "- item", "  text", "  2. x"; one less indented leaves the
    item, a list of its own. `items`: the lines read as list items above; `wrapped`: those read as such a line."""
    at = index - 1
    while at >= 0:
        if at in items:
            return item_column(prose_lines[at])[1]
        if at in wrapped:
            return wrapped[at]
        line = prose_lines[at].lstrip(" \t>")  # (inside a quote, the quote's paragraph)
        if not line or ATX_HEADING.match(line) or _THEMATIC_BREAK.match(line) or SETEXT_LINE.fullmatch(line):
            break  # (where a paragraph above the line would start)
        at -= 1
    return 0 if at < index - 1 else None


def without_html_blocks(prose: str, coded: Sequence[str]) -> tuple[str, list[str] | None, ParseWarning | None]:
    """`prose` (a note's text with code emptied and comments blanked) with its raw HTML blocks blanked (same length,
    newlines kept), its lines (None: none blanked) and the warning of a block never closed; `coded`: its lines
    before the comments were blanked."""
    blocks, warning = html_block_lines(prose, coded)
    if not blocks:
        return prose, None, warning
    shown = prose.split("\n")
    for index in blocks:
        shown[index] = " " * len(shown[index])
    return "\n".join(shown), shown, warning


def _split_lines(text: str) -> list[str]:
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text.split("\n")


def _blank(match: re.Match[str]) -> str:
    return " " * len(match.group(0))


def _blank_urls(text: str) -> str:
    """Blank ``scheme://…`` runs so a URL's '#fragment', '@' or digits are not tags, emails or dates."""
    pieces: list[str] = []
    done = 0
    at = text.find("://")
    while at != -1:
        start = at
        while start > done and text[start - 1] in _SCHEME_CHARS:
            start -= 1
        end_match = _URL_END.search(text, at + 3)
        end = end_match.start() if end_match else len(text)
        if start < at and text[start].isalpha():
            pieces.append(text[done:start])
            pieces.append(" " * (end - start))
            done = end
        at = text.find("://", max(end, at + 3))
    pieces.append(text[done:])
    return "".join(pieces)


def _blank_www(match: re.Match[str]) -> str:
    before = match.string[match.start() - 1] if match.start() else " "
    return " " * len(match.group(0)) if before.isspace() or before in "*_~(" else match.group(0)


def _emails(text: str) -> list[tuple[int, str]]:
    """(offset, lower-cased address) for each email; anchored on '@' so a note without one costs nothing."""
    found: list[tuple[int, str]] = []
    at = text.find("@")
    while at != -1:
        domain = _EMAIL_DOMAIN.match(text, at)
        start = at
        while start > 0 and text[start - 1] in _EMAIL_LOCAL_CHARS:
            start -= 1
        # (an address right after a '/' is a URL's path: "site.com/gil@example.com" mentions no gil)
        if domain and start < at and not (start > 0 and (text[start - 1].isalnum() or text[start - 1] in "_/")):
            found.append((start, text[start:domain.end()].lower()))
            at = text.find("@", domain.end())
        else:
            at = text.find("@", at + 1)
    return found


def blanked_links(text: str) -> str:
    """`text` with URLs, Markdown link destinations and wikilinks blanked (same length), so their '#', '@' and digits
    are not tags, emails or dates. An escaped link (``\\[x](2026-03-04.md)``) is text a reader sees: kept."""
    if "://" in text:
        text = _blank_urls(text)
    if "www." in text:
        text = _WWW_URL.sub(_blank_www, text)
    escapes = "\\[" in text
    if "[[" in text:
        text = WIKILINK.sub(_blank_link if escapes else _blank, text)
    if "](" in text:
        # (the ']' of each escaped Markdown link, which `_MD_DESTINATION` matches from)
        kept = {m.end(1) for m in MD_LINK.finditer(text) if _escaped_link(m)} if escapes else ()
        text = _MD_DESTINATION.sub(lambda m: m.group(0) if m.start() in kept
                                   else "]" + _blanked_destination(m.group(0)[1:]), text)
    if "]:" in text:  # a reference definition's destination, as an inline link's
        text = DEFINITION.sub(lambda m: m.group(0)[:m.start(2) - m.start()]
                              + _blanked_destination(m.group(0)[m.start(2) - m.start():]), "\n" + text)[1:]
    return text


def _escaped_link(match: re.Match[str]) -> bool:
    return bool(match.start()) and match.string[match.start() - 1] == "\\" and _escaped(match.string, match.start())


def _blank_link(match: re.Match[str]) -> str:
    return match.group(0) if _escaped_link(match) else " " * len(match.group(0))


def _blanked_destination(written: str) -> str:
    """A link's destination blanked (same length) but for a ``mailto:`` link's address: ``[Write Eve](mailto:…)``
    names the address as ``<mailto:…>`` does, and only the autolink was an email the note mentions."""
    at = written.lower().find("mailto:") if ":" in written else -1
    if at == -1:
        return " " * len(written)
    start = end = at + 7
    while end < len(written) and written[end] not in " \t?>)\"'":
        end += 1
    return " " * start + written[start:end] + " " * (len(written) - end)


def _front_matter_dates(lines: Sequence[str], front: FrontMatter) -> list[DateMention]:
    """The date phrases of the front matter's values (``due: 2026-03-14``), found as in the body, on their own
    lines: a property's date is one the note mentions, and was left without its date edge. A line indented under a
    key (a block list, a nested mapping, folded text) is that key's. A key that names or files the note
    (`_UNDATED_KEYS`) holds none: a daily note titled "2026-03-04" names itself, it does not mention the day."""
    found: list[DateMention] = []
    undated = False
    for index in range(front.line_start, front.line_end - 1):  # between the fences
        line = lines[index]
        if line.lstrip().startswith("#"):
            continue  # a YAML comment
        value = line
        key = _FRONT_KEY.match(line)
        if key is not None:
            undated = key.group(1).strip().strip("'\"").casefold() in _UNDATED_KEYS
            value = line[key.end():]
        if undated:
            continue
        for _offset, matched, year, month, day in date_spans(blanked_links(value)):
            found.append(DateMention(matched, year, month, day, index + 1, _evidence(line)))
    return found


class _Lines:
    """Maps offsets in the joined prose text back to 1-based line numbers and evidence text."""

    def __init__(self, lines: Sequence[str], prose_lines: Sequence[str]) -> None:
        self.lines = lines
        # line i starts after the lines before it and their i newlines: summed by C-level iterators
        self.starts: list[int] = list(map(add, accumulate(map(len, prose_lines), initial=0), range(len(prose_lines))))
        self._evidence: dict[int, str] = {}

    def line_of(self, offset: int) -> int:
        return bisect_right(self.starts, offset)

    def column(self, offset: int, line_no: int) -> int:
        return offset - self.starts[line_no - 1]

    def evidence(self, line_no: int) -> str:
        cached = self._evidence.get(line_no)
        if cached is None:
            cached = self._evidence[line_no] = _evidence(self.lines[line_no - 1])
        return cached


def _sections(lines: Sequence[str], body_start: int, headings: Sequence[Heading],
              setext_bodies: Mapping[int, int], hidden: frozenset[int] = frozenset()) -> list[Section]:
    """Preamble plus one section per heading, each running to the next heading of any level, when it holds more than
    thematic breaks. `setext_bodies`: the line index where a setext heading's text starts → where its body does
    (after the underline); `hidden`: the indexes of lines left out of the text (a Logseq block's ``id::``)."""
    sections: list[Section] = []
    stack: list[tuple[int, str]] = []
    bounds: list[tuple[tuple[str, ...], int, int | None, int, int]] = []
    previous_path: tuple[str, ...] = ()
    previous_level, previous_line, previous_start = 0, None, body_start
    for heading in headings:
        bounds.append((previous_path, previous_level, previous_line, previous_start, heading.line - 1))
        while stack and stack[-1][0] >= heading.level:
            stack.pop()
        stack.append((heading.level, heading.text))
        previous_path = tuple(text for _, text in stack)
        previous_level, previous_line = heading.level, heading.line
        previous_start = setext_bodies.get(heading.line - 1, heading.line)
    bounds.append((previous_path, previous_level, previous_line, previous_start, len(lines)))
    for path, level, heading_line, start, end in bounds:
        body = list(lines[start:end])
        while body and not body[-1].strip():
            body.pop()
        while body and not body[0].strip():
            body.pop(0)
            start += 1
        shown = [line for index, line in enumerate(body, start) if index not in hidden] if hidden else body
        if shown and not all(_THEMATIC_BREAK.match(line) or not line.strip() for line in shown):  # (a rule: nothing)
            sections.append(Section(path, level, "\n".join(shown), heading_line or start + 1, start + len(body)))
    return sections


def _markdown_link(rel_path: str, text: str, written: str, line_no: int, evidence: str
                   ) -> MarkdownLink | ParseWarning | None:
    destination = written.strip("<>").strip()
    if not destination or URL_SCHEME.match(destination) or destination.startswith("#"):
        return None
    target = resolve_markdown_target(rel_path, destination)
    if target is None:
        if destination.split("#", 1)[0].split("?", 1)[0].lower().endswith(".md"):
            return ParseWarning("link_outside_vault", f"link leaves the vault: {destination}", line_no)
        return None
    _, hash_mark, fragment = destination.partition("#")
    section = (unquote(fragment).strip() or None) if hash_mark else None
    block = link_block(section) if section and "^" in section else None
    if section and block is not None:  # (`#^id` names a block, not a heading; `#Heading^id` both)
        section = section.partition("^")[0].strip() or None
    return MarkdownLink(target, destination, section, text.strip(), line_no, evidence, block)


def _observation_for_item(
    marker: ListMarker, text: str, scoring_text: str, line_no: int, evidence: str,
    dates: tuple[DateMention, ...], hints: tuple[str, ...],
) -> Observation | None:
    if not MIN_ITEM_CHARS <= len(text) <= MAX_ITEM_CHARS:
        return None
    kind, score, families, hint_hits = score_parts(scoring_text, hints, bool(dates))
    if not is_kept(kind, score):
        return None
    return Observation(kind, text, score, marker, line_no, evidence, families, hint_hits, dates)


def _title(rel_path: str, front: FrontMatter | None, headings: list[Heading]) -> tuple[str, list[Heading]]:
    """front matter title > first H1 > filename stem; the H1 that *is* the title is flagged, not duplicated."""
    first_h1 = next((heading for heading in headings if heading.level == 1), None)
    if front is not None and front.title:
        title = front.title
    elif first_h1 is not None:
        title = _display_title(first_h1.text) or _stem(rel_path)
    else:
        title = _stem(rel_path)
    if first_h1 is not None and _display_title(first_h1.text).casefold() == title.casefold():
        headings = [replace(h, is_title=True) if h is first_h1 else h for h in headings]
    return title, headings


def _checked_path(rel_path: str, text: str) -> str:
    if not isinstance(rel_path, str) or not rel_path.strip():
        raise InvalidInput("rel_path must be a non-empty vault-relative path", rel_path=repr(rel_path))
    if not isinstance(text, str):
        raise InvalidInput("note text must be a string (decode the file first)", rel_path=rel_path)
    return rel_path.replace("\\", "/").lstrip("/")


def _property_links(rel_path: str, lines: Sequence[str], front: FrontMatter) -> list[WikiLink]:
    """The wikilinks of the front matter's values (``up: "[[Projects]]"``): Obsidian draws a property's link like any
    other, and a note filed by an `up` or `related` property had no edge to where it was filed. A YAML comment line
    holds none."""
    found: list[WikiLink] = []
    for index in range(front.line_start, front.line_end - 1):  # between the fences
        line = lines[index]
        if "[[" in line and not line.lstrip().startswith(("#", "alias::")):  # (Logseq's other names: no links)
            for match in WIKILINK.finditer(line):
                target, section, alias = split_link_target(match.group(1))
                if target:
                    target = relative_target(target, rel_path)
                    found.append(WikiLink(target, section, alias, False, index + 1, _evidence(line)))
    return found


def _escaped(text: str, at: int) -> bool:
    """Whether the character at `at` follows an odd run of backslashes (an even one escapes only themselves)."""
    before = at
    while before and text[before - 1] == "\\":
        before -= 1
    return (at - before) % 2 == 1


def _links(rel_path: str, prose: str, where: _Lines, warnings: list[ParseWarning], front: FrontMatter | None
           ) -> tuple[list[WikiLink], list[MarkdownLink]]:
    """The wikilinks (the front matter's first) and Markdown links of a note's prose (code and comments blanked), in
    order; a malformed link's warning is added to `warnings`."""
    wikilinks: list[WikiLink] = _property_links(rel_path, where.lines, front) if front is not None else []
    if "[[" in prose:
        for match in WIKILINK.finditer(prose):
            if _escaped_link(match):
                continue  # ``\[[x]]``: the writer escaped the bracket so it shows as text, as it renders
            target, section, alias = split_link_target(match.group(1))
            if target:  # ``[[#Heading]]`` points inside this note: no edge to make
                target = relative_target(target, rel_path)
                line_no = where.line_of(match.start())
                embed = match.start() > 0 and prose[match.start() - 1] == "!"
                wikilinks.append(WikiLink(target, section, alias, embed, line_no, where.evidence(line_no),
                                          link_block(match.group(1))))

    markdown_links: list[MarkdownLink] = []
    # (``\[text](x.md)``: the bracket escaped, it renders as text, as an escaped wikilink does)
    written = [(m.start(), m.group(1), m.group(2)) for m in MD_LINK.finditer(prose) if not _escaped_link(m)
               ] if "](" in prose else []
    if "]:" in prose and (references := reference_links(prose)):
        written = sorted(written + references)
    for start, text, destination in written:
        line_no = where.line_of(start)
        found = _markdown_link(rel_path, text, destination, line_no, where.evidence(line_no))
        if isinstance(found, MarkdownLink):
            markdown_links.append(found)
        elif found is not None:
            warnings.append(found)
    return wikilinks, markdown_links


class NoteLinks(NamedTuple):
    rel_path: str  # as `parse_note` normalises it
    wikilinks: tuple[WikiLink, ...]
    markdown_links: tuple[MarkdownLink, ...]
    block_refs: tuple[BlockRef, ...] = ()  # (a Logseq note's: `parse_note`'s)


def parse_links(rel_path: str, text: str, logseq: LogseqGraph | None = None) -> NoteLinks:
    """The links `parse_note` finds in a note, and nothing else of it (a tenth of the work): what resolving an
    unchanged note's links again needs when another note took or gave up a name."""
    rel_path = _checked_path(rel_path, text)
    lines = _split_lines(text)
    front, body_start, _warnings = front_matter(lines, logseq)
    prose_lines, _fence_warning = code_blanked_lines(lines, body_start, logseq is None)
    coded = "\n".join(prose_lines)
    prose = blank_comments(coded)
    where = _Lines(lines, prose_lines)
    if prose is not coded:  # (evidence as `parse_note` cites it: without the comments)
        where.lines = reader_lines(lines, prose_lines, prose.split("\n"), body_start, blank_comments)
    if "<" in prose:
        prose = without_html_blocks(prose, prose_lines)[0]
    wikilinks, markdown_links = _links(rel_path, prose, where, [], front)
    refs = block_refs(prose, rel_path, logseq, {}, where.line_of, where.evidence) if logseq and "((" in prose else ()
    return NoteLinks(rel_path, tuple(wikilinks), tuple(markdown_links), tuple(refs))


def parse_note(rel_path: str, text: str, *, hints: Sequence[str] = DEFAULT_HINTS,
               logseq: LogseqGraph | None = None) -> ParsedNote:
    """Parse one note. `rel_path` is vault-relative: it names the note and anchors relative Markdown links.
    `logseq`: the settings of the Logseq graph the note is in (`core/vault/logseq.py`), None for plain Markdown."""
    rel_path = _checked_path(rel_path, text)
    hint_terms = tuple(hints)
    lines = _split_lines(text)
    front, body_start, warnings = front_matter(lines, logseq)
    prose_lines, fence_warning = code_blanked_lines(lines, body_start, logseq is None)
    if fence_warning:
        warnings.append(fence_warning)
    coded = "\n".join(prose_lines)
    prose = blank_comments(coded)
    if prose is not coded and (hidden := unclosed_comment(coded)) != -1:
        warnings.append(ParseWarning("unclosed_comment", "%% comment never closed; the rest is hidden",
                                     coded.count("\n", 0, hidden) + 1))
    where = _Lines(lines, prose_lines)
    code_lines = prose_lines
    written = seen = lines  # each line as written, but for its comments (blanked in place; left out)
    if prose is not coded:
        coded_lines, prose_lines = prose_lines, prose.split("\n")
        written = [visible_text(line, before, after) if before != after else line
                   for line, before, after in zip(lines[:len(prose_lines)], coded_lines, prose_lines)]
        where.lines = seen = reader_lines(lines, coded_lines, prose_lines, body_start, blank_comments)
    if "<" in prose:  # (after the comments are left out of what the note says: its HTML's text is said)
        prose, html_lines, html_warning = without_html_blocks(prose, code_lines)
        prose_lines = html_lines or prose_lines
        if html_warning:
            warnings.append(html_warning)
    padded = "\n" + prose
    blocks = note_blocks(lines, prose_lines, body_start) if logseq is not None and "::" in prose else None
    refs = block_refs(prose, rel_path, logseq, blocks.texts if blocks else {}, where.line_of, where.evidence
                      ) if logseq is not None and "((" in prose else []
    blocks = with_refs(blocks, refs, logseq) if refs and logseq is not None else blocks
    if blocks is not None and blocks.texts:
        seen = [blocks.shown(line) for line in seen]

    headings: list[Heading] = []
    if "#" in prose:
        for match in _HEADING.finditer(padded):
            line_no = where.line_of(match.start())  # padded offset of the "\n" == prose offset of the line
            original = ATX_HEADING.match(written[line_no - 1])  # heading text keeps its inline code
            heading_text = shown_heading(heading_text_of(original.group(2) if original else match.group(2)))
            if written[line_no - 1] is not lines[line_no - 1]:
                heading_text = _collapse(heading_text)  # (a comment left its width in spaces)
            if heading_text:
                headings.append(Heading(len(match.group(1)), heading_text, line_no, where.evidence(line_no)))
    setext_bodies: dict[int, int] = {}
    underlines = [where.line_of(match.start()) - 1 for match in _SETEXT_UNDERLINE.finditer(padded)]
    if underlines:
        setext = setext_headings(prose_lines, underlines)
        for first, underline, level in setext:
            setext_bodies[first] = underline + 1
            heading_text = shown_heading(" ".join(" ".join(written[i].split()) for i in range(first, underline)))
            headings.append(Heading(level, heading_text, first + 1, where.evidence(first + 1)))
        if setext:
            headings.sort(key=lambda heading: heading.line)

    wikilinks, markdown_links = _links(rel_path, prose, where, warnings, front)

    clean = blanked_links(prose)

    tags = [Tag(name, None, f"tags: {name}") for name in front.tags] if front else []
    if "#" in clean:
        found_tags: list[tuple[int, str]] = []
        if logseq is not None:
            if "[#" in clean:
                clean = PRIORITY.sub(_blank, clean)  # a block's priority, "[#A]", is no tag
            if "#[[" in prose:
                found_tags += [(m.start(), name) for m in BRACKET_TAG.finditer(prose)
                               if (name := normalise_tag(" ".join(m.group(1).split())))]
        found_tags += inline_tags(clean)
        for start, name in sorted(found_tags) if logseq is not None else found_tags:
            line_no = where.line_of(start)
            tags.append(Tag(name, line_no, where.evidence(line_no)))

    emails: list[EmailMention] = []
    if "@" in clean:
        for start, address in _emails(clean):
            line_no = where.line_of(start)
            emails.append(EmailMention(address, line_no, where.evidence(line_no)))

    dates: list[DateMention] = _front_matter_dates(lines, front) if front else []
    dates_by_line: dict[int, list[DateMention]] = {}  # (the body's: a list item's dates)
    for offset, matched, year, month, day in date_spans(clean):
        line_no = where.line_of(offset)
        mention = DateMention(matched, year, month, day, line_no, where.evidence(line_no))
        dates.append(mention)
        dates_by_line.setdefault(line_no, []).append(mention)

    tasks: list[TaskItem] = []
    list_items: list[ListItem] = []
    task_observations: list[Observation] = []
    item_observations: list[Observation] = []
    item_lines: set[int] = set()
    wrapped: dict[int, int] = {}  # (0-based, as `item_lines`: the paragraph's content column)
    for match in _LIST_ITEM.finditer(padded):
        line_no = where.line_of(match.start())
        raw = lines[line_no - 1]
        if _THEMATIC_BREAK.match(raw):
            continue
        if match.group(3) and int(match.group(3)) != 1 and (
                column := _paragraph_column(prose_lines, line_no - 1, item_lines, wrapped)) is not None \
                and item_column(prose_lines[line_no - 1])[0] >= column:
            wrapped[line_no - 1] = column
            continue
        item_lines.add(line_no - 1)
        # the text starts after the marker (and box) as written: in the prose an inline code span right after it is
        # blanked into the whitespace the pattern skips, and "- `npm ci` fails" lost its command
        after_marker = match.end(4) + 1 if match.group(4) is not None else match.end(2) if match.group(2) \
            else match.end(3) + 1
        column = where.column(after_marker - 1, line_no)  # (a padded offset is its prose offset + 1)
        text_ = _collapse(written[line_no - 1][column:])
        if blocks is not None:
            text_ = blocks.shown(text_)
        if "^" in text_:
            text_ = BLOCK_ID.sub("", text_)
        if not text_:
            continue
        evidence = where.evidence(line_no)
        line_dates = tuple(dates_by_line.get(line_no, ()))  # a list marker ("3.") is never a date
        status: str | None = None
        if logseq is not None and match.group(2) and match.group(4) is None and (task := task_of(text_)):
            status, closed, text_ = task
            if not text_:
                continue
            line_dates += planned_dates(lines, line_no, dates_by_line)
        if match.group(4) is not None or status is not None:
            done = closed if status is not None else match.group(4) in _CLOSED_TASK
            tasks.append(TaskItem(done, text_, line_no, evidence, status))
            kind, score = score_task(done)
            task_observations.append(Observation(kind, text_, score, "task", line_no, evidence, dates=line_dates,
                                                 status=status))
            continue
        marker: ListMarker = "bullet" if match.group(2) else "numbered"
        number = int(match.group(3)) if match.group(3) else None
        list_items.append(ListItem(marker, text_, line_no, evidence, number))
        if len(item_observations) > MAX_OBSERVATIONS_PER_NOTE:
            continue  # the cap would drop it anyway; scoring is the costly part of a bullet-heavy note
        # what is scored is the item's text with inline code blanked: the raw text, when there is no backtick
        scoring_text = text_ if "`" not in raw else BLOCK_ID.sub("", _collapse(match.group(5)))
        observation = _observation_for_item(marker, text_, scoring_text, line_no, evidence, line_dates, hint_terms)
        if observation is not None:
            item_observations.append(observation)

    observations = task_observations + item_observations  # Mneme: tasks first
    if len(observations) > MAX_OBSERVATIONS_PER_NOTE:
        warnings.append(
            ParseWarning(
                "observations_capped",
                f"more than {MAX_OBSERVATIONS_PER_NOTE} observations; kept the first {MAX_OBSERVATIONS_PER_NOTE}"
                " (tasks first)",
            )
        )
        observations = observations[:MAX_OBSERVATIONS_PER_NOTE]

    payloads: list[EmbeddedPayload] = []
    if "mneme-research-resolution" in coded:
        for match in _PAYLOAD.finditer(coded):  # (in an HTML comment: `coded` has comments as written)
            line_no = where.line_of(match.start())
            try:
                decoded = _decode_payload(match.group(1))
            except (binascii.Error, ValueError, UnicodeDecodeError, RecursionError):
                decoded = None
            if isinstance(decoded, dict):
                payloads.append(EmbeddedPayload(decoded, line_no))
            else:
                warnings.append(ParseWarning("payload_invalid", "research-resolution comment is not base64 JSON", line_no))

    title, headings = _title(rel_path, front, headings)
    journal_day = None
    if logseq is not None:  # (a page is named by its file, or its title:: property; a heading names nothing)
        name, journal = page_name(rel_path, logseq)
        title = front.title if front is not None and front.title else name
        journal_day = journal.isoformat() if journal is not None else None
    return ParsedNote(
        rel_path=rel_path,
        title=title,
        note_type=_note_type(rel_path, front),
        line_count=len(lines),
        front_matter=front,
        headings=tuple(headings),
        sections=tuple(_sections(without_block_ids(seen, prose_lines) if "^" in prose else seen, body_start,
                                 headings, setext_bodies, blocks.hidden if blocks is not None else frozenset())),
        wikilinks=tuple(wikilinks),
        markdown_links=tuple(markdown_links),
        tags=tuple(tags),
        tasks=tuple(tasks),
        list_items=tuple(list_items),
        dates=tuple(dates),
        emails=tuple(emails),
        observations=tuple(observations),
        payloads=tuple(payloads),
        warnings=tuple(warnings),
        day=journal_day,
        block_refs=tuple(refs),
    )
