"""Sense events: what entered the store, recorded so predictions can be checked against it.

Every path that brings evidence in records one: `remember` (origin `remember`), vault ingestion (`vault`), payload
memory (`payload`) and `sense add --file` (`external`). Mneme's plain `ingest` recorded none, so a prediction about a
note could never be confirmed by ingesting it; here the same function serves every producer.
"""
from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, NamedTuple

from ...core.errors import Conflict, InvalidInput
from ...core.model import Memory
from ...core.world.values import require_aware
from ...core.world.senses import (SenseEvent, has_derived_id, id_conflicts, kept_source_path,
                                  parse_sense_event, parse_sense_events)
from ..runtime import Runtime
from .tables import world_of

MAX_TEXT_CHARS = 20_000


def _source_path(event: SenseEvent, explicit: str | None) -> str:
    return explicit or kept_source_path(event.metadata, event.source_uri or "")[1]


def _store_events(rt: Runtime, events: Sequence[tuple[SenseEvent, str | None]]) -> list[str]:
    """Insert each (event, explicit source path) once and audit the new ones; the ids inserted, in order. An id
    already stored keeps its row. Only `add_sense_events` lets a producer choose ids, and it refuses one that names
    another event first; every other producer's id hashes what it perceived (sense type, source, time, title, text),
    so a stored id is that perception recorded already."""
    world = world_of(rt)
    now = rt.now_iso()
    created = world.put_sense_events([(e.to_row(), _source_path(e, path)) for e, path in events], now)
    first = {e.id: e for e, _path in reversed(events)}  # the event each inserted id came from
    world.log_events([("sensed", "sense_event", i, {"sense_type": first[i].sense_type, "origin": first[i].origin,
                                                    "source_id": first[i].source_id}) for i in created], now)
    return created


def _store_event(rt: Runtime, event: SenseEvent, source_path: str | None) -> bool:
    return bool(_store_events(rt, [(event, source_path)]))


def _payload(sense_type: str, source_id: str, observed_at: Any, title: str, text: str,
             metadata: Mapping[str, Any] | None, event_type: str, source_uri: str) -> dict[str, Any]:
    return {"sense_type": sense_type, "source_id": source_id or "", "observed_at": observed_at, "title": title or "",
            "text": (text or "")[:MAX_TEXT_CHARS], "event_type": event_type, "source_uri": source_uri or "",
            "metadata": dict(metadata or {})}


def record_sense_event(rt: Runtime, origin: str, sense_type: str, source_id: str, observed_at: Any, title: str,
                       text: str, metadata: Mapping[str, Any] | None = None, *, event_type: str = "document",
                       source_uri: str = "", source_path: str | None = None) -> dict[str, Any]:
    """Record one sense event (idempotent: the same event twice is one row). Opens its own transaction (nested
    inside a caller's transaction it becomes a savepoint), so ingestion can call it per note."""
    event = parse_sense_event(_payload(sense_type, source_id, observed_at, title, text, metadata, event_type,
                                       source_uri), origin=origin)
    with rt.store.transaction():
        created = _store_event(rt, event, source_path)
    return {"id": event.id, "created": created, "sense_type": event.sense_type, "origin": event.origin}


class SenseInput(NamedTuple):
    """The arguments of one `record_sense_event`, for `parsed_sense_event`."""

    sense_type: str
    source_id: str
    observed_at: Any
    title: str
    text: str
    metadata: Mapping[str, Any]
    event_type: str = "document"
    source_uri: str = ""
    source_path: str | None = None
    # False for a vault note's event: its id is still the hash of the whole event, text included (so a note planned
    # again unchanged, or an event stored with its text before, is the same row), but the row leaves the text out;
    # readers take it from the note's memories (`note_text.py`), named by metadata `path` and `content_hash`
    store_text: bool = True


def parsed_sense_event(origin: str, i: SenseInput) -> SenseEvent:
    """The event `record_sense_event` would store for `i`, validated (raises InvalidInput) but not stored: vault
    ingestion's workers parse their notes' events, and the writer stores them (`store_sense_events`)."""
    event = parse_sense_event(_payload(i.sense_type, i.source_id, i.observed_at, i.title, i.text, i.metadata,
                                       i.event_type, i.source_uri), origin=origin)
    return event if i.store_text else replace(event, text="")


def store_sense_events(rt: Runtime, events: Sequence[tuple[SenseEvent, str | None]]) -> int:
    """`record_sense_event` for many events in a handful of statements (vault ingestion stores one per changed note):
    (event from `parsed_sense_event`, explicit source path) pairs, the same rows and audit entries, in one
    transaction. Returns how many events were new."""
    if not events:
        return 0
    with rt.store.transaction():
        return len(_store_events(rt, events))


def memory_sense_type(source: str) -> str:
    """A person typing `remember` is manual evidence; anything an agent or tool writes is `agent` evidence."""
    return "manual" if source in ("user", "manual", "cli") else "agent"


def record_memory_sense(rt: Runtime, memory: Memory) -> dict[str, Any]:
    """The sense event of one `remember` write: observed when the memory says it happened (its created_at)."""
    return record_sense_event(
        rt, "remember", memory_sense_type(memory.source), memory.id, memory.created_at, memory.title or "",
        memory.content,
        {"memory_id": memory.id, "source": memory.source, "category": memory.category, "tags": list(memory.tags)},
        event_type="memory", source_uri=f"mnemon://memory/{memory.id}",
        source_path=memory.source if memory.source.startswith("mneme://") else None,
    )


def read_json_document(raw: Any, what: str) -> Any:
    """Text → JSON value with a JSON error (not a traceback) for malformed files."""
    if isinstance(raw, (bytes, bytearray)):
        raw = raw.decode("utf-8", errors="replace")
    if not isinstance(raw, str):
        return raw
    if not raw.strip():
        raise InvalidInput(f"{what} is empty; expected a JSON document")
    try:
        return json.loads(raw)
    except json.JSONDecodeError as exc:
        raise InvalidInput(f"{what} is not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})") from None


def _stored_events(rows: Mapping[str, Mapping[str, Any]]) -> dict[str, SenseEvent | None]:
    out: dict[str, SenseEvent | None] = {}
    for event_id, row in rows.items():
        try:
            out[event_id] = SenseEvent.from_row(row)
        except InvalidInput:
            out[event_id] = None  # a row no reader can parse is no event to be idempotent with
    return out


def _conflict_error(events: Sequence[SenseEvent], conflicts: list[dict[str, Any]]) -> Conflict:
    first = conflicts[0]
    event = events[first["index"]]
    differs = ", ".join(first["differs"])
    where = ("is already stored with another " + differs if first["stored"]
             else f"is also events[{first['other_index']}], with another {differs}")
    derived = " (derived from its sense type, source_id, time, title and text)" if has_derived_id(event) else ""
    more = f" ({len(conflicts) - 1} more in details.conflicts)" if len(conflicts) > 1 else ""
    return Conflict(
        f"events[{first['index']}]: sense event id {event.id!r}{derived} {where}{more}; an id names one event: send "
        "it unchanged, or give the new event an id of its own. Nothing was stored.",
        conflicts=conflicts)


def add_sense_events(rt: Runtime, document: Any) -> dict[str, Any]:
    """`sense add --file`: one event, a list, or {"events": [...]}; all or nothing. An event whose id is already
    stored is `already_present` when it is that same event again, and a `conflict` (the whole file refused, every
    such event listed) when it differs in any field: an event is never silently dropped or overwritten."""
    events = parse_sense_events(read_json_document(document, "sense event file"), origin="external",
                                now=require_aware(rt.now(), "clock"))
    if not events:
        raise InvalidInput("the sense event file holds no events")
    with rt.store.transaction():  # read and written under one write lock: no other writer slips in between
        stored = _stored_events(world_of(rt).sense_events_by_id([e.id for e in events]))
        conflicts = id_conflicts(events, stored)
        if conflicts:
            raise _conflict_error(events, conflicts)
        created = set(_store_events(rt, [(e, None) for e in events]))
    statuses: list[str] = []
    for event in events:
        statuses.append("added" if event.id in created else "already_present")
        created.discard(event.id)  # the same event twice in one file: added once, then already present
    added = statuses.count("added")
    return {"ok": True, "added": added, "duplicates": len(events) - added, "ids": [e.id for e in events],
            "events": [{"id": e.id, "status": status, "sense_type": e.sense_type, "source_id": e.source_id,
                        "observed_at": e.to_row()["observed_at"], "title": e.title}
                       for e, status in zip(events, statuses)]}
