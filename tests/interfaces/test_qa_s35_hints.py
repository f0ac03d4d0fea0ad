"""What a refusal over MCP or HTTP tells the caller to do next: an operation and its argument, never a command line
or a flag (an agent over MCP cannot type `mnemon recall`); the command line keeps its commands."""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from mnemon.app.memory import Mnemon
from mnemon.interfaces.http.server import Api
from mnemon.interfaces.mcp import handle
from mnemon.interfaces.payloads import from_exception

# a command line (`mnemon forget ID`) or a flag (--readonly, --force) anywhere in the words
CLI_WORDS = re.compile(r"\bmnemon [a-z]|(?<![\w-])--[a-z]")
SCOPE = "mneme://agent/s1"


def _mcp(mem: Mnemon, name: str, args: dict[str, Any], *, read_only: bool = False) -> dict[str, Any]:
    reply = handle(lambda: mem, {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                                 "params": {"name": name, "arguments": args}}, read_only=read_only)
    assert reply is not None
    result = reply["result"]
    assert result["isError"] is True, result
    return result["structuredContent"]["error"]  # type: ignore[no-any-return]


def _http(mem: Mnemon, name: str, args: dict[str, Any], **options: Any) -> dict[str, Any]:
    reply = Api(lambda: mem, **options).handle("POST", f"/api/{name}", {
        "host": "localhost", "content-type": "application/json"}, json.dumps(args).encode())
    assert reply.status >= 400, reply.body
    return json.loads(reply.body)["error"]  # type: ignore[no-any-return]


def _cli(mem: Mnemon, name: str, args: dict[str, Any]) -> dict[str, Any]:
    """What the facade says to the command line (the CLI prints this envelope)."""
    from mnemon.interfaces.operations import BY_NAME

    with pytest.raises(Exception) as caught:
        BY_NAME[name].call(mem, args)
    return from_exception(caught.value)[0]["error"]  # type: ignore[no-any-return]


CASES = [
    ("show", {"id": "nope"}, "`recall` or `log`"),
    ("related", {"id": "nope"}, "`recall` or `log`"),
    ("forget", {"id": "nope"}, "`recall` or `log`"),
    ("link", {"source_id": "nope", "target_id": "nope2"}, "`recall` or `log`"),
    ("graph", {"focus": "nope"}, "`graph` without a focus"),
    ("forget", {"id": f"{SCOPE}#a"}, "`forget_source`"),
]


@pytest.fixture
def scoped(mem: Mnemon) -> Mnemon:
    mem.remember_payload({"source_path": SCOPE, "nodes": [{"ref": "a", "name": "Northwind", "type": "organization"}],
                          "observations": [{"node": "a", "kind": "fact", "text": "Northwind pays late"}]})
    return mem


@pytest.mark.parametrize(("name", "args", "names"), CASES)
def test_a_refusal_over_the_servers_names_operations_not_commands(scoped: Mnemon, name: str, args: dict[str, Any],
                                                                   names: str) -> None:
    """`show` of an unknown id over MCP said "`mnemon recall` or `mnemon log` lists ids", forget of a payload's
    entity "`mnemon forget --source <mneme://…>`": commands an agent cannot type. Over MCP and HTTP the hint names
    the operations (recall, log, forget_source …); the command line still names its commands."""
    for error in (_mcp(scoped, name, args), _http(scoped, name, args, allow_writes=True)):
        assert not CLI_WORDS.search(error["message"]), error
        assert names in error["message"], error
    assert CLI_WORDS.search(_cli(scoped, name, args)["message"])


def test_forgetting_a_shared_node_names_kill_edge(mem: Mnemon, example_vault: Path) -> None:
    mem.ingest(str(example_vault))
    shared = next(row["id"] for q in ("#", "2026", "@") for row in mem.find_nodes(q, limit=50)["nodes"]
                  if row["kind"] not in ("memory", "note", "heading", "entity"))
    error = _mcp(mem, "forget", {"id": shared})
    assert error["code"] == "invalid_input" and "`kill_edge`" in error["message"]
    assert not CLI_WORDS.search(error["message"]), error
    assert "mnemon kill-edge" in _cli(mem, "forget", {"id": shared})["message"]


@pytest.mark.parametrize(("name", "args"), [
    ("remember", {"content": "The pilot moved to July"}), ("forget", {"id": "{first}"}),
    ("link", {"source_id": "{first}", "target_id": "{second}"}), ("alias_add", {"alias": "Al", "canonical": "Alice"}),
    ("forget_source", {"source_path": SCOPE}),
])
def test_a_write_to_a_read_only_server_names_no_flag(make_mem: Any, tmp_path: Path, name: str,
                                                     args: dict[str, Any]) -> None:
    """`mnemon --readonly mcp serve` answered a write with "run the command without --readonly", and `mnemon serve`
    with "start it with --allow-writes": the agent asked can neither."""
    db = tmp_path / "ro.db"
    writer = make_mem(db=db)
    ids = {"first": writer.remember("The pilot starts in June")["id"],
           "second": writer.remember("The budget review is on Friday")["id"]}
    args = {key: value.format(**ids) for key, value in args.items()}
    reader = make_mem(db=db, readonly=True)
    over_mcp = _mcp(reader, name, args, read_only=True)
    over_http = _http(make_mem(db=db), name, args)
    for error in (over_mcp, over_http):
        assert error["code"] == "readonly" and "read-only" in error["message"], error
        assert not CLI_WORDS.search(error["message"]), error
    if name == "remember":  # the command line is told its flag
        assert "--readonly" in _cli(reader, name, args)["message"]


def _mcp_payload(mem: Mnemon, name: str, args: dict[str, Any]) -> dict[str, Any]:
    reply = handle(lambda: mem, {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                                 "params": {"name": name, "arguments": args}})
    assert reply is not None and reply["result"]["isError"] is False, reply
    return reply["result"]["structuredContent"]  # type: ignore[no-any-return]


def test_what_a_payload_tells_an_agent_to_do_names_tools(mem: Mnemon) -> None:
    """An agent over MCP read "`mnemon forget ID`, then remember … `--created-at …`" from a repeated remember,
    "Record side effects with `mnemon action record`" among preflight's agent_rules, "`mnemon link NEW_ID OLD_ID
    --type supersedes`" as a correction's next_step, "mnemon show <id>" as recall's detail_command and "`mnemon
    alias merge`" from alias_add: commands it cannot type, where tools (forget, action_record, link, show) do it."""
    old = mem.remember("The pilot starts in June")["id"]
    new = mem.remember("Correction: the pilot starts in July")["id"]
    mem.link(new, old, "supersedes")
    mem.state_assert(json.dumps({"subject": "Jim", "predicate": "lives_in", "object": "Leeds", "confidence": 0.95,
                                 "certainty": "confirmed", "evidence": "lease signed", "source_path": "mneme://r/jim"}))
    said = {
        "repeat": _mcp_payload(mem, "remember", {"content": "The pilot starts in June", "importance": 5})["hint"],
        "rules": " ".join(_mcp_payload(mem, "agent_preflight", {"prompt": "pilot"})["agent_rules"]),
        "next_step": _mcp_payload(mem, "agent_preflight", {
            "prompt": "Correction: the pilot starts in August, not July"})["route"]["next_step"],
        "detail": _mcp_payload(mem, "recall", {"query": "pilot", "brief": True})["detail_command"],
        "alias": _mcp_payload(mem, "alias_add", {"alias": "Jim", "canonical": "James Smith"})["hint"],
    }
    for what, text in said.items():
        assert not CLI_WORDS.search(text), (what, text)
    assert f"`forget` {new}" in said["repeat"] and "`remember`" in said["repeat"]
    assert "`action_record`" in said["rules"] and "`link`" in said["next_step"] and "supersedes" in said["next_step"]
    assert said["detail"].startswith("show")
    # the command line keeps its commands
    assert f"`mnemon forget {new}`" in mem.remember("The pilot starts in June", importance=5)["hint"]
    assert "`mnemon action record`" in " ".join(mem.agent_preflight("pilot")["agent_rules"])
    assert mem.recall("pilot", brief=True)["detail_command"] == "mnemon show <id>"


def test_a_warning_about_missing_vectors_names_no_command_over_the_servers(make_mem: Any, tmp_path: Path) -> None:
    """A recall over MCP on a store whose memories lack this provider's vectors warned "`mnemon embed --all` adds
    them", and one without a provider "recall by meaning needs their provider (--embed or …)": nothing an agent can
    run. Over the servers the warning says who can (whoever runs the server); the command line keeps its command."""
    db = tmp_path / "gaps.db"
    plain = make_mem("none", db=db)
    for text in ("The pilot starts in June", "The budget review is on Friday", "Qdrant runs on staging"):
        plain.remember(text)
    make_mem("hash", db=db).remember("The pilot team meets on Mondays")
    for provider, needle in (("hash", "embed of the whole store"), ("none", "MNEMON_EMBED_PROVIDER")):
        reader = make_mem(provider, db=db)
        warnings = " ".join(_mcp_payload(reader, "recall", {"query": "pilot"}).get("warnings", []))
        assert needle in warnings and not CLI_WORDS.search(warnings), (provider, warnings)
    assert "`mnemon embed --all`" in " ".join(make_mem("hash", db=db).recall("pilot")["warnings"])


def test_a_damaged_store_over_the_servers_names_no_command() -> None:
    """A store file damaged while a server ran answered every call "restore it … (`mnemon import`) into a new
    store", built outside the call itself (the envelope of any exception): over the servers it names no command."""
    import sqlite3

    def damaged() -> Any:
        raise sqlite3.DatabaseError("database disk image is malformed")

    reply = handle(damaged, {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                             "params": {"name": "status", "arguments": {}}})
    assert reply is not None
    over_mcp = reply["result"]["structuredContent"]["error"]
    answer = Api(damaged).handle("GET", "/api/status", {"host": "localhost"}, b"")
    over_http = json.loads(answer.body)["error"]
    for error in (over_mcp, over_http):
        assert error["code"] == "store_error" and "damaged" in error["message"], error
        assert not CLI_WORDS.search(error["message"]), error
    assert "`mnemon import`" in from_exception(sqlite3.DatabaseError("database disk image is malformed"))[0][
        "error"]["message"]
