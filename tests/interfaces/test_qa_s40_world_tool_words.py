"""A server caller of `predict_check` with an `as_of` still to come was told to "add --dry-run" about "--as-of": flags
it has no way to pass. The refusal now names the tool's own arguments there, and the flags on the command line."""
from __future__ import annotations

import json
from typing import Any

from mnemon.interfaces import mcp


def call(mem: Any, name: str, args: dict[str, Any]) -> dict[str, Any]:
    reply = mcp.handle(lambda: mem, {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                                     "params": {"name": name, "arguments": args}})
    assert reply is not None and "result" in reply, reply
    return json.loads(reply["result"]["content"][0]["text"])


def test_a_future_check_over_mcp_names_the_tools_arguments(mem: Any) -> None:
    error = call(mem, "predict_check", {"as_of": "2099-01-01T00:00:00Z"})["error"]
    assert error["code"] == "invalid_input" and error["details"]["field"] == "as_of"
    assert "--" not in error["message"], error["message"]
    assert "as_of" in error["message"] and "dry_run" in error["message"]
    assert "2099-01-01T00:00:00+00:00" in error["message"]


def test_the_command_line_keeps_its_flags(cli_run: Any) -> None:
    code, doc = cli_run(["predict", "check", "--as-of", "2099-01-01T00:00:00Z"])
    assert code != 0 and "--as-of" in doc["error"]["message"] and "--dry-run" in doc["error"]["message"]
    code, doc = cli_run(["world", "tick", "--before", "2099-01-01T00:00:00Z"])
    assert code != 0 and "--before" in doc["error"]["message"] and "--dry-run" in doc["error"]["message"]
