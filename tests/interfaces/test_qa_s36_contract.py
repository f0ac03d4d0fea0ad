"""QA session 36, the interfaces' contract: flags that change nothing are refused (`surface --no-candidates`
without a prompt, `note daily read --dry-run`), an export whose every memory is refused fails whole, the servers'
schemas state what the facade refuses inside an object, and suggested actions name only tools that exist."""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from mnemon.interfaces import operations
from mnemon.interfaces.mcp import handle

CliRun = Callable[..., tuple[int, Any]]


# ── 1. flags that change nothing ───────────────────────────────────────────────────────────────────────────────
def test_surface_no_candidates_without_a_prompt_is_refused(cli_run: CliRun) -> None:
    """The proactive cards read no pack: `surface --no-candidates` answered the same cards, the flag dropped."""
    assert cli_run(["remember", "Mira leads the payments team"])[0] == 0
    code, doc = cli_run(["surface", "--no-candidates"])
    assert code == 1 and doc["error"]["code"] == "invalid_input" and "needs a prompt" in doc["error"]["message"]
    code, doc = cli_run(["surface", "--no-candidates", "--prompt", "payments team"])
    assert code == 0 and doc["prompt"] == "payments team"


@pytest.mark.parametrize("action", [["read"], []])
def test_daily_read_with_dry_run_is_refused(cli_run: CliRun, tmp_path: Path, action: list[str]) -> None:
    """Reading writes nothing: `note daily read --dry-run` printed the note as if the flag meant something."""
    vault = tmp_path / "vault"
    vault.mkdir()
    code, doc = cli_run(["note", "daily", *action, "--vault", vault, "--date", "2026-03-02", "--dry-run"])
    assert code == 1 and doc["error"]["code"] == "invalid_input"
    assert doc["error"]["message"] == "`daily read` writes nothing: drop --dry-run"
    code, doc = cli_run(["note", "daily", "append", "--vault", vault, "--date", "2026-03-02", "--content", "x",
                         "--dry-run"])
    assert code == 0 and not (vault / "Daily" / "2026-03-02.md").exists()


# ── 2. an export whose every memory is refused ─────────────────────────────────────────────────────────────────
def _refused_import(cli_run: CliRun, tmp_path: Path, export: dict[str, Any],
                    dry_run: list[str]) -> tuple[dict[str, Any], list[Any]]:
    """`export` imported into a store 'other' holding one memory: the refusal, and that store's log before it."""
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(export), encoding="utf-8")
    assert cli_run(["--store", "other", "remember", "The office is in Porto"])[0] == 0
    log_before = cli_run(["--store", "other", "log"])[1]["entries"]
    code, doc = cli_run(["--store", "other", "import", *dry_run, broken])
    assert code == 1 and doc["error"]["code"] == "invalid_input"
    return doc, log_before


@pytest.mark.parametrize("dry_run", [[], ["--dry-run"]])
def test_export_with_every_memory_refused_fails_and_writes_nothing(cli_run: CliRun, tmp_path: Path,
                                                                   dry_run: list[str]) -> None:
    """A real export holds the sense events of its remembers: with every memory malformed those world rows landed,
    the import exited 0, and `mnemon import f && rm f` deleted the memories."""
    for text in ("We deploy on Fridays", "Mira leads the payments team"):
        assert cli_run(["remember", text])[0] == 0
    code, export = cli_run(["export"])
    assert code == 0 and export["world_sense_events"]
    for row in export["insights"]:
        row["content"] = 5
    doc, log_before = _refused_import(cli_run, tmp_path, export, dry_run)
    details = doc["error"]["details"]
    assert details["errors"] == 2 and [r["action"] for r in details["results"]] == ["error", "error"]
    # no world row, no import row: nothing of the file was written
    assert cli_run(["--store", "other", "log"])[1]["entries"] == log_before
    code, status = cli_run(["--store", "other", "status"])
    assert code == 0 and status["total_insights"] == 1 and status["oplog_count"] == len(log_before)
    code, export_after = cli_run(["--store", "other", "export"])
    assert len(export_after["world_sense_events"]) == 1  # the Porto memory's own


@pytest.mark.parametrize("dry_run", [[], ["--dry-run"]])
def test_an_export_of_world_rows_only_every_one_refused_fails(cli_run: CliRun, tmp_path: Path,
                                                              dry_run: list[str]) -> None:
    """An export with no memories and every world row malformed exited 0 (its errors counted under `world` only),
    and wrote the import's oplog row: `mnemon import f && rm f` deleted a file nothing was taken from."""
    assert cli_run(["remember", "We deploy on Fridays"])[0] == 0
    code, export = cli_run(["export"])
    export["insights"], export["edges"] = [], []
    for member in [key for key in export if key.startswith("world_") and key != "world_sense_events"]:
        export[member] = []  # (the sense event's own world event)
    for row in export["world_sense_events"]:
        row["observed_at"] = 5
    doc, log_before = _refused_import(cli_run, tmp_path, export, dry_run)
    assert [r["action"] for r in doc["error"]["details"]["world"]["results"]] == ["error"]
    assert cli_run(["--store", "other", "log"])[1]["entries"] == log_before


def test_an_export_with_one_good_memory_is_still_a_partial_import(cli_run: CliRun, tmp_path: Path) -> None:
    for text in ("We deploy on Fridays", "Mira leads the payments team"):
        assert cli_run(["remember", text])[0] == 0
    code, export = cli_run(["export"])
    export["insights"][0]["content"] = 5
    partial = tmp_path / "partial.json"
    partial.write_text(json.dumps(export), encoding="utf-8")
    code, doc = cli_run(["--store", "other", "import", partial])
    assert code == 0 and doc["imported"] == 1 and doc["errors"] == 1


# ── 3. the schemas state what the library refuses inside an object ─────────────────────────────────────────────
_SCOPE = "mneme://agent/s36"
# each: the operation, its arguments (the library refuses every one), and what the refusal names
_NESTED_REFUSALS = [
    ("remember_payload", {"payload": {"source_path": _SCOPE, "nodes": [{"name": "Mira"}]}}, "ref"),
    ("remember_payload", {"payload": {"source_path": _SCOPE, "nodes": [{"ref": "a"}, {"ref": "b"}],
                                      "edges": [{"src": "a", "dst": "b"}]}}, "relation"),
    ("remember_payload", {"payload": {"source_path": _SCOPE, "nodes": [{"ref": "a"}],
                                      "observations": [{"node": "a"}]}}, "text"),
    ("remember_payload", {"payload": {"source_path": _SCOPE, "nodes": [{"ref": "a", "nmae": "Mira"}]}}, "nmae"),
    ("remember_payload", {"payload": {"source_path": _SCOPE, "observation": []}}, "observation"),
    ("remember_payload", {"payload": {"source_path": _SCOPE, "nodes": {"ref": "a"}}}, "nodes"),
    ("remember_payload", {"payload": {"source_path": _SCOPE, "nodes": [{"ref": "  "}]}}, "ref"),
    ("remember_payload", {"payload": {"source_path": _SCOPE, "nodes": [{"ref": "a"}, {"ref": "b"}],
                                      "edges": [{"src": "a", "dst": "b", "relation": "uses",
                                                 "confidence": 3}]}}, "confidence"),
    ("remember_payload", {"payload": {"source_path": _SCOPE, "nodes": [{"ref": "a"}],
                                      "observations": [{"node": "a", "text": "x", "score": 101}]}}, "score"),
    ("predict_add", {"prediction": {"title": "Invoice paid", "check_after": "2026-01-01",
                                    "expires_at": "2026-02-01",
                                    "match_json": {"observation_terms_all": ["invoice"]}}}, "sense_type"),
    ("action_record", {"action": {"action_type": "email", "title": "Sent the invoice", "tool_call_id": "t1",
                                  "side_effect_level": "external", "verify": {"terms": ["invoice"]}}},
     "sense_type"),
    ("surface", {"include_candidates": False}, "prompt"),
]


@pytest.mark.parametrize(("op_name", "args", "named"), _NESTED_REFUSALS)
def test_what_the_library_refuses_inside_an_object_the_schema_refuses(mem: Any, op_name: str,
                                                                      args: dict[str, Any], named: str) -> None:
    """tools/list stated only an object argument's top-level fields: a payload node without its ref, an edge without
    its relation, a prediction's match without its sense type passed a client's schema check and were refused by
    the server. Now the schema a client reads (MCP's tools/list) refuses them, and so does the server, naming the
    field, before the library is reached."""
    listed = handle(lambda: mem, {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}})
    assert listed is not None
    [tool] = [t for t in listed["result"]["tools"] if t["name"] == op_name]
    full = operations.BY_NAME[op_name].schema()  # with the rules between arguments a tool host drops (described)
    assert tool["inputSchema"] == {key: value for key, value in full.items() if key != "allOf"}
    assert not Draft202012Validator(full).is_valid(args)
    reply = handle(lambda: mem, {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                                 "params": {"name": op_name, "arguments": args}})
    assert reply is not None and reply["result"]["isError"]
    error = json.loads(reply["result"]["content"][0]["text"])["error"]
    assert error["code"] == "invalid_input" and named in error["message"]
    assert mem.status()["total_insights"] == 0  # nothing of it written


def test_a_payload_the_schema_takes_is_written(mem: Any) -> None:
    """The other way round: a full payload, every optional field given, passes the schema and is written."""
    from mnemon.app.vault import payload

    assert operations.MAX_PAYLOAD_ITEMS == payload.MAX_ITEMS
    full = {"source_path": _SCOPE, "nodes": [{"ref": "a", "name": "Mira", "type": "person", "summary": "lead"},
                                             {"ref": "b", "name": None}],
            "edges": [{"src": "a", "dst": "b", "relation": "Works On", "status": "candidate", "confidence": 0.5,
                       "evidence": "standup", "validated": False}],
            "observations": [{"node": "a", "kind": "RISK", "text": "Mira is out next week", "score": 50}],
            "assertions": []}
    assert Draft202012Validator(operations.BY_NAME["remember_payload"].schema()).is_valid({"payload": full})
    op = operations.BY_NAME["remember_payload"]
    reply = op.call(mem, operations.check_args(op, {"payload": full}))
    assert reply["ok"] and len(reply["nodes"]) == 2 and len(reply["observations"]) == 1, reply


# ── 4. every action a card suggests is a call a tool caller can make ───────────────────────────────────────────
def _tool(mem: Any, name: str, args: dict[str, Any]) -> dict[str, Any]:
    reply = handle(lambda: mem, {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                                 "params": {"name": name, "arguments": args}})
    assert reply is not None
    return dict(reply["result"]["structuredContent"])


def _lighthouse(mem: Any, tmp_path: Path) -> tuple[Path, str]:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "lighthouse.md").write_text("# Lighthouse\n\n- The lighthouse battery supplier is late\n"
                                         "- Mira owns the lighthouse firmware\n", encoding="utf-8")
    mem.ingest(str(vault))
    added = mem.predict_add({"title": "Lighthouse battery delivered", "check_after": "2026-01-01",
                             "expires_at": "2027-02-01",
                             "match_json": {"sense_type": "manual",
                                            "observation_terms_all": ["lighthouse", "battery"]}})
    return vault, str(added["prediction"]["id"])


def test_every_card_action_over_mcp_is_a_tool_call_that_runs(mem: Any, tmp_path: Path) -> None:
    """Over MCP a card offered `note add-bullet` and `predict check --id … --dry-run` (no tool does either) and told
    the agent in words to run `predict check`: the follow-up bullet and the prediction's check were actions it could
    not take. Each now carries its call (note_add_bullet, predict_check), which runs there."""
    vault, prediction = _lighthouse(mem, tmp_path)
    listed = handle(lambda: mem, {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}})
    assert listed is not None
    names = {tool["name"] for tool in listed["result"]["tools"]}
    cards = _tool(mem, "surface", {"prompt": "lighthouse battery supplier", "limit": 10})["thoughts"]
    made = set()
    for card in cards:
        assert "`predict check" not in card["action"] and "`state explain" not in card["action"], card["action"]
        for action in card["suggested_actions"]:
            calls = list(action["calls"].values()) if "calls" in action else [action["call"]]
            for call in calls:
                assert call["operation"] in names, action
                made.add(call["operation"])
                reply = _tool(mem, call["operation"], call["arguments"])
                assert "error" not in reply, (call, reply)
                if call["operation"] == "note_add_bullet":
                    assert "mnemon ingest" not in reply["hint"]
                if call["operation"] == "predict_check":
                    assert reply["dry_run"] is True and reply["checked"] == 1
    assert {"note_add_bullet", "predict_check", "show"} <= made
    text = (vault / "lighthouse.md").read_text(encoding="utf-8")
    assert "## Next Actions" in text and "- Follow up: The lighthouse battery supplier is late" in text
    from mnemon.app.world.common import world_of

    assert world_of(mem.rt).get_prediction(prediction)["status"] == "open"  # the dry run recorded nothing


def test_a_world_state_item_is_inspected_with_state_explain(mem: Any) -> None:
    from mnemon.app.suggested_actions import suggested_actions

    aid = mem.state_assert({"subject": "Lighthouse battery", "predicate": "supplier", "object_value": "Acme",
                            "source_path": "manual:test", "evidence": "the supplier is Acme",
                            "certainty": "confirmed", "confidence": 0.95})["id"]
    [inspect] = suggested_actions({"item_type": "world_state", "id": aid})
    assert inspect["call"] == {"operation": "state_explain", "arguments": {"id": aid}}
    assert _tool(mem, "state_explain", {"id": aid})["assertion"]["id"] == aid


def test_the_new_tools_refuse_in_words_a_tool_caller_can_act_on(mem: Any) -> None:
    missing = _tool(mem, "state_explain", {"id": "nope"})["error"]
    assert missing["code"] == "not_found" and "`state_list`" in missing["message"]
    assert "mnemon" not in missing["message"]
    missing = _tool(mem, "predict_check", {"id": "nope", "dry_run": True})["error"]
    assert missing["code"] == "not_found" and "mnemon" not in missing["message"]
    # the vault is the one the store was ingested from: a store with none has no note to edit
    refused = _tool(mem, "note_add_bullet", {"path": "a.md", "heading": "Next Actions", "bullet": "x"})["error"]
    assert refused["code"] == "invalid_input" and "never ingested" in refused["message"]


# ── 5. more flags that change nothing, and an option under the name the servers give it ────────────────────────
def test_ingest_append_with_allow_empty_is_refused(cli_run: CliRun, tmp_path: Path) -> None:
    """An append removes no note, so --allow-empty (let an empty folder remove every note) changed nothing."""
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "a.md").write_text("# A\n\n- Mira leads the payments team\n", encoding="utf-8")
    code, doc = cli_run(["ingest", "--vault", vault, "--append", "--allow-empty"])
    assert code == 1 and doc["error"]["code"] == "invalid_input" and "--append removes none" in doc["error"]["message"]
    assert cli_run(["status"])[1]["nodes_by_kind"] == {}  # nothing was ingested
    code, doc = cli_run(["ingest", "--vault", vault, "--append"])
    assert code == 0 and doc["mode"] == "append"


def test_remember_takes_importance_under_the_servers_name(cli_run: CliRun) -> None:
    """`remember x --importance 5` (the argument's name over MCP, HTTP and in an import draft) answered "No such
    option '--importance'. Did you mean '--source'?"."""
    code, doc = cli_run(["remember", "The lighthouse launch is in May", "--importance", "5"])
    assert code == 0
    assert cli_run(["show", doc["id"]])[1]["importance"] == 5


def test_find_nodes_is_a_command_too(cli_run: CliRun, tmp_path: Path, example_vault: Path) -> None:
    """MCP and HTTP had find_nodes (a note's node id for `graph --focus`); the command line had no way to it."""
    assert cli_run(["ingest", "--vault", example_vault])[0] == 0
    code, doc = cli_run(["find-nodes", "light", "--limit", "5"])
    assert code == 0 and doc["nodes"] and doc["nodes"][0]["kind"] == "note"
    from mnemon.app.config import load_config
    from mnemon.app.memory import Mnemon

    mem = Mnemon.open(load_config())
    try:
        assert _tool(mem, "find_nodes", {"query": "light", "limit": 5}) == doc  # the same answer over MCP
    finally:
        mem.close()
    code, focused = cli_run(["graph", "--focus", doc["nodes"][0]["id"]])
    assert code == 0 and focused["nodes"]
    code, doc = cli_run(["find-nodes", "light", "--limit", "0"])
    assert code == 1 and doc["error"]["code"] == "invalid_input"


class _Terminal:
    """A stdin that is a terminal: reading it would wait for someone to type."""

    def isatty(self) -> bool:
        return True

    def read(self, *_: Any) -> str:
        raise AssertionError("the command waited on the terminal")


def test_action_record_without_a_file_on_a_terminal_is_refused(cli_run: CliRun,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """`action record` with --file left out read its default '-' from the terminal: it waited there without a word,
    forever in an agent's pseudo-terminal (as `note write` did before its fix). Piped, it reads stdin as before."""
    import sys

    monkeypatch.setattr(sys, "stdin", _Terminal())
    code, doc = cli_run(["action", "record"])
    # a usage error, as `predict add` without --file is (test_qa_s36_contract2)
    assert code == 2 and doc["error"]["code"] == "usage" and "--file" in doc["error"]["message"]
    # (piped: `input` replaces the terminal; `monkeypatch.undo()` here also undid the test's own home, and the
    # command wrote into the store of whoever ran the suite)
    code, doc = cli_run(["action", "record"], input='{"action_type": "email", "title": "Sent the invoice"}')
    assert code == 0 and doc["created"] is True


def test_graph_depth_without_a_focus_is_refused_over_mcp_as_on_the_cli(cli_run: CliRun) -> None:
    """`graph --depth 3` is a usage error on the command line (the overview has no hops to count); over MCP and HTTP
    the same request drew the overview and reported depth 3 in its limits."""
    assert cli_run(["remember", "Mira leads the payments team"])[0] == 0
    assert cli_run(["graph", "--depth", "3"])[0] == 2
    from mnemon.app.config import load_config
    from mnemon.app.memory import Mnemon

    mem = Mnemon.open(load_config())
    try:
        refused = _tool(mem, "graph", {"depth": 3})["error"]
        assert refused["code"] == "invalid_input" and "'focus'" in refused["message"]
        assert not Draft202012Validator(operations.BY_NAME["graph"].schema()).is_valid({"depth": 3})
        node = mem.search("payments")["results"][0]["id"]
        assert _tool(mem, "graph", {"depth": 2, "focus": node})["limits"]["depth"] == 2
    finally:
        mem.close()
