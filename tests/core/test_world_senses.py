"""Sense event ids: which events are the same event sent again, and which reuse an id for another event."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from mnemon.core.errors import InvalidInput
from mnemon.core.world.senses import (event_differences, has_derived_id, id_conflicts, parse_sense_event,
                                      parse_sense_events)


def event(origin: str = "external", **over: Any) -> Any:
    return parse_sense_event({"id": "e1", "sense_type": "gws", "observed_at": "2026-06-01T08:00:00Z", "title": "T",
                              "text": "parcel delivered", **over}, origin)


def test_the_same_instant_spelled_otherwise_is_the_same_event() -> None:
    assert event_differences(event(), event(observed_at="2026-06-01T10:00:00+02:00")) == ()


def test_every_stored_field_is_compared() -> None:
    changed = event(observed_at="2026-06-02", title="U", text="lost", source_id="m", event_type="mail",
                    source_uri="gws://m", metadata={"k": 1})
    assert event_differences(event(), changed) == ("source_id", "observed_at", "title", "text", "event_type",
                                                   "source_uri", "metadata")
    assert event_differences(event(), event(origin="payload")) == ("origin",)


def test_a_vault_note_event_given_its_text_later_is_still_the_same_event() -> None:
    note = event("vault", event_type="note", text="", metadata={"path": "a.md", "content_hash": "h"})
    with_text = replace(note, text="what the note said")  # note_text.py writes it in before the note changes
    assert event_differences(with_text, note) == () and event_differences(note, with_text) == ()
    assert event_differences(with_text, replace(note, title="other")) == ("title",)


def test_conflicts_name_the_stored_event_or_the_earlier_one_in_the_batch() -> None:
    batch = [event(), event(text="other"), event(id="e2"), event(id="e2"), event(id="e2", title="U")]
    assert id_conflicts(batch, {}) == [
        {"index": 1, "id": "e1", "differs": ["text"], "stored": False, "other_index": 0},
        {"index": 4, "id": "e2", "differs": ["title"], "stored": False, "other_index": 2}]
    assert id_conflicts([event()], {"e1": event()}) == []
    assert id_conflicts([event()], {"e1": None}) == [
        {"index": 0, "id": "e1", "differs": ["unreadable stored row"], "stored": True}]


def test_an_id_left_out_is_derived_from_the_content() -> None:
    plain = parse_sense_event({"sense_type": "gws", "observed_at": "2026-06-01", "text": "x"})
    assert has_derived_id(plain) and not has_derived_id(event())


@pytest.mark.parametrize("events", [{}, {"sense_type": "note"}, "x", 3, None])
def test_an_events_member_that_is_not_a_list_says_so(events: object) -> None:
    """`{"events": {}}` was read as one event and refused as "missing required field 'sense_type'"."""
    with pytest.raises(InvalidInput, match="'events' must be a list"):
        parse_sense_events({"events": events})
