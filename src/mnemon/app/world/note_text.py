"""The text a vault note's sense event observed, read back from the store instead of stored in the event.

Vault ingestion records one `md` event per new or changed note, without its text (`SenseInput.store_text`): the
event names its note by metadata `path` and `content_hash`, and its text is what `note_sense_text` makes of the
note's title and of its task and bullet memories (source `vault:<path>`, tasks first, each in line order) — the text
the event used to carry (a bullet written twice in a note is one memory, so it is there once: the same words). On the
2,000-note benchmark vault the events went from 5.1 MB to 1.2 MB, indexes included.

Those memories are the note's *current* version, so which text an event gets depends on whether it saw that version:

* while the store's note still has the event's content hash, the event saw exactly these bytes, and its text is read
  from the memories (`with_note_texts`, for the events a prediction check reads). Should the same bytes be parsed
  again differently (new hints, a new parser), the event reads what they parse to now;
* before an ingest changes or removes a note, the note's events without text get it written into their rows, read
  from the memories about to be replaced (`keep_note_texts`): an old event goes on matching what it saw, as every
  event did when all of them carried their text. Only the events of superseded versions pay for their text;
* an event whose note changed without that step (an ingest with the world model missing, say) reads as no text,
  flagged `text_unavailable` — never as the new version's text, which is not what it observed.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING

from ...core.world.match import reads_event_text
from ...core.world.senses import TEXT_UNAVAILABLE, SenseEvent, is_note_event, note_sense_text
from ..runtime import Runtime
from .tables import world_of

if TYPE_CHECKING:  # an ingest imports this module to keep texts: the prediction machinery stays unloaded
    from ...core.world.predictions import Prediction

_VAULT = "vault:"
_OBSERVED_KINDS = ("task", "observation")  # memory kinds a note's event text is made of (sections are not)
_CHUNK = 500  # notes per read of their events (a statement's parameters stay few)


def _kind_of(memory_id: str) -> str:
    """A vault memory's kind from its id (`vault:<path>:<kind>:<digest>`, app/vault/plan.py)."""
    parts = memory_id.rsplit(":", 2)
    return parts[1] if len(parts) == 3 else ""


def note_observations(rt: Runtime, paths: Iterable[str]) -> dict[str, list[str]]:
    """path → the texts of its note's live task and bullet memories, tasks first, each in line order (the order the
    parser gives them)."""
    rows: dict[str, list[tuple[int, int, str]]] = {path: [] for path in set(paths)}
    vault = getattr(rt.store, "vault", None)
    if vault is None or not rows:
        return {path: [] for path in rows}
    for memory_id, source, metadata, text in vault.observation_texts([_VAULT + path for path in sorted(rows)]):
        kind = _kind_of(memory_id)
        found = rows.get(source[len(_VAULT):])
        if kind not in _OBSERVED_KINDS or found is None:
            continue
        line = json.loads(metadata).get("line") if metadata else None
        found.append((0 if kind == "task" else 1, line if isinstance(line, int) else 0, text))
    return {path: [text for _task, _line, text in sorted(found)] for path, found in rows.items()}


def _note_hashes(rt: Runtime) -> dict[str, str]:
    vault = getattr(rt.store, "vault", None)
    return {} if vault is None else {path: f.content_hash for path, f in vault.files().items()}


def with_note_texts(rt: Runtime, events: Sequence[SenseEvent],
                    wanted: Callable[[SenseEvent], bool]) -> list[SenseEvent]:
    """`events` with the text of each note event `wanted` asks for: read from the note while it is the version the
    event saw; otherwise left empty and flagged `text_unavailable` ("note_changed" / "note_removed")."""
    todo = [i for i, event in enumerate(events) if is_note_event(event) and wanted(event)]
    if not todo:
        return list(events)
    hashes = _note_hashes(rt)

    def saw_current(event: SenseEvent) -> bool:  # the store's note is the version this event observed
        return hashes.get(event.metadata["path"]) == event.metadata["content_hash"]

    observations = note_observations(rt, {events[i].metadata["path"] for i in todo if saw_current(events[i])})
    out = list(events)
    for i in todo:
        event = events[i]
        path = event.metadata["path"]
        if saw_current(event):
            out[i] = replace(event, text=note_sense_text(event.title, observations[path]))
        else:
            out[i] = replace(event, metadata={**event.metadata,
                                              TEXT_UNAVAILABLE: "note_changed" if path in hashes else "note_removed"})
    return out


def text_needed(predictions: Iterable[Prediction]) -> Callable[[SenseEvent], bool]:
    """Which events a check of these predictions reads the text of: for each open prediction with observation terms,
    the events of its sense inside its observation window; for a gate with observation terms, every event of the
    gate's sense (a gate is resolved over all stored events)."""
    windows: list[tuple[str, datetime | None, datetime | None]] = []
    for prediction in predictions:
        if prediction.status != "open":
            continue
        spec = prediction.match
        if reads_event_text(spec.terms):
            windows.append((spec.sense_type, spec.observed_after or prediction.check_after,
                            spec.observed_before or prediction.expires_at))
        if spec.gate is not None and reads_event_text(spec.gate.terms):
            windows.append((spec.gate.sense_type, None, None))

    def wanted(event: SenseEvent) -> bool:
        return any(event.sense_type == sense_type
                   and (start is None or end is None or start <= event.observed_at <= end)
                   for sense_type, start, end in windows)
    return wanted


def keep_note_texts(rt: Runtime, superseded: Mapping[str, str]) -> int:
    """Before an ingest replaces or removes notes (path → the content hash of the version going away): write into
    each of their events stored without text, of that version, the text read from the memories still there. Call it
    inside the ingest's transaction, before the notes' rows change. How many events got their text."""
    if not superseded:
        return 0
    world = world_of(rt)
    paths = sorted(superseded)
    rows = [row for start in range(0, len(paths), _CHUNK)
            for row, _at in world.sense_events(source_paths=paths[start:start + _CHUNK])]
    events = [event for event in map(SenseEvent.from_row, rows)
              if is_note_event(event) and superseded.get(event.metadata["path"]) == event.metadata["content_hash"]]
    if not events:
        return 0
    observations = note_observations(rt, {event.metadata["path"] for event in events})
    kept = world.set_sense_event_texts({event.id: note_sense_text(event.title, observations[event.metadata["path"]])
                                        for event in events})
    world.log_events([("text_kept", "sense_event", event.id,
                       {"reason": "note_changed", "path": event.metadata["path"],
                        "content_hash": event.metadata["content_hash"]}) for event in events], rt.now_iso())
    return int(kept)


def keep_texts_before_forget(rt: Runtime, memory_id: str, source: str) -> int:
    """Before a plain `forget` soft-deletes a note's task or bullet memory: the events of the note's current version
    get their text written in (`keep_note_texts`), so what they observed stays what they observed — forgetting hides
    a memory from recall; it does not rewrite perception (a prediction the event confirmed stays confirmed). Any other
    memory is not part of an event's text: nothing to do. Call it inside the forget's transaction."""
    if not source.startswith(_VAULT) or _kind_of(memory_id) not in _OBSERVED_KINDS:
        return 0
    path = source[len(_VAULT):]
    digest = _note_hashes(rt).get(path)
    return 0 if digest is None else keep_note_texts(rt, {path: digest})
