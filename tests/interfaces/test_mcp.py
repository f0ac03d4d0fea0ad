"""The MCP server over real stdio: an agent's session, message by message."""
from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(SRC), MNEMON_EMBED_PROVIDER="hash", MNEMON_HOME=str(tmp_path / "home"),
                **extra)


def _raw_session(tmp_path: Path, data: bytes, **env: str) -> list[Any]:
    """The server fed `data` as it comes; every line it writes must be JSON-RPC (a response or a batch of them)."""
    proc = subprocess.run([sys.executable, "-m", "mnemon", "--db", str(tmp_path / "m.db"), "mcp", "serve"],
                          input=data, capture_output=True, env=_env(tmp_path, **env), timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert b"Traceback" not in proc.stderr
    out = [json.loads(line) for line in proc.stdout.decode("utf-8").splitlines()]
    for reply in (r for item in out for r in (item if isinstance(item, list) else [item])):
        assert reply["jsonrpc"] == "2.0" and "id" in reply and ("result" in reply) != ("error" in reply), reply
    return out


def _session(tmp_path: Path, messages: list[dict], **env: str) -> list[dict]:
    return _raw_session(tmp_path, "".join(json.dumps(m) + "\n" for m in messages).encode(), **env)


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
    assert tools["status"]["annotations"]["readOnlyHint"] is True
    assert tools["recall"]["annotations"]["readOnlyHint"] is False  # it counts the access: see test_read_only_hints…
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
        call(2, "recall", {"query": "x", "limit": "three"}),
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


PING = b'{"jsonrpc":"2.0","id":"after","method":"ping"}\n'


@pytest.mark.parametrize("line", [
    b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":["status"]}}',
    b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":{"a":1}}}',
    b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":[1]}',
    b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":"x"}',
    b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"n":' + b"9" * 5000 + b"}}",  # past Python's digit limit
    b"[" * 100_000,  # past the parser's recursion limit
    b"{not json",
    b"\xff\xfe not UTF-8",
])
def test_one_bad_message_gets_a_jsonrpc_error_and_the_server_goes_on(tmp_path: Path, line: bytes) -> None:
    out = _raw_session(tmp_path, line + b"\n" + PING)
    assert len(out) == 2 and out[1] == {"jsonrpc": "2.0", "id": "after", "result": {}}
    expected = -32602 if b'"id":1,"method":"tools/call"' in line else -32700
    assert out[0]["error"]["code"] == expected and out[0]["id"] == (1 if expected == -32602 else None)


def test_only_valid_jsonrpc_requests_are_answered_as_requests(tmp_path: Path) -> None:
    lines = [b"5", b'"x"', b"[]",
             b'[{"jsonrpc":"2.0","id":9,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"},7]',
             b'{"jsonrpc":"2.0","id":8,"result":{}}',  # a response sent to the server: never answered
             b'{"jsonrpc":"2.0","id":NaN,"method":"ping"}', b'{"jsonrpc":"2.0","id":1e400,"method":"ping"}',
             b'{"jsonrpc":"2.0","id":[1],"method":"ping"}', b'{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}',
             b'{"jsonrpc":"2.0","id":null,"method":"ping"}', b'{"jsonrpc":"2.0","id":true,"method":"ping"}',
             b'{"id":3,"method":"ping"}', b'{"jsonrpc":"1.0","id":4,"method":"ping"}', b'{"jsonrpc":"2.0","id":5}',
             b'{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"status","arguments":[]}}',
             b'{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"status","arguments":null}}',
             b'{"jsonrpc":"1.0","method":"notifications/x"}']
    out = _raw_session(tmp_path, b"\n".join(lines) + b"\n" + PING)
    codes = [[(r["id"], r["error"]["code"]) if "error" in r else (r["id"], "ok") for r in item]
             if isinstance(item, list) else (item["id"], item["error"]["code"] if "error" in item else "ok")
             for item in out]
    assert codes == [(None, -32600)] * 3 + [[(9, "ok"), (None, -32600)]] + [(None, -32600)] * 6 + [
        (3, -32600), (4, -32600), (5, -32600), (6, "ok"), (7, "ok"), (None, -32600), ("after", "ok")]
    assert out[-4]["result"]["isError"] is True  # `arguments: []` is not "no arguments"
    assert out[-4]["result"]["structuredContent"]["error"]["code"] == "invalid_input"
    assert out[-3]["result"]["isError"] is False


@pytest.mark.parametrize("encoding", ["ascii", "latin-1", "cp1252"])
def test_stdio_is_utf8_whatever_the_locale_says(tmp_path: Path, encoding: str) -> None:
    out = _session(tmp_path, [call(1, "remember", {"content": "Café Zürich, 東京"}),
                              call(2, "search", {"query": "Zürich"})], PYTHONIOENCODING=encoding)
    assert out[0]["result"]["isError"] is False
    assert [r["content"] for r in out[1]["result"]["structuredContent"]["results"]] == ["Café Zürich, 東京"]


@pytest.mark.parametrize(("asked", "answered"), [("2024-11-05", "2024-11-05"), ("2025-03-26", "2025-03-26"),
                                                 ("2025-06-18", "2025-06-18"), ("1999-01-01", "2025-06-18"),
                                                 (None, "2025-06-18")])
def test_initialize_answers_the_clients_version_when_it_is_supported(tmp_path: Path, asked: str | None,
                                                                     answered: str) -> None:
    params = {"capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}
    if asked is not None:
        params["protocolVersion"] = asked
    out = _session(tmp_path, [{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params}])
    assert out[0]["result"]["protocolVersion"] == answered


def test_read_only_hints_are_true(tmp_path: Path) -> None:
    """A tool that says it only reads leaves the database as it was (SQLite's data_version counts other
    connections' commits); recall, search and show count accesses and log, so they do not say so."""
    db = tmp_path / "m.db"
    proc = subprocess.Popen([sys.executable, "-m", "mnemon", "--db", str(db), "mcp", "serve"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, env=_env(tmp_path), text=True, encoding="utf-8")
    assert proc.stdin is not None and proc.stdout is not None

    def ask(i: int, method: str, params: dict) -> dict:
        proc.stdin.write(json.dumps({"jsonrpc": "2.0", "id": i, "method": method, "params": params}) + "\n")
        proc.stdin.flush()
        return json.loads(proc.stdout.readline())

    try:
        tools = {t["name"]: t["annotations"] for t in ask(0, "tools/list", {})["result"]["tools"]}
        first = ask(1, "tools/call", {"name": "remember", "arguments": {"content": "Chose Qdrant for vectors"}})
        node = first["result"]["structuredContent"]["id"]
        ask(2, "tools/call", {"name": "remember", "arguments": {"content": "Qdrant runs on the staging cluster"}})
        samples = {"recall": {"query": "Qdrant"}, "search": {"query": "Qdrant"}, "show": {"id": node},
                   "related": {"id": node}, "retrieve": {"prompt": "Qdrant"}, "surface": {"prompt": "Qdrant"},
                   "agent_preflight": {"prompt": "Qdrant"}, "explain_edge": {"id": 1}, "graph": {}, "log": {},
                   "find_nodes": {"query": "Qdrant"}, "state_list": {"predicate": "Lives In", "type": "belief"},
                   "state_explain": {"id": "no-such-assertion"}, "status": {},
                   "receipt": {"limit": 5}}
        assert {name for name, hints in tools.items() if hints["readOnlyHint"]} | {"recall", "search", "show"} \
            == set(samples)
        watcher = sqlite3.connect(db)
        for i, (name, args) in enumerate(samples.items(), start=3):
            before = watcher.execute("PRAGMA data_version").fetchone()[0]
            reply = ask(i, "tools/call", {"name": name, "arguments": args})
            assert "result" in reply, reply
            wrote = watcher.execute("PRAGMA data_version").fetchone()[0] != before
            assert wrote is not tools[name]["readOnlyHint"], name
            assert tools[name]["idempotentHint"] is tools[name]["readOnlyHint"]
        watcher.close()
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)
