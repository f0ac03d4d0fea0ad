"""What a note of a Logseq graph says that CommonMark does not: a graph is a folder with ``logseq/config.edn`` at its
top, `pages/` and `journals/` of outlines, every line a bullet.

- Page properties are the ``key:: value`` lines a page starts with (no ``---`` fence): ``title::`` names the page,
  ``alias::`` gives it other names a link may use, ``tags::`` and ``type::`` file it, as front matter does.
- A page is named by its file: ``___`` stands for ``/`` (a namespace, ``Projects___Falcon.md`` is "Projects/Falcon")
  and ``%2F``-style escapes for the characters a file name cannot hold; a journal's file name is its day
  (``journals/2026_03_04.md``), and the page is titled as the graph's settings write a day ("Mar 4th, 2026"), the
  name its ``[[links]]`` use.
- A block starting with a marker (``TODO``, ``DOING``, ``LATER``, ``NOW``, ``WAITING`` …, ``DONE``, ``CANCELED``) is
  a task, open or closed; ``[#A]`` is its priority, not a tag; ``#[[two words]]`` is a tag.

Read elsewhere: a note of a folder without the file is plain Markdown, where "- TODO call Bram" stays a bullet and
``alias:: x`` a line of text (Dataview's inline fields look the same in Obsidian).
"""
from __future__ import annotations

import datetime as _dt
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence
from urllib.parse import unquote

from mnemon.core.vault.code import code_blanked_lines
from mnemon.core.vault.comments import blank_comments
from mnemon.core.vault.frontmatter import split_front_matter
from mnemon.core.vault.model import BlockRef, DateMention, FrontMatter, ParseWarning


@dataclass(frozen=True, slots=True)
class LogseqGraph:
    """A graph's settings a note's reading depends on (config.edn's, else Logseq's defaults)."""

    journals: str = "journals"  # :journals-directory
    title_format: str = "MMM do, yyyy"  # :journal/page-title-format (date-fns tokens)
    file_format: str = "yyyy_MM_dd"  # :journal/file-name-format
    # the graph's blocks a ``((uuid))`` may name: uuid → (path of the page whose ``id::`` it is, the block's text);
    # not a setting (no part of `key`): the ingest re-plans a note when a block it names changes
    blocks: Mapping[str, tuple[str, str]] = field(default_factory=dict, compare=False)

    @property
    def key(self) -> str:
        """What a note's rows depend on, for the plan key: another setting re-plans every note."""
        return f"logseq:{self.journals}|{self.title_format}|{self.file_format}"


_EDN_STRING = r'[ \t]+"([^"\n]*)"'
_SETTINGS = {name: re.compile(rf"^[ \t{{]*:{re.escape(key)}{_EDN_STRING}", re.MULTILINE)
             for name, key in (("journals", "journals-directory"), ("title_format", "journal/page-title-format"),
                               ("file_format", "journal/file-name-format"))}


def graph_settings(edn: str) -> LogseqGraph:
    """The settings config.edn's text gives (a line commented out with ';' gives none; a missing one: the default)."""
    found: dict[str, Any] = {}
    for name, pattern in _SETTINGS.items():
        match = pattern.search(edn)
        if match and match.group(1).strip():
            value = match.group(1).strip()
            found[name] = value.strip("/") if name == "journals" else value
    return LogseqGraph(**found)


# date-fns tokens Logseq's settings use; a quoted run is literal text
_TOKENS = re.compile(r"'[^']*'|yyyy|yy|MMMM|MMM|MM|M|do|dd|d|EEEE|EEE|EE|E|[^'yMdE]+|.")
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")
_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def _ordinal(day: int) -> str:
    suffix = "th" if 10 <= day % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
    return f"{day}{suffix}"


def format_day(day: _dt.date, pattern: str) -> str:
    """`day` as a date-fns `pattern` writes it ("MMM do, yyyy": "Mar 4th, 2026")."""
    parts = {"yyyy": f"{day.year:04d}", "yy": f"{day.year % 100:02d}", "MMMM": _MONTHS[day.month - 1],
             "MMM": _MONTHS[day.month - 1][:3], "MM": f"{day.month:02d}", "M": str(day.month), "do": _ordinal(day.day),
             "dd": f"{day.day:02d}", "d": str(day.day), "EEEE": _WEEKDAYS[day.weekday()],
             "EEE": _WEEKDAYS[day.weekday()][:3], "EE": _WEEKDAYS[day.weekday()][:3], "E": _WEEKDAYS[day.weekday()][:3]}
    return "".join(parts.get(token, token[1:-1] if token.startswith("'") else token)
                   for token in _TOKENS.findall(pattern))


_NUMERIC = {"yyyy": r"(?P<y>\d{4})", "MM": r"(?P<m>\d{2})", "M": r"(?P<m>\d{1,2})", "dd": r"(?P<d>\d{2})",
            "d": r"(?P<d>\d{1,2})"}


def _file_pattern(pattern: str) -> re.Pattern[str] | None:
    tokens = _TOKENS.findall(pattern)
    regex = "".join(_NUMERIC.get(token, re.escape(token[1:-1] if token.startswith("'") else token))
                    for token in tokens)
    try:
        compiled = re.compile(regex)
    except re.error:  # (a token twice)
        return None
    return compiled if {"y", "m", "d"} <= set(compiled.groupindex) else None


def journal_day(rel_path: str, graph: LogseqGraph) -> _dt.date | None:
    """The day a journal page is, from its file name in the journals folder; None for any other note."""
    folder, _, name = rel_path.rpartition("/")
    if folder != graph.journals or not name.lower().endswith(".md"):
        return None
    pattern = _file_pattern(graph.file_format) or _file_pattern("yyyy_MM_dd")
    match = pattern.fullmatch(name[:-3]) if pattern else None
    if match is None:
        return None
    try:
        return _dt.date(int(match.group("y")), int(match.group("m")), int(match.group("d")))
    except ValueError:
        return None


_ESCAPE = re.compile(r"%[0-9A-Fa-f]{2}")


def page_name(rel_path: str, graph: LogseqGraph) -> tuple[str, _dt.date | None]:
    """(the page's name from its file, the day of a journal page or None)."""
    day = journal_day(rel_path, graph)
    if day is not None:
        return format_day(day, graph.title_format), day
    stem = rel_path.rpartition("/")[2]
    stem = stem[:-3] if stem.lower().endswith(".md") else stem
    if _ESCAPE.search(stem):
        stem = unquote(stem)
    return stem.replace("___", "/"), None


# a property line: Logseq's keys are words with '-' and '_' (``collapsed:: true``, ``created-at:: …``)
PROPERTY = re.compile(r"([A-Za-z0-9][\w-]*)::(?:[ \t]+(.*?))?[ \t]*")
_REF = re.compile(r"\[\[([^\[\]\n]+)\]\]")
# shown by Logseq as nothing or as the page's look, not as a property it says
_HIDDEN = frozenset({"id", "collapsed", "filters", "icon", "public", "exclude-from-graph-view", "heading",
                     "background-color", "template-including-parent"})
_LISTED = frozenset({"alias", "tags"})  # (comma-separated page names)


_NAME = re.compile(r"[ \t#]*(?:\[\[([^\[\]\n]+)\]\][ \t]*(?=,|$)|([^,]+))")


def _names(value: str) -> list[str]:
    """A listed property's page names in order: a ``[[ref]]`` whole (a comma inside one is its name's), the rest
    split at commas, a '#' before one dropped."""
    names = [(ref or plain).strip().lstrip("#").strip() for ref, plain in _NAME.findall(value)]
    return list(dict.fromkeys(name for name in names if name))


def _single(value: str) -> str:
    ref = _REF.fullmatch(value.strip())
    return (ref.group(1) if ref else value).strip()


_BULLET = re.compile(r"[-*+][ \t]+")


def _first_block(lines: Sequence[str]) -> list[str]:
    """The property lines of a first block that holds nothing else (``- alias:: x`` then ``  type:: y``): the page's
    properties as Logseq writes them when they are typed into the page; [] when the first block is no such block."""
    bullet = _BULLET.match(lines[0]) if lines else None
    if bullet is None or not PROPERTY.fullmatch(lines[0][bullet.end():]):
        return []
    block = [lines[0][bullet.end():]]
    while len(block) < len(lines) and lines[len(block)][:1] in (" ", "\t") and lines[len(block)].strip():
        line = lines[len(block)].lstrip(" \t")
        if not PROPERTY.fullmatch(line):
            return []  # (a line of text, or a child block: a block of the page's)
        block.append(line)
    return block


def page_properties(lines: Sequence[str]) -> tuple[FrontMatter | None, int]:
    """(the page's properties as front matter, the index of the first line after them) when the note starts with
    ``key:: value`` lines, or with a first block of them; (None, 0) when it does not."""
    lines = _first_block(lines) or lines
    raw: dict[str, Any] = {}
    said: list[int] = []
    index = 0
    while index < len(lines) and (found := PROPERTY.fullmatch(lines[index])):
        key, value = found.group(1).lower(), (found.group(2) or "").strip()
        index += 1
        if key in _HIDDEN or key in raw or not value:
            continue
        raw[key] = _names(value) if key in _LISTED else value
        if key not in ("title", "alias", "tags"):
            said.append(index)
    if not index:
        return None, 0
    title = _single(raw["title"]) if isinstance(raw.get("title"), str) else None
    note_type = _single(raw["type"]).lower() if isinstance(raw.get("type"), str) else None
    front = FrontMatter(raw=raw, title=title or None, aliases=tuple(raw.get("alias", ())),
                        tags=tuple(dict.fromkeys(name.casefold() for name in raw.get("tags", ()))),
                        note_type=note_type or None, line_start=0, line_end=index + 1,
                        properties_line=said[0] if said else 1, property_lines=tuple(said))
    return front, index


MARKERS = {"TODO": False, "DOING": False, "LATER": False, "NOW": False, "WAITING": False, "WAIT": False,
           "STARTED": False, "IN-PROGRESS": False, "DONE": True, "CANCELED": True, "CANCELLED": True}
_TASK = re.compile(r"(" + "|".join(sorted(MARKERS, key=len, reverse=True)) + r")(?:[ \t]+|$)")
PRIORITY = re.compile(r"\[#[A-Ca-c]\]")


def task_of(text: str) -> tuple[str, bool, str] | None:
    """(status, closed, text without marker and priority) of a block's text starting with a task marker, else None."""
    found = _TASK.match(text)
    if found is None:
        return None
    rest = text[found.end():]
    priority = PRIORITY.match(rest)
    if priority:
        rest = rest[priority.end():].lstrip(" \t")
    return found.group(1).lower(), MARKERS[found.group(1)], rest


# ``#[[Vendor Management]]``: a tag of two words (and a link, read as any ``[[…]]``)
BRACKET_TAG = re.compile(r"#\[\[([^\[\]\n]+)\]\]")
# a task's planned day on the line below it: ``SCHEDULED: <2026-03-10 Tue>``
PLANNED = re.compile(r"[ \t]*(?:SCHEDULED|DEADLINE):[ \t]*<")


def front_matter(lines: Sequence[str], logseq: LogseqGraph | None
                 ) -> tuple[FrontMatter | None, int, list[ParseWarning]]:
    """The note's front matter: a YAML block, or a Logseq page's leading ``key:: value`` lines."""
    front, body_start, warnings = split_front_matter(lines)
    if logseq is not None and front is None and not body_start:
        front, body_start = page_properties(lines)
    return front, body_start, warnings


def planned_dates(lines: Sequence[str], line_no: int, dates_by_line: Mapping[int, list[DateMention]]
                  ) -> tuple[DateMention, ...]:
    """The days of a Logseq task's ``SCHEDULED: <…>`` and ``DEADLINE: <…>`` lines, right below it (among the block's
    properties): when the task is due, as a day on its own line is."""
    found: list[DateMention] = []
    below = line_no  # (the 0-based index of the line below)
    while below < len(lines) and below - line_no < 4:
        line = lines[below]
        if PLANNED.match(line):
            found += dates_by_line.get(below + 1, ())
        elif not PROPERTY.fullmatch(line.strip()):
            break
        below += 1
    return tuple(found)


# a reference to a block by the uuid of its ``id::`` property: Logseq shows the block's text there
BLOCK_REF = re.compile(r"\(\(([0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12})\)\)")


@dataclass(frozen=True, slots=True)
class NoteBlocks:
    """What a note's blocks carry that Logseq does not show as text: the lines of their hidden properties
    (``id:: …``, ``collapsed:: true``: 0-based), and the text of each block an ``id::`` names."""

    hidden: frozenset[int]
    texts: Mapping[str, str]

    def shown(self, text: str) -> str:
        """`text` with each reference to a block of the note (or of another page, `with_refs`) replaced by that
        block's text, as Logseq shows it (a reference no page holds stays as written)."""
        if "((" not in text:
            return text
        return BLOCK_REF.sub(lambda ref: self.texts.get(ref.group(1).lower(), ref.group(0)), text)


def note_blocks(lines: Sequence[str], prose_lines: Sequence[str], body_start: int) -> NoteBlocks:
    """The hidden property lines of the note's blocks (not in code) and the text of the blocks an ``id::`` names:
    the nearest bullet line above it, less its marker."""
    hidden: set[int] = set()
    texts: dict[str, str] = {}
    block_line: int | None = None
    for index in range(body_start, min(len(lines), len(prose_lines))):
        line = prose_lines[index].strip()
        if _BULLET.match(line):
            block_line = index
            continue
        found = PROPERTY.fullmatch(line)
        if found is None or found.group(1).lower() not in _HIDDEN:
            continue
        hidden.add(index)
        value = (found.group(2) or "").strip().lower()
        if found.group(1).lower() == "id" and block_line is not None and value not in texts:
            texts[value] = " ".join(_BULLET.sub("", lines[block_line].strip(), count=1).split())
    return NoteBlocks(frozenset(hidden), texts)


def with_refs(blocks: NoteBlocks | None, refs: Sequence[BlockRef], graph: LogseqGraph) -> NoteBlocks | None:
    """`blocks` showing too the text of each block of another page `refs` name (the note's own block first)."""
    outside = {ref.block: graph.blocks[ref.block][1] for ref in refs if ref.target is not None}
    if not outside:
        return blocks
    return NoteBlocks(blocks.hidden if blocks else frozenset(), {**outside, **(blocks.texts if blocks else {})})


def block_refs(prose: str, rel_path: str, graph: LogseqGraph, own: Mapping[str, str],
               line_of: Callable[[int], int], evidence: Callable[[int], str]) -> list[BlockRef]:
    """Each ``((uuid))`` of the note's `prose` (code blanked) to a block not of its own (`own`, and the graph's
    blocks held by `rel_path`): to the page holding it, or to none (`target` None)."""
    found: list[BlockRef] = []
    for ref in BLOCK_REF.finditer(prose):
        uuid = ref.group(1).lower()
        held = graph.blocks.get(uuid)
        if uuid not in own and (held is None or held[0] != rel_path):
            line = line_of(ref.start())
            found.append(BlockRef(uuid, held[0] if held else None, line, evidence(line)))
    return found


def page_blocks(text: str, graph: LogseqGraph) -> dict[str, str]:
    """uuid → text of each block of a page an ``id::`` names (`note_blocks`), from its text alone: what a
    ``((reference))`` in another page reads as."""
    lines = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    _front, body_start, _warnings = front_matter(lines, graph)
    prose_lines = code_blanked_lines(lines, body_start, False)[0]
    return dict(note_blocks(lines, blank_comments("\n".join(prose_lines)).split("\n"), body_start).texts)
