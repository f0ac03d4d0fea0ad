"""QA round (session 39): an unknown or shortened memory id is refused alike on the command line, over MCP and over
HTTP — `details.field`, `details.id`, and `details.did_you_mean` for the start of one stored id (tools/call link
{"source_id": "46b1a2cd", …} answered not_found with no details at all)."""
from __future__ import annotations

import json
from typing import Any

from mnemon.app.memory import Mnemon
from mnemon.interfaces.http.server import Api
from mnemon.interfaces.mcp import handle


def _mcp(mem: Mnemon, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    reply = handle(lambda: mem, {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                                 "params": {"name": tool, "arguments": args}})
    assert reply is not None and reply["result"]["isError"]
    return dict(reply["result"]["structuredContent"]["error"])


def _http(mem: Mnemon, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    answer = Api(lambda: mem, allow_writes=True).handle(
        "POST", f"/api/{tool}", {"host": "localhost", "content-type": "application/json"}, json.dumps(args).encode())
    assert answer.status == 404
    return dict(json.loads(answer.body)["error"])


def test_every_interface_names_the_field_the_id_and_the_id_meant(mem: Mnemon, cli_run: Any) -> None:
    kept = mem.remember("the release train leaves every second Tuesday")["id"]
    other = mem.remember("the release notes are written by the on-call engineer")["id"]
    short = kept[:8]
    code, cli = cli_run(["link", short, other])
    assert code == 1
    for error in (cli["error"], _mcp(mem, "link", {"source_id": short, "target_id": other}),
                  _http(mem, "link", {"source_id": short, "target_id": other})):
        assert error["code"] == "not_found"
        assert error["details"] == {"field": "source_id", "id": short, "did_you_mean": kept}, error
        assert kept in error["message"]
    code, cli = cli_run(["forget", "nope"])
    for error in (cli["error"], _mcp(mem, "forget", {"id": "nope"}), _http(mem, "forget", {"id": "nope"})):
        assert error["details"] == {"field": "id", "id": "nope"}, error
    assert not [e for e in mem.show(kept)["edges"] if e["origin"] == "agent"]  # nothing linked on a prefix
