"""The world-model commands through the real CLI entry point: one JSON document per call, JSON errors with a
non-zero exit for bad payloads, and non-zero exits when the contract (or the retrieval guard) fails."""
from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

Run = Callable[..., tuple[int, Any]]

CLAIM = {"subject": "Ana", "predicate": "lives_in", "object": "Lisbon", "confidence": 0.95,
         "certainty": "confirmed", "evidence": "lease (fictional)", "source_path": "mneme://r/ana"}
PREDICTION = {"title": "Parcel should arrive", "match_json": {"sense_type": "gws", "observation_terms_all": ["parcel"]},
              "check_after": "2030-01-02T00:00:00Z", "expires_at": "2030-01-05T00:00:00Z"}


def write(tmp_path: Path, name: str, payload: Any) -> str:
    path = tmp_path / name
    path.write_text(payload if isinstance(payload, str) else json.dumps(payload), encoding="utf-8")
    return str(path)


def test_world_commands_print_one_json_document(cli_run: Run, tmp_path: Path) -> None:
    # the CLI runs on the wall clock, and evidence is added once it was perceived (`sense add` refuses an event
    # dated ahead): the prediction's window is open now and the event came yesterday
    now = datetime.now(timezone.utc).replace(microsecond=0)
    soon = (now + timedelta(hours=1)).isoformat()  # (a replay at `soon` sees every row this test writes)
    code, out = cli_run(["state", "assert", "--file", write(tmp_path, "a.json", CLAIM)])
    assert code == 0 and out["status"] == "current"
    code, out = cli_run(["predict", "add", "--file", write(tmp_path, "p.json", {
        **PREDICTION, "check_after": (now - timedelta(days=2)).isoformat(),
        "expires_at": (now + timedelta(days=3)).isoformat()})])
    assert code == 0 and out["created"] is True
    pid = out["prediction"]["id"]
    code, out = cli_run(["sense", "add", "--file", "-"],
                        input=json.dumps({"sense_type": "gws", "observed_at": (now - timedelta(days=1)).isoformat(),
                                          "text": "your parcel was delivered"}))
    assert code == 0 and out["added"] == 1
    code, out = cli_run(["predict", "due", "--before", soon, "--as-of", soon])
    assert [p["id"] for p in out["predictions"]] == [pid]
    code, out = cli_run(["predict", "check", "--id", pid, "--as-of", soon, "--dry-run"])
    assert out["results"][0]["status"] == "confirmed" and out["dry_run"] is True
    code, out = cli_run(["world", "tick", "--before", soon, "--dry-run"])
    assert code == 0 and out["ok"] is True and out["predictions"]["results"][0]["status"] == "confirmed"
    for args in (["state", "list", "--status", "current"], ["state", "conflicts"], ["world", "watch", "--lead", "1d"],
                 ["alias", "add", "the tenant", "Ana"], ["alias", "ls"], ["alias", "merge", "A", "B", "--dry-run"],
                 ["contract", "check"], ["state", "backfill", "--dry-run"],
                 ["agent", "preflight", "--prompt", "where does Ana live?", "--as-of", soon],
                 ["eval", "retrieval", "--demo", "-k", "3"]):
        code, out = cli_run(args)
        assert code == 0, (args, out)
        assert isinstance(out, dict) and out.get("ok", True) is True, (args, out)
    code, out = cli_run(["state", "list", "--subject", "the tenant"])
    # aliases affect future writes only (merge rewrites): the alias lists its canonical subject's rows, as stored
    assert [a["subject_name"] for a in out["assertions"]] == ["Ana"]
    code, out = cli_run(["alias", "merge", "the tenant", "Ana"])
    assert code == 0 and out["canonical"] == "Ana"


@pytest.mark.parametrize("command, payload, fragment", [
    (["predict", "add"], {k: v for k, v in PREDICTION.items() if k != "title"}, "title"),
    (["predict", "add"], {**PREDICTION, "check_after": "someday"}, "check_after"),
    (["predict", "add"], {**PREDICTION, "match_json": {"sense_type": "pigeon", "title_terms_any": ["x"]}},
     "unknown sense type"),
    (["sense", "add"], {"sense_type": "gws", "text": "hi"}, "observed_at"),
    (["sense", "add"], {"sense_type": "carrier-pigeon", "observed_at": "2030-01-01", "text": "hi"},
     "unknown sense type"),
    (["sense", "add"], {"sense_type": "gws", "observed_at": "31/12/2030", "text": "hi"}, "observed_at"),
    (["action", "record"], {"title": "x"}, "action_type"),
    (["action", "record"], {"action_type": "pay", "title": "Pay rent", "side_effect_level": "financial"},
     "external_ref"),
    (["state", "assert"], {"predicate": "lives_in", "object": "x"}, "subject"),
    (["state", "assert"], "{not json", "not valid JSON"),
])
def test_bad_payloads_are_json_errors(cli_run: Run, tmp_path: Path, command: list[str], payload: Any,
                                      fragment: str) -> None:
    code, out = cli_run([*command, "--file", write(tmp_path, "bad.json", payload)])
    assert code != 0 and out["ok"] is False
    assert out["error"]["code"] == "invalid_input" and fragment in out["error"]["message"]


@pytest.mark.parametrize("args, code_name", [
    (["predict", "add", "--file", "/nonexistent/p.json"], "not_found"),
    (["predict", "due", "--before", "next tuesday"], "invalid_input"),
    (["world", "watch", "--lead", "soon"], "invalid_input"),
    (["agent", "preflight", "--prompt", "x", "--as-of", "2030-13-01"], "invalid_input"),
    (["state", "explain", "nope"], "not_found"),
    (["predict", "check", "--id", "nope"], "not_found"),
    (["eval", "retrieval"], "invalid_input"),
    (["state", "list", "--status", "maybe"], "invalid_input"),
])
def test_bad_flags_are_json_errors(cli_run: Run, args: list[str], code_name: str) -> None:
    code, out = cli_run(args)
    assert code != 0 and out["error"]["code"] == code_name


def test_failing_contract_exits_non_zero_with_the_report(cli_run: Run, make_mem: Callable[..., Any]) -> None:
    from mnemon.core.model import Edge, Memory

    mem = make_mem("hash")
    for node_id in ("a", "b"):
        mem.rt.store.insert_node(Memory(id=node_id, kind="entity", title=node_id, content=node_id,
                                        created_at="2030-01-01T00:00:00Z", updated_at="2030-01-01T00:00:00Z"))
    with mem.rt.store.transaction():
        mem.rt.store.upsert_edge(Edge(src="a", dst="b", type="married_to", status="active", origin="ingest",
                                      created_at="2030-01-01T00:00:00Z"))
    mem.close()
    code, out = cli_run(["contract", "check"])
    assert code == 1 and out["error"]["code"] == "contract_failed"
    assert out["error"]["details"]["violations"][0]["rule"] == "semantic_edges_need_validation"
    code, out = cli_run(["agent", "preflight", "--prompt", "who is a married to?"])
    assert code == 1 and out["error"]["details"]["contract"]["ok"] is False
    assert out["error"]["details"]["agent_rules"]


def test_retrieval_guard_exits_non_zero_below_threshold(cli_run: Run, tmp_path: Path) -> None:
    cases = {"memories": [{"content": "The boiler was serviced in May", "source": "home/boiler.md"}],
             "cases": [{"query": "boiler", "expected_sources": ["home/missing.md"]}]}
    code, out = cli_run(["eval", "retrieval", "--cases", write(tmp_path, "c.json", cases), "--min-score", "0.9"])
    assert code == 1 and out["error"]["code"] == "contract_failed" and out["error"]["details"]["score"] < 0.9


def test_state_list_subject_finds_part_of_the_subject_as_the_readme_example(cli_run: Run, tmp_path: Path) -> None:
    child = {**CLAIM, "subject": "Example Child", "predicate": "attends_activity", "object": "Handwriting Club"}
    assert cli_run(["state", "assert", "--file", write(tmp_path, "c.json", child)])[0] == 0
    assert cli_run(["state", "assert", "--file", write(tmp_path, "a.json", CLAIM)])[0] == 0
    for text in ("Example", "child"):
        code, out = cli_run(["state", "list", "--subject", text])
        assert code == 0 and [a["subject_name"] for a in out["assertions"]] == ["Example Child"], text


def test_preflight_ranks_a_prompt_exactly_as_retrieve_does(cli_run: Run, tmp_path: Path, example_vault: Path) -> None:
    """`init` writes Mneme's default hints to the config; retrieve uses them, and so must preflight's pack."""
    config = str(tmp_path / "config.json")
    code, out = cli_run(["--config", config, "init", "--vault", example_vault, "--db", tmp_path / "m.db"])
    assert code == 0 and "deadline" in out["hints"]
    assert cli_run(["--config", config, "ingest"])[0] == 0
    prompt = "lighthouse project deadline"

    def ranked(pack: dict[str, Any]) -> list[tuple[str, float]]:
        return [(item["id"], item["score"]) for item in pack["items"]]
    for flags in ([], ["--hints", "lease,payment"]):
        _, retrieved = cli_run(["--config", config, "retrieve", "--prompt", prompt, *flags])
        code, preflight = cli_run(["--config", config, "agent", "preflight", "--prompt", prompt, *flags])
        assert code == 0 and retrieved["hints"], flags
        assert preflight["context"]["hints"] == retrieved["hints"], flags
        assert ranked(preflight["context"]) == ranked(retrieved), flags


def test_an_id_naming_another_claim_is_a_conflict_and_a_future_tick_only_a_preview(cli_run: Run,
                                                                                   tmp_path: Path) -> None:
    assert cli_run(["state", "assert", "--file", write(tmp_path, "a.json", {**CLAIM, "id": "a1"})])[0] == 0
    code, out = cli_run(["state", "assert", "--file", write(tmp_path, "b.json", {**CLAIM, "id": "a1",
                                                                                  "object": "Porto"})])
    assert code == 1 and out["error"]["code"] == "conflict" and "a1" in out["error"]["message"]
    code, out = cli_run(["state", "list", "--status", "current"])
    assert [a["object"] for a in out["assertions"]] == ["Lisbon"]
    assert cli_run(["predict", "add", "--file", write(tmp_path, "p.json", PREDICTION)])[0] == 0
    code, out = cli_run(["world", "tick", "--before", "2030-01-06T00:00:00Z"])  # the window is still to come
    assert code == 1 and out["error"]["code"] == "invalid_input" and "--dry-run" in out["error"]["message"]
    code, out = cli_run(["predict", "check", "--as-of", "2030-01-06T00:00:00Z"])
    assert code == 1 and out["error"]["code"] == "invalid_input"
    code, out = cli_run(["predict", "due", "--before", "2030-01-06T00:00:00Z"])
    assert code == 0 and out["count"] == 1  # still open


def test_sense_add_of_a_stored_id_with_other_content_is_a_conflict(cli_run: Run) -> None:
    mail = {"id": "mail-1", "sense_type": "gws", "observed_at": "2025-01-03T00:00:00Z", "text": "parcel delivered"}
    assert cli_run(["sense", "add", "--file", "-"], input=json.dumps(mail))[0] == 0
    code, out = cli_run(["sense", "add", "--file", "-"], input=json.dumps(mail))
    assert code == 0 and out["events"][0]["status"] == "already_present" and out["added"] == 0
    code, out = cli_run(["sense", "add", "--file", "-"],
                        input=json.dumps([{**mail, "id": "mail-2"},
                                          {**mail, "observed_at": "2025-01-05T00:00:00Z", "text": "parcel lost"}]))
    assert code == 1 and out["ok"] is False and out["error"]["code"] == "conflict"
    assert out["error"]["details"]["conflicts"] == [
        {"index": 1, "id": "mail-1", "differs": ["observed_at", "text"], "stored": True}]
    code, out = cli_run(["sense", "add", "--file", "-"], input=json.dumps({**mail, "id": "mail-2"}))
    assert code == 0 and out["added"] == 1  # the refused file stored nothing, mail-2 included
