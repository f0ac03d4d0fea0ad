"""The vault layer's pure core: Markdown parsing, link resolution, observation scoring, edge lifecycle.

No I/O here: the app walks the vault, reads files, calls `parse_note`, resolves links through a `LinkIndex`
and passes every edge through `gate_edge` before storing it.
"""
from __future__ import annotations

from mnemon.core.vault.lifecycle import (
    ACTIVE_THRESHOLD,
    EdgeFacts,
    EdgeOrigin,
    EdgeStatus,
    EdgeLike,
    GateDecision,
    Promotion,
    gate_edge,
    promotion_plan,
    survives_rebuild,
    truth_policy,
    weaken,
    weaken_edge,
)
from mnemon.core.vault.links import (
    LinkIndex,
    normalise_link_key,
    note_keys,
    placeholder_key,
    resolve_link,
    split_link_target,
)
from mnemon.core.vault.model import (
    DateMention,
    EmailMention,
    EmbeddedPayload,
    FrontMatter,
    Heading,
    ListItem,
    MarkdownLink,
    NoteIdentity,
    Observation,
    ParsedNote,
    ParseWarning,
    Section,
    Tag,
    TaskItem,
    WikiLink,
)
from mnemon.core.vault.observations import DEFAULT_HINTS, STATUS_FAMILIES, score_text
from mnemon.core.vault.parser import NoteLinks, parse_links, parse_note

__all__ = [
    "ACTIVE_THRESHOLD", "DEFAULT_HINTS", "STATUS_FAMILIES", "DateMention", "EdgeFacts", "EdgeLike", "EdgeOrigin", "EdgeStatus", "EmailMention",
    "EmbeddedPayload", "FrontMatter", "GateDecision", "Heading", "LinkIndex", "ListItem", "MarkdownLink",
    "NoteIdentity", "NoteLinks", "Observation", "ParseWarning", "ParsedNote", "Promotion", "Section", "Tag", "TaskItem",
    "WikiLink", "gate_edge", "normalise_link_key", "note_keys", "parse_links", "parse_note", "placeholder_key",
    "promotion_plan", "resolve_link", "score_text", "split_link_target", "survives_rebuild", "truth_policy",
    "weaken", "weaken_edge",
]
