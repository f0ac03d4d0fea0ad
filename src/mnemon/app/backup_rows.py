"""The checks a restore applies to each row of a `mnemon export` file (`backup.restore` decides what to do with it).

They are not `remember`'s: an export holds what the store held, and other writers than `remember` have other
limits — a vault section or a payload observation may be longer than 8,000 characters or hold a NUL, a payload
scope may be longer than 200 — so a restore that applied `remember`'s caps could not read back its own backup.
What is checked is what keeps the store usable afterwards: the types, text the database can encode, ids a command
line can name, timestamps that parse, edge types the graph knows, and vectors recall can score.

An export file may also have been edited by hand: every field is checked, so a bad one is a per-row error naming
the row's index (`InvalidInput`), never a crash or a row stored half-right. (World rows are checked by the world
model's own rules: `backup_world.py`.)
"""
from __future__ import annotations

import base64
import binascii
import json
import math
import re
from datetime import datetime, timezone
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ..core.errors import InvalidInput
from ..core.model import CATEGORIES, EDGE_STATUSES, MEMORY, MNEMON_EDGE_TYPES, Edge, Memory, iso, parse_iso
from ..core.ontology import DEFAULT_ONTOLOGY
from ..core.validation import FUTURE_SLACK, split_list, validate_weight

if TYPE_CHECKING:
    import numpy as np

PAYLOAD_SCOPE = "mneme://"  # the sources of `remember --payload` rows; their entity nodes are exported too
# the write rules compute windows around a memory's time (±24 h proximity, a period's days of slack): a created_at
# within a year of datetime's 0001–9999 ends would make them overflow, so no writer stores one
_EARLIEST = datetime(2, 1, 1, tzinfo=timezone.utc)
_LATEST = datetime(9999, 1, 1, tzinfo=timezone.utc)
_MAX_COUNT = 1 << 62  # an access count past this does not fit a 64-bit column


def insight_error(idx: int, message: str) -> InvalidInput:
    return InvalidInput(f"export insight {idx}: {message}", index=idx)


def edge_error(k: int, message: str) -> InvalidInput:
    return InvalidInput(f"export edge {k}: {message}", index=k)


# a person's decision that lives in an edge's event log (`vault.resolve.person_decision`), not in its row — a kill
# is its status — as an exported edge names it (`"decision"`) and as a restore records it again: (event, actor)
EDGE_DECISIONS = {"validated": ("validated", "user"), "weakened": ("weakened", "weaken-edge")}


def edge_decision(e: Any) -> tuple[str, str] | None:
    """The (event, actor) of the decision an exported edge names (checked by `parse_edge`), else None."""
    value = e.get("decision") if isinstance(e, dict) else None
    return EDGE_DECISIONS.get(value) if isinstance(value, str) else None


# the events of a person's decisions an exported edge carries in its log (`"history"`), oldest first: a restore
# writes them back as they were, so `explain-edge` still says who killed, validated or weakened it, when and why
HISTORY_EVENTS = ("killed", "validated", "weakened")
HistoryEvent = tuple[str, str, dict[str, Any], str]  # (event, actor, detail, created_at), as `log_edge_events` takes


def edge_history(e: Any, k: int) -> list[HistoryEvent]:
    """The checked `history` of an exported edge (none: an export made before it was carried), else `InvalidInput`
    naming the row and the event."""
    value = e.get("history") if isinstance(e, dict) else None
    if value is None:
        return []

    def fail(message: str) -> InvalidInput:
        return edge_error(k, message)

    if not isinstance(value, list):
        raise fail("history must be a list of events")
    out: list[HistoryEvent] = []
    for i, event in enumerate(value):
        what = f"history[{i}]"
        if not isinstance(event, dict):
            raise fail(f"{what} must be a JSON object")
        if event.get("event") not in HISTORY_EVENTS:
            raise fail(f"{what}.event must be one of {', '.join(HISTORY_EVENTS)}")
        actor = _text(event.get("actor", ""), f"{what}.actor", fail)
        if _CONTROL.search(actor):
            raise fail(f"{what}.actor {actor!r} holds a control character")
        when = timestamp(event.get("created_at"), f"{what}.created_at", fail)
        if when is None:
            raise fail(f"{what}.created_at is missing")
        out.append((event["event"], actor, _metadata(event.get("detail"), f"{what}.detail", fail), when))
    return out


_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")
# `core.model.iso`'s own form; a valid date too (the calendar check is left to parse_iso for anything else)
_CANONICAL_TIME = re.compile(r"(?:000[2-9]|00[1-9]\d|0[1-9]\d\d|[1-8]\d{3}|9[0-8]\d\d|99[0-8]\d)-"
                             r"(?:0[1-9]|1[0-2])-(?:0[1-9]|1\d|2[0-8])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{6}Z")


def _text(value: Any, what: str, fail: Any, *, blank_ok: bool = True) -> str:
    if not isinstance(value, str):
        raise fail(f"{what} must be a string, got {type(value).__name__}")
    try:  # lone surrogates ("\ud800" in JSON) cannot be written to the database or hashed (ASCII holds none)
        value.isascii() or value.encode("utf-8")
    except UnicodeEncodeError:
        raise fail(f"{what} is not valid Unicode text (it holds unpaired surrogate code points)") from None
    if not blank_ok and not value.strip():
        raise fail(f"{what} must not be blank")
    return value


def node_id(value: Any, what: str, fail: Any) -> str:
    """An id a command can name: a non-blank string without control characters (argv cannot carry a NUL, and an id
    with a newline or escape in it could never be shown or forgotten). Numbers are not turned into ids."""
    text = _text(value, what, fail, blank_ok=False)
    if _CONTROL.search(text):  # (Unicode's Cc: a regex, not a category lookup per character of 200k ids)
        raise fail(f"{what} {text!r} holds a control character")
    return text


def timestamp(value: Any, what: str, fail: Any) -> str | None:
    if value in (None, ""):
        return None
    if not isinstance(value, str):
        raise fail(f"{what} must be an RFC 3339 string")
    if _CANONICAL_TIME.fullmatch(value):  # as mnemon writes them (every row of an export): nothing to normalise
        return value
    try:
        return _normal_time(value)
    except (ValueError, OverflowError):
        raise fail(f"{what} {value!r} is not an RFC 3339 timestamp") from None


@lru_cache(maxsize=1024)  # (the edges a rule wrote in one run share a time: 421k edges of the 10k benchmark store)
def _normal_time(value: str) -> str:
    return iso(parse_iso(value))


def _number(value: Any, kind: type, what: str, fail: Any) -> Any:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise fail(f"{what} must be a number, got {value!r}")
    if not math.isfinite(value) or value < 0 or value > _MAX_COUNT:
        raise fail(f"{what} must be a finite non-negative number, got {value!r}")
    return kind(value)


_PLAIN = (int, float, bool, type(None))


def _flat_ascii(value: dict[Any, Any]) -> bool:
    """Whether the object holds only ASCII text and numbers (an edge rule's {"hours_diff": 0.193}): no surrogate to
    look for by encoding it whole."""
    for k, v in value.items():
        if k.__class__ is not str or not k.isascii():
            return False
        if v.__class__ is str:
            if not v.isascii():
                return False
        elif v.__class__ not in _PLAIN:
            return False
    return True


def _metadata(value: Any, what: str, fail: Any) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise fail(f"{what} must be a JSON object")
    if _flat_ascii(value):
        return value
    try:  # a surrogate anywhere inside would fail the write of the whole restore
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise fail(f"{what} holds text that is not valid Unicode") from None
    return value


def _refuse_nul(texts: list[str | None], fail: Any) -> None:
    if any(t and "\x00" in t for t in texts):
        raise fail("holds a NUL character, which this store's database cannot hold (PostgreSQL text; SQLite can)")


def parse_insight(item: Any, idx: int, now: str, *, nul_ok: bool = True) -> tuple[Memory, Any]:
    """One exported node: a memory (any writer's) or a payload scope's entity node; with its raw vector. `nul_ok`:
    the store can hold a NUL in text (a payload observation may have one)."""
    def fail(message: str) -> InvalidInput:
        return insight_error(idx, message)

    if not isinstance(item, dict):
        raise fail("must be a JSON object")
    mid = node_id(item.get("id"), "id", fail)
    source = _text(item.get("source") or "user", "source", fail, blank_ok=False)
    kind = item.get("kind", MEMORY)
    if kind != MEMORY and not (kind == "entity" and source.startswith(PAYLOAD_SCOPE)):
        # an export holds memories and the entity nodes of payload scopes; a note, heading or tag is its vault's
        raise fail(f"kind {kind!r} is not restored: an export holds memories and the entity nodes of mneme:// scopes")
    # a memory is text to find again; an entity node's text is its summary, which a payload may leave out
    content = _text(item.get("content"), "content", fail, blank_ok=kind != MEMORY)
    category = item.get("category", "general")
    if category not in CATEGORIES:
        raise fail(f"category must be one of {', '.join(CATEGORIES)}; got {category!r}")
    importance = item.get("importance", 3)
    if isinstance(importance, str) and importance.strip().isdigit():
        importance = int(importance)
    if isinstance(importance, bool) or not isinstance(importance, int) or not 1 <= importance <= 5:
        raise fail(f"importance must be an integer from 1 to 5; got {importance!r}")
    try:  # no count or length caps: vault notes carry more tags than `remember` takes
        tags, entities = split_list(item.get("tags")), split_list(item.get("entities"))
    except InvalidInput as exc:
        raise fail(f"tags and entities must be lists of strings ({exc.message})") from None
    for value in (*tags, *entities):
        _text(value, "a tag or entity", fail)
    title = item.get("title")
    if title is not None:
        title = _text(title, "title", fail)
    created = timestamp(item.get("created_at"), "created_at", fail)
    if created is not None and not _EARLIEST <= parse_iso(created) < _LATEST:
        raise fail(f"created_at {created!r} is out of range: give a time from year {_EARLIEST.year:04d} "
                   f"to {_LATEST.year - 1}")
    created = created or now
    updated = timestamp(item.get("updated_at"), "updated_at", fail) or created
    if parse_iso(updated) < parse_iso(created) - FUTURE_SLACK:
        # (within the slack: `remember` dates a memory up to a day ahead of the clock that stamps its write)
        raise fail(f"updated_at {updated!r} is before created_at {created!r}: a memory changes after it is made; "
                   "fix either date")
    mem = Memory(id=mid, kind=kind, content=content, category=category, importance=importance, tags=tuple(tags),
                 entities=tuple(entities), source=source, title=title or None,
                 metadata=_metadata(item.get("metadata"), "metadata", fail), created_at=created,
                 updated_at=updated,
                 last_accessed_at=timestamp(item.get("last_accessed_at"), "last_accessed_at", fail),
                 access_count=_number(item.get("access_count", 0), int, "access_count", fail),
                 effective_importance=_effective(item, fail),
                 inserted_at=timestamp(item.get("inserted_at"), "inserted_at", fail) or now,
                 deleted_at=_kept_deleted(item, source, mid, fail))
    if not nul_ok:  # (metadata is stored as JSON text, where a NUL is escaped)
        _refuse_nul([mem.content, mem.title, mem.source, *mem.tags, *mem.entities], fail)
    return mem, item.get("vector")


def dated_ahead_warning(count: int, latest: str, *, dry_run: bool) -> str:
    """What a restore says of the memories dated past the store's clock by more than `remember` allows (a clock
    that ran ahead where they were written): kept as dated, the file being the record of when, but not in silence."""
    if count == 1:
        rows, it, ranks = f"1 memory of the file is dated {latest}, more than a day after this store's clock", "it", \
            "it ranks as the newest in recall and does"
    else:
        rows, it, ranks = (f"{count} memories of the file are dated more than a day after this store's clock, the "
                           f"latest {latest}"), "them", "they rank as the newest in recall and do"
    kept = "would be restored" if dry_run else "restored"
    return (f"{rows} (did the clock of the machine that wrote {it} run ahead?): {kept} as dated, {ranks} not decay "
            "until then")


def _effective(item: dict[str, Any], fail: Any) -> float:
    """The row's effective importance, unless no importance, reads and links make it (`core.importance`: at most
    1.5 × max(1, ln(1 + reads))): a hand-edited 7 was restored and outranked every memory auto-prune weighs."""
    value = _number(item.get("effective_importance", 0.5), float, "effective_importance", fail)
    reads = item.get("access_count", 0)
    most = 1.5 * max(1.0, math.log1p(reads if isinstance(reads, (int, float)) and reads > 0 else 0))
    if value > most + 1e-4:  # (an export rounds it to 4 decimals)
        raise fail(f"effective_importance {value!r} is more than an importance, {reads!r} reads and links make "
                   f"(at most {most:.4g}); give one from 0 to it, or leave it out (0.5)")
    return value


def _kept_deleted(item: dict[str, Any], source: str, mid: str, fail: Any) -> str | None:
    """An export holds a deleted row only as a payload's own row kept for a person's decision about one of its
    edges (`backup._kept_for_decisions`), restored deleted; any other row is restored live, as it always was."""
    deleted = timestamp(item.get("deleted_at"), "deleted_at", fail)
    return deleted if source.startswith(PAYLOAD_SCOPE) and mid.startswith(source + "#") else None


def provider_width(identity: str) -> int | None:
    """The vector width an embedding identity names (`family:model:256`); None when it does not say ("native")."""
    last = identity.rsplit(":", 1)[-1]
    return int(last) if last.isdigit() and int(last) > 0 else None


def decode_vector(value: Any, idx: int, width: int | None) -> np.ndarray | None:
    """A base64 float32 vector of `width` finite values: a row of another width makes the store's vector matrix
    impossible to build (every later recall and remember failed), and a NaN spreads to every score near it."""
    if value in (None, ""):
        return None
    try:
        raw = base64.b64decode(value, validate=True) if isinstance(value, str) else b""
    except (binascii.Error, ValueError):
        raw = b""
    if not raw or len(raw) % 4:
        raise insight_error(idx, "vector is not base64 of little-endian float32 values")
    import numpy as np

    vec = np.frombuffer(raw, dtype="<f4")
    if width is not None and vec.shape[0] != width:
        raise insight_error(idx, f"vector has {vec.shape[0]} values; the export's provider makes {width}")
    if not np.isfinite(vec).all():
        raise insight_error(idx, "vector holds NaN or infinite values")
    return vec


def _relation(etype: Any, source_path: str, fail: Any) -> str:
    """A mnemon edge type or an ontology relation (as `link` and the vault gate know them). A payload or research
    claim (an edge with a source path) may name a relation the ontology does not — the gate stored it as an
    unknown claim, which a restore must bring back too — so its name is held to what the payload accepts: any
    non-blank text."""
    name = _text(etype, "edge_type", fail, blank_ok=False)
    if name in MNEMON_EDGE_TYPES or name in DEFAULT_ONTOLOGY.names() or source_path:
        return name
    raise fail(f"edge_type must be one of {', '.join(MNEMON_EDGE_TYPES)} or a relation of the ontology (an edge "
               f"without a source_path is no payload claim); got {name!r}")


# what a restore reads for an edge field the row leaves out (schema "1" on): an export leaves out each field that
# equals it (`backup_export.edge_json`), most of a big store's edges being temporal links at these values
EDGE_DEFAULTS: dict[str, Any] = {"sub_type": "", "weight": 1.0, "confidence": 1.0, "status": "active",
                                 "evidence": "", "origin": "import", "rule": "", "source_path": "", "metadata": {}}


_EDGE_TEXTS = ("sub_type", "evidence", "origin", "rule", "source_path")


def parse_edge(e: Any, k: int, now: str, *, nul_ok: bool = True) -> Edge:
    def fail(message: str) -> InvalidInput:
        return edge_error(k, message)

    if not isinstance(e, dict):
        raise fail("must be a JSON object")
    src = node_id(e.get("source_id"), "source_id", fail)
    dst = node_id(e.get("target_id"), "target_id", fail)
    if src == dst:
        raise fail("source_id must differ from target_id")
    texts = {key: value if (value := e.get(key, EDGE_DEFAULTS[key])).__class__ is str and value.isascii()
             else _text(value, key, fail) for key in _EDGE_TEXTS}  # (plain ASCII text, most rows: nothing to check)
    etype = _relation(e.get("edge_type"), texts["source_path"], fail)
    if not nul_ok:  # (a payload edge's evidence is its observation's text)
        _refuse_nul([etype, *texts.values()], fail)
    status = e.get("status", EDGE_DEFAULTS["status"])
    if status not in EDGE_STATUSES:
        raise fail(f"status must be one of {', '.join(EDGE_STATUSES)}")
    try:
        weight, confidence = (validate_weight(e.get("weight", EDGE_DEFAULTS["weight"])),
                              validate_weight(e.get("confidence", EDGE_DEFAULTS["confidence"])))
    except InvalidInput as exc:
        raise fail(exc.message) from None
    if e.get("decision") is not None and (not isinstance(e["decision"], str) or e["decision"] not in EDGE_DECISIONS):
        raise fail(f"decision must be one of {', '.join(EDGE_DECISIONS)}")
    created = timestamp(e.get("created_at"), "created_at", fail) or now
    updated = timestamp(e.get("updated_at"), "updated_at", fail) or created
    return Edge(src, dst, etype, texts["sub_type"], weight, confidence, status, texts["evidence"], texts["origin"],
                texts["rule"], texts["source_path"], _metadata(e.get("metadata"), "metadata", fail),
                created_at=created, updated_at=max(created, updated))
