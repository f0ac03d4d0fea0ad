"""Session 34's QA of the servers as agents use them: `mnemon --readonly mcp serve`, the way to hand an agent a
memory it may read and not change."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from interfaces.test_mcp import _env, call

from mnemon.interfaces.operations import OPERATIONS


def _readonly_session(tmp_path: Path, messages: list[dict]) -> dict:
    db = str(tmp_path / "m.db")
    seeded = subprocess.run([sys.executable, "-m", "mnemon", "--db", db, "remember", "The pilot starts in June"],
                            capture_output=True, env=_env(tmp_path), timeout=60)
    assert seeded.returncode == 0, seeded.stderr
    proc = subprocess.run([sys.executable, "-m", "mnemon", "--db", db, "--readonly", "mcp", "serve"],
                          input="".join(json.dumps(m) + "\n" for m in messages).encode(), capture_output=True,
                          env=_env(tmp_path), timeout=60)
    assert proc.returncode == 0 and b"Traceback" not in proc.stderr, proc.stderr
    return {reply["id"]: reply for reply in map(json.loads, proc.stdout.decode().splitlines())}


def test_a_read_only_mcp_server_offers_only_the_tools_that_can_work(tmp_path: Path) -> None:
    """It listed all 26 tools: an agent given a read-only memory was offered remember, forget, kill_edge and
    forget_source, each of which could only fail with `readonly`, and recall was not marked read-only though a
    read-only store counts no access. Now it lists the read-only tools, every one hinted read-only; a write tool
    called anyway still gets the `readonly` envelope."""
    replies = _readonly_session(tmp_path, [
        {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
        call(2, "remember", {"content": "The pilot moved to July"}),
        call(3, "recall", {"query": "pilot"}),
    ])
    tools = {tool["name"]: tool for tool in replies[1]["result"]["tools"]}
    assert set(tools) == {op.name for op in OPERATIONS if op.read_only}
    assert {"remember", "forget", "forget_source", "kill_edge"}.isdisjoint(tools)
    assert all(tool["annotations"]["readOnlyHint"] is True for tool in tools.values())
    refused = replies[2]["result"]
    assert refused["isError"] is True and refused["structuredContent"]["error"]["code"] == "readonly"
    assert replies[3]["result"]["structuredContent"]["results"][0]["insight"]["content"] == "The pilot starts in June"
