"""Sense events: the stored evidence that predictions are checked against.

A sense event is anything the agent *perceived* with a timestamp: a vault note (`origin=vault`), an event carried in
a scoped payload or `remember` write, or external JSON handed to `sense add --file`. Predictions only ever match
sense events, never chat or LLM judgement, which is what keeps `predict check` deterministic.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from mnemon.core.errors import InvalidInput
from mnemon.core.validation import FUTURE_SLACK
from mnemon.core.world.values import (
    check_key,
    content_hash,
    iso,
    optional_mapping,
    optional_str,
    parse_instant,
    refuse_nul,
    refuse_unknown_keys,
    require_mapping,
    required_str,
)

# The one place sense types are listed. `md` is the vault, `gws` Google Workspace (mail/calendar/tasks),
# `hermes_sessions`/`gateway_log` the agent host's own logs, `manual` a person typing evidence in, `agent` events an
# agent records about its own tool results.
SENSE_TYPES: tuple[str, ...] = ("md", "gws", "notion", "hermes_sessions", "gateway_log", "manual", "agent")
SENSE_ORIGINS: tuple[str, ...] = ("vault", "payload", "remember", "external")
# A vault note's event observes its title and its bullets and tasks, cut here (`note_sense_text`).
NOTE_TEXT_CHARS = 2000
# Set (in memory, never stored) on a note event whose text could not be read back: its note changed or went away.
TEXT_UNAVAILABLE = "text_unavailable"
# every key a sense event payload may carry (its origin is the producer's to say, never the payload's)
SENSE_EVENT_FIELDS = frozenset(("id", "sense_type", "source_id", "observed_at", "title", "text", "event_type",
                                "source_uri", "metadata"))


def require_sense_type(value: Any, field_name: str) -> str:
    if not isinstance(value, str):
        raise InvalidInput(f"{field_name} must be a string, got {type(value).__name__}", field=field_name)
    sense_type = value.strip().lower()
    if sense_type not in SENSE_TYPES:
        raise InvalidInput(
            f"{field_name}: unknown sense type {value!r}; known sense types: {', '.join(SENSE_TYPES)}",
            field=field_name,
            known=list(SENSE_TYPES),
        )
    return sense_type


@dataclass(frozen=True)
class SenseEvent:
    id: str
    sense_type: str
    observed_at: datetime
    source_id: str = ""
    title: str = ""
    text: str = ""
    event_type: str = "document"
    source_uri: str = ""
    metadata: Mapping[str, Any] = field(default_factory=dict)
    origin: str = "external"

    def to_row(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "sense_type": self.sense_type,
            "source_id": self.source_id,
            "observed_at": iso(self.observed_at),
            "title": self.title,
            "text": self.text,
            "event_type": self.event_type,
            "source_uri": self.source_uri,
            "metadata": dict(self.metadata),
            "origin": self.origin,
        }

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> SenseEvent:
        data = require_mapping(row, "sense event row")
        origin = data.get("origin") or "external"
        return parse_sense_event(data, origin=origin if isinstance(origin, str) else repr(origin),
                                 refuse_unknown=False)


def note_sense_text(title: str, observations: Sequence[str]) -> str:
    """What a vault note's sense event observed: the title, then each task and bullet (tasks first), one a line."""
    return "\n".join([title, *observations])[:NOTE_TEXT_CHARS]


def is_note_event(event: SenseEvent) -> bool:
    """A vault note's event stored without its text (`SenseInput.store_text`): it names its note by path and content
    hash, and its text is read back from the note's memories (`app/world/note_text.py`). An event that carries text
    (any other origin, or a note's event written before the text was left out, or kept when its note changed) is
    read as stored."""
    meta = event.metadata
    return (event.origin == "vault" and event.event_type == "note" and not event.text
            and isinstance(meta.get("path"), str) and isinstance(meta.get("content_hash"), str))


def kept_source_path(metadata: Mapping[str, Any], source_uri: str) -> tuple[str, str]:
    """The field a sense event's source path is kept from, and the path: its metadata's source_path or path, else its
    source_uri ("" without one)."""
    for key in ("source_path", "path"):
        value = metadata.get(key)
        if isinstance(value, str) and value:
            return f"metadata.{key}", value
    return "source_uri", source_uri


def sense_event_id(sense_type: str, source_id: str, observed_at: datetime, title: str, text: str) -> str:
    """Content hash, so the same external event fed twice is the same row (replay-idempotent)."""
    return content_hash("se:", [sense_type, source_id, iso(observed_at), title, text], 24)


def parse_sense_event(obj: Any, origin: str = "external", *, refuse_unknown: bool = True,
                      now: datetime | None = None) -> SenseEvent:
    """Validate one external sense-event JSON object (the `sense add --file` shape): a key outside
    `SENSE_EVENT_FIELDS` is refused (a misspelt `text` would store an event no prediction can match), except in a
    stored row (`from_row`), which is read as it is. With `now`, an `observed_at` more than `FUTURE_SLACK` after it
    is refused."""
    what = "sense event"
    data = require_mapping(obj, what)
    if refuse_unknown:
        refuse_unknown_keys(data, SENSE_EVENT_FIELDS, what)
        refuse_nul(data, what)
    if origin not in SENSE_ORIGINS:
        raise InvalidInput(f"{what}: origin must be one of {', '.join(SENSE_ORIGINS)}, got {origin!r}")
    if data.get("sense_type") is None:
        raise InvalidInput(f"{what}: missing required field 'sense_type'", field="sense_type")
    sense_type = require_sense_type(data["sense_type"], "sense_type")
    if data.get("observed_at") is None:
        raise InvalidInput(f"{what}: missing required field 'observed_at'", field="observed_at")
    observed_at = parse_instant(data["observed_at"], "observed_at")
    if now is not None and observed_at > now + FUTURE_SLACK:
        # evidence is dated when it was perceived: a mistyped year was stored, matched no check until that date and
        # then decided a prediction it was never evidence for (as `action record`/`predict add` refuse their dates)
        raise InvalidInput(f"{what}: observed_at {iso(observed_at)} is in the future (now is {iso(now)}); a sense "
                           "event is dated when it was perceived", field="observed_at")
    source_id = optional_str(data, "source_id", what, "") or ""
    title = optional_str(data, "title", what, "") or ""
    text = optional_str(data, "text", what, "") or ""
    if not (source_id or title or text):
        raise InvalidInput(f"{what}: needs at least one of source_id, title or text so it can ever match",
                           field="source_id", fields=["source_id", "title", "text"])
    event_type = optional_str(data, "event_type", what, "document") or "document"
    source_uri = optional_str(data, "source_uri", what, "") or ""
    metadata = optional_mapping(data, "metadata", what)
    if refuse_unknown:  # the store indexes the path: one over its limit is named by the field it came from
        path_field, path = kept_source_path(metadata, source_uri)
        check_key(path, path_field, what)
    event_id = (
        required_str(data, "id", what)
        if data.get("id") is not None
        else sense_event_id(sense_type, source_id, observed_at, title, text)
    )
    return SenseEvent(
        id=event_id,
        sense_type=sense_type,
        observed_at=observed_at,
        source_id=source_id,
        title=title,
        text=text,
        event_type=event_type,
        source_uri=source_uri,
        metadata=metadata,
        origin=origin,
    )


# what a sense event is compared by when its id comes again: every field the store keeps
_COMPARED = ("sense_type", "source_id", "observed_at", "title", "text", "event_type", "source_uri", "metadata",
             "origin")


def event_differences(stored: SenseEvent, new: SenseEvent) -> tuple[str, ...]:
    """The fields in which `new` differs from `stored`, an event already held under the same id; empty when `new` is
    the same event sent again. A vault note's event is stored without its text and may be given it later
    (`note_text.py`), so a text-less note event says nothing about the text."""
    old_row, new_row = stored.to_row(), new.to_row()
    skip_text = is_note_event(stored) or is_note_event(new)
    return tuple(name for name in _COMPARED
                 if old_row[name] != new_row[name] and not (name == "text" and skip_text))


def has_derived_id(event: SenseEvent) -> bool:
    """The event's id is the hash of its content (`sense_event_id`), not one its producer chose."""
    return event.id == sense_event_id(event.sense_type, event.source_id, event.observed_at, event.title, event.text)


def id_conflicts(events: Sequence[SenseEvent], stored: Mapping[str, SenseEvent | None]) -> list[dict[str, Any]]:
    """Every event of a batch whose id already names another event: one stored (`stored`, by id; None for a stored
    row that no longer parses), or an earlier event of the batch. An event sent again unchanged is no conflict.
    Each entry: its `index`, `id`, the fields that `differ` and what it differs from (`stored`, or `other_index`)."""
    out: list[dict[str, Any]] = []
    first: dict[str, int] = {}
    for index, event in enumerate(events):
        if event.id in stored:
            held = stored[event.id]
            differ = ("unreadable stored row",) if held is None else event_differences(held, event)
            if differ:
                out.append({"index": index, "id": event.id, "differs": list(differ), "stored": True})
        elif event.id in first:
            differ = event_differences(events[first[event.id]], event)
            if differ:
                out.append({"index": index, "id": event.id, "differs": list(differ), "stored": False,
                            "other_index": first[event.id]})
        else:
            first[event.id] = index
    return out


def parse_sense_events(obj: Any, origin: str = "external", *, now: datetime | None = None) -> list[SenseEvent]:
    """A file may hold one event, a list, or `{"events": [...]}`; errors name the failing index. `now` as in
    `parse_sense_event`."""
    if isinstance(obj, Mapping) and "events" in obj:
        obj = obj["events"]
        if isinstance(obj, (str, bytes, Mapping)) or not isinstance(obj, Sequence):
            # (an object here was read as one event: "missing required field 'sense_type'" for `{"events": {}}`)
            raise InvalidInput(f"'events' must be a list of sense events, got {type(obj).__name__}", field="events")
    if isinstance(obj, Mapping):
        return [parse_sense_event(obj, origin, now=now)]
    if isinstance(obj, (str, bytes)) or not isinstance(obj, Sequence):
        raise InvalidInput(f"sense events must be an object or a list of objects, got {type(obj).__name__}")
    events: list[SenseEvent] = []
    for index, item in enumerate(obj):
        try:
            events.append(parse_sense_event(item, origin, now=now))
        except InvalidInput as error:
            raise InvalidInput(f"events[{index}]: {error.message}", index=index, **error.details) from None
    return events
