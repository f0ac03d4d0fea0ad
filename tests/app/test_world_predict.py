"""Predictions, sense events, the tick, the action ledger, the contract, preflight and `eval retrieval`."""
from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from mnemon.app.memory import Mnemon
from mnemon.app.world import (SenseInput, parsed_sense_event, propose_assertion, record_sense_event,
                              store_sense_events, world_context_items)
from mnemon.core.errors import ContractViolation, InvalidInput, MnemonError, NotFound
from mnemon.core.model import Edge, Memory, iso

from conftest import FakeClock

from .conftest import WORLD_T0

T0 = WORLD_T0  # where the `world` fixture's clock starts


def prediction(**over: Any) -> dict[str, Any]:
    base = {"title": "Parcel should arrive", "match_json": {"sense_type": "gws", "observation_terms_all": ["parcel"]},
            "check_after": "2026-06-02T00:00:00Z", "expires_at": "2026-06-05T00:00:00Z"}
    return {**base, **over}


def gws(text: str, at: str, **extra: Any) -> dict[str, Any]:
    return {"sense_type": "gws", "observed_at": at, "text": text, **extra}


@pytest.mark.parametrize("payload, fragment", [
    ({"match_json": {"sense_type": "gws", "title_terms_any": ["x"]}, "check_after": "2026-06-01",
      "expires_at": "2026-06-02"}, "title"),
    (prediction(expires_at="not a date"), "expires_at"),
    (prediction(expires_at="2026-05-01"), "before check_after"),
    (prediction(match_json={"sense_type": "telepathy", "title_terms_any": ["x"]}), "unknown sense type"),
    (prediction(match_json={"sense_type": "gws"}), "source_id or at least one term"),
    (prediction(subject_assertion_id="nope"), "names no stored assertion"),
])
def test_bad_prediction_payloads_are_json_errors(world: tuple[Mnemon, FakeClock], payload: dict[str, Any],
                                                 fragment: str) -> None:
    mem, _ = world
    with pytest.raises((InvalidInput, NotFound)) as info:
        mem.predict_add(json.dumps(payload))
    assert fragment in info.value.message


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=12),
                    lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=10), c, max_size=4),
                    max_leaves=12))
def test_arbitrary_json_never_escapes_as_a_non_mnemon_error(world: tuple[Mnemon, FakeClock], junk: Any) -> None:
    mem, _ = world
    for call in (mem.predict_add, mem.sense_add, mem.action_record):
        try:
            call(json.dumps(junk))
        except MnemonError:
            pass


def test_content_hash_id_makes_replays_idempotent(world: tuple[Mnemon, FakeClock]) -> None:
    mem, _ = world
    first = mem.predict_add(json.dumps(prediction()))
    reordered = json.loads(json.dumps(prediction(check_after="2026-06-02T00:00:00+00:00")))
    second = mem.predict_add(reordered)
    assert first["created"] and not second["created"]
    assert first["prediction"]["id"] == second["prediction"]["id"]


def test_remember_records_a_sense_event_that_confirms_a_prediction(world: tuple[Mnemon, FakeClock]) -> None:
    mem, clock = world
    pid = mem.predict_add(prediction(match_json={"sense_type": "manual", "observation_terms_all": ["parcel"]})
                          )["prediction"]["id"]
    clock.now = datetime(2026, 6, 3, tzinfo=timezone.utc)
    mem.remember("The parcel from the bookshop arrived today")
    dry = mem.predict_check(prediction_id=pid, dry_run=True)
    assert dry["results"][0]["status"] == "confirmed"
    evidence = dry["results"][0]["outcome_sense_event_id"]
    assert evidence and evidence == dry["results"][0]["matches"][0]  # Mneme's key: the deciding event
    assert mem.predict_due()["count"] == 1  # dry run recorded nothing
    assert mem.predict_check(prediction_id=pid)["results"][0]["status"] == "confirmed"
    again = mem.predict_check(prediction_id=pid)["results"][0]  # terminal: the stored outcome keeps its event
    assert again["status"] == "confirmed" and again["outcome_sense_event_id"] == evidence
    assert mem.predict_due(before="30d")["count"] == 0


def test_miss_weakens_linked_assertion_once_and_keeps_it_current(world: tuple[Mnemon, FakeClock]) -> None:
    mem, clock = world
    fact = propose_assertion(mem.rt, {"subject": "Ana", "predicate": "works_at", "object": "Atlas Books",
                                      "confidence": 0.95, "certainty": "confirmed", "evidence": "contract",
                                      "source_path": "mneme://r/ana"})
    mem.predict_add(prediction(subject_assertion_id=fact["id"]))
    clock.now = datetime(2026, 6, 3, 1, tzinfo=timezone.utc)  # (evidence is added once it was perceived)
    mem.sense_add(json.dumps(gws("weekly newsletter", "2026-06-03T00:00:00Z")))  # the sense is alive
    clock.now = datetime(2026, 6, 6, tzinfo=timezone.utc)
    first = mem.world_tick()
    assert first["predictions"]["results"][0]["status"] == "missed"
    mem.world_tick()
    row = mem.state_explain(fact["id"])
    assert row["assertion"]["confidence"] == 0.76 and row["assertion"]["validity"] == "current"
    assert len(row["prediction_misses"]) == 1
    assert mem.contract_check()["warnings"][0]["rule"] == "weakened_current_assertion"


def test_silent_sense_is_unverifiable_and_gate_caps_the_window(world: tuple[Mnemon, FakeClock]) -> None:
    mem, clock = world
    silent = mem.predict_add(prediction())["prediction"]["id"]
    gated = mem.predict_add(prediction(
        title="Receipt before the flight",
        match_json={"sense_type": "notion", "observation_terms_all": ["receipt"],
                    "gate": {"sense_type": "notion", "title_terms_all": ["flight"]}},
        expires_at="2026-06-30T00:00:00Z"))["prediction"]["id"]
    clock.now = datetime(2026, 6, 4, 1, tzinfo=timezone.utc)  # (evidence is added once it was perceived)
    mem.sense_add(json.dumps([{"sense_type": "notion", "observed_at": "2026-06-03T00:00:00Z", "title": "Flight"},
                              {"sense_type": "notion", "observed_at": "2026-06-04T00:00:00Z",
                               "text": "receipt attached"}]))
    clock.now = datetime(2026, 6, 10, tzinfo=timezone.utc)
    results = {r["id"]: r for r in mem.world_tick()["predictions"]["results"]}
    assert results[silent]["status"] == "unverifiable"
    assert results[gated]["status"] == "missed"  # the receipt came after the gate: too late
    assert results[gated]["effective_expires_at"].startswith("2026-06-03")


def test_watch_lists_due_soon_without_evidence_and_is_read_only(world: tuple[Mnemon, FakeClock]) -> None:
    mem, _ = world
    pid = mem.predict_add(prediction())["prediction"]["id"]
    assert mem.world_watch(lead="12h")["count"] == 0
    watch = mem.world_watch(lead="2d")
    assert [w["id"] for w in watch["watch"]] == [pid] and "no gws evidence yet" in watch["watch"][0]["summary"]
    assert mem.predict_due(before="30d")["predictions"][0]["status"] == "open"


def test_action_ledger_rules_and_idempotent_verification(world: tuple[Mnemon, FakeClock]) -> None:
    mem, _ = world
    with pytest.raises(InvalidInput, match="external_ref or tool_call_id"):
        mem.action_record({"action_type": "email", "title": "Send invoice", "side_effect_level": "external"})
    with pytest.raises(InvalidInput, match="verified"):
        mem.action_record({"action_type": "note", "title": "x", "status": "verified"})
    payload = {"action_type": "email", "title": "Send invoice to Atlas Books", "side_effect_level": "external",
               "external_ref": "gmail:msg-1", "verify": {"sense_type": "gws", "terms": ["invoice", "paid"]}}
    first = mem.action_record(json.dumps(payload))
    second = mem.action_record(json.dumps(payload))
    assert first["created"] and not second["created"]
    assert first["spawned_prediction_id"] == second["spawned_prediction_id"]
    assert first["prediction_created"] and not second["prediction_created"]
    with pytest.raises(InvalidInput, match="not confirmed"):
        mem.action_record({**payload, "status": "verified",
                           "verified_by_prediction": first["spawned_prediction_id"]})


def test_contract_fails_on_unvalidated_active_claim_edge(world: tuple[Mnemon, FakeClock]) -> None:
    mem, _ = world
    assert mem.contract_check()["status"] == "pass"
    now = iso(T0)
    for node_id in ("a", "b"):
        mem.rt.store.insert_node(Memory(id=node_id, kind="entity", title=node_id, content=node_id, created_at=now,
                                        updated_at=now))
    with mem.rt.store.transaction():
        mem.rt.store.upsert_edge(Edge(src="a", dst="b", type="lives_in", status="active", origin="ingest",
                                      created_at=now))
    with pytest.raises(ContractViolation) as info:
        mem.contract_check()
    assert info.value.details["violations"][0]["rule"] == "semantic_edges_need_validation"
    with pytest.raises(ContractViolation):
        mem.agent_preflight("anything about a")


def test_context_items_follow_the_prompt_not_every_pack(world: tuple[Mnemon, FakeClock]) -> None:
    mem, clock = world
    mem.predict_add(prediction())
    clock.now = datetime(2026, 6, 3, 1, tzinfo=timezone.utc)  # (evidence is added once it was perceived)
    mem.sense_add(json.dumps(gws("newsletter", "2026-06-03T00:00:00Z")))
    clock.now = datetime(2026, 6, 6, tzinfo=timezone.utc)
    mem.world_tick()
    assert world_context_items(mem.rt, "what about the parcel?")[0]["truth_policy"] == "missed_prediction"
    assert world_context_items(mem.rt, "what is the weather in Oslo?") == []
    replay = world_context_items(mem.rt, "what about the parcel?", as_of="2026-06-04T00:00:00Z")
    assert replay[0]["truth_policy"] == "open_prediction"


def test_record_sense_event_rejects_unknown_types_and_dedupes(world: tuple[Mnemon, FakeClock]) -> None:
    mem, _ = world
    with pytest.raises(InvalidInput, match="unknown sense type"):
        record_sense_event(mem.rt, "vault", "fax", "n1", "2026-06-01", "t", "x")
    with pytest.raises(InvalidInput, match="observed_at"):
        record_sense_event(mem.rt, "vault", "md", "n1", "yesterday", "t", "x")
    first = record_sense_event(mem.rt, "vault", "md", "notes/a.md", "2026-06-01", "A", "text")
    again = record_sense_event(mem.rt, "vault", "md", "notes/a.md", "2026-06-01", "A", "text")
    assert first["created"] and not again["created"] and first["id"] == again["id"]


def _record_many(mem: Mnemon, inputs: list[SenseInput]) -> int:
    """What vault ingestion does: every event parsed first (all or nothing), then stored together."""
    return store_sense_events(mem.rt, [(parsed_sense_event("vault", i), i.source_path) for i in inputs])


def test_recording_many_sense_events_writes_what_one_at_a_time_writes(make_mem: Callable[..., Mnemon],
                                                                      tmp_path: Any) -> None:
    inputs = [SenseInput("md", f"notes/{i % 3}.md", f"2026-06-0{1 + i % 3}", f"Note {i % 3}", f"text {i % 3}",
                         {"path": f"notes/{i % 3}.md"}, event_type="note", source_uri=f"vault:notes/{i % 3}.md")
              for i in range(5)]  # five inputs, three distinct events: the repeats are one row each
    one, many = make_mem(db=tmp_path / "one.db"), make_mem(db=tmp_path / "many.db")
    for i in inputs:
        record_sense_event(one.rt, "vault", i.sense_type, i.source_id, i.observed_at, i.title, i.text, i.metadata,
                           event_type=i.event_type, source_uri=i.source_uri, source_path=i.source_path)
    assert _record_many(many, inputs) == 3
    assert _record_many(many, inputs) == 0  # replay-idempotent, as one at a time

    def rows(m: Mnemon) -> list[Any]:
        return sorted(((row, m.rt.store.world.events("sense_event", row["id"])[0]["detail"])
                       for row, _at in m.rt.store.world.sense_events()), key=lambda pair: pair[0]["id"])
    assert rows(one) == rows(many) and len(rows(many)) == 3
    with pytest.raises(InvalidInput, match="unknown sense type"):
        _record_many(many, [inputs[0], inputs[0]._replace(sense_type="fax")])
    assert len(rows(many)) == 3  # all or nothing


def test_eval_retrieval_demo_is_deterministic_and_guards_a_threshold(world: tuple[Mnemon, FakeClock],
                                                                     tmp_path: Any) -> None:
    mem, _ = world
    first = mem.eval_retrieval(demo=True)
    assert first == mem.eval_retrieval(demo=True)
    assert first["cases"] == 6 and 0.0 <= first["score"] <= 1.0
    assert first["score"] == round((first["hit@k"] + first["mrr"] + 1 - first["forbidden_rate"]) / 3, 4)
    assert mem.eval_retrieval(demo=True, min_score=first["score"])["ok"] is True
    cases = {"memories": [{"key": "a", "content": "The boiler was serviced in May", "source": "home/boiler.md",
                           "created_at": "2026-05-02T00:00:00Z"}],
             "cases": [{"query": "boiler service", "expected_sources": ["home/boiler.md"]},
                       {"query": "boiler", "expected_sources": ["home/missing.md"],
                        "forbidden_patterns": ["boiler"]}]}
    seeded = mem.eval_retrieval(cases=json.dumps(cases), k=1)
    assert seeded["store"] == "seeded" and seeded["hit@k"] == 0.5 and seeded["forbidden_rate"] == 0.5
    assert [f["query"] for f in seeded["failures"]] == ["boiler"]
    with pytest.raises(ContractViolation) as info:
        mem.eval_retrieval(cases=json.dumps(cases), k=1, min_score=0.9)
    assert info.value.details["score"] == seeded["score"] == 0.5
    with pytest.raises(InvalidInput, match="query"):
        mem.eval_retrieval(cases=json.dumps([{"expected_ids": ["x"]}]))


BOILER_MEMORIES = [
    {"key": "serviced", "content": "The boiler was serviced in May", "source": "home/boiler.md",
     "created_at": "2026-05-02T00:00:00Z"},
    {"key": "pressure", "content": "The boiler pressure gauge reads low again", "source": "home/pressure.md",
     "created_at": "2026-05-03T00:00:00Z"},
    {"key": "engineer", "content": "Book the boiler engineer for the annual check", "source": "home/engineer.md",
     "created_at": "2026-05-04T00:00:00Z"},
    {"key": "fence", "content": "The garden fence needs painting", "source": "home/fence.md",
     "created_at": "2026-05-04T00:00:00Z"},
]


def seeded_eval(mem: Mnemon, cases: list[dict[str, Any]], **kw: Any) -> dict[str, Any]:
    return mem.eval_retrieval(cases=json.dumps({"memories": BOILER_MEMORIES, "cases": cases}), **kw)


def test_eval_retrieval_matches_node_names_by_vault_note_title(world: tuple[Mnemon, FakeClock],
                                                               tmp_path: Any) -> None:
    mem, _ = world
    vault = tmp_path / "vault"
    (vault / "Projects").mkdir(parents=True)
    (vault / "Projects" / "alpha.md").write_text(
        "# Falcon Launch\n\n## Status\n\nThe rocket engine passed its hot-fire test on Tuesday.\n")
    mem.ingest(str(vault))
    cases = [  # a names-only case is valid; the name is in neither the content nor the source, only the note title
        {"query": "rocket engine hot-fire", "expected_node_names": ["falcon LAUNCH", "Nowhere Node"]},
        # Mneme's vault-relative path matches the row's `vault:` source; a name nothing carries fails the case
        {"query": "rocket engine", "expected_source_paths": ["Projects/alpha.md"],
         "expected_node_names": ["Nowhere Node"]},
        {"query": "hot-fire test", "expected_source_paths": ["Projects/alpha.md"]},  # no names: passes, as in Mneme
    ]
    out = mem.eval_retrieval(cases=json.dumps(cases))
    assert out["store"] == "current" and out["hit@k"] == 1.0 and out["score"] == 1.0
    assert out["node_name_rate"] == round(2 / 3, 4)
    first, second, third = out["per_case"]
    assert first["node_names_expected"] == ["falcon LAUNCH", "Nowhere Node"]
    assert first["node_names_found"] == ["falcon LAUNCH"]
    assert second["node_names_found"] == [] and "node_names_expected" not in third
    assert out["failures"] == [{"query": "rocket engine", "reasons": ["node_names_missing"], "rank": 1,
                                "forbidden_top1": False, "top1": "vault:Projects/alpha.md",
                                "node_names_expected": ["Nowhere Node"]}]
    no_names = mem.eval_retrieval(cases=json.dumps(cases[2:]))
    assert no_names["node_name_rate"] == 1.0 and no_names["failures"] == []


def test_eval_retrieval_min_items_rate_counts_cases(world: tuple[Mnemon, FakeClock]) -> None:
    mem, _ = world
    boiler = {"query": "boiler", "expected_contains": ["boiler"]}
    out = seeded_eval(mem, [{**boiler, "min_expected_items": 3}, {**boiler, "min_expected_items": 0},
                            {**boiler, "min_expected_items": 4}, boiler])  # absent: 1, as in Mneme
    assert [row["items"] for row in out["per_case"]] == [3, 3, 3, 3]
    assert [row["min_expected_items"] for row in out["per_case"]] == [3, 0, 4, 1]
    assert out["min_items_rate"] == 0.75 and out["score"] == 1.0  # reported, not scored
    assert [(f["reasons"], f["items"], f["min_expected_items"]) for f in out["failures"]] == [
        (["too_few_items"], 3, 4)]
    # a case recall answers with nothing misses its default single item too; k does not cap the count
    missing = seeded_eval(mem, [{"query": "home upkeep", "expected_sources": ["home/boiler.md"]},
                                {**boiler, "min_expected_items": 3}], k=1)
    assert missing["min_items_rate"] == 0.5
    assert missing["failures"][0]["reasons"] == ["not_in_top_k", "too_few_items"]


def test_eval_retrieval_hints_are_accepted_as_a_list_or_a_comma_separated_string(
        world: tuple[Mnemon, FakeClock]) -> None:
    mem, _ = world
    case = {"query": "home upkeep", "expected_sources": ["home/boiler.md"]}
    out = seeded_eval(mem, [case, {**case, "hints": ["serviced", "boiler"]},
                            {**case, "hints": " serviced, boiler ,"}])
    plain, listed, comma = out["per_case"]
    assert not plain["hit"] and "hints" not in plain  # no default hints: the query alone
    assert listed["hit"] and comma["hit"] and listed["rank"] == comma["rank"] == 1
    assert listed["hints"] == comma["hints"] == ["serviced", "boiler"]
    with pytest.raises(InvalidInput, match=r"cases\[0\]: hints"):
        seeded_eval(mem, [{**case, "hints": 42}])


@pytest.mark.parametrize("bad", [-1, 1.5, "2", True, None, 101])
def test_eval_retrieval_bad_min_expected_items_is_a_json_error(cli_run: Callable[..., tuple[int, Any]],
                                                               tmp_path: Any, bad: Any) -> None:
    path = tmp_path / "cases.json"
    path.write_text(json.dumps({"memories": BOILER_MEMORIES, "cases": [
        {"query": "boiler", "expected_contains": ["boiler"]},
        {"query": "boiler", "expected_contains": ["boiler"], "min_expected_items": bad}]}))
    code, out = cli_run(["eval", "retrieval", "--cases", path])
    assert code != 0 and out["ok"] is False and out["error"]["code"] == "invalid_input"
    assert "cases[1]: min_expected_items must be a whole number" in out["error"]["message"]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.integers(0, 100), st.lists(st.sampled_from(["Sequency App", "cassini", "nowhere"]),
                                                        max_size=2)), min_size=6, max_size=6))
def test_eval_retrieval_new_keys_never_move_the_demo_score(world: tuple[Mnemon, FakeClock],
                                                          extra: list[tuple[int, list[str]]]) -> None:
    from mnemon.app.world.evalretrieval import DEMO_CASES, DEMO_MEMORIES, DEMO_NOW

    mem, _ = world
    demo = mem.eval_retrieval(demo=True)
    assert demo["min_items_rate"] == 1.0 and demo["node_name_rate"] == 1.0  # every demo case carries a name
    plain = [{k: v for k, v in c.items() if k != "expected_node_names"} for c in DEMO_CASES]
    varied = [{**c, "min_expected_items": n, **({"expected_node_names": names} if names else {})}
              for c, (n, names) in zip(plain, extra)]
    for cases in (plain, varied):
        out = mem.eval_retrieval(cases=json.dumps({"memories": DEMO_MEMORIES, "now": DEMO_NOW, "cases": cases}))
        assert {key: out[key] for key in ("hit@k", "mrr", "forbidden_rate", "score")} == {
            key: demo[key] for key in ("hit@k", "mrr", "forbidden_rate", "score")}


def test_contract_reads_only_the_edges_that_can_break_it_and_counts_them_all(world: tuple[Mnemon, FakeClock],
                                                                            example_vault: Path) -> None:
    """A vault's structure and observation edges need no validation: the check counts them without reading them,
    and still finds the one unvalidated claim among them (agent preflight runs this on every prompt)."""
    mem, _ = world
    mem.ingest(str(example_vault), embed=False)
    active = sum(1 for e in mem.rt.store.iter_edges() if e.status == "active")
    assert mem.contract_check()["checked"]["edges"] == active
    now = iso(T0)
    with mem.rt.store.transaction():
        for person, origin in (("note:People/ada-quill.md", "ingest"), ("note:People/bram-okafor.md", "user")):
            mem.rt.store.upsert_edge(Edge(src="note:Projects/lighthouse.md", dst=person, type="employs",
                                          status="active", origin=origin, created_at=now))
    with pytest.raises(ContractViolation) as info:
        mem.contract_check()
    report = info.value.details
    assert [v["rule"] for v in report["violations"]] == ["semantic_edges_need_validation"]  # the user's edge passes
    assert report["checked"]["edges"] == active + 2


@pytest.mark.parametrize("call", [
    lambda m, i: m.predict_check(prediction_id=i),
    lambda m, i: m.predict_check(prediction_id=i, dry_run=True),
    lambda m, i: m.state_explain(i),
    lambda m, i: m.state_retract(i, reason="wrong"),
], ids=["predict_check", "predict_check_dry", "state_explain", "state_retract"])
def test_an_id_naming_nothing_names_its_field(world: tuple[Mnemon, FakeClock], call: Any) -> None:
    """`predict check --id nope` answered not_found with no details.field, where the as_of beside it and the
    servers' own refusal of a blank id name theirs (`id`, the argument over MCP and HTTP)."""
    mem, _ = world
    with pytest.raises(NotFound) as missing:
        call(mem, "nope")
    assert missing.value.details.get("field") == "id"
    with pytest.raises(InvalidInput) as blank:
        call(mem, "  ")
    assert blank.value.details.get("field") == "id"


def test_predict_check_of_an_unknown_id_names_the_field_on_the_command_line(
        cli_run: Callable[..., tuple[int, Any]]) -> None:
    code, out = cli_run(["predict", "check", "--id", "nope"])
    # (the id given is named too, as every not_found of an id names it since session 39)
    assert code != 0 and out["error"]["code"] == "not_found"
    assert out["error"]["details"] == {"field": "id", "id": "nope"}
