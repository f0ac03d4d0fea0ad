"""Replaying `resolve` payloads: the outcome follows the payload and the threshold, except on edges a person decided
(killed, validated, weakened); the state assertion's `valid_from` and id on replays; bad input refused before
anything is written."""
from __future__ import annotations

import copy
import json
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.errors import InvalidInput

from conftest import FakeClock

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=timezone.utc)
CLAIM = {"subject": "Example Child", "subject_type": "person", "predicate": "attends_activity",
         "object": "Handwriting Club", "object_type": "activity", "confidence": 0.94, "certainty": "confirmed",
         "source_type": "payment", "evidence": "Payment receipt and brochure confirm the club (fictional)."}
PAYLOAD = {"slug": "school-clubs", "title": "School clubs resolved", "date": "2026-04-26", "claims": [CLAIM]}
PACK = "Sources/2026-04-26-school-clubs.md"


def payload(**claim: Any) -> dict[str, Any]:
    out = copy.deepcopy(PAYLOAD)
    out["claims"][0].update(claim)
    return out


@pytest.fixture
def mem(make_mem: Callable[..., Mnemon]) -> Mnemon:
    return make_mem("hash", clock=FakeClock(T0))


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    target = tmp_path / "vault"
    target.mkdir()
    return target


def status_of(mem: Mnemon, edge_id: int) -> tuple[str, float]:
    edge = mem.rt.store.get_edge(edge_id)
    assert edge is not None
    return edge.status, edge.weight


# ── defect 1: the replay follows payload and threshold, a person's decision wins ─────────────────────────────────
def test_a_replay_follows_the_threshold_both_ways(mem: Mnemon, vault: Path) -> None:
    [edge] = mem.resolve(str(vault), PAYLOAD)["edges"]
    assert edge["status"] == "active"
    [strict] = mem.resolve(str(vault), PAYLOAD, active_threshold=0.95)["edges"]
    assert strict["id"] == edge["id"] and strict["status"] == "candidate"
    [again] = mem.resolve(str(vault), PAYLOAD)["edges"]
    assert again["status"] == "active" and status_of(mem, edge["id"])[0] == "active"
    mem.ingest(str(vault))  # the pack now carries the default threshold: ingest agrees
    assert status_of(mem, edge["id"])[0] == "active"


def test_a_replay_never_demotes_an_edge_a_person_validated(mem: Mnemon, vault: Path) -> None:
    [edge] = mem.resolve(str(vault), PAYLOAD)["edges"]
    assert mem.validate_edge(edge["id"], reason="checked the receipt")["status"] == "active"
    [strict] = mem.resolve(str(vault), PAYLOAD, active_threshold=0.95)["edges"]
    assert strict["status"] == "active" and "person_decision_kept:validated" in strict["reasons"]
    assert status_of(mem, edge["id"]) == ("active", 0.94)
    mem.ingest(str(vault))  # the pack's embedded threshold (0.95) is replayed by ingest: still the person's call
    assert status_of(mem, edge["id"])[0] == "active"
    uncertain = payload(certainty="likely", confidence=0.5)  # even a weaker payload leaves the decision alone
    [weaker] = mem.resolve(str(vault), uncertain)["edges"]
    assert weaker["status"] == "active" and status_of(mem, edge["id"]) == ("active", 0.94)
    events = [e["event"] for e in mem.explain_edge(edge["id"])["debug_log"]]
    assert events.count("decision_kept") == 3 and "validated" in events
    assert mem.state_list(status="current")["count"] == 1  # the belief it backs stays current


def test_a_replay_never_revives_an_edge_a_person_weakened(mem: Mnemon, vault: Path) -> None:
    [edge] = mem.resolve(str(vault), PAYLOAD)["edges"]
    weakened = mem.weaken_edge(edge["id"], factor=0.05, reason="the club was cancelled")
    assert weakened["status"] == "candidate"
    [replayed] = mem.resolve(str(vault), PAYLOAD)["edges"]
    assert replayed["status"] == "candidate" and replayed["assertion_id"] is None
    assert status_of(mem, edge["id"]) == ("candidate", weakened["strength"])
    mem.ingest(str(vault))
    assert status_of(mem, edge["id"]) == ("candidate", weakened["strength"])


def test_a_replay_keeps_a_killed_edge_killed_and_a_later_validation_counts_over_an_old_weakening(
        mem: Mnemon, vault: Path) -> None:
    [edge] = mem.resolve(str(vault), PAYLOAD)["edges"]
    mem.weaken_edge(edge["id"], factor=0.9)
    mem.validate_edge(edge["id"])
    mem.resolve(str(vault), PAYLOAD, active_threshold=0.95)
    assert status_of(mem, edge["id"])[0] == "active"
    mem.kill_edge(edge["id"], reason="wrong child")
    [replayed] = mem.resolve(str(vault), PAYLOAD)["edges"]
    assert replayed["status"] == "killed" and status_of(mem, edge["id"])[0] == "killed"


def test_a_claim_dropped_from_a_replayed_payload_is_no_longer_active(mem: Mnemon, vault: Path) -> None:
    second = {**CLAIM, "object": "Chess Club", "evidence": "Chess club invoice (fictional)."}
    first = mem.resolve(str(vault), {**PAYLOAD, "claims": [CLAIM, second]})["edges"]
    assert [e["status"] for e in first] == ["active", "active"]
    mem.resolve(str(vault), PAYLOAD)  # the corrected research no longer claims the chess club
    assert status_of(mem, first[0]["id"])[0] == "active"
    assert status_of(mem, first[1]["id"])[0] == "candidate"
    assert [e["event"] for e in mem.explain_edge(first[1]["id"])["debug_log"]][-1] == "dropped_from_payload"
    assert [a["object"] for a in mem.state_list(status="current")["assertions"]] == ["Handwriting Club"]
    mem.ingest(str(vault))  # ingest of the pack agrees with the replay
    assert status_of(mem, first[1]["id"])[0] == "candidate"


def test_a_dropped_claim_a_person_validated_stays(mem: Mnemon, vault: Path) -> None:
    second = {**CLAIM, "object": "Chess Club", "evidence": "Chess club invoice (fictional)."}
    first = mem.resolve(str(vault), {**PAYLOAD, "claims": [CLAIM, second]})["edges"]
    mem.validate_edge(first[1]["id"])
    mem.resolve(str(vault), PAYLOAD)
    assert status_of(mem, first[1]["id"])[0] == "active"


def test_a_dry_run_lists_the_claims_the_replay_would_drop(mem: Mnemon, vault: Path) -> None:
    second = {**CLAIM, "object": "Chess Club", "evidence": "Chess club invoice (fictional)."}
    first = mem.resolve(str(vault), {**PAYLOAD, "claims": [CLAIM, second]})["edges"]
    dry = mem.resolve(str(vault), PAYLOAD, dry_run=True)
    assert status_of(mem, first[1]["id"])[0] == "active"  # (the preview wrote nothing)
    assert dry["dropped_edges"] == mem.resolve(str(vault), PAYLOAD)["dropped_edges"] == [first[1]["id"]]


# ── defect 2: valid_from from the claim's date ────────────────────────────────────────────────────────────────
def _assertion(mem: Mnemon, assertion_id: str) -> dict[str, Any]:
    return mem.state_explain(assertion_id)["assertion"]


def test_the_assertion_starts_at_the_claims_date(mem: Mnemon, vault: Path) -> None:
    [edge] = mem.resolve(str(vault), payload(date="2026-04-20"))["edges"]
    assert _assertion(mem, edge["assertion_id"])["valid_from"] == "2026-04-20T00:00:00+00:00"


def test_a_claim_datetime_and_the_payload_date_fallback(mem: Mnemon, vault: Path) -> None:
    [edge] = mem.resolve(str(vault), payload(date="2026-04-20T08:30:00+01:00"))["edges"]
    assert _assertion(mem, edge["assertion_id"])["valid_from"] == "2026-04-20T07:30:00+00:00"
    other = {**PAYLOAD, "slug": "other", "claims": [{**CLAIM, "object": "Chess Club"}]}
    [edge] = mem.resolve(str(vault), other)["edges"]
    assert _assertion(mem, edge["assertion_id"])["valid_from"] == "2026-04-26T00:00:00+00:00"


@pytest.mark.parametrize("bad", ["yesterday", "2026-13-01", "2026-02-30", 20260420, ""])
def test_a_malformed_claim_date_is_refused_before_anything_is_written(mem: Mnemon, vault: Path, bad: Any) -> None:
    with pytest.raises(InvalidInput) as err:
        mem.resolve(str(vault), payload(date=bad))
    assert "claims[0].date" in str(err.value)
    assert not (vault / "Sources").exists() and mem.rt.store.find_edge(
        "placeholder:example child", "placeholder:handwriting club", "attends_activity") is None


def test_a_malformed_claim_date_is_a_json_invalid_input_error(cli_run, tmp_path: Path, vault: Path) -> None:
    code, out = cli_run(["--db", tmp_path / "cli.db", "resolve", "--vault", vault, "--file", "-"],
                        input=json.dumps(payload(date="26/04/2026")))
    assert code != 0 and out["error"]["code"] == "invalid_input" and "claims[0].date" in out["error"]["message"]
    assert not (vault / "Sources").exists()


# ── defect 3: a replay reports the existing assertion ─────────────────────────────────────────────────────────
def test_a_replay_reports_the_existing_assertion(mem: Mnemon, vault: Path) -> None:
    [edge] = mem.resolve(str(vault), PAYLOAD)["edges"]
    aid = edge["assertion_id"]
    assert aid
    [replayed] = mem.resolve(str(vault), PAYLOAD)["edges"]
    assert replayed["assertion_id"] == aid
    [strict] = mem.resolve(str(vault), PAYLOAD, active_threshold=0.95)["edges"]
    assert strict["assertion_id"] is None  # a candidate backs no belief
    [again] = mem.resolve(str(vault), PAYLOAD)["edges"]
    assert again["assertion_id"] == aid and mem.state_list()["count"] == 1


# ── audit: bad input is refused before the pack, the edges or any world row is written ────────────────────────
@pytest.mark.parametrize("bad, field", [
    (payload(valid_until="garbage"), "valid_until"),
    (payload(metadata="x"), "metadata"),
    (payload(subject_type=3), "subject_type"),
    ({**PAYLOAD, "date": "2026-02-30"}, "date"),
    ({**PAYLOAD, "date": "2026-04-26\n"}, "date"),  # the pattern's `$` let it through into the pack's file name
    ({**PAYLOAD, "assertions": [{"subject": "x"}]}, "predicate"),
    ({**PAYLOAD, "assertions": {"subject": "x"}}, "assertions"),
    ({**PAYLOAD, "predictions": {"title": "x"}}, "predictions"),
    ({**PAYLOAD, "predictions": ["x"]}, "predictions"),
    ({**PAYLOAD, "predictions": [{"title": "x"}]}, "match_json"),
])
def test_bad_world_fields_are_refused_before_anything_is_written(mem: Mnemon, vault: Path, bad: dict[str, Any],
                                                                  field: str) -> None:
    with pytest.raises(InvalidInput) as err:
        mem.resolve(str(vault), bad)
    assert field in str(err.value) or err.value.details.get("field") == field
    with pytest.raises(InvalidInput):
        mem.resolve(str(vault), bad, dry_run=True)
    assert not (vault / "Sources").exists()
    assert mem.rt.store.find_edge("placeholder:example child", "placeholder:handwriting club",
                                  "attends_activity") is None
    assert mem.state_list()["count"] == 0


def test_an_old_pack_with_a_bad_claim_date_still_replays_its_edges_on_ingest(mem: Mnemon, vault: Path) -> None:
    from mnemon.app.vault.resolve import render_pack, validate_payload

    (vault / "Sources").mkdir()
    data = validate_payload(payload(date="yesterday"))
    (vault / PACK).write_text(render_pack(data, 0.9))
    mem.ingest(str(vault))
    edge = mem.rt.store.find_edge("placeholder:example child", "placeholder:handwriting club", "attends_activity")
    assert edge is not None and edge.status == "active"


def test_a_claim_that_ended_before_the_research_date_keeps_an_unknown_start(mem: Mnemon, vault: Path) -> None:
    [edge] = mem.resolve(str(vault), payload(valid_until="2026-04-01"))["edges"]
    row = _assertion(mem, edge["assertion_id"])
    assert (row["valid_from"], row["valid_until"]) == (None, "2026-04-01T23:59:59.999999+00:00")  # the whole day


def test_a_numeric_name_is_a_name_for_the_belief_too(mem: Mnemon, vault: Path) -> None:
    [edge] = mem.resolve(str(vault), payload(object=42, object_type="entity"))["edges"]
    assert edge["status"] == "active" and _assertion(mem, edge["assertion_id"])["object_name"] == "42"


def test_a_predicate_without_letters_is_refused_before_the_pack_is_written(mem: Mnemon, vault: Path) -> None:
    with pytest.raises(InvalidInput, match="predicate"):
        mem.resolve(str(vault), payload(predicate="???"))
    assert not (vault / "Sources").exists()  # such a pack would make every later ingest of the vault fail


def test_an_ingest_skips_a_pack_whose_predicate_has_no_letters(mem: Mnemon, vault: Path) -> None:
    from mnemon.app.vault.resolve import render_pack

    (vault / "Notes.md").write_text("# Notes\n\n- the ingest still reads this\n")
    (vault / "Sources").mkdir()
    bad = payload(predicate="???")
    bad["active_threshold"] = 0.9
    (vault / PACK).write_text(render_pack(bad, 0.9))
    assert mem.ingest(str(vault))["notes_read"] == 2


def test_a_claims_subject_placeholder_joins_the_note_that_appears_later(mem: Mnemon, make_mem: Callable[..., Mnemon],
                                                                       vault: Path, tmp_path: Path) -> None:
    (vault / "Notes.md").write_text("# Notes\n\n- nothing about clubs yet\n")
    mem.ingest(str(vault))
    [edge] = mem.resolve(str(vault), PAYLOAD)["edges"]
    assert edge["src"] == "placeholder:example child"
    mem.ingest(str(vault))  # the pack is a note of the vault now
    (vault / "People").mkdir()
    (vault / "People" / "example-child.md").write_text("# Example Child\n\n- likes clubs\n")
    mem.ingest(str(vault))
    joined = mem.rt.store.get_edge(edge["id"])
    assert joined is not None and joined.src == "note:People/example-child.md" and joined.status == "active"
    fresh = make_mem("hash", db=tmp_path / "fresh.db")  # the same graph a fresh ingest of the vault builds
    fresh.ingest(str(vault))
    again = fresh.rt.store.find_edge(joined.src, joined.dst, joined.type)
    assert again is not None and again.status == "active"


def test_a_vault_with_a_lowercase_sources_folder_gets_its_packs_there(mem: Mnemon, vault: Path) -> None:
    """`sources/` on disk: the pack goes into it (a `Sources/` beside it is one folder on macOS and Windows, and the
    note editor refuses a name that differs only in case), and a replay finds its earlier pack there."""
    (vault / "sources").mkdir()
    first = mem.resolve(str(vault), PAYLOAD)
    assert first["note_path"] == "sources/2026-04-26-school-clubs.md"
    assert [p.name for p in vault.iterdir()] == ["sources"]
    again = mem.resolve(str(vault), PAYLOAD)
    assert again["note_path"] == first["note_path"] and not again["pack_changed"]
    assert [e["id"] for e in again["edges"]] == [e["id"] for e in first["edges"]]
    mem.ingest(str(vault))
    [edge] = again["edges"]
    assert status_of(mem, edge["id"])[0] == "active"
