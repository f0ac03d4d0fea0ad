"""One note → the rows ingestion will write: a `NotePlan` of plain tuples, cheap to pickle back from a worker process.

Reading, parsing, scoring, tokenising for FTS and gating every edge happen here, so a cold ingest can spread them over
the cores; only link *resolution* waits for the main process, because it needs every note's title and aliases.

Ids follow the shared vault contract: `note:<path>`, `heading:<path>#<slug>`, `date:YYYY-MM-DD`, `email:<address>`,
`tag:<name>`, and memories `vault:<path>:<observation|section|task>:<sha1 of normalised text>[:16]`.
"""
from __future__ import annotations

import codecs
import dataclasses
import hashlib
import json
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from functools import lru_cache
from json.encoder import encode_basestring
from typing import Any, NamedTuple

from ...core.model import content_hash, iso
from ...core.ontology import observation_relation
from ...core.keywords import PROPERTIES_KEY, SKIP_KEY, keyword_text, vault_keyword_text
from ...core.text import token_text
from ...core.vault import gate_edge, parse_links, parse_note, placeholder_key
from ...core.vault.links import display_links
from ...core.vault.logseq import LogseqGraph
from ...core.vault.frontmatter import property_text
from ...core.vault.model import NUL_STAND_IN, BlockRef, Heading, MarkdownLink, ParsedNote, Section, WikiLink
from ...core.vault.proactive import static_score, stemmed_hints
from ...core.world.senses import note_sense_text
from ...core.world.values import KEY_MAX_BYTES
from ...ports.store.contained_sqlite import LEVEL_LINE, LINE  # the metadata shapes the store reads back
from ..bulk_gc import paused_gc

# Bump when parsing or planning changes what a note produces: every note is then re-planned on the next ingest.
# 14: a section's text and an edge's evidence leave out the note's comments (%% … %%, <!-- … -->); the properties
# section cites its first said property's line, and each one's line when they are apart; a Markdown link titled
# '…' or (…) links
# 13: a Markdown link neither ./, ../ nor / is looked up as a wikilink is, one without ".md" links too; a
# [[../relative]] wikilink is read from its note's folder; nothing in math is parsed; Office files are attachments;
# a section, task or observation repeating another's text under another heading is an item of its own; the
# properties section cites its first property's line
# 12: a note's front-matter properties (but its title, aliases and tags) are a section memory of their own; a
# heading's wikilinks show as their names in titles, heading paths and heading nodes; a section says its
# `body_line`
# 11: nothing in an HTML or %% comment is parsed; setext headings; a property's [[link]] links; an item keeps
# a leading inline code span and drops a trailing ^block-id
# 10: a front-matter date is a mentions_date edge; `[[Note^block]]` links to Note, not to a placeholder
# 9: a file stem outranks a title in link resolution (every link resolved again); `- [-]` is a closed task
# 16: a link names the block it points at (metadata `block`); a section's text leaves out the ^ids ending its lines
# 15: a %% comment never closed hides the rest of the note, as in Obsidian
# 17: a link edge says every block and heading the note's links to its target name (`blocks`, `sections`)
# 18: and every alias they show it under (`aliases`)
# 19: a bullet's stored `dates` are its date edges' days, none from a link, URL or code span in it
# 20: an indented code block (four spaces after a blank line, outside a list) is code: nothing in it is parsed
# 21: a reference-style Markdown link ([text][label] with a `[label]: note.md` definition) is a link
# 22: an escaped wikilink (``\[[x]]``) is text, not a link
# 23: a Markdown link in the heading a title is taken from reads as its text
# 24: a Markdown link to a mailto: address names that address (a mentions_email edge), as <mailto:…> does
# 25: a URL without a scheme (www.…, or an address after a '/') holds no email, date or tag, as https://… does
# 26: an indented code block right under a heading (no blank line between) is code
# 27: a heading reads as rendered: a Markdown link as its text, an escaped character as itself (heading nodes, their
# ids and section paths)
# 28: a raw HTML block (a block-level tag up to a blank line, <pre> up to </pre>, a lone tag) is HTML: nothing in it
# is parsed
# 29: an escaped Markdown link (``\[text](note.md)``) is text, not a link
# 30: an HTML block inside a block quote or a list item (``> <div>``, ``- <div>``) is HTML, as at the margin
# 31: an escaped link's destination (``\[x](2026-03-04.md)``) and an escaped wikilink's name are text: their days
# and addresses are mentions
# 32: a note's properties section says so (`properties` in its metadata): recall ranks it by the properties asked
# 33: an HTML block in a list item indented four spaces or more (``- item`` over ``    <div>``) is HTML
# 34: dates with slashes or dots (2024/03/05, 05.03.2024, a slashed day-first one only when unambiguous) and "the 5th
# of March 2024" are mentions
# 35: a '---' block at the top that YAML reads as a list or as text is the note's text, not front matter
# 36: a list marker inside an HTML block is its text, a lone tag right below a block opens one, and a block indented
# into a list item ends where the item does
# 37: a stretch of a note holding only thematic breaks ('---' over '# Title') is no section
# 38: a line numbered past 1 right below a paragraph's line ("We shipped in" over "2024. Then …") is its text
# 39: a Logseq graph's notes read as Logseq writes them: page properties (title::, alias::, tags::, type::), tasks by
# marker with their status (and their SCHEDULED/DEADLINE days), a journal's day and title, namespaced page names,
# #[[tags]], a priority that is no tag
# 40: a fence opening a list item's text ("- ```python", Logseq's every code block) is code
# 41: an indented line of a Logseq graph's note is a nested block, never indented code
# 42: a Logseq page's properties written as its first block (``- alias:: x``) are the page's
# 43: a Logseq block's hidden properties (id::, collapsed::) are no text; a ((reference)) to a block of the note
# reads as the block
# 44: in a plain vault, a line four columns past a list item's content after a blank line is code in that item
# 45: a line numbered past 1 inside a list item's paragraph ("- item", "  text", "  2. x") is its text
# 46: an underline under a list item's paragraph but not indented into the item ("- a", "", "  b", "===") is text
# 47: a line indented four columns after a blank line under a paragraph no list item holds is code
# 48: an indented line under a '===' that underlines no heading goes on the paragraph, no code block
# 49: a '===' right under a heading's underline or a code block underlines nothing: an indented line below is text
# 50: words keep their marks (Hindi, "İ"), Thai/Lao/Khmer/Burmese runs are pairs: proactive words change (keywords/7)
# 51: a tag (#café) and a heading's id (heading:<path>#café) keep a letter's combining marks and are composed (NFC),
# one in either Unicode form: decomposed (macOS), "#café" was the tag "cafe" and "## Café" the id of a "## Cafe"
# 52: a Logseq ((uuid)) to a block of another page reads as the block's text and links to that page (`block_ref`)
# 53: an emoji is a token (keywords/9): a bullet's proactive words gain its emoji
PLAN_VERSION = "53"  # (8: a NUL in a note is stored as U+FFFD; 7: vault texts packed per note)
_SLUG = re.compile(r"[^\w]+", re.UNICODE)

# Confidence of parsed edges (Mneme's values): a link names its target exactly, a heading or date is looser.
LINK_CONFIDENCE = 0.9
HEADING_CONFIDENCE = 0.7
SECTION_CONFIDENCE = 0.7
DATE_CONFIDENCE = 0.75
EMAIL_CONFIDENCE = 0.9
TAG_CONFIDENCE = 0.9


# Planned rows are named tuples of plain values with their JSON already encoded: workers build them, and pickling
# them back to the writer (tens of MB for a large vault) costs a tenth of what frozen dataclasses and dicts did.
_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
# (given a str, that is `encode_basestring(value)`, which single strings call directly)


class PlannedNode(NamedTuple):
    id: str
    kind: str  # memory | heading | date | email | tag
    title: str
    content: str
    category: str
    importance: int
    metadata: str  # JSON
    fts: str = ""
    content_hash: str = ""  # of `content`; empty for rows without content
    memory_kind: str = ""  # section | observation | task for memories
    proactive: float | None = None  # a bullet's static proactive score (core/vault/proactive.py)
    # its note's edge to it when a store may read that edge back from this row instead of storing it (`contained`):
    # then not among the plan's `edges`
    contained: PlannedEdge | None = None


class PlannedEdge(NamedTuple):
    src: str
    dst: str  # a node id; for links, "" until resolved
    relation: str
    confidence: float
    evidence: str
    rule: str
    status: str
    reasons: tuple[str, ...]
    metadata: str  # JSON
    link_key: str = ""  # links only: the key the resolver looks up


@dataclass(frozen=True, slots=True)
class NotePlan:
    path: str
    content_hash: str
    size: int
    mtime: float
    title: str
    aliases: tuple[str, ...]
    note_type: str
    tags: tuple[str, ...]
    nodes: tuple[PlannedNode, ...]
    edges: tuple[PlannedEdge, ...]
    payloads: tuple[dict[str, Any], ...] = ()
    # the note's `md` sense event (app/world/sense.py), parsed here so the writer only stores it: its id hashes
    # what the note observes (`note_sense_text`), its row leaves that text out; None without the world model
    sense_event: Any = None
    warnings: tuple[dict[str, Any], ...] = field(default=())
    # every link's lookup key, including the links no edge holds (a second spelling of the same target, a link to
    # the note itself): when another note claims or gives up one of these names, this note is planned again
    link_keys: tuple[str, ...] = ()

    @property
    def note_id(self) -> str:
        return note_id(self.path)

    @property
    def observation_count(self) -> int:
        return sum(1 for n in self.nodes if n.memory_kind in ("observation", "task"))


def note_id(path: str) -> str:
    return f"note:{path}"


def block_ref_key(block: str) -> str:
    """The `link_keys` entry of a note's ``((uuid))``: the note is planned again when that block changes."""
    return f"(({block}))"


# Every ASCII whitespace character (what str.split() splits on) → a space
_ASCII_SPACES = bytes(0x20 if chr(c).isspace() else c for c in range(128)) + bytes(range(128, 256))


def normalised_text(text: str) -> str:
    """Whitespace runs as one space, no space at either end, case-folded."""
    if text.isascii():  # without a word object per word: a section body holds hundreds
        flat = text.encode("ascii").translate(_ASCII_SPACES).decode("ascii")
        while "  " in flat:
            flat = flat.replace("  ", " ")
        return flat.strip(" ").lower()  # (casefold is lower in ASCII)
    return " ".join(text.split()).casefold()


def memory_id(path: str, kind: str, text: str) -> str:
    digest = hashlib.sha1(normalised_text(text).encode("utf-8")).hexdigest()[:16]
    return f"vault:{path}:{kind}:{digest}"


def heading_slug(text: str) -> str:
    """The part of a heading's node id after its path: words joined by '-', case-folded. A letter keeps its marks,
    composed (NFC): the accent macOS writes apart from its "e", or a Hindi vowel sign, is no word character to `re`,
    and cut off it made "## Café" typed there another node than the composed one and the node of a "## Cafe"."""
    if text.isascii():
        return _SLUG.sub("-", text.casefold()).strip("-") or "section"
    kept: list[str] = []
    for ch in unicodedata.normalize("NFC", text.casefold()):
        if ch.isalnum() or ch == "_" or unicodedata.category(ch)[0] == "M":
            kept.append(ch)
        elif kept and kept[-1] != "-":
            kept.append("-")
    return "".join(kept).strip("-") or "section"


def importance_of(score: float) -> int:
    """Observation score (Mneme's scale: 1.5 done … 9+ correction) → importance 1–5."""
    return max(1, min(5, int(round(score / 2.0)) + 1))


# A vault links the same few names from many notes: each target's lookup key is worked out once per process.
_link_key = lru_cache(maxsize=65_536)(placeholder_key)


@lru_cache(maxsize=64)
def ingest_gate(relation: str) -> tuple[str, tuple[str, ...]]:
    # The ingest decision depends on the relation only (ingest cannot validate); evidence is always present.
    decision = gate_edge(relation, 0.5, "parsed line", False, "ingest")
    return decision.status, decision.reasons


# Planned rows are built with `tuple.__new__`, as their named-tuple constructors do after a Python-level call of
# their own: a note plans some 70 rows, and that call was a tenth of building one. Every field is given, defaults
# too (tests/app/test_vault_plan.py checks the arity).
_new_row = tuple.__new__
# round(confidence, 6) of the few confidences edges have: rounding to digits costs more than building the edge
_ROUNDED: dict[float, float] = {}


def _edge(src: str, dst: str, relation: str, confidence: float, evidence: str, rule: str, line: int | None,
          **meta: Any) -> PlannedEdge:
    # the metadata JSON is assembled from its scalar values: the generic encoder per edge was a tenth of planning
    if not meta:  # most edges (sections, bullets, dates' notes, emails, tags) carry their line only
        return _gated_row(src, dst, relation, confidence, evidence, rule,
                          "{}" if line is None else f'{{"line":{line}}}', "")
    parts = [f'"{k}":{encode_basestring(v) if isinstance(v, str) else _COMPACT(v) if isinstance(v, list) else int(v)}'
             for k, v in meta.items() if v not in (None, "")]
    if line is not None:
        parts.append(f'"line":{line}')
    return _gated_row(src, dst, relation, confidence, evidence, rule, "{" + ",".join(parts) + "}",
                      meta.get("key") or "")


def date_edge(src: str, dst: str, evidence: str, rule: str, line: int | None, text: str) -> PlannedEdge:
    """`_edge(src, dst, "mentions_date", DATE_CONFIDENCE, …, text=text)` (some 10 a note), its metadata encoded here
    without `_edge`'s walk of its keywords."""
    encoded = (f'{{"text":{encode_basestring(text)}' if text else "{") + (
        "}" if line is None else f'{"," if text else ""}"line":{line}}}')
    return _gated_row(src, dst, "mentions_date", DATE_CONFIDENCE, evidence, rule, encoded, "")


def heading_edge(nid: str, hid: str, heading: Heading) -> PlannedEdge:
    """`_edge(nid, hid, "has_heading", …, level=heading.level)`, its metadata encoded here."""
    return _gated_row(nid, hid, "has_heading", HEADING_CONFIDENCE, heading.evidence, "heading",
                      f'{{"level":{int(heading.level)},"line":{heading.line}}}', "")


def _gated_row(src: str, dst: str, relation: str, confidence: float, evidence: str, rule: str, metadata: str,
               link_key: str) -> PlannedEdge:
    status, reasons = ingest_gate(relation)
    rounded = _ROUNDED.get(confidence)
    if rounded is None:
        rounded = round(confidence, 6)
        if confidence > 0 and len(_ROUNDED) < 4096:  # (not 0.0: it is the same key as -0.0, which rounds to -0.0)
            _ROUNDED[confidence] = rounded
    return _new_row(PlannedEdge, (src, dst, relation, rounded, evidence, rule, status, reasons, metadata, link_key))


_ITEM_PREFIX = {kind: f'{{"memory_kind":"{kind}","line":' for kind in ("section", "observation", "task")}


def _json_int(text: str) -> bool:
    """A JSON integer as SQLite's json_extract reads it back and SQL spells it again: ASCII digits, no leading 0."""
    return text.isascii() and text.isdigit() and (text == "0" or text[0] != "0")


def readback_shape(edge: PlannedEdge, kind: str, memory_kind: str, metadata: str) -> str | None:
    """The metadata shape (`LINE`, or `LEVEL_LINE` for a heading) under which a store that derives a note's edge to
    its own item (ports/store/contained_sqlite.py) reads `edge` back exactly from the item (`kind`, `memory_kind`,
    its `metadata` JSON); None when it would not. Checked on the planned texts, so exactness never depends on the
    parser staying as it is."""
    meta = edge.metadata
    if edge.link_key or not meta.endswith("}"):
        return None
    if kind == "heading":
        level, sep, line = meta[len('{"level":'):-1].partition(',"line":')
        if (meta.startswith('{"level":') and sep and _json_int(level) and _json_int(line)
                and metadata == f'{{"line":{line},"level":{level}}}'):
            return LEVEL_LINE
        return None
    prefix = _ITEM_PREFIX.get(memory_kind)
    if kind != "memory" or prefix is None or not meta.startswith('{"line":'):
        return None
    line = meta[len('{"line":'):-1]
    return LINE if _json_int(line) and metadata.startswith(prefix + line + ",") else None


def _legacy_bytes(error: UnicodeError) -> tuple[str, int]:
    """A decoding error handler: the bytes that are not UTF-8 read as Windows-1252, the text around them as UTF-8."""
    assert isinstance(error, UnicodeDecodeError)
    return error.object[error.start:error.end].decode("cp1252", errors="replace"), error.end


codecs.register_error("mnemon-cp1252", _legacy_bytes)


def decoded_note(data: bytes) -> tuple[str, tuple[dict[str, Any], ...]]:
    """(text, warnings on how it was read): UTF-8; UTF-16 after its byte order mark (what Windows PowerShell's `>`
    writes); else each byte that is not UTF-8 read as Windows-1252 (an older editor's encoding, a superset of
    Latin-1's printable range, which reads "Café" as written where replacement characters made its words
    unfindable) and the rest as UTF-8 (a line pasted from an old file garbled every accent of a UTF-8 note when the
    whole note was read as Windows-1252). A NUL reads as U+FFFD (`NUL_STAND_IN`)."""
    warnings: list[dict[str, Any]] = []
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        if data.startswith((b"\xff\xfe", b"\xfe\xff")) and len(data) % 2 == 0:
            text = data.decode("utf-16", errors="replace")
            warnings.append({"code": "utf16", "line": None, "message": "read as UTF-16 (its byte order mark); the"
                             " note editor edits UTF-8 notes only"})
        else:
            text = data.decode("utf-8", errors="mnemon-cp1252")
            warnings.append({"code": "not_utf8", "line": data[:error.start].count(b"\n") + 1, "message":
                             "not valid UTF-8: its bytes that are not UTF-8 were read as Windows-1252, the rest as"
                             " UTF-8; the note editor edits UTF-8 notes only"})
    if "\x00" in text:
        warnings.append({"code": "nul_replaced", "line": text[:text.index("\x00")].count("\n") + 1,
                         "message": f"{text.count(chr(0))} NUL character(s) stored as U+FFFD (a database text"
                         " cannot hold NUL)"})
        text = text.replace("\x00", NUL_STAND_IN)
    return text, tuple(warnings)


_LinkToPlan = tuple[str, WikiLink | MarkdownLink | BlockRef, str, str | None]  # (relation, link, rule, alias)


def _link_edges(nid: str, wikilinks: Sequence[WikiLink], markdown_links: Sequence[MarkdownLink],
                block_refs: Sequence[BlockRef] = ()) -> list[PlannedEdge]:
    """Each link's edge, in the note's order (an attachment has none), then a Logseq note's to the pages holding
    the blocks it references: its destination waits for every note's name, looked up by its `link_key`."""
    links = links_to_plan(wikilinks, markdown_links, block_refs)
    if not any(link.block or link.section or alias for _relation, link, _rule, alias in links):
        return plain_link_edges(nid, links)
    return named_link_edges(nid, links)


def links_to_plan(wikilinks: Sequence[WikiLink], markdown_links: Sequence[MarkdownLink],
                  block_refs: Sequence[BlockRef] = ()) -> list[_LinkToPlan]:
    links: list[_LinkToPlan] = [("embeds" if link.is_embed else "links_to", link, "wikilink", link.alias)
                                for link in wikilinks if not link.is_attachment]
    links += [("links_to", mlink, "markdown_link", None) for mlink in markdown_links]
    links += [("links_to", ref, "block_ref", None) for ref in block_refs if ref.target is not None]
    return links


def plain_link_edges(nid: str, links: Sequence[_LinkToPlan]) -> list[PlannedEdge]:
    """`named_link_edges` of links naming no block, heading or alias (most of a vault's): each edge's metadata is
    its key, target and line alone, encoded here without `_edge`'s walk of every keyword a link edge may carry."""
    out: list[PlannedEdge] = []
    for relation, link, rule, _alias in links:
        key = _link_key(link.target or "")
        parts = [f'"key":{encode_basestring(key)}'] if key else []
        if link.target:
            parts.append(f'"target":{encode_basestring(link.target)}')
        if link.line is not None:
            parts.append(f'"line":{link.line}')
        out.append(_gated_row(nid, "", relation, LINK_CONFIDENCE, link.evidence, rule, "{" + ",".join(parts) + "}",
                              key))
    return out


def named_link_edges(nid: str, links: Sequence[_LinkToPlan]) -> list[PlannedEdge]:
    # the links of one key and relation are one edge (the first's line is its evidence): it says every block,
    # heading and alias they point at or show, not the first one's alone
    parts: dict[tuple[str, str], tuple[dict[str, None], dict[str, None], dict[str, None]]] = {}
    for relation, link, _rule, alias in links:
        blocks, sections, aliases = parts.setdefault((_link_key(link.target or ""), relation), ({}, {}, {}))
        if link.block:
            blocks[link.block] = None
        if link.section:
            sections[link.section] = None
        if alias:
            aliases[alias] = None
    out: list[PlannedEdge] = []
    for relation, link, rule, alias in links:
        key = _link_key(link.target or "")
        blocks, sections, aliases = parts[(key, relation)]
        out.append(_edge(nid, "", relation, LINK_CONFIDENCE, link.evidence, rule, link.line, key=key,
                         target=link.target, section=link.section, alias=alias, block=link.block,
                         blocks=_more_than(blocks, link.block), sections=_more_than(sections, link.section),
                         aliases=_more_than(aliases, alias)))
    return out


def _more_than(named: dict[str, None], first: str | None) -> list[str] | None:
    """Every block (heading, alias) the links of one edge name, when that says more than the first link's alone."""
    return list(named) if list(named) != ([first] if first else []) else None


def plan_links(path: str, data: bytes, logseq: LogseqGraph | None = None) -> tuple[PlannedEdge, ...]:
    """The link edges `plan_note` plans for these bytes — its edges without a destination, in the same order, a
    repeated link planned once — from a parse of the links alone (`parse_links`): what relinking a note whose
    bytes did not change needs, at a tenth of the cost."""
    links = parse_links(path, decoded_note(data)[0], logseq)
    planned: dict[tuple[str, str], PlannedEdge] = {}
    for edge in _link_edges(note_id(links.rel_path), links.wikilinks, links.markdown_links, links.block_refs):
        planned.setdefault((edge.link_key, edge.relation), edge)  # (`_plan`'s `add_edge`: the first one stays)
    return tuple(planned.values())


def plan_note(path: str, data: bytes, mtime: float, hints: tuple[str, ...], logseq: LogseqGraph | None = None
              ) -> NotePlan:
    """Parse one note's bytes and derive every row it contributes. Pure: the caller did the reading. `logseq`: the
    settings of the Logseq graph the vault is, None for plain Markdown."""
    digest = hashlib.sha256(data).hexdigest()
    text, read_as = decoded_note(data)  # a UTF-16 or Windows-1252 reading is said in a warning, and so is a NUL's
    parsed = parse_note(path, text, hints=hints, logseq=logseq)
    plan = _plan(parsed, digest, len(data), mtime, hints)
    return replace(plan, warnings=(*read_as, *plan.warnings)) if read_as else plan


def _plan(parsed: ParsedNote, digest: str, size: int, mtime: float, hints: tuple[str, ...]) -> NotePlan:
    path = parsed.rel_path
    hint_tokens = stemmed_hints(hints)
    nid = note_id(path)
    source = f"vault:{path}"  # the rows' source (ingest's `_derived_row`): their keyword text depends on it
    # (a row's note is not in its metadata: its source names it, and the store puts it back on read)
    heading_paths_json: dict[tuple[str, ...], str] = {}  # memory metadata is assembled from pre-encoded parts

    def heading_path_json(heading_path: tuple[str, ...]) -> str:
        encoded = heading_paths_json.get(heading_path)
        if encoded is None:
            encoded = heading_paths_json[heading_path] = _COMPACT(list(heading_path))
        return encoded

    nodes: dict[str, PlannedNode] = {}
    edges: dict[tuple[str, str, str], PlannedEdge] = {}

    def add_edge(edge: PlannedEdge) -> bool:
        key = (edge.src, edge.dst or edge.link_key, edge.relation)
        if key not in edges and not (edge.dst == nid):
            edges[key] = edge
            return True
        return False

    inside: set[tuple[str, str, str]] = set()  # keys of the edges a node carries (`contained`)

    def contained(edge: PlannedEdge, kind: str, memory_kind: str, metadata: str) -> PlannedEdge | None:
        """`edge` (from the note to a new node) when the node may carry it: it was added, and reads back exactly."""
        if not add_edge(edge) or readback_shape(edge, kind, memory_kind, metadata) is None:
            return None
        inside.add((edge.src, edge.dst, edge.relation))
        return edge

    # sections → context memories (title carries the note title and heading path, so FTS finds them by it); the
    # front matter's properties first, as a section of `key: value` lines (its title, aliases and tags excluded)
    observed = {obs.line for obs in parsed.observations}
    front = parsed.front_matter
    properties = (Section((), 0, property_text(front.raw), front.properties_line or front.line_start, front.line_end)
                  if front is not None and front.raw else None)
    for section in (properties, *parsed.sections) if properties is not None else parsed.sections:
        body = section.body.strip()
        if not body:
            continue
        mid = memory_id(path, "section", body)
        if mid in nodes:  # the text again, under another heading (a log's "### Notes" of each day): its own memory
            mid = memory_id(path, "section", "\n".join((*section.heading_path, body)))
            if mid in nodes:
                continue
        shown_path = _shown_path(section.heading_path)
        title = " > ".join([parsed.title, *[h for h in shown_path if h != parsed.title]])
        skip = _observed_lines(section, body, observed)
        # the line its text starts at (below its heading), where a shortened pack item counts its shown lines from
        starts = (f',"body_line":{section.line_end - body.count(chr(10))}' if section is not properties
                  else f',"{PROPERTIES_KEY}":true' + _property_starts(front.property_lines) if front is not None
                  else "")
        metadata = (f'{{"memory_kind":"section","line":{section.line_start},'
                    f'"heading_path":{heading_path_json(shown_path)}{starts}'
                    + (f',"{SKIP_KEY}":[{",".join(map(str, skip))}]}}' if skip else "}"))
        evidence = body.split("\n", 1)[0].strip()[:500]
        edge = _edge(nid, mid, "has_section", SECTION_CONFIDENCE, evidence, "section", section.line_start)
        nodes[mid] = _new_row(PlannedNode, (
            mid, "memory", title, body, "context", 2, metadata,
            keyword_text(title, body, source, {SKIP_KEY: skip} if skip else None),
            content_hash(body), "section", None, contained(edge, "memory", "section", metadata)))

    # observations and tasks → fact memories with has_<kind> edges (active: source-contained)
    observation_lines: set[int] = set()
    title_tokens = token_text(parsed.title)  # heads every bullet's keyword text (`vault_keyword_text`)
    relations: dict[str, str] = {}  # observation kind → has_<kind>
    first_heading: dict[str, tuple[str, ...]] = {}  # an item's id → the heading path its text was first under
    for obs in parsed.observations:
        # the days its date edges name: not a link's (`[[2026-03-04 Kickoff]]` is another note's), a URL's or code's
        days = sorted({date.iso for date in obs.dates if date.iso is not None}) if obs.dates else []
        kind = "task" if obs.source == "task" else "observation"
        mid = memory_id(path, kind, obs.text)
        heading_path = _heading_path_at(parsed, obs.line)
        if mid in nodes and first_heading.get(mid, heading_path) != heading_path:
            # the text again under another heading (a log's task of each day, open one day, done the next): an item
            # of its own, or the first took every line's edge — open and done at once — and its line alone to cite
            mid = memory_id(path, kind, "\n".join((*heading_path, obs.text)))
        first_heading.setdefault(mid, heading_path)
        observation_lines.add(obs.line)
        if obs.status is not None:  # (a Logseq task's days may be on its SCHEDULED line: the task's, not the note's)
            observation_lines.update(date.line for date in obs.dates)
        relation = relations.get(obs.kind) or relations.setdefault(obs.kind, observation_relation(obs.kind))
        edge = _edge(nid, mid, relation, obs.confidence, obs.evidence, f"observation:{obs.source}", obs.line)
        if mid not in nodes:
            importance = importance_of(obs.score)
            text_tokens = token_text(obs.text)  # its keyword text's second half; as a set, its proactive words
            proactive = static_score(obs.kind or "fact", float(obs.score or importance), obs.text, hint_tokens,
                                     parsed.note_type, source, frozenset(text_tokens.split()))
            metadata = (f'{{"memory_kind":"{kind}","line":{obs.line},'
                        f'"observation_kind":{encode_basestring(obs.kind)},"score":{float(obs.score)!r},'
                        f'"heading_path":{heading_path_json(_shown_path(heading_path))},'
                        f'"dates":[{",".join(map(_quoted, days))}]'
                        + (f',"status":{encode_basestring(obs.status)}}}' if obs.status is not None else "}"))
            nodes[mid] = _new_row(PlannedNode, (
                mid, "memory", parsed.title, obs.text, "fact", importance, metadata,
                vault_keyword_text(title_tokens, text_tokens), content_hash(obs.text), kind, proactive,
                contained(edge, "memory", kind, metadata)))
        else:
            add_edge(edge)  # (the same text twice: the second line's edge, if another relation, is a row)
        for date in obs.dates:
            if date.year is not None:  # (what `iso` tests)
                add_edge(date_edge(mid, f"date:{date.iso}", date.evidence, "date_in_observation", date.line,
                                   date.text))  # (a Logseq task's: a line below)

    # headings → heading nodes (the H1 that is the title is not its own child: Mneme duplicated it)
    for heading in parsed.headings:
        if heading.is_title:
            continue
        hid = f"heading:{path}#{heading_slug(heading.text)}"
        edge = heading_edge(nid, hid, heading)
        if hid not in nodes:
            metadata = f'{{"line":{heading.line},"level":{heading.level}}}'
            nodes[hid] = _new_row(PlannedNode, (hid, "heading", _shown(heading.text), "", "general", 1, metadata, "",
                                                "", "", None, contained(edge, "heading", "", metadata)))
        else:
            add_edge(edge)

    if parsed.day is not None:  # a journal page is its day (its file name says so); first, as front matter would be
        add_edge(date_edge(nid, f"date:{parsed.day}", path, "journal_day", None, parsed.day))
    # a day the front matter and the body both name is one edge: the front matter's, its line coming first
    front_end = parsed.front_matter.line_end if parsed.front_matter else 0
    for date in parsed.dates:
        if date.year is not None and date.line not in observation_lines:
            add_edge(date_edge(nid, f"date:{date.iso}", date.evidence,
                               "front_matter_date" if date.line < front_end else "date", date.line, date.text))
    for email in parsed.emails:
        add_edge(_edge(nid, f"email:{email.address}", "mentions_email", EMAIL_CONFIDENCE, email.evidence, "email",
                       email.line))
    for tag in parsed.tags:
        add_edge(_edge(nid, f"tag:{tag.name}", "has_tag", TAG_CONFIDENCE, tag.evidence,
                       "front_matter_tag" if tag.line is None else "tag", tag.line))

    # links: resolved later against every note's names
    link_keys = {block_ref_key(ref.block) for ref in parsed.block_refs}  # (one no page holds yet too)
    for edge in _link_edges(nid, parsed.wikilinks, parsed.markdown_links, parsed.block_refs):
        link_keys.add(edge.link_key)
        add_edge(edge)

    return NotePlan(
        path=path, content_hash=digest, size=size, mtime=mtime, title=parsed.title, aliases=parsed.aliases,
        note_type=parsed.note_type, tags=parsed.tag_names, nodes=tuple(nodes.values()),
        edges=tuple(e for k, e in edges.items() if k not in inside) if inside else tuple(edges.values()),
        payloads=tuple(_nul_replaced(dict(p.payload)) for p in parsed.payloads),
        sense_event=_sense_event(path, mtime, parsed.title, digest, parsed.note_type,
                                 note_sense_text(parsed.title, [o.text for o in parsed.observations])),
        warnings=tuple({"code": w.code, "message": w.message, "line": w.line} for w in parsed.warnings),
        link_keys=tuple(sorted(k for k in link_keys if k)),
    )


def _nul_replaced(value: Any) -> Any:
    """An embedded payload's JSON with U+FFFD for each NUL: its base64 hid an escaped NUL from `decoded_note`."""
    if isinstance(value, str):
        return value.replace("\x00", NUL_STAND_IN)
    if isinstance(value, dict):
        return {_nul_replaced(k): _nul_replaced(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_nul_replaced(v) for v in value]
    return value


@lru_cache(maxsize=1)
def world_senses() -> Any:
    """`app.world.sense`, or None when the world model is not installed. A pool's parent imports it before it forks
    (`ingest._plan_batches`), so neither the workers nor the writer pay for the import again."""
    try:
        from ..world import sense
    except ImportError:
        return None
    return sense


def _sense_event(path: str, mtime: float, title: str, digest: str, note_type: str, text: str) -> Any:
    """The note's sense event, so predictions can be confirmed by vault evidence (Mneme's plain ingest recorded
    none). It names the note by path and content hash and leaves its text out: checks read it from the note's
    memories (app/world/note_text.py)."""
    world = world_senses()
    if world is None or path_too_long_for_world(path):  # (the ingest warns of it: `_record_senses`)
        return None
    return world.parsed_sense_event("vault", world.SenseInput(
        "md", path, iso_from_mtime(mtime), title, text, {"path": path, "content_hash": digest, "type": note_type},
        event_type="note", source_uri=f"vault:{path}", source_path=path, store_text=False))


def path_too_long_for_world(path: str) -> bool:
    """Whether a note's path is longer than the world model can index (on PostgreSQL a key has a size limit; both
    backends keep it): the note is ingested without its sense event."""
    return len(path.encode("utf-8", "surrogateescape")) > KEY_MAX_BYTES


def iso_from_mtime(mtime: float) -> str:
    return iso(datetime.fromtimestamp(mtime, tz=timezone.utc))


def _property_starts(lines: Sequence[int]) -> str:
    """The properties section's `body_line` (its first property's line) and, when its lines are not the note's
    lines from there on (a tag, a day or a list's items between them), `property_lines`: each one's line."""
    if not lines:
        return ""
    spread = "" if list(lines) == list(range(lines[0], lines[0] + len(lines))) else \
        f',"property_lines":[{",".join(map(str, lines))}]'
    return f',"body_line":{lines[0]}{spread}'


def _quoted(day: str) -> str:
    return f'"{day}"'  # an ISO day needs no escaping


def _observed_lines(section: Section, body: str, observed: set[int]) -> list[int]:
    """Indexes of the section's lines that are observation memories of their own: keyword search leaves them out
    of the section (`core.keywords`), so each bullet is indexed once, as itself."""
    if not observed or not any(section.line_start <= line <= section.line_end for line in observed):
        return []
    first = section.line_end - body.count("\n")  # line_start is the heading's line; the body ends at line_end
    return [i for i in range(body.count("\n") + 1) if first + i in observed]


@lru_cache(maxsize=4096)
def _shown(heading: str) -> str:
    """A heading as a reader sees it: each wikilink as its name (the note's title is shown so, by the parser)."""
    return " ".join(display_links(heading).split()) if "[[" in heading else heading


def _shown_path(heading_path: Sequence[str]) -> tuple[str, ...]:
    return tuple(map(_shown, heading_path))


def _heading_path_at(parsed: ParsedNote, line: int) -> tuple[str, ...]:
    current: tuple[str, ...] = ()
    for section in parsed.sections:
        if section.line_start <= line:
            current = tuple(section.heading_path)
        else:
            break
    return current


def plan_batch(items: list[tuple[str, bytes, float]], hints: tuple[str, ...], logseq: LogseqGraph | None = None
               ) -> list[NotePlan]:
    """Worker entry: (rel path, file bytes, mtime) → plans, in order."""
    with paused_gc():
        return [plan_note(rel, data, mtime, hints, logseq) for rel, data, mtime in items]


# A plan as plain tuples. Named tuples and slotted dataclasses pickle through a Python call per object: for the
# 2,000-note benchmark vault that was 1.5 CPU s in the workers and 1.0–1.2 s in the writer, against 0.25 and 0.1 s
# for the same values as plain tuples (`tuple.__new__` gives them their class back without a call per field).
PackedPlan = tuple[Any, ...]
_NOTE_FIELDS = tuple(f.name for f in dataclasses.fields(NotePlan))
_NODES_AT, _EDGES_AT = _NOTE_FIELDS.index("nodes"), _NOTE_FIELDS.index("edges")


def packed_batch(items: list[tuple[str, bytes, float]], hints: tuple[str, ...], logseq: LogseqGraph | None = None
                 ) -> list[PackedPlan]:
    """Worker entry: `plan_batch`'s plans packed for the trip back to the writing process (`unpacked_plan`)."""
    with paused_gc():
        return [_packed(plan_note(rel, data, mtime, hints, logseq)) for rel, data, mtime in items]


def _packed(plan: NotePlan) -> PackedPlan:
    values = [getattr(plan, name) for name in _NOTE_FIELDS]
    values[_NODES_AT] = tuple(tuple(node) if node.contained is None else (*node[:-1], tuple(node.contained))
                              for node in plan.nodes)
    values[_EDGES_AT] = tuple(map(tuple, plan.edges))
    return tuple(values)


def unpacked_plan(packed: PackedPlan) -> NotePlan:
    values = list(packed)
    values[_NODES_AT] = tuple(_planned_node(node) for node in packed[_NODES_AT])
    values[_EDGES_AT] = tuple(tuple.__new__(PlannedEdge, edge) for edge in packed[_EDGES_AT])
    return NotePlan(*values)


def _planned_node(values: tuple[Any, ...]) -> PlannedNode:
    if values[-1] is not None:
        values = (*values[:-1], tuple.__new__(PlannedEdge, values[-1]))
    return tuple.__new__(PlannedNode, values)
