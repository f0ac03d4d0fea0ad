"""`sense add` with an id already stored, on SQLite and PostgreSQL (`make_mem` under tests/app): the same event sent
again is `already_present`; another event under a stored id (or twice in one file) is a `conflict` that refuses the
whole file, lists every such event and what differs, and stores nothing — never a silently dropped event."""
from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime, timezone
from typing import Any

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.errors import Conflict

from conftest import FakeClock

from .conftest import WORLD_T0

T0 = WORLD_T0  # where the `world` fixture's clock starts


def event(**over: Any) -> dict[str, Any]:
    return {"id": "mail-1", "sense_type": "gws", "observed_at": "2026-06-01T08:00:00Z", "title": "Parcel",
            "text": "your parcel was delivered", **over}


def stored(mem: Mnemon) -> list[tuple[str, str, str, str]]:
    """(id, observed_at, text, recorded_at) of every stored sense event."""
    rows = mem.rt.store.world.sense_events()  # type: ignore[attr-defined]
    return sorted((row["id"], row["observed_at"], row["text"], recorded) for row, recorded in rows)


def test_the_same_event_sent_again_is_already_present(world: tuple[Mnemon, FakeClock]) -> None:
    mem, clock = world
    first = mem.sense_add(json.dumps(event()))
    assert (first["added"], first["events"][0]["status"]) == (1, "added")
    before = stored(mem)
    clock.advance(hours=1)
    # the same instant spelled another way is the same event
    again = mem.sense_add(json.dumps(event(observed_at="2026-06-01T10:00:00+02:00")))
    assert (again["added"], again["duplicates"], again["events"][0]["status"]) == (0, 1, "already_present")
    assert stored(mem) == before  # one row, its first recorded_at


def test_another_event_under_a_stored_id_is_a_conflict_and_the_stored_one_stays(
        world: tuple[Mnemon, FakeClock]) -> None:
    mem, clock = world
    mem.sense_add(json.dumps(event()))
    before = stored(mem)
    clock.advance(hours=1)
    with pytest.raises(Conflict) as info:
        mem.sense_add(json.dumps(event(observed_at="2026-05-29T08:00:00Z", text="your parcel was lost")))
    assert "'mail-1'" in info.value.message and "observed_at, text" in info.value.message
    assert info.value.details["conflicts"] == [
        {"index": 0, "id": "mail-1", "differs": ["observed_at", "text"], "stored": True}]
    assert stored(mem) == before  # neither overwritten nor joined by a second row


def test_a_file_with_a_conflict_stores_nothing_and_lists_every_conflict(world: tuple[Mnemon, FakeClock]) -> None:
    mem, _ = world
    mem.sense_add(json.dumps(event()))
    before = stored(mem)
    batch = [event(id="mail-2", text="a new mail"),  # valid on its own
             event(metadata={"label": "inbox"}),  # the stored id, other metadata
             event(id="mail-3", text="x"), event(id="mail-3", text="y")]  # one id twice in the file, two texts
    with pytest.raises(Conflict) as info:
        mem.sense_add(json.dumps({"events": batch}))
    assert info.value.details["conflicts"] == [
        {"index": 1, "id": "mail-1", "differs": ["metadata"], "stored": True},
        {"index": 3, "id": "mail-3", "differs": ["text"], "stored": False, "other_index": 2}]
    assert "1 more in details.conflicts" in info.value.message
    assert stored(mem) == before  # all or nothing: mail-2 is not stored either


def test_one_event_twice_in_a_file_is_added_once(world: tuple[Mnemon, FakeClock]) -> None:
    mem, _ = world
    out = mem.sense_add(json.dumps([event(), event(), event(id="mail-2")]))
    assert [e["status"] for e in out["events"]] == ["added", "already_present", "added"]
    assert (out["added"], out["duplicates"]) == (2, 1) and len(stored(mem)) == 2


def test_a_derived_id_names_its_content_too(world: tuple[Mnemon, FakeClock]) -> None:
    """Without an `id` the id hashes type, source, time, title and text: the same of those with other metadata is
    another event under that id, refused rather than dropped."""
    mem, _ = world
    plain = {k: v for k, v in event().items() if k != "id"}
    assert mem.sense_add(json.dumps(plain))["added"] == 1
    assert mem.sense_add(json.dumps(plain))["events"][0]["status"] == "already_present"
    with pytest.raises(Conflict, match="derived from its sense type"):
        mem.sense_add(json.dumps({**plain, "metadata": {"label": "inbox"}}))
    assert len(stored(mem)) == 1
