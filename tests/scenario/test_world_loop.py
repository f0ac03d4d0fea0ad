"""The whole world loop on a fictional example (issue 5, "Done when").

A resolved claim becomes a current assertion; a gated prediction is added; evidence arrives as sense events (one of
them through plain `remember`); `world tick` confirms it; another prediction expires, is missed and weakens its
assertion once; an exclusive predicate gets a challenger the radar reports; `--as-of` replays an earlier instant
exactly; preflight shows all of it.

Set WORLD_SCENARIO_OUT=/path.json to keep the JSON of every step.
"""
from __future__ import annotations

import json
import os
from collections.abc import Callable
from datetime import datetime, timezone
from typing import Any

from mnemon.app.memory import Mnemon
from mnemon.app.world import propose_assertion
from mnemon.core.model import Edge, Memory, iso

from conftest import FakeClock

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=timezone.utc)
T1 = "2026-06-05T12:00:00+00:00"
T2 = datetime(2026, 6, 16, 9, 0, tzinfo=timezone.utc)

HOME_CLAIM = {
    "subject": "Mira Okafor", "predicate": "lives_in", "object": "Lisbon", "object_type": "place",
    "confidence": 0.95, "certainty": "confirmed", "valid_from": "2026-05-20",
    "evidence": "Lease signed for Rua das Flores 12, Lisbon (demo)", "source_path": "mneme://resolve/mira-home",
    "metadata": {"conflict_policy": "exclusive"},
}
CLUB_CLAIM = {
    "subject": "Mira Okafor", "predicate": "member_of", "object": "Tejo Rowing Club", "object_type": "organization",
    "confidence": 0.95, "certainty": "confirmed", "evidence": "Club welcome email, fictional demo",
    "source_path": "mneme://resolve/mira-club",
}
SCHOOL_PREDICTION = {
    "title": "School confirmation should arrive before term starts",
    "match_json": {
        "sense_type": "gws", "observation_terms_all": ["school", "confirmation"],
        "gate": {"sense_type": "gws", "event_type": "calendar_event", "title_terms_all": ["term", "start"],
                 "time_field": "metadata.gws.start"},
    },
    "check_after": "2026-06-01T00:00:00Z", "expires_at": "2026-09-30T00:00:00Z", "confidence": 0.8,
}
EVENTS = [
    {"sense_type": "gws", "event_type": "calendar_event", "source_id": "cal-term", "title": "Term start",
     "observed_at": "2026-06-06T08:00:00Z", "metadata": {"gws": {"start": {"dateTime": "2026-09-07T08:30:00Z"}}}},
    {"sense_type": "gws", "event_type": "email", "source_id": "mail-escola", "title": "Escola Azul admissions",
     "observed_at": "2026-06-10T10:00:00Z", "text": "Your school place confirmation for Mira is attached."},
    {"sense_type": "gws", "event_type": "email", "source_id": "mail-news", "title": "Neighbourhood newsletter",
     "observed_at": "2026-06-12T07:00:00Z", "text": "Street festival on Saturday."},
]


def test_world_loop_scenario(make_mem: Callable[..., Mnemon], tmp_path: Any) -> None:
    clock = FakeClock(T0)
    mem = make_mem("hash", clock=clock)
    rt = mem.rt
    steps: dict[str, Any] = {}

    # 1. a resolved claim becomes a current assertion (as `resolve` calls it), plus a multi-valued membership
    steps["1_resolve_home"] = home = propose_assertion(rt, HOME_CLAIM)
    club = propose_assertion(rt, CLUB_CLAIM)
    assert home["status"] == "current" and home["written"] and club["status"] == "current"
    steps["1_state_list"] = listed = mem.state_list(status="current")
    assert {a["object"] for a in listed["assertions"]} == {"Lisbon", "Tejo Rowing Club"}

    # 2. a prediction with an event gate, and one linked to the membership that will go unanswered
    steps["2_predict_school"] = school = mem.predict_add(json.dumps(SCHOOL_PREDICTION))
    card = mem.predict_add({
        "title": "Rowing club membership card should arrive", "subject_assertion_id": club["id"],
        "match_json": {"sense_type": "gws", "observation_terms_all": ["rowing", "membership", "card"]},
        "check_after": "2026-06-01T00:00:00Z", "expires_at": "2026-06-15T00:00:00Z", "confidence": 0.7,
    })
    steps["2_predict_card"] = card
    school_id, card_id = school["prediction"]["id"], card["prediction"]["id"]
    assert mem.predict_add(json.dumps(SCHOOL_PREDICTION))["created"] is False  # replay-idempotent

    # the instant we will later replay
    clock.now = datetime.fromisoformat(T1)
    steps["3_preflight_at_T1"] = before = mem.agent_preflight("Where does Mira live and is school confirmed?")
    assert [p["truth_policy"] for p in before["world"]["due_predictions"]] == ["open_prediction"] * 2

    # 4. evidence arrives: calendar + email through `sense add`, and a note through plain `remember`
    clock.now = datetime(2026, 6, 12, 8, 0, tzinfo=timezone.utc)
    steps["4_sense_add"] = added = mem.sense_add(json.dumps(EVENTS))
    assert added["added"] == 3
    remembered = mem.remember("Printed the school confirmation letter for Mira (fictional demo)")
    events = rt.store.world.sense_events()  # type: ignore[attr-defined]
    assert any(row["source_id"] == remembered["id"] and row["origin"] == "remember" for row, _ in events)
    steps["4_watch"] = mem.world_watch(lead="7d")

    # 5. the tick: the gated prediction is confirmed, the card prediction is missed and weakens once
    clock.now = T2
    steps["5_tick_dry_run"] = dry = mem.world_tick(dry_run=True)
    assert mem.predict_due()["count"] == 2  # the dry run changed nothing
    steps["5_tick"] = tick = mem.world_tick()
    statuses = {r["id"]: r["status"] for r in tick["predictions"]["results"]}
    assert statuses == {school_id: "confirmed", card_id: "missed"}
    assert {r["id"]: r["status"] for r in dry["predictions"]["results"]} == statuses
    school_result = next(r for r in tick["predictions"]["results"] if r["id"] == school_id)
    assert school_result["gate"]["time"].startswith("2026-09-07T08:30")
    coupled = next(r for r in tick["predictions"]["results"] if r["id"] == card_id)["confidence_coupled"]
    assert coupled["confidence_before"] == 0.95 and coupled["confidence_after"] == 0.76
    assert coupled["status"] == "current"  # weakened, not demoted
    steps["5_tick_again"] = again = mem.world_tick()
    assert again["predictions"]["checked"] == 0
    club_row = mem.state_explain(club["id"])
    assert club_row["assertion"]["confidence"] == 0.76 and len(club_row["prediction_misses"]) == 1
    steps["5_explain_club"] = club_row

    # 6. an exclusive predicate gets a challenger from a parsed note: the radar reports, nothing is overwritten
    now = iso(clock.now)
    for node_id, name in (("ent-mira", "Mira Okafor"), ("ent-porto", "Porto")):
        rt.store.insert_node(Memory(id=node_id, kind="entity", title=name, content=name, created_at=now,
                                    updated_at=now))
    with rt.store.transaction():
        rt.store.upsert_edge(Edge(src="ent-mira", dst="ent-porto", type="lives_in", status="candidate",
                                  confidence=0.6, evidence="Mira might move to Porto next year",
                                  origin="ingest", source_path="notes/2026-06-14.md", created_at=now))
    steps["6_conflicts"] = conflicts = mem.state_conflicts()
    assert [(c["kind"], c["severity"]) for c in conflicts["conflicts"]] == [("evidence_conflict", "review")]
    assert conflicts["conflicts"][0]["challenger"]["object"] == "Porto"
    assert mem.state_list(status="current", predicate="lives_in")["assertions"][0]["object"] == "Lisbon"

    # 7. --as-of replays the earlier instant exactly
    steps["7_preflight_as_of_T1"] = replay = mem.agent_preflight(
        "Where does Mira live and is school confirmed?", as_of=T1)
    assert replay["world"] == before["world"]
    assert replay["contract"] == before["contract"]

    # 8. preflight now shows all of it
    steps["8_preflight"] = final = mem.agent_preflight("Where does Mira live and is school confirmed?")
    world = final["world"]
    assert [a["object"] for a in world["current_assertions"]] == ["Lisbon", "Tejo Rowing Club"]
    assert [p["id"] for p in world["missed_predictions"]] == [card_id]
    assert world["contradictions"] and final["contract"]["ok"] is True
    policies = {i["truth_policy"] for i in final["context"]["items"]}
    assert {"current_state_assertion", "confirmed_prediction"} <= policies
    assert any(w.startswith("disputed:") for w in final["warnings"])
    assert any(t["kind"] == "missed_prediction" for t in final["thoughts"])

    out = os.environ.get("WORLD_SCENARIO_OUT")
    if out:
        with open(out, "w", encoding="utf-8") as fh:
            json.dump(steps, fh, indent=2, ensure_ascii=False)
