"""World-model integrity through the store, on SQLite and PostgreSQL (`make_mem` under tests/app): an id names one
claim, a single-valued pair is one chain (a present value before a known future one, a claim already over when
written, a retraction), "any" terms mean any, outcomes are never recorded in the future, forgetting a memory does not
rewrite what a sense event observed, indexed text is refused alike on both backends, and NFC/NFD spellings of a
subject are one subject."""
from __future__ import annotations

import hashlib
import json
import os
import unicodedata
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from mnemon.app.memory import Mnemon
from mnemon.app.world import propose_assertion
from mnemon.core.errors import Conflict, ContractViolation, InvalidInput
from mnemon.core.world.values import KEY_MAX_BYTES, SUBJECT_MAX_BYTES

from conftest import FakeClock

from .conftest import WORLD_T0

T0 = WORLD_T0  # where the `world` fixture's clock starts


def claim(**over: Any) -> dict[str, Any]:
    base = {"subject": "Mira", "predicate": "lives_in", "object": "Berlin", "confidence": 0.95,
            "certainty": "confirmed", "evidence": "tenancy agreement (fictional)", "source_path": "mneme://r/c1"}
    return {**base, **over}


def rows(mem: Mnemon, **filters: Any) -> list[tuple[str, str, str]]:
    """(object, stored status, validity now) of every assertion, in subject order."""
    return [(a["object"], a["status"], a["validity"]) for a in mem.state_list(**filters)["assertions"]]


def current(mem: Mnemon, **filters: Any) -> list[str]:
    return sorted(a["object"] for a in mem.state_list(status="current", **filters)["assertions"])


def noise(size: int) -> str:
    """`size` characters that do not compress (PostgreSQL compresses long index entries that do)."""
    out = ""
    while len(out) < size:
        out += hashlib.sha256(f"{len(out)}".encode()).hexdigest()
    return out[:size]


# ── #1 an explicit id names one claim ─────────────────────────────────────────────────────────────────────────────
def test_an_explicit_id_never_overwrites_another_claim_nor_supersedes_itself(
        world: tuple[Mnemon, FakeClock]) -> None:
    mem, clock = world
    first = mem.state_assert(claim(id="a1", subject="A", object="X"))
    assert first["written"] and first["stored_id"] == "a1"
    clock.advance(hours=1)
    for other in (claim(id="a1", subject="A", object="Z"), claim(id="a1", subject="B", predicate="works_at",
                                                                 object="Acme")):
        with pytest.raises(Conflict, match="already names A lives_in 'X'"):
            mem.state_assert(other)
        assert rows(mem) == [("X", "current", "current")]  # nothing overwritten, no self-supersession
    # a batch producer (resolve, payload assertions[]) gets the report and carries on
    report = propose_assertion(mem.rt, claim(id="a1", subject="A", object="Z"), reason="payload")
    assert (report["written"], report["status"]) == (False, "conflict")
    again = mem.state_assert(claim(id="a1", subject="A", object="X"))  # the same claim re-sent: idempotent
    assert again["idempotent"] is True and again["written"] is False
    assert rows(mem) == [("X", "current", "current")] and mem.contract_check()["status"] == "pass"


# ── #2 a single-valued pair is one chain ─────────────────────────────────────────────────────────────────────────
def test_a_present_value_slots_in_before_an_already_known_future_value(world: tuple[Mnemon, FakeClock]) -> None:
    mem, clock = world
    mem.state_assert(claim())
    clock.advance(days=1)
    paris = mem.state_assert(claim(object="Paris", source_path="mneme://r/c2", valid_from="2027-03-01"))
    clock.advance(days=1)
    rome = mem.state_assert(claim(object="Rome", source_path="mneme://r/c3"))
    assert current(mem) == ["Rome"]
    assert (paris["status"], paris["validity"]) == ("current", "future")
    assert (rome["status"], rome["validity"]) == ("superseded", "current")  # until Paris takes over
    assert current(mem, as_of="2027-03-02") == ["Paris"]
    assert mem.state_conflicts()["count"] == 0 and mem.contract_check()["status"] == "pass"
    pre = mem.agent_preflight("where does Mira live")
    assert [a["object"] for a in pre["world"]["current_assertions"]] == ["Rome"]
    explained = mem.state_explain(rome["stored_id"])
    assert [c["object"] for c in explained["supersedes_chain"]] == ["Berlin"]
    assert [c["object"] for c in explained["superseded_by_chain"]] == ["Paris"]


def test_two_values_in_force_at_once_are_reported_by_the_radar_and_fail_the_contract(
        world: tuple[Mnemon, FakeClock]) -> None:
    """The state an earlier version left behind (both values superseded only by a future one): reported, never
    served as agreed fact, and the next new value written to the pair re-chains it."""
    mem, clock = world
    mem.state_assert(claim())
    clock.advance(days=1)
    mem.state_assert(claim(object="Paris", source_path="mneme://r/c2", valid_from="2027-03-01"))
    world_rows = mem.rt.store.world  # type: ignore[attr-defined]
    berlin = next(r for r in world_rows.assertions() if r["object_name"] == "Berlin")
    rome = {**berlin, "id": "legacy-rome", "object_name": "Rome", "source_path": "mneme://r/c3"}
    with mem.rt.store.transaction():
        world_rows.put_assertion(rome, "mira")
    assert current(mem) == ["Berlin", "Rome"]
    [conflict] = mem.state_conflicts()["conflicts"]
    assert conflict["kind"] == "world_state_collision" and "Berlin, Rome" in conflict["summary"]
    with pytest.raises(ContractViolation) as failed:
        mem.contract_check()
    assert {v["rule"] for v in failed.value.details["violations"]} == {"single_valued_predicate"}
    clock.advance(days=1)
    mem.state_assert(claim(object="Munich", source_path="mneme://r/c4"))
    assert current(mem) == ["Munich"] and mem.contract_check()["status"] == "pass"


def test_a_claim_already_over_when_written_is_history_not_the_present(world: tuple[Mnemon, FakeClock]) -> None:
    mem, clock = world
    mem.state_assert(claim())
    clock.advance(days=1)
    paris = mem.state_assert(claim(object="Paris", source_path="mneme://r/c2", valid_until="2020-01-01"))
    assert (paris["status"], paris["superseded_ids"]) == ("superseded", [])
    assert current(mem) == ["Berlin"]
    assert rows(mem) == [("Berlin", "current", "current"), ("Paris", "superseded", "superseded")]
    assert mem.contract_check()["status"] == "pass"


def test_retracting_the_current_value_restores_the_one_it_had_superseded(world: tuple[Mnemon, FakeClock]) -> None:
    mem, clock = world
    berlin = mem.state_assert(claim())
    clock.advance(days=1)
    paris = mem.state_assert(claim(object="Paris", source_path="mneme://r/c2"))
    assert current(mem) == ["Paris"]
    clock.advance(days=1)
    out = mem.state_retract(paris["stored_id"], reason="she never moved to Paris")
    assert current(mem) == ["Berlin"]
    assert out["status"] == "retracted" and out["restored_ids"] == [berlin["stored_id"]]
    assert rows(mem) == [("Berlin", "current", "current"), ("Paris", "retracted", "retracted")]
    assert [a["object"] for a in mem.agent_preflight("where does Mira live")["world"]["current_assertions"]] == [
        "Berlin"]
    assert mem.contract_check()["status"] == "pass"
    for club in ("Chess Club", "Choir"):  # multi-valued: retracting one membership leaves the other alone
        mem.state_assert(claim(predicate="member_of", object=club, source_path=f"mneme://r/{club}"))
    choir = next(a for a in mem.state_list(predicate="member_of")["assertions"] if a["object"] == "Choir")
    assert mem.state_retract(choir["id"], reason="never joined")["restored_ids"] == []
    assert current(mem, predicate="member_of") == ["Chess Club"]


# ── #4 "any" means any ───────────────────────────────────────────────────────────────────────────────────────────
def test_one_term_of_a_long_any_list_confirms_and_a_higher_min_score_still_asks_for_more(
        world: tuple[Mnemon, FakeClock]) -> None:
    mem, clock = world
    window = {"check_after": "2026-06-01T00:00:00Z", "expires_at": "2026-06-03T00:00:00Z"}
    anyof = mem.predict_add({"title": "Any of three", **window, "match_json": {
        "sense_type": "gws", "title_terms_any": ["lease", "rent", "tenancy"]}})["prediction"]["id"]
    strict = mem.predict_add({"title": "Most of three", **window, "match_json": {
        "sense_type": "gws", "title_terms_any": ["lease", "rent", "tenancy"], "min_score": 0.6}})["prediction"]["id"]
    mem.sense_add({"sense_type": "gws", "source_id": "m1", "observed_at": "2026-06-01T08:00:00Z",
                   "title": "Your lease is ready"})
    clock.now = datetime(2026, 6, 4, tzinfo=timezone.utc)
    results = {r["id"]: r for r in mem.world_tick()["predictions"]["results"]}
    assert results[anyof]["status"] == "confirmed" and results[anyof]["score"] == pytest.approx(1 / 3, abs=1e-4)
    assert results[strict]["status"] == "missed"
    assert "1 event(s) met the terms" in results[strict]["outcome_summary"]  # not "no matching sense event"


def test_an_action_verify_block_is_confirmed_by_a_reply_naming_one_derived_term(
        world: tuple[Mnemon, FakeClock]) -> None:
    mem, clock = world
    clock.now = datetime(2026, 11, 1, 9, 0, tzinfo=timezone.utc)
    out = mem.action_record({"action_type": "email", "title": "Sent lease renewal to landlord",
                             "side_effect_level": "external", "external_ref": "gmail:777",
                             "verify": {"sense_type": "gws", "check_after": "1h", "expires": "3d"}})
    clock.now = datetime(2026, 11, 1, 15, 0, tzinfo=timezone.utc)
    mem.sense_add({"sense_type": "gws", "source_id": "reply-1", "observed_at": "2026-11-01T15:00:00Z",
                   "title": "Re: renewal", "text": "The landlord confirmed receipt."})
    clock.now = datetime(2026, 11, 5, tzinfo=timezone.utc)
    [result] = mem.world_tick()["predictions"]["results"]
    assert result["id"] == out["spawned_prediction_id"] and result["status"] == "confirmed"


# ── #5 outcomes are recorded up to now, never later ──────────────────────────────────────────────────────────────
def test_a_future_tick_or_check_is_a_preview_only(world: tuple[Mnemon, FakeClock]) -> None:
    mem, _ = world
    pid = mem.predict_add({"title": "Lease mail next spring", "check_after": "2027-04-01T00:00:00Z",
                           "expires_at": "2027-04-10T00:00:00Z",
                           "match_json": {"sense_type": "gws", "title_terms_any": ["lease"]}})["prediction"]["id"]
    with pytest.raises(InvalidInput, match="--dry-run"):
        mem.world_tick(before="50w")
    with pytest.raises(InvalidInput, match="--dry-run"):
        mem.predict_check(as_of="2028-01-01T00:00:00Z")
    with pytest.raises(InvalidInput, match="--dry-run"):
        mem.predict_check(prediction_id=pid, as_of="2028-01-01T00:00:00Z")
    preview = mem.world_tick(before="50w", dry_run=True)
    assert preview["predictions"]["results"][0]["status"] == "unverifiable"
    assert mem.predict_check(as_of="2028-01-01T00:00:00Z", dry_run=True)["checked"] == 1
    assert [p["id"] for p in mem.predict_due(before="100w")["predictions"]] == [pid]  # still open
    assert mem.world_tick()["predictions"]["checked"] == 0  # and a tick now records nothing


# ── #6 forgetting a memory does not rewrite perception ───────────────────────────────────────────────────────────
def test_forgetting_a_vault_bullet_keeps_what_the_notes_sense_event_observed(world: tuple[Mnemon, FakeClock],
                                                                             tmp_path: Path) -> None:
    mem, _ = world
    vault = tmp_path / "vault"
    vault.mkdir()
    note = vault / "antenna.md"
    note.write_text("# Antenna\n\n- Risk: Zephyr antenna shipment is blocked at customs\n", encoding="utf-8")
    os.utime(note, (T0.timestamp() - 3600, T0.timestamp() - 3600))
    mem.ingest(str(vault))
    pid = mem.predict_add({"title": "zephyr", "check_after": "2026-01-01T00:00:00Z",
                           "expires_at": "2099-01-01T00:00:00Z",
                           "match_json": {"sense_type": "md", "observation_terms_all": ["zephyr"]}})["prediction"]["id"]
    assert mem.predict_check(prediction_id=pid, dry_run=True)["results"][0]["status"] == "confirmed"
    [bullet] = [n.id for n in mem.rt.store.iter_nodes(kind="memory") if ":observation:" in n.id]
    mem.forget(bullet)
    assert mem.rt.store.get_node(bullet) is None  # forgotten: gone from recall
    assert mem.predict_check(prediction_id=pid, dry_run=True)["results"][0]["status"] == "confirmed"


# ── #9 indexed text is refused alike on both backends ────────────────────────────────────────────────────────────
@pytest.mark.parametrize("over, field", [
    ({"subject": noise(3000)}, "subject"),
    ({"source_path": "https://docs.example.com/d?token=" + noise(2800)}, "source_path"),
    ({"subject": "Mi\x00ra"}, "subject"),
    ({"predicate": "lives\x00in"}, "predicate"),
    ({"id": "a\x00"}, "id"),
])
def test_overlong_or_nul_assertion_keys_are_invalid_input_on_every_backend(
        world: tuple[Mnemon, FakeClock], over: dict[str, Any], field: str) -> None:
    mem, _ = world
    with pytest.raises(InvalidInput) as refused:
        mem.state_assert(claim(**over))
    assert refused.value.details.get("field") == field
    assert mem.state_list(status="all")["count"] == 0


def test_long_keys_within_the_limits_are_stored_on_every_backend(world: tuple[Mnemon, FakeClock]) -> None:
    mem, _ = world
    subject = noise(SUBJECT_MAX_BYTES)
    out = mem.state_assert(claim(subject=subject, source_path="https://x.example/" + noise(KEY_MAX_BYTES - 18)))
    assert out["written"] and current(mem) == ["Berlin"]
    assert mem.predict_add({"title": "t", "check_after": "2026-06-02", "expires_at": "2026-06-03",
                            "source_path": noise(KEY_MAX_BYTES),
                            "match_json": {"sense_type": "gws", "title_terms_any": ["x"]}})["created"]


@pytest.mark.parametrize("call, payload", [
    ("predict_add", {"title": "t", "check_after": "2026-06-02", "expires_at": "2026-06-03",
                     "source_path": noise(2800), "match_json": {"sense_type": "gws", "title_terms_any": ["x"]}}),
    ("sense_add", {"sense_type": "gws", "observed_at": "2026-06-01", "title": "t", "source_uri": noise(2800)}),
    ("sense_add", {"sense_type": "gws", "observed_at": "2026-06-01", "title": "t", "source_id": "m\x00"}),
    ("action_record", {"action_type": "note", "title": "t", "source_path": noise(2800)}),
])
def test_overlong_or_nul_keys_of_other_world_rows_are_invalid_input(world: tuple[Mnemon, FakeClock], call: str,
                                                                    payload: dict[str, Any]) -> None:
    mem, _ = world
    with pytest.raises(InvalidInput):
        getattr(mem, call)(json.dumps(payload))
    assert mem.predict_due(before="100w")["count"] == 0
    assert mem.rt.store.world.sense_event_count() == 0  # type: ignore[attr-defined]


# ── #13 NFC and NFD spellings are one subject ────────────────────────────────────────────────────────────────────
def test_nfc_and_nfd_spellings_of_a_subject_are_one_subject(world: tuple[Mnemon, FakeClock]) -> None:
    mem, clock = world
    nfc, nfd = unicodedata.normalize("NFC", "José"), unicodedata.normalize("NFD", "José")
    assert nfc != nfd
    mem.state_assert(claim(subject=nfc, object="Lisbon"))
    clock.advance(days=1)
    mem.state_assert(claim(subject=nfd, object="Porto", source_path="mneme://r/c2"))
    assert current(mem) == ["Porto"] and mem.contract_check()["status"] == "pass"
    assert current(mem, subject=nfd) == current(mem, subject=nfc) == ["Porto"]


def test_a_row_keyed_before_keys_were_nfc_is_still_found_and_superseded(world: tuple[Mnemon, FakeClock]) -> None:
    mem, clock = world
    nfd = unicodedata.normalize("NFD", "José")
    first = mem.state_assert(claim(subject=nfd, object="Lisbon"))
    world_rows = mem.rt.store.world  # type: ignore[attr-defined]
    old = world_rows.get_assertion(first["stored_id"])
    with mem.rt.store.transaction():  # as an earlier version stored it: the subject and its key decomposed
        world_rows.put_assertion({**old, "subject_name": nfd}, nfd.casefold())
    assert current(mem, subject=unicodedata.normalize("NFC", "josé")) == ["Lisbon"]
    clock.advance(days=1)
    later = mem.state_assert(claim(subject=unicodedata.normalize("NFC", "José"), object="Porto",
                                   source_path="mneme://r/c2"))
    assert later["superseded_ids"] == [first["stored_id"]]
    assert current(mem) == ["Porto"]
