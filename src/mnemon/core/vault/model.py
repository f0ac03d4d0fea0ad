"""What a parsed Markdown note looks like: frozen value objects, no behaviour beyond small derived views.

Every extracted item carries `line` (1-based, counted on ``\\n``) and `evidence` (the stripped source line,
capped) because the app turns each item into an edge whose audit trail must say *which text* created it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Mapping

ObservationKind = Literal["fact", "blocked", "done", "risk", "correction"]
ListMarker = Literal["bullet", "numbered", "task"]

# PostgreSQL text cannot hold a NUL and SQLite can: a note's texts are stored with U+FFFD in its place on both, so
# one pasted NUL neither blocks a vault on PostgreSQL nor makes the backends' rows differ (the file is untouched)
NUL_STAND_IN = "\ufffd"

# Mneme capped evidence_text at 500 characters; a longer line is still the same evidence, just truncated.
EVIDENCE_MAX_CHARS = 500

# Embeds of these point at attachments, not notes, so the app should not make placeholder note nodes for them.
ATTACHMENT_EXTENSIONS = frozenset(
    {
        "png", "jpg", "jpeg", "gif", "svg", "webp", "bmp", "avif", "pdf", "mp3", "mp4", "m4a", "wav", "ogg",
        "webm", "mov", "mkv", "flac", "canvas", "excalidraw", "base", "csv", "zip", "3gp", "ogv", "heic", "tif",
        "tiff", "doc", "docx", "xls", "xlsx", "ppt", "pptx", "odt", "ods", "odp", "rtf", "epub", "7z", "rar",
    }
)


@dataclass(frozen=True, slots=True)
class ParseWarning:
    code: str
    message: str
    line: int | None = None


@dataclass(frozen=True, slots=True)
class FrontMatter:
    """The YAML block between the opening and closing ``---`` lines (``raw`` is JSON-safe)."""

    raw: Mapping[str, Any]
    title: str | None
    aliases: tuple[str, ...]
    tags: tuple[str, ...]
    note_type: str | None
    line_start: int
    line_end: int
    # the line of the first property the properties section says (not the title, aliases, tags or CSS classes)
    properties_line: int = 0
    property_lines: tuple[int, ...] = ()  # the note line of each line the properties section says


@dataclass(frozen=True, slots=True)
class Heading:
    level: int
    text: str
    line: int
    evidence: str
    # The H1 chosen as the note title; the app should not add it as a has_heading child of its own note.
    is_title: bool = False


@dataclass(frozen=True, slots=True)
class Section:
    """A heading and the text under it up to the next heading of any level — one memory-sized chunk."""

    heading_path: tuple[str, ...]
    level: int  # 0 for the preamble before the first heading
    body: str
    line_start: int
    line_end: int


@dataclass(frozen=True, slots=True)
class WikiLink:
    target: str
    section: str | None
    alias: str | None
    is_embed: bool
    line: int
    evidence: str
    block: str | None = None  # the block it points at: ``[[Spec#^scope]]`` → "scope"

    @property
    def is_attachment(self) -> bool:
        stem, dot, extension = self.target.rpartition(".")
        return bool(dot and stem and extension.lower() in ATTACHMENT_EXTENSIONS)


@dataclass(frozen=True, slots=True)
class MarkdownLink:
    """``[text](other.md#sec)`` to a local note; ``target`` is vault-relative, resolved against the note's folder."""

    target: str
    raw_target: str
    section: str | None
    text: str
    line: int
    evidence: str
    block: str | None = None  # the block it points at: ``(Spec.md#^scope)`` → "scope"


@dataclass(frozen=True, slots=True)
class Tag:
    name: str  # casefolded, without '#'; nested tags keep their '/'
    line: int | None  # None when the tag came from front matter
    evidence: str


@dataclass(frozen=True, slots=True)
class TaskItem:
    done: bool
    text: str
    line: int
    evidence: str
    status: str | None = None  # a Logseq task's marker, lower-cased ("todo", "doing", "later", "done", …)


@dataclass(frozen=True, slots=True)
class ListItem:
    marker: ListMarker
    text: str
    line: int
    evidence: str
    number: int | None = None  # the item number of a numbered list


@dataclass(frozen=True, slots=True)
class DateMention:
    """A date phrase; ``iso`` is None when the text names no year (the parser never guesses one)."""

    text: str
    year: int | None
    month: int
    day: int
    line: int
    evidence: str

    @property
    def iso(self) -> str | None:
        if self.year is None:
            return None
        return f"{self.year:04d}-{self.month:02d}-{self.day:02d}"


@dataclass(frozen=True, slots=True)
class EmailMention:
    address: str  # lower-cased: the identity of an email node
    line: int
    evidence: str


@dataclass(frozen=True, slots=True)
class Observation:
    """A scored bullet, numbered item or task: Mneme's `has_<kind>` observation."""

    kind: ObservationKind
    text: str
    score: float
    source: ListMarker
    line: int
    evidence: str
    families: tuple[str, ...] = ()  # every status family whose words matched, for transparency
    hint_hits: tuple[str, ...] = ()
    dates: tuple[DateMention, ...] = ()
    status: str | None = None  # a Logseq task's marker (`TaskItem.status`)

    @property
    def confidence(self) -> float:
        # Mneme's edge confidence/strength for has_<kind>: min(1, score / 6).
        return min(1.0, self.score / 6.0)


@dataclass(frozen=True, slots=True)
class EmbeddedPayload:
    """A Mneme research-resolution payload stored in an HTML comment so `resolve` writebacks survive rebuilds."""

    payload: Mapping[str, Any]
    line: int


@dataclass(frozen=True, slots=True)
class BlockRef:
    """A Logseq ``((uuid))`` to a block of another page: `target` is the path of the page whose ``id::`` it is,
    None when no page of the graph holds it (then the reference is text, and no link)."""

    block: str
    target: str | None
    line: int
    evidence: str
    section: None = None  # (a link's: a block names no heading)


@dataclass(frozen=True, slots=True)
class NoteIdentity:
    """The names a note can be linked by; what `LinkIndex` indexes."""

    path: str
    title: str
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ParsedNote:
    rel_path: str
    title: str
    note_type: str
    line_count: int
    front_matter: FrontMatter | None
    headings: tuple[Heading, ...] = ()
    sections: tuple[Section, ...] = ()
    wikilinks: tuple[WikiLink, ...] = ()
    markdown_links: tuple[MarkdownLink, ...] = ()
    tags: tuple[Tag, ...] = ()
    tasks: tuple[TaskItem, ...] = ()
    list_items: tuple[ListItem, ...] = ()
    dates: tuple[DateMention, ...] = ()
    emails: tuple[EmailMention, ...] = ()
    observations: tuple[Observation, ...] = ()
    payloads: tuple[EmbeddedPayload, ...] = ()
    warnings: tuple[ParseWarning, ...] = field(default=())
    day: str | None = None  # the ISO day a Logseq journal page is (its file name's)
    block_refs: tuple[BlockRef, ...] = ()  # a Logseq note's references to blocks of other pages

    @property
    def aliases(self) -> tuple[str, ...]:
        return self.front_matter.aliases if self.front_matter else ()

    @property
    def tag_names(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(tag.name for tag in self.tags))

    @property
    def identity(self) -> NoteIdentity:
        return NoteIdentity(path=self.rel_path, title=self.title, aliases=self.aliases)
