"""A vault note's sense event names its note (path + content hash) instead of carrying its text.

What must not change: predictions over vault notes decide as they did when every event carried its text (checked here
against the core matcher fed the text each event used to store), an old event keeps matching what it saw after its
note changes or goes away (and never claims the new version's text), and events of every other origin keep their
text. Every test runs on SQLite and PostgreSQL (`make_mem` under tests/app).
"""
from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.vault import parse_note
from mnemon.app.world.common import load_events
from mnemon.app.world.note_text import with_note_texts
from mnemon.core.vault import DEFAULT_HINTS
from mnemon.core.world import Prediction, evaluate_prediction
from mnemon.core.world.senses import NOTE_TEXT_CHARS, TEXT_UNAVAILABLE, note_sense_text, sense_event_id

from conftest import FakeClock

T0 = datetime(2026, 6, 1, tzinfo=timezone.utc)
DAY = 86_400.0
HINTS = tuple(h.strip().lower() for h in DEFAULT_HINTS if h.strip())  # what `ingest` plans with by default

NOTES = {
    "Projects/parcel.md": "# Parcel\n\n- [ ] Chase the courier about the parcel\n"
                          "- Blocked: the parcel is stuck at the depot\n- Risk: the depot closes at noon\n",
    "Trips/lisbon.md": "---\ntitle: Lisbon trip\n---\n# Lisbon\n\nSome prose about the trip.\n\n"
                       "- Blocked: the boarding pass needs a passport scan\n- [x] Book the hotel\n"
                       "- Risk: the hotel is near the river and floods\n",
    "Daily/2026-06-02.md": "# June 2\n\n- Blocked: waiting for Ana's school confirmation\n- Blocked: 東京の会議は延期\n",
    "Long/log.md": "# Log\n\n" + "".join(f"- [ ] Entry {i}: schedule the routine maintenance of the north pump"
                                        f" station and log the readings\n" for i in range(30))
                   + "- Risk: the warranty claim deadline\n",
    "Dupes/twice.md": "# Twice\n\n- Risk: water the plants\n- risk:  water the plants\n- Risk: feed the cat\n",
}


def _write(vault: Path, rel: str, text: str, at: float) -> None:
    path = vault / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    os.utime(path, (at, at))


def _vault(tmp_path: Path) -> Path:
    vault = tmp_path / "vault"
    for i, (rel, text) in enumerate(sorted(NOTES.items())):
        _write(vault, rel, text, T0.timestamp() + DAY + i * 3600)  # June 2, an hour apart
    return vault


@pytest.fixture
def ingested(make_mem: Callable[..., Mnemon], tmp_path: Path) -> tuple[Mnemon, Path]:
    """A store on a clock at June 10 with the vault of `NOTES` ingested (each note observed on June 2)."""
    mem = make_mem("hash", clock=FakeClock(datetime(2026, 6, 10, tzinfo=timezone.utc)))
    vault = _vault(tmp_path)
    mem.ingest(str(vault), embed=False)
    return mem, vault


def _rows(mem: Mnemon, sense_type: str = "md") -> list[dict[str, Any]]:
    return [row for row, _at in mem.rt.store.world.sense_events(sense_types=[sense_type])]  # type: ignore[attr-defined]


def _plan_text(vault: Path, rel: str) -> str:
    """The text a note's event carried before (what the planner hashes into its id: app/vault/plan.py)."""
    parsed = parse_note(rel, (vault / rel).read_text(encoding="utf-8"), hints=HINTS)
    return note_sense_text(parsed.title, [o.text for o in parsed.observations])


def _prediction(terms: dict[str, Any], **over: Any) -> dict[str, Any]:
    return {"title": f"expect {json.dumps(terms, sort_keys=True)}", "check_after": "2026-06-01T00:00:00Z",
            "expires_at": "2026-06-05T00:00:00Z", "match_json": {"sense_type": "md", **terms}, **over}


def test_a_vault_notes_event_carries_its_path_and_hash_not_its_text(ingested: tuple[Mnemon, Path]) -> None:
    mem, vault = ingested
    rows = _rows(mem)
    assert sorted(row["source_id"] for row in rows) == sorted(NOTES)
    for row in rows:
        rel = row["source_id"]
        data = (vault / rel).read_bytes()
        assert row["text"] == "" and row["origin"] == "vault" and row["event_type"] == "note"
        assert row["metadata"]["path"] == rel and row["metadata"]["content_hash"] == hashlib.sha256(data).hexdigest()
        assert "depot" not in json.dumps(row).lower() and "warranty" not in json.dumps(row).lower()
        # the id is the one the event had when it carried its text: a store written before keeps the same rows
        assert row["id"] == sense_event_id("md", rel, datetime.fromisoformat(row["observed_at"]), row["title"],
                                           _plan_text(vault, rel))


def test_the_text_read_back_is_the_text_the_event_used_to_carry(ingested: tuple[Mnemon, Path]) -> None:
    mem, vault = ingested
    events = with_note_texts(mem.rt, load_events(mem.rt), lambda _e: True)
    texts = {e.source_id: e.text for e in events}
    for rel in NOTES:
        if rel != "Dupes/twice.md":
            assert texts[rel] == _plan_text(vault, rel), rel
    assert len(texts["Long/log.md"]) == NOTE_TEXT_CHARS  # cut where it was cut, so a late bullet still does not match
    # a bullet written twice is one memory: its words are all there, once
    assert texts["Dupes/twice.md"] == "Twice\nRisk: water the plants\nRisk: feed the cat"


def _check_against_the_old_shape(mem: Mnemon, vault: Path, payloads: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The dry-run check of each prediction, asserting the core matcher decides the same over the events as they
    were stored before (each with its planned text)."""
    ids = [mem.predict_add(p)["prediction"]["id"] for p in payloads]
    now = mem.rt.clock()
    old_shape = [replace(e, text=_plan_text(vault, e.source_id)) if e.origin == "vault" else e
                 for e in load_events(mem.rt)]
    results = []
    for pid in ids:
        got = mem.predict_check(prediction_id=pid, dry_run=True)["results"][0]
        row = mem.rt.store.world.get_prediction(pid)  # type: ignore[attr-defined]
        before = evaluate_prediction(Prediction.from_row(row), old_shape, now)
        assert (got["status"], got["outcome_summary"], got["matches"]) == (
            before.new_status, before.outcome_summary, list(before.matched_event_ids)), got
        results.append(got)
    return results


def test_predictions_over_vault_notes_decide_as_when_events_carried_their_text(ingested: tuple[Mnemon, Path]) -> None:
    mem, vault = ingested
    payloads = [
        _prediction({"observation_terms_all": ["parcel", "depot"]}),
        _prediction({"observation_terms_any": ["boarding pass"]}),
        _prediction({"observation_terms_all": ["school confirmation"], "title_terms_any": ["june"]}),
        _prediction({"observation_terms_all": ["東京"]}),
        _prediction({"observation_terms_all": ["warranty"]}),  # past the 2,000 characters: not seen, as before
        _prediction({"observation_terms_all": ["maintenance"]}),
        _prediction({"observation_terms_all": ["courier"], "source_path_terms_any": ["projects"]}),
        _prediction({"observation_terms_all": ["submarine"]}),
        _prediction({"title_terms_all": ["lisbon", "trip"]}),
        _prediction({"source_id": "Trips/lisbon.md"}),
        _prediction({"observation_terms_any": ["hotel"], "min_score": 1.0}, prediction_type="no_news_expected"),
        _prediction({"observation_terms_all": ["parcel"],
                     "gate": {"sense_type": "md", "observation_terms_all": ["hotel", "river"]}}),
        _prediction({"observation_terms_all": ["plants"]}, check_after="2026-06-03T00:00:00Z",
                    expires_at="2026-06-20T00:00:00Z"),  # outside its window: stays open
    ]
    statuses = [r["status"] for r in _check_against_the_old_shape(mem, vault, payloads)]
    assert statuses == ["confirmed", "confirmed", "confirmed", "confirmed", "missed", "confirmed", "confirmed",
                        "missed", "confirmed", "confirmed", "missed", "confirmed", "open"]


def test_an_old_event_keeps_what_it_saw_when_its_note_changes_or_goes(ingested: tuple[Mnemon, Path]) -> None:
    mem, vault = ingested
    rel = "Projects/parcel.md"
    first = next(row for row in _rows(mem) if row["source_id"] == rel)
    seen_first = _plan_text(vault, rel)
    _write(vault, rel, "# Parcel\n\n- Blocked: boarding pass printed, needs a signature\n", T0.timestamp() + 2 * DAY)
    assert mem.ingest(str(vault), embed=False)["notes_read"] == 1
    rows = {row["id"]: row for row in _rows(mem) if row["source_id"] == rel}
    second = next(row for i, row in rows.items() if i != first["id"])
    assert len(rows) == 2 and second["text"] == ""  # the current version's event stays without text
    assert rows[first["id"]]["text"] == seen_first  # the old one got what it saw, before the note was replaced
    assert rows[first["id"]]["metadata"] == first["metadata"]
    events = {e.id: e for e in with_note_texts(mem.rt, load_events(mem.rt), lambda _e: True)}
    assert "depot" in events[first["id"]].text and "boarding" not in events[first["id"]].text.lower()
    assert "boarding pass printed" in events[second["id"]].text and "depot" not in events[second["id"]].text

    depot = mem.predict_add(_prediction({"observation_terms_all": ["depot"]}))["prediction"]["id"]
    printed = mem.predict_add(_prediction({"observation_terms_all": ["printed"]}))["prediction"]["id"]
    got = {r["id"]: r for r in mem.predict_check(dry_run=True)["results"]}
    assert got[depot]["status"] == "confirmed" and got[depot]["matches"] == [first["id"]]
    assert got[printed]["status"] == "confirmed" and got[printed]["matches"] == [second["id"]]

    (vault / rel).unlink()
    mem.ingest(str(vault), embed=False)
    gone = {row["id"]: row for row in _rows(mem) if row["source_id"] == rel}
    assert "boarding pass printed" in gone[second["id"]]["text"] and gone[first["id"]]["text"] == seen_first
    got = {r["id"]: r for r in mem.predict_check(dry_run=True)["results"]}
    assert got[printed]["matches"] == [second["id"]] and got[depot]["matches"] == [first["id"]]
    audit = mem.rt.store.world.events("sense_event", first["id"])  # type: ignore[attr-defined]
    assert [a["event"] for a in audit] == ["sensed", "text_kept"]


def test_an_event_whose_note_changed_unnoticed_reads_as_no_text(ingested: tuple[Mnemon, Path],
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the keeping step (an ingest without the world model), an old event must not claim the new text."""
    mem, vault = ingested
    monkeypatch.setattr("mnemon.app.vault.ingest._keep_sense_texts", lambda rt, superseded: 0)
    rel = "Projects/parcel.md"
    first = next(row for row in _rows(mem) if row["source_id"] == rel)
    _write(vault, rel, "# Parcel\n\n- Blocked: boarding pass printed, needs a signature\n", T0.timestamp() + 2 * DAY)
    mem.ingest(str(vault), embed=False)
    (vault / "Trips/lisbon.md").unlink()
    mem.ingest(str(vault), embed=False)
    events = {e.id: e for e in with_note_texts(mem.rt, load_events(mem.rt), lambda _e: True)}
    old = events[first["id"]]
    assert old.text == "" and old.metadata[TEXT_UNAVAILABLE] == "note_changed"
    lisbon = next(e for e in events.values() if e.source_id == "Trips/lisbon.md")
    assert lisbon.text == "" and lisbon.metadata[TEXT_UNAVAILABLE] == "note_removed"
    printed = mem.predict_add(_prediction({"observation_terms_all": ["printed"]}))["prediction"]["id"]
    got = mem.predict_check(prediction_id=printed, dry_run=True)["results"][0]
    assert got["status"] == "confirmed" and first["id"] not in got["matches"]
    # the title and the path are in the row itself: those terms still match the old event
    title = mem.predict_add(_prediction({"title_terms_all": ["parcel"]}))["prediction"]["id"]
    assert first["id"] in mem.predict_check(prediction_id=title, dry_run=True)["results"][0]["matches"]


def test_planning_a_note_again_unchanged_records_no_event_and_keeps_no_text(ingested: tuple[Mnemon, Path]) -> None:
    mem, vault = ingested
    before = _rows(mem)
    out = mem.ingest(str(vault), embed=False, hints=["maintenance", "courier"])  # new hints: every note re-planned
    assert out["notes_read"] == len(NOTES)
    assert _rows(mem) == before  # same ids, still without text


def test_events_of_other_origins_and_old_note_events_keep_their_text(ingested: tuple[Mnemon, Path]) -> None:
    mem, vault = ingested
    mem.sense_add(json.dumps({"sense_type": "gws", "observed_at": "2026-06-03T00:00:00Z", "title": "Courier",
                              "text": "Your parcel is out for delivery", "source_id": "mail-1"}))
    mem.remember("The parcel was signed for by the neighbour", source="user")
    # a note's event as a store written before kept it: the whole event in `data`, text included
    rel = "Projects/parcel.md"
    old = {"id": "old-parcel-event", "sense_type": "md", "source_id": rel, "observed_at": "2026-06-01T12:00:00+00:00",
           "title": "Parcel", "text": "The parcel went to the old address", "event_type": "note",
           "source_uri": f"vault:{rel}", "metadata": {"path": rel, "content_hash": "0" * 64, "type": "note"},
           "origin": "vault"}
    mem.rt.store.world.store._write(  # type: ignore[attr-defined]
        "INSERT INTO sense_events(id, sense_type, source_id, origin, observed_at, source_path, data, recorded_at)"
        " VALUES (?,?,?,?,?,?,?,?)", (old["id"], "md", rel, "vault", old["observed_at"], rel,
                                       json.dumps(old, sort_keys=True, separators=(",", ":")), "2026-06-01T12:00:00Z"))
    assert [r["text"] for r in _rows(mem, "gws")] == ["Your parcel is out for delivery"]
    assert [r["text"] for r in _rows(mem, "manual")] == ["The parcel was signed for by the neighbour"]
    assert [r for r in _rows(mem) if r["text"]] == [old]  # read as written
    _write(vault, rel, "# Parcel\n\n- Nothing here\n", T0.timestamp() + 2 * DAY)
    mem.ingest(str(vault), embed=False)
    events = {e.id: e for e in with_note_texts(mem.rt, load_events(mem.rt), lambda _e: True)}
    assert events[old["id"]].text == "The parcel went to the old address"  # read as stored, not from the note
    assert TEXT_UNAVAILABLE not in events[old["id"]].metadata
    for sense_type, terms in (("gws", ["delivery"]), ("manual", ["neighbour"]), ("md", ["old address"])):
        pid = mem.predict_add({**_prediction({"observation_terms_all": terms}, expires_at="2026-06-11T00:00:00Z"),
                               "match_json": {"sense_type": sense_type, "observation_terms_all": terms}}
                              )["prediction"]["id"]
        assert mem.predict_check(prediction_id=pid, dry_run=True)["results"][0]["status"] == "confirmed", sense_type


def test_a_check_reads_the_text_only_of_events_a_prediction_looks_at(ingested: tuple[Mnemon, Path],
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    mem, vault = ingested
    read: list[set[str]] = []
    import mnemon.app.world.note_text as note_text

    real = note_text.note_observations
    monkeypatch.setattr(note_text, "note_observations", lambda rt, paths: read.append(set(paths)) or real(rt, paths))
    mem.predict_add(_prediction({"title_terms_all": ["lisbon"]}))
    mem.predict_check(dry_run=True)
    assert read == []  # title terms only: no note's text is read
    mem.predict_add(_prediction({"observation_terms_all": ["hotel"]}, check_after="2026-06-02T02:30:00Z",
                                expires_at="2026-06-02T05:00:00Z"))
    mem.predict_check(dry_run=True)
    assert read == [{"Projects/parcel.md", "Trips/lisbon.md"}]  # the notes observed inside its window
