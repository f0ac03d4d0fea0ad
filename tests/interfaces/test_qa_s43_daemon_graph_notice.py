"""Session 43: the first recall of a large store builds its recall graph (seconds; 10-20 s at 100k memories), and a
command run on a terminal says so on stderr first (tests/cli/test_qa_s42_graph_build_notice.py). When the resident
process answered the recall, its caller waited with nothing said: the notice went to the process's own captured
stderr. Now the resident process relays it to the caller while the command runs, to the caller's stderr, only when
that is a terminal; stdout stays the one JSON document."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from mnemon.interfaces.daemon import client

from cli.test_qa_s42_graph_build_notice import NOTICE, _env, _run, _seeded

pytestmark = pytest.mark.skipif(not hasattr(__import__("socket"), "AF_UNIX"), reason="needs Unix sockets")
# the resident process with the threshold patched low, so a store of three memories counts as a large one
SERVER = ("import sys, mnemon.ports.graph_index as g; g.SLOW_BUILD_NODES = 2; "
          "from mnemon.interfaces.daemon.server import main; sys.exit(main(sys.argv[1:]))")


@pytest.fixture
def resident(tmp_path: Path) -> Iterator[dict[str, str]]:
    """The callers' environment, with a resident process of this code listening for them."""
    directory = tempfile.mkdtemp(prefix="mnd-", dir="/tmp")  # short: a Unix socket's path stays under ~100 bytes
    env = {**_env(tmp_path), "MNEMON_DAEMON": "on", "MNEMON_DAEMON_DIR": directory}
    proc = subprocess.Popen([sys.executable, "-c", SERVER, "--dir", directory, "--key", client.fingerprint(),
                             "--idle", "120"], env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 30
        while client.ask(env, {"op": "status"}) is None:
            assert proc.poll() is None and time.monotonic() < deadline, "the resident process did not start"
            time.sleep(0.05)
        yield env
    finally:
        client.ask(env, {"op": "stop"})
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        shutil.rmtree(directory, ignore_errors=True)


def _served(env: dict[str, str]) -> int:
    return int((client.ask(env, {"op": "status"}) or {})["served"])


def test_a_recall_the_resident_process_answers_tells_the_callers_terminal(resident: dict[str, str],
                                                                          tmp_path: Path) -> None:
    db = _seeded(tmp_path)
    code, out, err = _run(tmp_path, ["--db", db, "recall", "pilot"], tty=True, env=resident)
    assert _served(resident) == 1  # the resident process answered it, not a process of its own
    assert code == 0, err
    assert err == f"{NOTICE} (once; saved beside the database)…\n"
    doc = json.loads(out)  # stdout: the one JSON document, the notice not in it
    assert "pilot" in json.dumps(doc) and "recall graph" not in out


def test_a_caller_whose_stderr_is_not_a_terminal_is_told_nothing(resident: dict[str, str], tmp_path: Path) -> None:
    db = _seeded(tmp_path)
    code, out, err = _run(tmp_path, ["--db", db, "recall", "pilot"], tty=False, env=resident)
    assert _served(resident) == 1
    assert code == 0 and err == "" and json.loads(out)
    assert os.path.exists(f"{db}-graph")  # it did build the graph, silently


def test_the_notice_reaches_the_caller_before_the_answer(resident: dict[str, str], tmp_path: Path) -> None:
    """On the wire: the notice is a document of its own, sent when the build starts, not with the answer."""
    db = _seeded(tmp_path)
    sock = client.connect(resident)
    assert sock is not None
    with sock:
        client.send(sock, {"op": "run", "argv": ["--db", db, "recall", "pilot"], "cwd": str(tmp_path),
                           "env": resident, "notices": True})
        assert (client.receive(sock) or {}).get("ready")
        client.send(sock, {"go": True})
        sock.settimeout(60)
        first, answer = client.receive(sock), client.receive(sock)
    assert first == {"notice": f"{NOTICE} (once; saved beside the database)…"}
    assert answer is not None and answer["code"] == 0 and answer["stderr"] == "" and json.loads(answer["stdout"])
