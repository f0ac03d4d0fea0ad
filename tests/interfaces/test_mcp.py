"""The MCP server over real stdio: an agent's session, message by message."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"


def _session(tmp_path: Path, messages: list[dict]) -> list[dict]:
    env = dict(os.environ, PYTHONPATH=str(SRC), MNEMON_EMBED_PROVIDER="hash", MNEMON_HOME=str(tmp_path / "home"))
    lines = "\n".join(json.dumps(m) for m in messages) + "\n"
    proc = subprocess.run([sys.executable, "-m", "mnemon", "--db", str(tmp_path / "m.db"), "mcp", "serve"],
                          input=lines, capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]


def call(i: int, name: str, args: dict) -> dict:
    return {"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {"name": name, "arguments": args}}


def test_initialize_list_remember_recall_and_errors(tmp_path: Path) -> None:
    out = _session(tmp_path, [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        call(3, "remember", {"content": "Chose Qdrant as the vector database", "category": "decision"}),
        call(4, "remember", {"content": "Chose Qdrant as the vector database", "category": "decision"}),
        call(5, "recall", {"query": "which vector database did we choose"}),
        call(6, "remember", {"content": "x", "importance": 9}),
        call(7, "nope", {}),
        {"jsonrpc": "2.0", "id": 8, "method": "bogus/method"},
    ])
    by_id = {m["id"]: m for m in out}
    assert len(out) == 8  # the notification gets no answer
    assert by_id[1]["result"]["serverInfo"]["name"] == "mnemon"
    tools = {t["name"]: t for t in by_id[2]["result"]["tools"]}
    assert {"remember", "recall", "search", "show", "link", "forget", "status", "retrieve"} <= set(tools)
    assert tools["recall"]["annotations"]["readOnlyHint"] is True
    assert tools["forget"]["annotations"]["destructiveHint"] is True
    first = by_id[3]["result"]["structuredContent"]
    assert first["action"] == "added" and by_id[3]["result"]["isError"] is False
    assert by_id[4]["result"]["structuredContent"]["action"] == "skipped"
    recalled = by_id[5]["result"]["structuredContent"]["results"]
    assert recalled[0]["insight"]["id"] == first["id"]
    err = by_id[6]["result"]
    assert err["isError"] is True and err["structuredContent"]["error"]["code"] == "invalid_input"
    assert by_id[7]["error"]["code"] == -32602
    assert by_id[8]["error"]["code"] == -32601


def test_payloads_match_the_cli(tmp_path: Path, cli_run) -> None:
    out = _session(tmp_path, [call(1, "status", {})])
    code, cli_payload = cli_run(["--db", str(tmp_path / "m.db"), "status"])
    mcp_payload = out[0]["result"]["structuredContent"]
    assert code == 0
    assert mcp_payload.keys() == cli_payload.keys()
    assert mcp_payload["total_insights"] == cli_payload["total_insights"] == 0


def test_arguments_are_checked_against_the_tool_schema(tmp_path: Path) -> None:
    out = _session(tmp_path, [
        call(1, "recall", {"query": "x", "limt": 3}),  # a typo is not silently dropped
        call(2, "recall", {"query": "x", "limit": "3"}),
        call(3, "recall", {}),
        call(4, "graph", {"max_nodes": 5}),
        call(5, "surface", {"prompt": "anything"}),
    ])
    by_id = {m["id"]: m["result"] for m in out}
    for i in (1, 2, 3):
        assert by_id[i]["isError"] is True and by_id[i]["structuredContent"]["error"]["code"] == "invalid_input"
    assert "limt" in by_id[1]["structuredContent"]["error"]["message"]
    assert by_id[4]["isError"] is False and by_id[4]["structuredContent"]["nodes"] == []
    assert by_id[5]["isError"] is False and by_id[5]["structuredContent"]["thoughts"] == []
