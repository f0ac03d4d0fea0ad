"""The world-model calls an agent makes besides actions and predictions, over MCP and HTTP as on the command line:
`sense_add`, `state_list`, `state_retract` and `alias_add` were CLI-only, so an agent on MCP could neither feed the
evidence its predictions wait for nor correct a belief. Each answer is the CLI's document for the same call, and
each refusal the CLI's envelope."""
from __future__ import annotations

import json
import sqlite3
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from mnemon.interfaces import mcp
from mnemon.interfaces.operations import BY_NAME

from interfaces.test_http import serve  # noqa: F401  (a fixture)


def claim(obj: str, path: str, **over: Any) -> dict[str, Any]:
    return {"subject": "Ana", "predicate": "Lives In", "object": obj, "confidence": 0.95, "certainty": "confirmed",
            "evidence": f"lease for {obj} (fictional)", "source_path": path, **over}


def tool(mem: Any, name: str, args: Any) -> dict[str, Any]:
    reply = mcp.handle(lambda: mem, {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                                     "params": {"name": name, "arguments": args}})
    assert reply is not None and "result" in reply, reply
    result = reply["result"]
    assert json.loads(result["content"][0]["text"]) == result["structuredContent"]
    return result


def as_cli(cli_run: Any, mem: Any, tmp_path: Path, argv: list[str]) -> tuple[int, dict[str, Any]]:
    """The CLI's answer for `argv` on a copy of the store as it is now (so the call being compared is made once
    on each)."""
    copy = tmp_path / f"cli-{len(list(tmp_path.glob('cli-*.db')))}.db"
    with sqlite3.connect(mem.rt.store.path) as source, sqlite3.connect(copy) as target:
        source.backup(target)  # (a file copy would miss what is still in the write-ahead log)
    return cli_run(["--db", str(copy), *argv])


def test_the_world_tools_are_listed_with_their_hints(mem) -> None:
    tools = {t["name"]: t for t in mcp.handle(lambda: mem, {"jsonrpc": "2.0", "id": 1,
                                                            "method": "tools/list"})["result"]["tools"]}
    assert tools["state_list"]["annotations"]["readOnlyHint"] is True
    for name in ("sense_add", "state_retract", "alias_add"):
        assert tools[name]["annotations"]["readOnlyHint"] is False, name
    assert tools["state_retract"]["annotations"]["destructiveHint"] is True
    assert tools["state_list"]["inputSchema"]["properties"]["type"]["enum"] == ["belief", "open_loop"]


def test_sense_add_refuses_evidence_dated_more_than_a_day_ahead_as_the_cli_does(mem, cli_run, tmp_path) -> None:
    ahead = (datetime.now(timezone.utc) + timedelta(days=3)).isoformat()
    event = {"sense_type": "gws", "title": "Lease signed", "text": "Ana signed the lease", "observed_at": ahead}
    document = tmp_path / "event.json"
    document.write_text(json.dumps([event]))
    code, cli_err = as_cli(cli_run, mem, tmp_path, ["sense", "add", "--file", str(document)])
    refused = tool(mem, "sense_add", {"events": [event]})
    assert refused["isError"] is True and code != 0
    # the same envelope, but for the clock each message reads ("… after the clock (<now>)")
    assert {**refused["structuredContent"]["error"], "message": None} == {**cli_err["error"], "message": None}
    assert refused["structuredContent"]["error"]["message"].split(" (")[0] == cli_err["error"]["message"].split(" (")[0]
    assert cli_err["error"]["code"] == "invalid_input" and cli_err["error"]["details"]["field"] == "observed_at"

    today = {**event, "observed_at": datetime.now(timezone.utc).isoformat()}
    document.write_text(json.dumps([today]))
    code, cli_ok = as_cli(cli_run, mem, tmp_path, ["sense", "add", "--file", str(document)])
    added = tool(mem, "sense_add", {"events": [today]})["structuredContent"]
    assert code == 0 and added == cli_ok and added["added"] == 1
    # an empty list is refused by the schema (minItems), as the facade refuses a file of no events
    assert not Draft202012Validator(BY_NAME["sense_add"].schema()).is_valid({"events": []})
    assert tool(mem, "sense_add", {"events": []})["structuredContent"]["error"]["code"] == "invalid_input"


def test_state_list_types_and_predicates_as_the_cli_reads_them(mem, cli_run, tmp_path, serve) -> None:  # noqa: F811
    mem.state_assert(claim("Lisbon", "mneme://r/a"))
    as_of = "2100-01-01T00:00:00Z"  # one instant for both answers: each carries it
    listed = tool(mem, "state_list", {"predicate": "LIVES IN", "type": "belief", "as_of": as_of})
    code, cli_listed = as_cli(cli_run, mem, tmp_path, ["state", "list", "--predicate", "LIVES IN", "--type",
                                                       "belief", "--as-of", as_of])
    assert code == 0 and listed["structuredContent"] == cli_listed
    assert [a["object_name"] for a in cli_listed["assertions"]] == ["Lisbon"]

    wrong = tool(mem, "state_list", {"type": "beliefs"})["structuredContent"]["error"]
    assert wrong["code"] == "invalid_input" and "belief, open_loop" in wrong["message"]
    call = serve()
    status, body, _ = call(f"/api/state_list?predicate=Lives%20In&type=belief&as_of={as_of}")
    assert status == 200 and body == cli_listed
    status, body, _ = call("/api/state_list?type=beliefs")
    assert status == 400 and body["error"]["code"] == "invalid_input"


def test_retracting_twice_over_mcp_keeps_the_first_retraction(mem, cli_run, tmp_path) -> None:
    porto = mem.state_assert(claim("Porto", "mneme://r/b"))["id"]
    first = tool(mem, "state_retract", {"id": porto, "reason": "never moved"})["structuredContent"]
    assert first["already_retracted"] is False
    code, cli_again = as_cli(cli_run, mem, tmp_path, ["state", "retract", porto, "--reason", "typo"])
    again = tool(mem, "state_retract", {"id": porto, "reason": "typo"})["structuredContent"]
    assert code == 0 and again == cli_again
    assert again["already_retracted"] is True and again["retraction"]["reason"] == "never moved"
    missing = tool(mem, "state_retract", {"id": porto})["structuredContent"]["error"]
    assert missing["code"] == "invalid_input" and "'reason'" in missing["message"]


def test_alias_add_names_the_subject_it_repoints_from(mem, cli_run, tmp_path, serve) -> None:  # noqa: F811
    first = tool(mem, "alias_add", {"alias": "Annie", "canonical": "Ana"})["structuredContent"]
    assert first["previous_canonical"] is None and first["canonical"] == "Ana"
    code, cli_moved = as_cli(cli_run, mem, tmp_path, ["alias", "add", "Annie", "Anna Maria"])
    moved = tool(mem, "alias_add", {"alias": "Annie", "canonical": "Anna Maria"})["structuredContent"]
    assert code == 0 and moved == cli_moved and moved["previous_canonical"] == "Ana"
    call = serve()  # read-only: a write is refused, whatever it would have answered
    status, body, _ = call("/api/alias_add", body={"alias": "Annie", "canonical": "Ana"})
    assert status == 403 and body["error"]["code"] == "readonly"
    status, body, _ = serve(allow_writes=True)("/api/alias_add", body={"alias": "Annie", "canonical": "Ana"})
    assert status == 200 and body["previous_canonical"] == "Anna Maria"


@pytest.mark.parametrize("name, args", [("alias_add", {"alias": "A\x00", "canonical": "Ana"}),
                                        ("alias_add", {"alias": "Annie", "canonical": "Ana", "confidence": 2}),
                                        ("state_retract", {"id": "x", "reason": " "}),
                                        ("state_list", {"limit": 0}), ("sense_add", {"events": {}})])
def test_a_world_tool_refuses_what_its_schema_rules_out(mem, name: str, args: dict[str, Any]) -> None:
    assert not Draft202012Validator(BY_NAME[name].schema()).is_valid(args)
    assert tool(mem, name, args)["structuredContent"]["error"]["code"] == "invalid_input"
