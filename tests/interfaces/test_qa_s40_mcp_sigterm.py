"""Session 40's QA of `mnemon mcp serve`'s end: an MCP client stops its server with SIGTERM (the MCP stdio transport
says so when closing stdin is not enough, and hosts send it at their own exit). The server was killed by the signal:
exit status -15, the store never closed, `m.db-wal` and `m.db-shm` left beside the database."""
from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

from interfaces.test_mcp import _env  # (tests/ is on sys.path)


def _ask(proc: subprocess.Popen[str], message: dict) -> dict:
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(json.dumps(message) + "\n")
    proc.stdin.flush()
    return json.loads(proc.stdout.readline())


def test_sigterm_closes_the_store_as_the_end_of_input_does(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    proc = subprocess.Popen([sys.executable, "-m", "mnemon", "--db", str(db), "mcp", "serve"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_env(tmp_path), text=True,
                            encoding="utf-8")
    try:
        reply = _ask(proc, {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                            "params": {"name": "remember", "arguments": {"content": "Dana owns the billing service"}}})
        assert reply["result"]["isError"] is False, reply
        assert Path(f"{db}-wal").exists()  # the write is in the log until the store closes
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    assert not Path(f"{db}-wal").exists() and not Path(f"{db}-shm").exists()
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM nodes WHERE content = 'Dana owns the billing service'"
                            ).fetchone() == (1,)
