"""Mneme's agent paths over the MCP server (real stdio): scoped `mneme://` memory, and the retrieve/surface/preflight
options Mneme documents (`--as-of` replay, `--no-candidates`, `--hints`, `--hops`).

Before, an agent on MCP had no way to write or remove scoped memory (Mneme's `remember add|remove`, the path its
README gives agents "without editing Markdown notes"), and `retrieve` refused `as_of`, `include_candidates` and
`hints` as unknown arguments, so the replay and the candidate-free context pack were CLI-only.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
SRC = REPO / "src"

PAYLOAD = {
    "source_path": "mneme://test/validation",
    "nodes": [{"ref": "agent", "type": "agent", "name": "Test agent"},
              {"ref": "task", "type": "task", "name": "Validate retrieval"}],
    "edges": [{"src": "agent", "dst": "task", "relation": "relates_to", "status": "active"}],
    "observations": [{"node": "task", "kind": "fact", "text": "Validate the quokka retrieval before trusting output.",
                      "score": 5}],
}


def _env(tmp_path: Path) -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(SRC), MNEMON_EMBED_PROVIDER="hash", MNEMON_HOME=str(tmp_path / "home"),
                MNEMON_DAEMON="off")


class Session:
    """One `mnemon mcp serve` process, asked one message at a time (as an agent's client does)."""

    def __init__(self, tmp_path: Path, db: Path) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "mnemon", "--db", str(db), "mcp", "serve"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     env=_env(tmp_path), text=True, encoding="utf-8")
        self.next_id = 0

    def ask(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.next_id += 1
        self.proc.stdin.write(json.dumps({"jsonrpc": "2.0", "id": self.next_id, "method": method,
                                          "params": params}) + "\n")
        self.proc.stdin.flush()
        reply = json.loads(self.proc.stdout.readline())
        assert reply["id"] == self.next_id and "result" in reply, reply
        return reply["result"]

    def call(self, name: str, arguments: dict[str, Any]) -> tuple[bool, dict[str, Any]]:
        result = self.ask("tools/call", {"name": name, "arguments": arguments})
        assert json.loads(result["content"][0]["text"]) == result["structuredContent"]
        return result["isError"], result["structuredContent"]

    def close(self) -> None:
        assert self.proc.stdin is not None and self.proc.stderr is not None
        self.proc.stdin.close()
        assert self.proc.wait(timeout=60) == 0
        assert "Traceback" not in self.proc.stderr.read()


@pytest.fixture
def session(tmp_path: Path):
    vault = tmp_path / "vault"
    shutil.copytree(REPO / "examples" / "vault", vault)
    db = tmp_path / "m.sqlite"
    ingest = subprocess.run([sys.executable, "-m", "mnemon", "--db", str(db), "ingest", "--vault", str(vault)],
                            capture_output=True, text=True, env=_env(tmp_path), timeout=120)
    assert ingest.returncode == 0, ingest.stdout + ingest.stderr
    s = Session(tmp_path, db)
    yield s
    s.close()


def _texts(pack: dict[str, Any]) -> str:
    return json.dumps(pack["items"])


def test_an_agent_adds_and_removes_scoped_memory(session: Session) -> None:
    tools = {t["name"]: t for t in session.ask("tools/list", {})["tools"]}
    assert tools["remember_payload"]["annotations"]["readOnlyHint"] is False
    assert tools["forget_source"]["annotations"]["destructiveHint"] is True
    assert tools["remember_payload"]["inputSchema"]["required"] == ["payload"]

    failed, out = session.call("remember_payload", {"payload": PAYLOAD, "dry_run": True})
    assert not failed and out["dry_run"] is True
    assert "quokka" not in _texts(session.call("retrieve", {"prompt": "quokka retrieval"})[1])  # nothing written

    failed, out = session.call("remember_payload", {"payload": PAYLOAD})
    assert not failed and out["source_path"] == "mneme://test/validation"
    (edge,) = [e for e in out["edges"] if e["relation"] == "relates_to"]
    assert edge["status"] == "candidate"  # the gate, not the request: relates_to needs validation
    assert "quokka" in _texts(session.call("retrieve", {"prompt": "quokka retrieval"})[1])

    for bad in ({"payload": {**PAYLOAD, "source_path": "Projects/lighthouse.md"}}, {"payload": "{}"}, {}):
        failed, out = session.call("remember_payload", bad)
        assert failed and out["error"]["code"] == "invalid_input", bad
    failed, out = session.call("forget_source", {"source_path": "Projects/lighthouse.md"})
    assert failed and out["error"]["code"] == "invalid_input"  # vault notes are outside the deletion path
    assert "Lighthouse" in _texts(session.call("retrieve", {"prompt": "Lighthouse sensor units"})[1])

    failed, out = session.call("forget_source", {"source_path": "mneme://test/validation", "dry_run": True})
    assert not failed and out["removed"]["observations"] == 1
    assert "quokka" in _texts(session.call("retrieve", {"prompt": "quokka retrieval"})[1])
    failed, out = session.call("forget_source", {"source_path": "mneme://test/validation"})
    assert not failed and out["removed"]["observations"] == 1 and out["removed"]["nodes"] == 2
    assert "quokka" not in _texts(session.call("retrieve", {"prompt": "quokka retrieval"})[1])


def test_retrieve_surface_and_preflight_take_mnemes_options(session: Session) -> None:
    failed, pack = session.call("retrieve", {"prompt": "vendor contract"})
    assert not failed and any(i["truth_policy"] == "candidate_only" for i in pack["items"])
    failed, pack = session.call("retrieve", {"prompt": "vendor contract", "include_candidates": False,
                                             "hints": "invoice", "verbose": True})
    assert not failed and pack["items"] and pack["include_candidates"] is False and pack["hints"] == ["invoice"]
    assert not any(i["truth_policy"] == "candidate_only" for i in pack["items"])
    assert all("signals" in i for i in pack["items"] if i["kind"] != "edge")

    failed, replay = session.call("retrieve", {"prompt": "vendor contract", "as_of": "2020-01-01T00:00:00Z"})
    assert not failed and replay["as_of"] == "2020-01-01T00:00:00+00:00"
    assert replay["items"] == []  # nothing had been written yet then
    failed, out = session.call("retrieve", {"prompt": "vendor contract", "as_of": "last tuesday"})
    assert failed and out["error"]["code"] == "invalid_input"

    failed, cards = session.call("surface", {"prompt": "supplier", "hops": 0, "limit": 2,
                                             "include_candidates": False})
    assert not failed and cards["count"] >= 1
    assert all(len(t["path"]) == 1 for t in cards["thoughts"])  # 0 hops: the memory alone
    failed, out = session.call("surface", {"prompt": "supplier", "hops": 13})
    assert failed and out["error"]["code"] == "invalid_input"

    failed, pre = session.call("agent_preflight", {"prompt": "vendor contract", "include_candidates": False,
                                                   "hints": "invoice", "as_of": "2030-01-01T00:00:00Z"})
    assert not failed and pre["as_of"] == "2030-01-01T00:00:00+00:00"
    assert pre["context"]["items"] and pre["context"]["hints"] == ["invoice"]
    assert not any(i["truth_policy"] == "candidate_only" for i in pre["context"]["items"])
