"""An agent on MCP records the side effects it causes and the evidence it expects (Mneme's `action record` and
`predict add`), and sees them come back in its preflight — the world-model loop without a shell.

Before, the MCP server had no tool for either: an agent could read world state (agent_preflight) but not write the
ledger Mneme says an integration "should call ... with an external provider reference or tool-call ID".
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

SRC = Path(__file__).resolve().parents[2] / "src"

PREDICTION = {"title": "School confirmation should arrive", "prediction_type": "confirmation_expected",
              "match_json": {"sense_type": "md", "observation_terms_all": ["school", "confirmation"]},
              "check_after": "2026-07-01T00:00:00+00:00", "expires_at": "2026-07-03T00:00:00+00:00",
              "confidence": 0.8}
ACTION = {"action_type": "email_send", "title": "Emailed Bram about the vendor contract",
          "side_effect_level": "external", "tool_call_id": "call_42",
          "verify": {"sense_type": "gws", "terms": ["vendor", "contract"], "check_after": "1d", "expires": "3d"}}


def _session(tmp_path: Path, calls: list[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
    lines = [{"jsonrpc": "2.0", "id": 0, "method": "initialize",
              "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                         "clientInfo": {"name": "t", "version": "0"}}},
             {"jsonrpc": "2.0", "method": "notifications/initialized"}]
    lines += [{"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {"name": name, "arguments": args}}
              for i, (name, args) in enumerate(calls, 1)]
    env = dict(os.environ, PYTHONPATH=str(SRC), MNEMON_EMBED_PROVIDER="hash", MNEMON_HOME=str(tmp_path / "home"),
               MNEMON_DAEMON="off")
    proc = subprocess.run([sys.executable, "-m", "mnemon", "--db", str(tmp_path / "m.sqlite"), "mcp", "serve"],
                          input="".join(json.dumps(m) + "\n" for m in lines), capture_output=True, text=True,
                          env=env, timeout=120)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    replies = {r["id"]: r for r in map(json.loads, proc.stdout.splitlines())}
    return [replies[i]["result"] for i in range(1, len(calls) + 1)]


def _contract_counts(tmp_path: Path) -> dict[str, int]:
    env = dict(os.environ, PYTHONPATH=str(SRC), MNEMON_EMBED_PROVIDER="hash", MNEMON_HOME=str(tmp_path / "home"),
               MNEMON_DAEMON="off")
    proc = subprocess.run([sys.executable, "-m", "mnemon", "--db", str(tmp_path / "m.sqlite"), "contract", "check"],
                          capture_output=True, text=True, env=env, timeout=120)
    return json.loads(proc.stdout)["checked"]


def test_an_agent_records_its_actions_and_expectations_over_mcp(tmp_path: Path) -> None:
    refused = [
        ("action_record", {"action": {**ACTION, "tool_call_id": None}}),  # a side effect without a handle
        ("action_record", {"action": {**ACTION, "summary": "typo'd field"}}),
        ("action_record", {"action": json.dumps(ACTION)}),
        ("predict_add", {"prediction": {"title": "no match_json"}}),
        ("predict_add", {}),
    ]
    results = _session(tmp_path, [
        *refused,
        ("action_record", {"action": ACTION}),
        ("predict_add", {"prediction": PREDICTION}),
        ("predict_add", {"prediction": PREDICTION}),
        ("agent_preflight", {"prompt": "school confirmation"}),
    ])
    for (name, args), result in zip(refused, results):
        assert result["isError"] and result["structuredContent"]["error"]["code"] == "invalid_input", (name, args)
    action, first, again, preflight = (r["structuredContent"] for r in results[len(refused):])
    assert not any(r["isError"] for r in results[len(refused):])
    assert action["created"] and action["action"]["tool_call_id"] == "call_42"
    spawned = action["spawned_prediction_id"]
    assert spawned and action["action"]["prediction_id"] == spawned
    assert first["created"] and not again["created"]  # the content hash: a replay adds nothing
    assert again["prediction"]["id"] == first["prediction"]["id"]
    world = preflight["world"]
    assert first["prediction"]["id"] in [p["id"] for p in world["due_predictions"]]  # expired in July: due now
    assert spawned in [p["id"] for p in world["watch"]]
    counts = _contract_counts(tmp_path)  # the refused calls stored nothing
    assert (counts["actions"], counts["predictions"]) == (1, 2)


def test_the_ledger_tools_say_they_write(tmp_path: Path) -> None:
    lines = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}) + "\n"
    env = dict(os.environ, PYTHONPATH=str(SRC), MNEMON_HOME=str(tmp_path / "home"), MNEMON_DAEMON="off")
    proc = subprocess.run([sys.executable, "-m", "mnemon", "--db", str(tmp_path / "m.sqlite"), "mcp", "serve"],
                          input=lines, capture_output=True, text=True, env=env, timeout=60)
    tools = {t["name"]: t for t in json.loads(proc.stdout)["result"]["tools"]}
    for name, arg in (("action_record", "action"), ("predict_add", "prediction")):
        assert tools[name]["annotations"] == {"readOnlyHint": False, "destructiveHint": False,
                                              "idempotentHint": False}
        assert tools[name]["inputSchema"]["required"] == [arg]
        assert tools[name]["inputSchema"]["properties"][arg]["type"] == "object"
