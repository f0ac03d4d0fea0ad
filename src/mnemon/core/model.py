"""Domain values of the one graph: memories, other nodes, typed edges, oplog entries."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from functools import lru_cache
from typing import Any, NamedTuple

CATEGORIES = ("preference", "decision", "fact", "insight", "context", "general")
MNEMON_EDGE_TYPES = ("temporal", "entity", "causal", "semantic", "supersedes")
TRAVERSAL_GRAPHS = ("temporal", "entity", "causal", "semantic")
# the sources of rows made from a vault's notes and from payload scopes — not a writer's own memories: their time is
# their ingest's, they are observations of a source, and the write rules (semantic edges, prune) leave them alone
SOURCED_PREFIXES = ("vault:", "mneme://")
EDGE_STATUSES = ("active", "candidate", "killed", "retired")

# Node kinds. A memory is text the agent can get back; every other kind is something memories hang from.
MEMORY = "memory"
NODE_KINDS = (MEMORY, "note", "placeholder", "entity", "date", "email", "heading", "task", "tag")


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


def iso(ts: datetime) -> str:
    if ts.tzinfo is None:
        ts = ts.replace(tzinfo=timezone.utc)
    return ts.astimezone(timezone.utc).isoformat(timespec="microseconds").replace("+00:00", "Z")


# an ISO-8601 date or time as mnemon reads it, once spaces around it are stripped: a date (2026-05-01, 20260501), then
# optionally a time after T, t or a space (09, 09:30, 0930, 09:30:15, 093015, a fraction after the seconds) and an
# offset (Z, +02, +02:00, +0200). The servers' schemas state the same pattern (interfaces/operations.py ISO_TIME):
# Python's fromisoformat also reads week dates, any character between date and time and offsets with seconds,
# which no schema said (ASCII digits: Python's \d also matches other scripts' and ECMA-262's does not)
ISO_INSTANT = (r"([0-9]{4}-[0-9]{2}-[0-9]{2}|[0-9]{8})([Tt ][0-9]{2}(:[0-9]{2}(:[0-9]{2}([.,][0-9]+)?)?"
               r"|[0-9]{2}([0-9]{2}([.,][0-9]+)?)?)?([Zz]|[+-][0-9]{2}(:?[0-9]{2})?)?)?")
_INSTANT = re.compile(ISO_INSTANT)


def refuse_unread_instant(text: str) -> None:
    """ValueError unless the stripped `text` is an instant of `ISO_INSTANT`'s grammar."""
    if not _INSTANT.fullmatch(text):
        raise ValueError(f"Invalid isoformat string: {text!r}")


@lru_cache(maxsize=8192)  # the write rules compare one memory's timestamp with its neighbours' again and again
def parse_iso(value: str) -> datetime:
    """Parse RFC 3339 / ISO-8601; naive values are taken as UTC. A time its offset pushes outside years 1–9999 in
    UTC ("0001-01-01T00:00:00+01:00") is a ValueError like any unreadable one, which every caller turns into a clean
    error (an OverflowError reached `retrieve --as-of` as `internal`)."""
    text = value.strip()
    refuse_unread_instant(text)
    if text.endswith("Z") or text.endswith("z"):
        text = text[:-1] + "+00:00"
    ts = datetime.fromisoformat(text)
    if ts.tzinfo is None:
        ts = ts.replace(tzinfo=timezone.utc)
    try:
        return ts.astimezone(timezone.utc)
    except OverflowError:
        raise ValueError(f"{value!r} is outside the years 1-9999 in UTC") from None


def content_hash(content: str) -> str:
    import hashlib  # here: a recall hashes nothing, and the module costs ~3 ms of every CLI start

    return hashlib.sha256(content.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Memory:
    id: str
    content: str
    category: str = "general"
    importance: int = 3
    tags: tuple[str, ...] = ()
    entities: tuple[str, ...] = ()
    source: str = "user"
    created_at: str = ""
    updated_at: str = ""
    last_accessed_at: str | None = None
    access_count: int = 0
    effective_importance: float = 0.5
    deleted_at: str | None = None
    kind: str = MEMORY
    title: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    inserted_at: str = ""  # when this store received it (created_at may be historical)

    @property
    def content_hash(self) -> str:
        return content_hash(self.content)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "content": self.content,
            "category": self.category,
            "importance": self.importance,
            "tags": list(self.tags),
            "entities": list(self.entities),
            "source": self.source,
            "access_count": self.access_count,
            "effective_importance": round(self.effective_importance, 4),
            "created_at": self.created_at,
            "updated_at": self.updated_at,
            "last_accessed_at": self.last_accessed_at,
        }
        if self.deleted_at:
            out["deleted_at"] = self.deleted_at
        if self.kind != MEMORY:
            out["kind"] = self.kind
        if self.title:
            out["title"] = self.title
        if self.metadata:
            out["metadata"] = self.metadata
        return out


# not frozen: a frozen dataclass sets each of these 15 fields through object.__setattr__ (2.7 µs an edge against
# 0.6), and a write makes ~44 edges a memory; edges are still never changed in place, only copied with replace()
@dataclass(slots=True)
class Edge:
    src: str
    dst: str
    type: str
    sub_type: str = ""
    weight: float = 1.0
    confidence: float = 1.0
    status: str = "active"
    evidence: str = ""
    origin: str = "auto"
    rule: str = ""
    source_path: str = ""
    metadata: dict[str, Any] = field(default_factory=dict)
    id: int | None = None
    created_at: str = ""
    updated_at: str = ""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "source_id": self.src,
            "target_id": self.dst,
            "edge_type": self.type,
            "sub_type": self.sub_type,
            "weight": round(self.weight, 6),
            "confidence": round(self.confidence, 6),
            "status": self.status,
            "origin": self.origin,
        }
        if self.evidence:
            out["evidence"] = self.evidence
        if self.rule:
            out["rule"] = self.rule
        if self.source_path:
            out["source_path"] = self.source_path
        if self.metadata:
            out["metadata"] = self.metadata
        if self.created_at:
            out["created_at"] = self.created_at
        return out


class Link(NamedTuple):
    """An edge as traversal sees it: no evidence or metadata, so the hot path decodes nothing."""
    src: str
    dst: str
    type: str
    sub_type: str
    weight: float
    id: int


@dataclass(frozen=True)
class OplogEntry:
    id: int
    op: str
    node_id: str | None
    detail: dict[str, Any]
    created_at: str


# the actors of the `retired` events a memory's removal writes on its edges (`Store.retire_edges_of`): `forget ID`,
# and auto-prune, which earlier versions logged as `forget` too (told apart only by the reason `auto-prune`)
REMOVAL_ACTORS = ("forget", "prune")
# every operation the oplog records (`log --op`): a name outside these, and absent from the store's own log (a row an
# earlier version wrote), is a typo, refused naming them instead of answering an empty log (the servers' `log` tool
# offers exactly these)
LOG_OPS = ("remember", "remember:payload", "import", "revive", "forget", "forget:source", "forget-dated", "prune",
           "diff-skip", "link", "gc", "gc_keep", "show", "recall", "recall:basic", "search", "embed:backfill",
           "ingest", "resolve", "promote-candidates", "weaken-edge", "kill-edge", "validate-edge", "thought", "eval",
           "bench", "migrate-drop-edge")
