"""Session 42: the first recall on a large store with no saved recall graph builds it (≈ 1 s at 10k memories, 10-20 s
at 100k) and said nothing, so a person at a terminal saw a frozen command. Now a command run on a terminal says on
stderr that it builds the graph, once, before it does; stdout stays the one JSON document, and nothing is said when
stderr is not a terminal (a pipe, a hook, the MCP server), so their output stays what programs read."""
from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
from pathlib import Path

from mnemon.app.config import load_config
from mnemon.app.memory import Mnemon

SRC = Path(__file__).resolve().parents[2] / "src"
# the threshold patched low in the child, so a store of three memories counts as a large one
CHILD = ("import sys, mnemon.ports.graph_index as g; g.SLOW_BUILD_NODES = 2; from mnemon.__main__ import run; "
         "sys.exit(run())")
NOTICE = "building the recall graph for 3 memories"


def _env(tmp_path: Path) -> dict[str, str]:
    home = tmp_path / "h"
    return dict(os.environ, PYTHONPATH=str(SRC), HOME=str(home), MNEMON_HOME=str(home / "m"), MNEMON_DAEMON="off",
                MNEMON_EMBED_PROVIDER="hash", XDG_CONFIG_HOME=str(home / ".c"), XDG_DATA_HOME=str(home / ".d"),
                XDG_CACHE_HOME=str(home / ".k"))


def _seeded(tmp_path: Path) -> str:
    db = str(tmp_path / "m.db")
    with Mnemon.open(load_config(_env(tmp_path), db=db)) as mem:
        for text in ("The pilot starts in June", "The pilot team meets on Mondays", "The budget review is in May"):
            mem.remember(text)
    assert not os.path.exists(f"{db}-graph")  # no recall yet: the first one builds the graph
    return db


def _run(tmp_path: Path, args: list[str], *, tty: bool, stdin: bytes = b"",
         env: dict[str, str] | None = None) -> tuple[int, str, str]:
    """`mnemon ARGS` with stderr a pseudo-terminal (`tty`) or a pipe; (exit code, stdout, stderr)."""
    master, slave = os.openpty() if tty else (-1, -1)
    proc = subprocess.Popen([sys.executable, "-c", CHILD, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=slave if tty else subprocess.PIPE, env=env or _env(tmp_path))
    if tty:
        os.close(slave)
    out, err = proc.communicate(stdin, timeout=60)
    if tty:
        chunks = []
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError as exc:  # EIO: the child is gone and all it wrote has been read
                assert exc.errno == errno.EIO
                break
            if not chunk:
                break
            chunks.append(chunk)
        os.close(master)
        err = b"".join(chunks).replace(b"\r\n", b"\n")
    return proc.returncode, out.decode(), err.decode()


def test_a_recall_on_a_terminal_says_it_builds_the_recall_graph_of_a_large_store(tmp_path: Path) -> None:
    db = _seeded(tmp_path)
    code, out, err = _run(tmp_path, ["--db", db, "recall", "pilot"], tty=True)
    assert code == 0, err
    assert NOTICE in err and "once" in err
    assert "Traceback" not in err
    doc = json.loads(out)  # stdout: the one JSON document, the notice not in it
    assert "pilot" in json.dumps(doc) and "recall graph" not in out
    assert os.path.exists(f"{db}-graph")  # saved beside the database, as it said: the next recall loads it


def test_a_recall_whose_stderr_is_not_a_terminal_says_nothing(tmp_path: Path) -> None:
    db = _seeded(tmp_path)
    code, out, err = _run(tmp_path, ["--db", db, "recall", "pilot"], tty=False)
    assert code == 0 and err == "" and json.loads(out)


def test_a_hook_on_a_terminal_says_nothing(tmp_path: Path) -> None:
    db = _seeded(tmp_path)
    event = json.dumps({"prompt": "when does the pilot start this year?"}).encode()
    code, out, err = _run(tmp_path, ["--db", db, "hook", "claude-code", "prompt"], tty=True, stdin=event)
    assert code == 0 and err == ""
    assert "pilot" in out and json.loads(out)  # it did recall (and so built the graph), silently


def test_the_mcp_server_on_a_terminal_says_nothing(tmp_path: Path) -> None:
    db = _seeded(tmp_path)
    messages = [{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                 "params": {"name": "recall", "arguments": {"query": "pilot"}}}]
    code, out, err = _run(tmp_path, ["--db", db, "mcp", "serve"], tty=True,
                          stdin="".join(json.dumps(m) + "\n" for m in messages).encode())
    assert code == 0 and err == ""
    reply = json.loads(out)
    assert reply["result"]["isError"] is False and "pilot" in json.dumps(reply["result"]["structuredContent"])


def test_a_read_only_recall_does_not_promise_to_save_the_graph(tmp_path: Path) -> None:
    """A `--readonly` process never writes beside the database, so the graph is built again next time: said so."""
    db = _seeded(tmp_path)
    code, out, err = _run(tmp_path, ["--db", db, "--readonly", "recall", "pilot"], tty=True)
    assert code == 0 and json.loads(out), err
    assert err == f"{NOTICE}…\n" and not os.path.exists(f"{db}-graph")
