"""`mnemon export` carries the world model, and `mnemon import` brings it back: state assertions with their chains,
aliases, predictions with their outcomes, actions, sense events and the audit — exactly into a fresh store; into a
live store without replacing anything it holds (a pair both histories add to is re-chained, one value in force);
bad rows refused by member and index with the rest restored; keys NFC whatever the file says.

A source store is a SQLite file (`db=`); the store restored into is `make_mem()`, so each restore runs once per
backend (SQLite, PostgreSQL)."""
from __future__ import annotations

import io
import json
import unicodedata
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from mnemon.app.memory import Mnemon
from mnemon.app.world import propose_assertion
from mnemon.core.errors import MnemonError
from mnemon.core.world.values import iso

from conftest import FakeClock

from .conftest import WORLD_T0
from .test_world_nfc_upgrade import old_assertion

T0 = WORLD_T0
MEMBERS = ("world_aliases", "world_assertions", "world_sense_events", "world_actions", "world_predictions",
           "world_events")
NFC, NFD = unicodedata.normalize("NFC", "José"), unicodedata.normalize("NFD", "José")


def claim(**over: Any) -> dict[str, Any]:
    base = {"subject": "Ana", "predicate": "lives_in", "object": "Lisbon", "confidence": 0.95,
            "certainty": "confirmed", "evidence": "lease signed (fictional)", "source_path": "mneme://r/ana"}
    return {**base, **over}


def build_world(mem: Mnemon, clock: FakeClock) -> dict[str, str]:
    """A world with something of everything: a superseded value, a retraction, a multi-valued predicate, an alias,
    a prediction confirmed by a remembered memory, one missed that weakened its assertion, an action whose
    verification was spawned, sense events of several producers."""
    ids = {"lisbon": propose_assertion(mem.rt, claim())["id"]}
    clock.advance(days=1)
    ids["porto"] = propose_assertion(mem.rt, claim(object="Porto", source_path="mneme://r/ana2"))["id"]
    for club in ("Chess Club", "Choir"):
        ids[club] = propose_assertion(mem.rt, claim(predicate="member_of", object=club,
                                                    source_path=f"mneme://r/{club}"))["id"]
    ids["works"] = propose_assertion(mem.rt, claim(predicate="works_at", object="Atlas Books",
                                                   source_path="mneme://r/work"))["id"]
    mem.state_retract(ids["Choir"], reason="she never joined")
    mem.alias_add("Annie", "Ana")
    ids["parcel"] = mem.predict_add({
        "title": "Parcel", "check_after": iso(T0 + timedelta(days=1)), "expires_at": iso(T0 + timedelta(days=5)),
        "match_json": {"sense_type": "manual", "observation_terms_all": ["parcel"]},
        "subject_assertion_id": ids["porto"], "source_path": "mneme://p/parcel"})["prediction"]["id"]
    ids["payslip"] = mem.predict_add({
        "title": "Payslip", "check_after": iso(T0 + timedelta(days=1)), "expires_at": iso(T0 + timedelta(days=4)),
        "match_json": {"sense_type": "gws", "observation_terms_all": ["payslip"]},
        "subject_assertion_id": ids["works"]})["prediction"]["id"]
    action = mem.action_record({"action_type": "email", "title": "Sent lease renewal to landlord",
                                "side_effect_level": "external", "external_ref": "gmail:777",
                                "verify": {"sense_type": "gws", "check_after": "1h", "expires": "3d"}})
    ids["action"], ids["verify"] = action["action"]["id"], action["spawned_prediction_id"]
    clock.advance(days=1)
    mem.remember("The parcel from the bookshop arrived today")
    mem.sense_add({"sense_type": "gws", "source_id": "reply-1", "observed_at": iso(clock.now),
                   "title": "Re: renewal", "text": "The landlord confirmed receipt.",
                   "metadata": {"source_path": "mneme://mail"}})
    clock.advance(days=5)
    ticked = {r["id"]: r["status"] for r in mem.world_tick()["predictions"]["results"]}
    assert ticked == {ids["parcel"]: "confirmed", ids["payslip"]: "missed", ids["verify"]: "confirmed"}
    return ids


def table_rows(mem: Mnemon) -> dict[str, Any]:
    """Every world row as the store reads it back, the audit in order (its ids are the store's own)."""
    world = mem.rt.store.world  # type: ignore[attr-defined]
    audit = [(r[0], r[1], r[2], json.loads(r[3]), r[4]) for r in world.conn.execute(
        "SELECT event, target, target_id, detail, created_at FROM world_events WHERE target <> 'store' ORDER BY id")]
    return {"assertions": world.assertions(), "predictions": world.predictions(), "actions": world.actions(),
            "sense_events": world.sense_events(), "aliases": world.aliases(), "audit": audit,
            "keys": sorted(world.assertion_keys().items())}


def seen_by_user(mem: Mnemon, ids: dict[str, str]) -> dict[str, Any]:
    """What the world commands answer, now and replayed."""
    return {"state": mem.state_list(status="all"),
            "state_then": mem.state_list(status="all", as_of=iso(T0 + timedelta(hours=12))),
            "explain": {name: mem.state_explain(ids[name]) for name in ("lisbon", "porto", "works", "Choir")},
            "aliases": mem.alias_ls(), "due": mem.predict_due(before="100w"), "watch": mem.world_watch(),
            "contract": mem.contract_check(), "conflicts": mem.state_conflicts()}


@pytest.fixture
def source(make_mem: Callable[..., Mnemon], tmp_path: Path) -> tuple[Mnemon, FakeClock, dict[str, str]]:
    clock = FakeClock(T0)
    src = make_mem("hash", db=tmp_path / "src.db", clock=clock)
    return src, clock, build_world(src, clock)


def export_text(mem: Mnemon) -> str:
    return "".join(mem.export_stream())


# ── a fresh store gets the world back exactly ────────────────────────────────
def test_export_then_import_brings_every_world_row_back(source: tuple[Mnemon, FakeClock, dict[str, str]],
                                                        make_mem: Callable[..., Mnemon], tmp_path: Path) -> None:
    src, clock, ids = source
    path = tmp_path / "backup.json"
    src.export_to(str(path))
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["schema_version"] == "4"
    assert [k for k in doc if k.startswith("world_")] == list(MEMBERS)
    dst = make_mem("hash", clock=clock)
    with path.open(encoding="utf-8") as fh:  # as the CLI reads it: streamed
        out = dst.import_json(fh)
    world = out["world"]
    assert {kind: c["restored"] for kind, c in world.items() if isinstance(c, dict)} == {
        "aliases": 1, "assertions": 5, "sense_events": 2, "actions": 1, "predictions": 3,
        "events": len(doc["world_events"])}
    assert world["results"] == [] and world["assertions_relinked"] == []
    assert table_rows(dst) == table_rows(src)
    assert seen_by_user(dst, ids) == seen_by_user(src, ids)
    # and the restored world keeps working: the miss weakened the belief once, a retract re-chains as before
    assert dst.state_explain(ids["works"])["assertion"]["confidence"] == src.state_explain(ids["works"])[
        "assertion"]["confidence"] < 0.95
    assert dst.state_retract(ids["porto"], reason="r")["restored_ids"] == [ids["lisbon"]]


def test_a_document_parsed_whole_restores_the_world_too(source: tuple[Mnemon, FakeClock, dict[str, str]],
                                                        make_mem: Callable[..., Mnemon]) -> None:
    src, clock, ids = source
    dst = make_mem("hash", clock=clock)
    out = dst.import_json(src.export_json())  # (MCP and HTTP hand over a parsed object)
    assert out["world"]["assertions"]["restored"] == 5
    assert table_rows(dst) == table_rows(src)


def test_importing_the_same_backup_again_adds_nothing(source: tuple[Mnemon, FakeClock, dict[str, str]],
                                                      make_mem: Callable[..., Mnemon]) -> None:
    src, clock, _ = source
    text = export_text(src)
    dst = make_mem("hash", clock=clock)
    dst.import_json(io.StringIO(text))
    before = table_rows(dst)
    again = dst.import_json(io.StringIO(text))["world"]
    assert all(c["restored"] == 0 and c["errors"] == 0 for k, c in again.items() if isinstance(c, dict))
    assert {r["reason"] for r in again["results"]} == {"exists", "target_kept"}
    assert table_rows(dst) == before  # not one audit entry twice


# ── a live store keeps what it holds ─────────────────────────────────────────
def test_a_row_the_store_holds_is_kept_as_it_is_and_its_history_too(
        source: tuple[Mnemon, FakeClock, dict[str, str]], make_mem: Callable[..., Mnemon]) -> None:
    src, clock, ids = source
    text = export_text(src)
    dst = make_mem("hash", clock=clock)
    dst.import_json(io.StringIO(text))
    dst.state_retract(ids["porto"], reason="a later correction in this store")  # Lisbon in force again
    dst.alias_add("Annie", "Anabela")
    kept = table_rows(dst)
    out = dst.import_json(io.StringIO(text))["world"]
    skipped = {(r["member"], r.get("id")): r["reason"] for r in out["results"] if r["member"] != "world_events"}
    assert skipped[("world_assertions", ids["porto"])] == "exists"
    assert skipped[("world_aliases", "annie")] == "exists"
    assert out["assertions_relinked"] == []
    assert table_rows(dst) == kept
    assert dst.state_explain(ids["porto"])["assertion"]["validity"] == "retracted"
    assert dst.alias_ls()["aliases"][0]["canonical"] == "Anabela"


def test_a_chain_both_stores_add_to_is_rechained_with_one_value_in_force(
        source: tuple[Mnemon, FakeClock, dict[str, str]], make_mem: Callable[..., Mnemon]) -> None:
    src, clock, ids = source
    dst = make_mem("hash", clock=clock)
    rome = propose_assertion(dst.rt, claim(object="Rome", source_path="mneme://r/rome"))["id"]  # the newest value
    out = dst.import_json(io.StringIO(export_text(src)))["world"]
    assert out["assertions"]["restored"] == 5
    assert out["assertions_relinked"] == sorted([ids["porto"], rome])
    lives = {a["object"]: a for a in dst.state_list(status="all", predicate="lives_in")["assertions"]}
    assert [o for o, a in lives.items() if a["validity"] == "current"] == ["Rome"]
    assert dst.state_explain(rome)["supersedes_chain"][:2] == [
        {k: v for k, v in lives[o].items() if k in ("id", "object", "status", "valid_from", "source_path")}
        | {"status": "superseded"} for o in ("Porto", "Lisbon")]
    assert dst.state_explain(ids["porto"])["events"][-1]["event"] == "relinked"
    # a replay before Rome was written still sees Porto
    then = dst.state_list(status="current", predicate="lives_in", as_of=iso(T0 + timedelta(days=2)))
    assert [a["object"] for a in then["assertions"]] == ["Porto"]
    assert dst.state_conflicts()["conflicts"] == src.state_conflicts()["conflicts"] == []


# ── bad rows: reported by index, the rest restored ───────────────────────────
def test_bad_world_rows_are_refused_by_index_and_the_rest_restored(
        source: tuple[Mnemon, FakeClock, dict[str, str]], make_mem: Callable[..., Mnemon]) -> None:
    src, clock, ids = source
    doc = src.export_json()
    porto = next(k for k, r in enumerate(doc["world_assertions"]) if r["id"] == ids["porto"])
    doc["world_assertions"][porto]["status"] = "maybe"  # Lisbon's successor refused: Lisbon is in force again
    doc["world_assertions"].append("not a row")
    doc["world_sense_events"].append({"sense_type": "telepathy", "observed_at": iso(T0), "title": "x"})
    doc["world_predictions"].append({**doc["world_predictions"][0], "id": "p\x00"})  # PostgreSQL cannot hold it
    doc["world_actions"].append({**doc["world_actions"][0], "id": "a", "title": "\ud800"})
    doc["world_events"].append({"event": "asserted", "target": "assertion", "target_id": "x"})
    bad = {("world_assertions", porto), ("world_assertions", len(doc["world_assertions"]) - 1),
           ("world_sense_events", 2), ("world_predictions", 3), ("world_actions", 1),
           ("world_events", len(doc["world_events"]) - 1)}
    dst = make_mem("hash", clock=clock)
    for dry_run in (True, False):
        out = dst.import_json(io.StringIO(json.dumps(doc)), dry_run=dry_run)["world"]
        errors = {(r["member"], r["index"]) for r in out["results"] if r["action"] == "error"}
        assert errors == bad
        assert all(r["error"]["message"].startswith(f"export {r['member']} {r['index']}: ")
                   for r in out["results"] if r["action"] == "error")
        refused_history = [r for r in out["results"] if r.get("reason") == "target_refused"]
        assert refused_history and {r["target_id"] for r in refused_history} == {ids["porto"]}
        assert out["assertions_relinked"] == [ids["lisbon"]]
        verb = "would_restore" if dry_run else "restored"
        assert (out["assertions"][verb], out["predictions"][verb], out["sense_events"][verb]) == (4, 3, 2)
    current = dst.state_list(status="current", predicate="lives_in")["assertions"]
    assert [a["object"] for a in current] == ["Lisbon"]
    assert dst.predict_due(before="100w")["count"] == 0
    assert len(dst.rt.store.world.predictions()) == 3  # type: ignore[attr-defined]


def test_a_dry_run_counts_the_world_rows_and_writes_none(source: tuple[Mnemon, FakeClock, dict[str, str]],
                                                         make_mem: Callable[..., Mnemon]) -> None:
    src, clock, _ = source
    doc = src.export_json()
    dst = make_mem("hash", clock=clock)
    empty = table_rows(dst)
    out = dst.import_json(io.StringIO(json.dumps(doc)), dry_run=True)
    assert out["dry_run"] is True
    assert {kind: c["would_restore"] for kind, c in out["world"].items() if isinstance(c, dict)} == {
        member.removeprefix("world_"): len(doc[member]) for member in MEMBERS}
    assert table_rows(dst) == empty


# ── keys are NFC ─────────────────────────────────────────────────────────────
def _old_row(row_id: str, subject: str, obj: str, days: int, predicate: str = "lives_in") -> dict[str, Any]:
    return old_assertion(row_id, subject, predicate, obj, days)


def test_a_backup_of_keys_typed_in_two_spellings_is_restored_nfc_with_one_value_in_force(
        make_mem: Callable[..., Mnemon]) -> None:
    """The export of a store not yet through the NFC-keys upgrade (opened read-only): one subject in two
    spellings, each with a value "current"; the restore keys both NFC and chains them as the upgrade would."""
    doc = {"kind": "mnemon-export", "schema_version": "4", "provider": None, "insights": [], "edges": [],
           "vault_edges": [],
           "world_aliases": [{"alias_norm": "ze\u0301", "alias_name": unicodedata.normalize("NFD", "Zé"),
                              "canonical_name": NFD, "canonical_norm": NFD.casefold(), "source": "manual",
                              "confidence": 1.0, "created_at": iso(T0), "updated_at": iso(T0)}],
           "world_assertions": [_old_row("lisbon", NFC, "Lisbon", 0), _old_row("porto", NFD, "Porto", 1),
                                _old_row("choir", NFD, "Choir", 0, "member_of")]}
    dst = make_mem("hash", clock=FakeClock(T0 + timedelta(days=30)))
    out = dst.import_json(json.dumps(doc))["world"]
    assert out["assertions"]["restored"] == 3 and out["assertions_relinked"] == ["lisbon", "porto"]
    rows = dst.state_list(status="all", subject=NFC)["assertions"]
    assert {a["subject_name"] for a in rows} == {NFC}
    assert sorted((a["object"], a["validity"]) for a in rows) == [("Choir", "current"), ("Lisbon", "superseded"),
                                                                   ("Porto", "current")]
    world = dst.rt.store.world  # type: ignore[attr-defined]
    assert {key for key, _ in world.assertion_keys().values()} == {"josé"}
    assert all(unicodedata.is_normalized("NFC", key) for key, _ in world.assertion_keys().values())
    [alias] = world.aliases()
    assert (alias["alias_norm"], alias["canonical_norm"]) == ("zé", "josé")
    assert dst.alias_ls(canonical=NFC)["count"] == 1


# ── the old formats still read; a backend without world tables ───────────────
def test_a_schema_3_backup_still_restores(source: tuple[Mnemon, FakeClock, dict[str, str]],
                                          make_mem: Callable[..., Mnemon]) -> None:
    src, clock, _ = source
    doc = {k: v for k, v in src.export_json().items() if not k.startswith("world_")} | {"schema_version": "3"}
    dst = make_mem("hash", clock=clock)
    out = dst.import_json(io.StringIO(json.dumps(doc)))
    assert out["imported"] == len(doc["insights"]) and out["errors"] == 0
    assert all(c["restored"] == 0 for c in out["world"].values() if isinstance(c, dict))


def test_a_store_without_world_tables_restores_the_rest_and_says_so(
        source: tuple[Mnemon, FakeClock, dict[str, str]], make_mem: Callable[..., Mnemon],
        monkeypatch: pytest.MonkeyPatch) -> None:
    src, clock, _ = source
    text = export_text(src)
    dst = make_mem("hash", clock=clock)
    monkeypatch.setattr(type(dst.rt.store), "world", None)
    out = dst.import_json(io.StringIO(text))
    assert out["imported"] == 1 and out["errors"] == 0  # the remembered memory
    assert {r["reason"] for r in out["world"]["results"]} == {"no_world_tables"}
    assert any("no world-model tables" in w for w in out.get("warnings", []))


# ── the CLI, end to end ──────────────────────────────────────────────────────
def test_the_cli_export_and_import_carry_the_world(source: tuple[Mnemon, FakeClock, dict[str, str]],
                                                   facade_backend: str, tmp_path: Path,
                                                   cli_run: Callable[..., tuple[int, Any]]) -> None:
    if facade_backend == "postgres":
        pytest.skip("the CLI reads and writes SQLite files here (the facade tests restore into PostgreSQL)")
    src, _, ids = source
    src.close()
    backup, dst = tmp_path / "backup.json", tmp_path / "dst.db"
    assert cli_run(["--db", tmp_path / "src.db", "export", "--out", backup])[0] == 0
    code, out = cli_run(["--db", dst, "import", backup])
    assert code == 0 and out["world"]["assertions"]["restored"] == 5
    at = ["--as-of", iso(T0 + timedelta(days=10))]
    for args in (["state", "list", "--status", "all", *at], ["state", "explain", ids["porto"], *at],
                 ["alias", "ls"], ["predict", "due", "--before", "100w", *at]):
        assert cli_run(["--db", dst, *args]) == cli_run(["--db", tmp_path / "src.db", *args])


# ── property: any set of assertions round-trips ──────────────────────────────
_claims = st.lists(st.tuples(st.sampled_from(["Ana", NFC, "Bo"]), st.sampled_from(["lives_in", "member_of"]),
                             st.sampled_from(["Lisbon", "Porto", "Rome"]), st.integers(0, 20),
                             st.none() | st.integers(-30, 30), st.booleans()),
                   min_size=1, max_size=8)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(_claims)
def test_any_set_of_assertions_round_trips(make_mem: Callable[..., Mnemon], tmp_path_factory: pytest.TempPathFactory,
                                           facade_backend: str, claims: list[tuple[Any, ...]]) -> None:
    if facade_backend == "postgres":
        pytest.skip("each example needs two fresh stores: SQLite files")
    base = tmp_path_factory.mktemp("roundtrip")
    clock = FakeClock(T0)
    src = make_mem("hash", db=base / "src.db", clock=clock)
    for subject, predicate, obj, day, start, correction in sorted(claims, key=lambda c: c[3]):
        clock.now = T0 + timedelta(days=day)
        payload = claim(subject=subject, predicate=predicate, object=obj, source_path=f"mneme://r/{obj}{day}")
        if start is not None:
            payload["valid_from"] = iso(T0 + timedelta(days=start))
        if correction:
            payload["source_type"] = "user_correction"
        try:
            propose_assertion(src.rt, payload)
        except MnemonError:
            pass  # a claim the world model refuses is no part of the property
    dst = make_mem("hash", db=base / "dst.db", clock=clock)
    out = dst.import_json(io.StringIO(export_text(src)))["world"]
    assert out["results"] == [] and out["assertions_relinked"] == []
    assert table_rows(dst) == table_rows(src)
    for day in (-40, 5, 15, 40):
        moment = iso(T0 + timedelta(days=day))
        assert dst.state_list(status="all", as_of=moment) == src.state_list(status="all", as_of=moment)
