"""The resident process (`mnemon.interfaces.daemon`): real processes, a real Unix socket, the real CLI on both sides.

What a user would notice: a call that ran alone leaves a resident process behind; later calls are answered by it with
the very output (and exit code) they would have printed themselves; relative paths, the environment and the config
file are the caller's; a store removed between two calls is not written through a stale handle; many callers at once
lose nothing; and it goes away when idle or asked to.
"""
from __future__ import annotations

import contextlib
import gc
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mnemon.interfaces.daemon import client

from conftest import EXAMPLE_VAULT, SRC, parse_one_json
from ports.fake_servers import FakeConfig, FakeOpenAI, running

pytestmark = pytest.mark.skipif(not hasattr(__import__("socket"), "AF_UNIX"), reason="needs Unix sockets")


@pytest.fixture
def daemon_env(tmp_path: Path) -> Iterator[dict[str, str]]:
    # a short directory of its own: a Unix socket's path must stay under ~100 bytes, which pytest's tmp_path may not
    directory = tempfile.mkdtemp(prefix="mnd-", dir="/tmp")
    env = {**os.environ, "MNEMON_DAEMON": "on", "MNEMON_DAEMON_DIR": directory,
           "PYTHONPATH": os.pathsep.join(filter(None, [str(SRC), os.environ.get("PYTHONPATH", "")]))}
    yield env
    status = client.ask(env, {"op": "stop"})
    if status is not None and status.get("pid"):
        _wait_gone(int(status["pid"]))
    shutil.rmtree(directory, ignore_errors=True)


def _wait_gone(pid: int, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    os.kill(pid, 9)


def mnemon(env: dict[str, str], *args: str, cwd: Path | None = None) -> tuple[int, Any]:
    proc = subprocess.run([sys.executable, "-m", "mnemon", *args], capture_output=True, text=True, env=env,
                          cwd=cwd, timeout=60)
    assert "Traceback" not in proc.stdout + proc.stderr
    return proc.returncode, parse_one_json(proc.stdout)


def status(env: dict[str, str]) -> dict[str, Any] | None:
    return client.ask(env, {"op": "status"})


def wait_running(env: dict[str, str], timeout: float = 30.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if (found := status(env)) is not None:
            return found
        time.sleep(0.05)
    pytest.fail("no resident process answered")


def start(env: dict[str, str]) -> dict[str, Any]:
    code, out = mnemon(env, "daemon", "start")
    assert code == 0 and out["running"], out
    return out


# ── which calls go to it ─────────────────────────────────────────────────────
@pytest.mark.parametrize(("argv", "expected"), [
    (["remember", "a fact"], True),
    (["--db", "x.db", "--pretty", "recall", "the lake"], True),
    (["--db=x.db", "--embed", "none", "remember", "x", "--cat", "fact"], True),
    (["--store", "recall", "remember", "x"], True),  # a store named like a command is the option's value
    (["search", "lake"], True),
    (["retrieve", "--prompt", "battery risk", "--max-items", "4"], True),
    (["surface", "--prompt=battery risk"], True),
    (["retrieve", "battery", "risk"], False),  # without --prompt it may read the prompt from standard input
    (["surface"], False),
    (["retrieve", "--prompt", "-"], False),
    (["retrieve", "--prompt", ""], False),  # empty, like `-`: the prompt comes from standard input
    (["retrieve", "--prompt="], False),
    (["agent", "preflight", "--prompt", ""], False),
    (["agent", "preflight", "--prompt", "where does Mira live now?"], True),
    (["agent", "preflight"], False),
    (["remember", "-"], False),  # reads standard input
    (["remember", "--payload", "p.json"], False),
    (["--readonly", "recall", "x"], False),
    (["recall", "--help"], False),
    (["status"], False),
    (["--pretty"], False),
    ([], False),
])
def test_only_commands_that_read_no_standard_input_are_forwarded(argv: list[str], expected: bool) -> None:
    assert client.forwardable(argv) is expected


@given(st.lists(st.sampled_from(["--db", "--db=a", "--pretty", "--readonly", "-", "remember", "recall", "x", "-h",
                                 "--store", "status", "--payload"]), max_size=8))
def test_forwarding_is_decided_for_any_arguments(argv: list[str]) -> None:
    if client.forwardable(argv):
        assert client.split_globals(argv)[1] in client.FORWARDED
        assert "-" not in argv and "--readonly" not in argv


@pytest.mark.parametrize(("word", "on"), [("", True), ("on", True), ("1", True), ("off", False), ("0", False),
                                          ("false", False), ("auto", False)])
def test_the_environment_switch_reads_like_every_boolean_setting(word: str, on: bool) -> None:
    from mnemon.app.config import load_config

    assert client.enabled({"MNEMON_DAEMON": word}) is on
    assert load_config({"MNEMON_DAEMON": word, "HOME": "/nonexistent"}).daemon is on


def test_a_call_that_ran_alone_offers_a_resident_process_only_when_allowed(monkeypatch: pytest.MonkeyPatch,
                                                                           tmp_path: Path) -> None:
    from mnemon.interfaces.cli import main as cli_main

    spawned: list[list[str]] = []
    monkeypatch.setattr(client, "spawn", lambda argv, env, idle: spawned.append(list(argv)))
    db = str(tmp_path / "m.db")
    try:
        for word, argv in [("off", ["--db", db, "remember", "one"]), ("on", ["--db", db, "status"]),
                           ("on", ["--db", db, "remember", "two"])]:
            monkeypatch.setenv("MNEMON_DAEMON", word)
            assert cli_main.main(argv, ends_process=True) == 0
    finally:  # a process-ending call freezes and stops the collector; this test process goes on
        gc.unfreeze()
        gc.enable()
    assert spawned == [["--db", db, "remember", "two"]]


# ── calls answered by it ─────────────────────────────────────────────────────
def test_a_call_leaves_a_resident_process_that_answers_the_next_calls_as_they_would_answer(
        daemon_env: dict[str, str], tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    code, first = mnemon(daemon_env, "--db", db, "remember", "We moved the lake trip to June", "--cat", "decision")
    assert code == 0 and first["action"] == "added"
    running = wait_running(daemon_env)
    assert running["served"] == 0
    code, second = mnemon(daemon_env, "--db", db, "remember", "Anna books the cabin for the lake trip")
    assert code == 0 and second["action"] == "added" and second["edges_created"]["temporal"] >= 1
    code, again = mnemon(daemon_env, "--db", db, "remember", "We moved the lake trip to June", "--cat", "decision")
    assert again["action"] == "skipped" and again["replaced_id"] == first["id"]
    assert status(daemon_env)["served"] == 2  # type: ignore[index]

    alone = {**daemon_env, "MNEMON_DAEMON": "off"}
    served = mnemon(daemon_env, "--db", db, "recall", "when is the lake trip", "--limit", "5")
    own = mnemon(alone, "--db", db, "recall", "when is the lake trip", "--limit", "5")
    assert served[0] == own[0] == 0
    assert [r["insight"]["id"] for r in served[1]["results"]] == [r["insight"]["id"] for r in own[1]["results"]]
    assert {r["insight"]["id"] for r in served[1]["results"]} == {first["id"], second["id"]}
    for bad in (["remember", "x", "--imp", "9"], ["recall"], ["remember", "x", "--cat", "nope"]):
        assert mnemon(daemon_env, "--db", db, *bad) == mnemon(alone, "--db", db, *bad)
        assert mnemon(daemon_env, "--db", db, *bad)[0] != 0
    assert status(daemon_env)["served"] == 3 + 6  # type: ignore[index]

    # a write by a process of its own in between: the resident process's open store and caches follow it
    code, other = mnemon(alone, "--db", db, "remember", "The harbour crane inspection moved to Friday")
    assert code == 0
    code, found = mnemon(daemon_env, "--db", db, "recall", "harbour crane inspection", "--limit", "3")
    assert found["results"][0]["insight"]["id"] == other["id"]
    code, after = mnemon(daemon_env, "--db", db, "remember", "The harbour crane inspection passed")
    edges = mnemon(alone, "--db", db, "show", after["id"])[1]["edges"]
    assert any(e["sub_type"] == "backbone" and other["id"] in (e["source_id"], e["target_id"]) for e in edges)


def test_context_packs_and_cards_through_it_are_the_ones_a_call_of_its_own_prints(daemon_env: dict[str, str],
                                                                                  tmp_path: Path) -> None:
    alone = {**daemon_env, "MNEMON_DAEMON": "off"}
    db = str(tmp_path / "v.db")
    assert mnemon(alone, "--db", db, "ingest", "--vault", str(EXAMPLE_VAULT))[0] == 0
    start(daemon_env)
    for argv in (["retrieve", "--prompt", "battery supplier risk", "--max-items", "4"],
                 ["surface", "--prompt", "battery supplier risk"], ["search", "battery"],
                 ["agent", "preflight", "--prompt", "battery supplier risk", "--as-of", "2026-06-01T00:00:00Z"]):
        assert mnemon(daemon_env, "--db", db, *argv) == mnemon(alone, "--db", db, *argv)
    assert status(daemon_env)["served"] == 4  # type: ignore[index]
    # Mneme's command line (`mneme retrieve … --db …`) is handed over after its translation
    mneme = [sys.executable, "-m", "mnemon.interfaces.mneme_cli", "retrieve", "--prompt", "battery supplier risk",
             "--db", db, "--max-items", "4"]
    served, own = (subprocess.run(mneme, capture_output=True, text=True, env=e, timeout=60) for e in (daemon_env, alone))
    assert served.returncode == own.returncode == 0 and served.stdout == own.stdout
    assert parse_one_json(served.stdout) == mnemon(alone, "--db", db, "retrieve", "--prompt", "battery supplier risk",
                                                   "--max-items", "4")[1]
    assert status(daemon_env)["served"] == 5  # type: ignore[index]
    # its cards suggest commands typed as `mneme`, the program the caller ran, as a call of its own does
    mneme = [*mneme[:3], "surface", "--prompt", "battery supplier risk", "--db", db]
    served, own = (subprocess.run(mneme, capture_output=True, text=True, env=e, timeout=60)
                   for e in (daemon_env, alone))
    assert served.returncode == own.returncode == 0 and served.stdout == own.stdout
    cards = parse_one_json(served.stdout)["thoughts"]
    assert cards and {a["command"][0] for c in cards for a in c["suggested_actions"]} == {"mneme"}
    assert status(daemon_env)["served"] == 6  # type: ignore[index]


def test_relative_paths_and_the_environment_are_the_callers(daemon_env: dict[str, str], tmp_path: Path) -> None:
    start(daemon_env)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    mnemon(daemon_env, "--db", "rel.db", "remember", "one in a", cwd=tmp_path / "a")
    mnemon(daemon_env, "--db", "rel.db", "remember", "one in b", cwd=tmp_path / "b")
    mnemon(daemon_env, "--db", "rel.db", "remember", "two in b", cwd=tmp_path / "b")
    home_b = tmp_path / "home-b"
    mnemon({**daemon_env, "MNEMON_HOME": str(home_b), "MNEMON_STORE": "work"}, "remember", "in a named store")
    assert status(daemon_env)["served"] == 4  # type: ignore[index]
    assert _contents(tmp_path / "a" / "rel.db") == ["one in a"]
    assert _contents(tmp_path / "b" / "rel.db") == ["one in b", "two in b"]
    assert _contents(home_b / "data" / "work" / "mnemon.db") == ["in a named store"]


def _contents(db: Path) -> list[str]:
    from mnemon.app.config import load_config
    from mnemon.app.memory import Mnemon

    with Mnemon.open(load_config({"HOME": "/nonexistent"}, db=str(db)), provider="none") as m:
        return sorted(n.content for n in m.rt.store.iter_nodes())


def test_a_store_removed_between_calls_is_opened_afresh(daemon_env: dict[str, str], tmp_path: Path) -> None:
    start(daemon_env)
    db = tmp_path / "gone.db"
    mnemon(daemon_env, "--db", str(db), "remember", "before the removal")
    code, _ = mnemon({**daemon_env, "MNEMON_DAEMON": "off"}, "--db", str(db), "status")
    for p in tmp_path.glob("gone.db*"):
        p.unlink()
    code, out = mnemon(daemon_env, "--db", str(db), "remember", "after the removal")
    assert code == 0 and out["action"] == "added"
    assert _contents(db) == ["after the removal"]


def test_a_config_file_that_turns_it_off_keeps_the_call_in_its_own_process(daemon_env: dict[str, str],
                                                                          tmp_path: Path) -> None:
    start(daemon_env)
    config = tmp_path / "off.json"
    config.write_text(json.dumps({"daemon": False}))
    db = str(tmp_path / "m.db")
    unset = {k: v for k, v in daemon_env.items() if k != "MNEMON_DAEMON"}  # the variable would win over the file
    code, out = mnemon(unset, "--config", str(config), "--db", db, "remember", "kept local")
    assert code == 0 and out["action"] == "added"
    assert status(daemon_env)["served"] == 0  # type: ignore[index]
    mnemon(daemon_env, "--db", db, "remember", "served")
    assert status(daemon_env)["served"] == 1  # type: ignore[index]


def test_many_callers_at_once_lose_nothing(daemon_env: dict[str, str], tmp_path: Path) -> None:
    start(daemon_env)
    db = str(tmp_path / "busy.db")

    def writer(w: int) -> list[int]:
        return [mnemon(daemon_env, "--db", db, "remember", f"writer {w} note {i}", "--no-diff")[0] for i in range(6)]

    with ThreadPoolExecutor(4) as pool:
        codes = [c for cs in pool.map(writer, range(4)) for c in cs]
    assert codes == [0] * 24
    assert len(_contents(Path(db))) == 24
    assert status(daemon_env)["served"] == 24  # type: ignore[index]


# ── its life ─────────────────────────────────────────────────────────────────
def test_start_status_stop(daemon_env: dict[str, str], tmp_path: Path) -> None:
    code, out = mnemon(daemon_env, "daemon", "status")
    assert code == 0 and out["running"] is False and out["enabled"] is True
    started = start(daemon_env)
    assert started["started"] is True and started["pid"] != os.getpid() and started["peak_memory_mb"] > 0
    assert mnemon(daemon_env, "daemon", "start")[1]["started"] is False  # one is enough
    code, out = mnemon(daemon_env, "daemon", "stop")
    assert code == 0 and out["stopped"] is True
    _wait_gone(int(started["pid"]))
    assert not Path(started["socket"]).exists()
    assert mnemon(daemon_env, "daemon", "status")[1]["running"] is False
    assert mnemon({**daemon_env, "MNEMON_DAEMON": "off"}, "daemon", "start")[1]["started"] is False


def test_it_exits_when_idle(daemon_env: dict[str, str]) -> None:
    directory, key = daemon_env["MNEMON_DAEMON_DIR"], client.fingerprint()
    proc = subprocess.Popen([sys.executable, "-m", "mnemon.interfaces.daemon.server", "--dir", directory, "--key",
                             key, "--idle", "0.5"], env=daemon_env)
    wait_running(daemon_env)
    assert proc.wait(timeout=30) == 0
    assert not Path(client.socket_path(daemon_env, key)).exists()


def test_calls_only_reach_a_process_of_the_same_code_in_a_private_directory(daemon_env: dict[str, str],
                                                                            tmp_path: Path) -> None:
    start(daemon_env)
    assert client.ask(daemon_env, {"op": "status"}, key="0" * 16) is None  # other code listens elsewhere
    os.chmod(daemon_env["MNEMON_DAEMON_DIR"], 0o755)
    try:
        assert status(daemon_env) is None  # a directory others may enter is not trusted
        code, out = mnemon(daemon_env, "--db", str(tmp_path / "m.db"), "remember", "runs alone")
        assert code == 0 and out["action"] == "added"
    finally:
        os.chmod(daemon_env["MNEMON_DAEMON_DIR"], 0o700)
    assert status(daemon_env)["served"] == 0  # type: ignore[index]


def test_a_caller_whose_directory_is_gone_is_sent_back_to_run_alone(tmp_path: Path) -> None:
    from mnemon.interfaces.daemon.server import FacadePool, run_command

    cwd, env = os.getcwd(), dict(os.environ)
    reply = run_command({"argv": ["remember", "x"], "cwd": str(tmp_path / "gone"), "env": {"MNEMON_DAEMON": "on"}},
                        FacadePool())
    assert reply == {"declined": True}
    assert os.getcwd() == cwd and dict(os.environ) == env


def test_a_process_that_cannot_listen_says_why_and_is_not_started_again_soon(daemon_env: dict[str, str]) -> None:
    directory, key = daemon_env["MNEMON_DAEMON_DIR"], client.fingerprint()
    os.makedirs(os.path.join(directory, f"{key}.sock"))  # a directory where its socket must go: binding cannot win
    proc = subprocess.run([sys.executable, "-m", "mnemon.interfaces.daemon.server", "--dir", directory, "--key", key],
                          env=daemon_env, timeout=60)
    assert proc.returncode == 1 and Path(client.failure_note(directory, key)).read_text().strip()
    assert client.spawn(["remember", "x"], daemon_env, 900) is False


def test_no_process_is_started_where_a_socket_path_would_be_too_long(daemon_env: dict[str, str]) -> None:
    deep = os.path.join(daemon_env["MNEMON_DAEMON_DIR"], "d" * 90)
    assert client.spawn(["remember", "x"], {**daemon_env, "MNEMON_DAEMON_DIR": deep}, 900) is False
    assert not os.path.exists(os.path.join(deep, f"{client.fingerprint()}.lock"))


def test_open_stores_hold_no_read_snapshot_between_commands(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """A store kept open must not pin the write-ahead log: other processes' checkpoints complete between commands."""
    import sqlite3

    from mnemon.interfaces.cli import main as cli_main
    from mnemon.interfaces.daemon.server import FacadePool

    pool = FacadePool()
    monkeypatch.setattr(cli_main, "FACADES", pool)
    db = str(tmp_path / "m.db")
    try:
        for i in range(12):
            assert cli_main.main(["--db", db, "remember", f"Anna moved the standup, take {i}"], ends_process=False) == 0
        for argv in (["recall", "standup"], ["search", "standup"], ["remember", "the standup is at nine"],
                     ["retrieve", "--prompt", "standup"], ["surface", "--prompt", "standup"]):
            assert cli_main.main(["--db", db, *argv], ends_process=False) == 0
            other = sqlite3.connect(db)
            try:
                assert other.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0] == 0, argv  # 0: not busy
            finally:
                other.close()
        assert len(pool.stores()) == 1
    finally:
        pool.close_all()
    capsys.readouterr()


# ── found by the QA pass on the interfaces (/tmp/hunt/interfaces.md #3–#5, #13) ──
def _raw(env: dict[str, str], *args: str, **kwargs: Any) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "mnemon", *args], env=env, timeout=60, **kwargs)


def test_what_it_prints_reaches_the_caller_as_a_call_of_its_own_prints_it(daemon_env: dict[str, str],
                                                                          tmp_path: Path) -> None:
    alone = {**daemon_env, "MNEMON_DAEMON": "off"}
    db = str(tmp_path / "m.db")
    assert mnemon(alone, "--db", db, "remember", "Café Zürich")[0] == 0
    start(daemon_env)
    for encoding in ("ascii", "latin-1", "utf-8"):  # what the locale makes of stdout: JSON is written as UTF-8
        served, own = (_raw({**e, "PYTHONIOENCODING": encoding}, "--db", db, "search", "Zürich", capture_output=True)
                       for e in (daemon_env, alone))
        assert (served.returncode, served.stdout, served.stderr) == (own.returncode, own.stdout, own.stderr), encoding
        assert own.returncode == 0 and "Café" in parse_one_json(own.stdout.decode("utf-8"))["results"][0]["content"]
    assert status(daemon_env)["served"] == 3  # type: ignore[index]
    ends = []
    for e in (daemon_env, alone):  # the reader went away before the answer: quiet, exit code 1, in both
        read_end, write_end = os.pipe()
        os.close(read_end)
        try:
            proc = _raw(e, "--db", db, "search", "Zürich", stdout=write_end, stderr=subprocess.PIPE)
        finally:
            os.close(write_end)
        ends.append((proc.returncode, proc.stderr))
    assert ends[0] == ends[1] == (1, b"")
    assert status(daemon_env)["served"] == 4  # type: ignore[index]


def _answering(env: dict[str, str], timeout: float = 30.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = status(env)
        if found is not None and found.get("responding", True):
            return found
        time.sleep(0.05)
    pytest.fail("the resident process did not answer again")


def test_a_stopped_process_hangs_nothing_and_stop_force_ends_it(daemon_env: dict[str, str], tmp_path: Path) -> None:
    env = {**daemon_env, "MNEMON_DAEMON_WAIT": "0.5"}  # the default (3 s) would only make this test slower
    db = str(tmp_path / "m.db")
    pid = int(start(env)["pid"])
    os.kill(pid, signal.SIGSTOP)
    try:
        t0 = time.monotonic()
        code, added = mnemon(env, "--db", db, "remember", "The lake trip moved to June")  # run here instead
        assert code == 0 and added["action"] == "added"
        code, found = mnemon(env, "--db", db, "search", "lake")
        assert code == 0 and [r["id"] for r in found["results"]] == [added["id"]]
        code, out = mnemon(env, "daemon", "status")
        assert code == 0 and (out["running"], out.get("responding"), out["pid"]) == (True, False, pid), out
        assert time.monotonic() - t0 < 30  # each waited ~0.5 s, not forever
        os.kill(pid, signal.SIGCONT)
        # resumed, it finds the calls that gave up on it in its backlog: they were never handed over, so it runs
        # none of them (the remember ran once, here)
        assert _answering(env)["served"] == 0
        assert _contents(Path(db)) == ["The lake trip moved to June"]
        os.kill(pid, signal.SIGSTOP)
        code, out = mnemon(env, "daemon", "stop")
        assert code == 0 and (out["stopped"], out["responding"]) == (False, False)
        code, out = mnemon(env, "daemon", "stop", "--force")
        assert code == 0 and out["stopped"] is True and out["forced"] is True
        assert out["interrupted"] is None  # it was running nothing
        assert client.holder_pid(env) is None
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def test_a_restore_by_copy_under_it_is_what_every_call_reads(daemon_env: dict[str, str], tmp_path: Path) -> None:
    alone = {**daemon_env, "MNEMON_DAEMON": "off"}
    db = tmp_path / "m.db"
    assert mnemon(alone, "--db", str(db), "remember", "alpha before the backup")[0] == 0
    backup = tmp_path / "backup.db"
    shutil.copyfile(db, backup)  # the last connection closed: the file is the whole database
    start(daemon_env)
    for i in range(5):
        assert mnemon(daemon_env, "--db", str(db), "remember", f"gamma after the backup {i}")[0] == 0
    shutil.copyfile(backup, db)  # `cp backup.db m.db`: written in place, the inode stays
    assert mnemon(alone, "--db", str(db), "status")[1]["total_insights"] == 1
    assert mnemon(daemon_env, "--db", str(db), "search", "gamma")[1]["results"] == []
    assert len(mnemon(daemon_env, "--db", str(db), "search", "alpha")[1]["results"]) == 1
    assert mnemon(daemon_env, "--db", str(db), "remember", "delta after the restore")[0] == 0
    assert status(daemon_env)["served"] == 8  # type: ignore[index]
    assert _contents(db) == ["alpha before the backup", "delta after the restore"]
    with contextlib.closing(sqlite3.connect(db)) as check:
        assert check.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


# ── stopping a busy process: the call in flight is never cut silently ──────────
class _SlowEmbedder(FakeOpenAI):
    """An embedding server that holds any text containing SLOW until the test lets it go: a `remember` of such a
    text stays in flight in the resident process for as long as the test wants, with nothing timed."""

    def __init__(self) -> None:
        super().__init__(FakeConfig(models={"slow-embed": 16}))
        self.arrived, self.release = threading.Event(), threading.Event()

    def handle_post(self, handler: Any, body: Any) -> None:
        if any("SLOW" in text for text in body.get("input", [])):
            self.arrived.set()
            self.release.wait(120)
        super().handle_post(handler, body)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """An interrupted caller is gone when the held answer is finally written: that is the point, not an error."""


@pytest.fixture
def slow_call(daemon_env: dict[str, str], tmp_path: Path) -> Iterator[tuple[dict[str, str], _SlowEmbedder, str]]:
    embedder = _SlowEmbedder()
    env = {**daemon_env, "MNEMON_EMBED_PROVIDER": "openai", "MNEMON_EMBED_ENDPOINT": f"{embedder.base_url}/v1",
           "MNEMON_EMBED_MODEL": "slow-embed", "MNEMON_EMBED_TIMEOUT": "300"}
    with running(embedder):
        try:
            yield env, embedder, str(tmp_path / "m.db")
        finally:
            embedder.release.set()  # whatever the test did: nothing stays blocked on it


def _in_flight(env: dict[str, str], embedder: _SlowEmbedder, db: str) -> tuple[subprocess.Popen[str], dict[str, Any]]:
    """A slow `remember` handed to the resident process, and `status` naming it as the call it runs."""
    proc = subprocess.Popen([sys.executable, "-m", "mnemon", "--db", db, "remember", "SLOW: the lake trip moved"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    assert embedder.arrived.wait(60), "the slow call never reached the embedding server"
    busy = status(env)  # answered while the call runs: it is the resident process's call, not a process of its own
    assert busy is not None and busy["busy"]["op"] == "remember" and busy["stopping"] is False, busy
    return proc, busy


def _wait_until(env: dict[str, str], check: Any, timeout: float = 30.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = status(env)
        if found is not None and check(found):
            return found
        time.sleep(0.02)
    pytest.fail("the resident process never got there")


def test_stop_lets_the_call_in_flight_finish_and_takes_no_new_call(slow_call: Any) -> None:
    env, embedder, db = slow_call
    pid = int(start(env)["pid"])
    caller, _ = _in_flight(env, embedder, db)
    stopper = subprocess.Popen([sys.executable, "-m", "mnemon", "daemon", "stop"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=env)
    try:
        _wait_until(env, lambda s: s["stopping"])
        # stopping: a new call is not queued behind the slow one, it runs in its own process at once
        code, other = mnemon(env, "--db", db, "remember", "Anna books the cabin")
        assert code == 0 and other["action"] == "added"
        assert caller.poll() is None and stopper.poll() is None  # neither the slow call nor the stop was cut short
        embedder.release.set()
        out, err = caller.communicate(timeout=60)
        assert caller.returncode == 0 and parse_one_json(out)["action"] == "added", out + err
        out, err = stopper.communicate(timeout=60)
        stopped = parse_one_json(out)
        assert stopper.returncode == 0, out + err
        assert (stopped["stopped"], stopped["running"], stopped["interrupted"]) == (True, False, None)
        assert stopped["served"] == 1  # the slow call, and nothing after the stop
    finally:
        for proc in (caller, stopper):
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            proc.wait(timeout=30)
    _wait_gone(pid)
    assert client.holder_pid(env) is None and not os.path.exists(client.socket_path(env))
    assert _contents(Path(db)) == ["Anna books the cabin", "SLOW: the lake trip moved"]


def test_stop_without_force_never_cuts_the_call_and_says_it_still_runs(slow_call: Any) -> None:
    env, embedder, db = slow_call
    pid = int(start(env)["pid"])
    caller, busy = _in_flight(env, embedder, db)
    try:
        code, out = mnemon(env, "daemon", "stop", "--wait", "0.2")
        assert code == 0 and (out["stopped"], out["stopping"], out["running"]) == (False, True, True)
        assert out["busy"] == busy["busy"]
        assert caller.poll() is None
        embedder.release.set()
        out_text, _ = caller.communicate(timeout=60)
        assert caller.returncode == 0 and parse_one_json(out_text)["action"] == "added"
    finally:
        with contextlib.suppress(ProcessLookupError):
            caller.kill()
        caller.wait(timeout=30)
    _wait_gone(pid)  # the stop it was asked for took effect once the call ended
    assert _contents(Path(db)) == ["SLOW: the lake trip moved"]


def test_stop_force_interrupts_a_call_still_running_after_the_wait_and_names_it(slow_call: Any) -> None:
    env, embedder, db = slow_call
    pid = int(start(env)["pid"])
    caller, busy = _in_flight(env, embedder, db)
    try:
        code, out = mnemon(env, "daemon", "stop", "--force", "--wait", "0.2")
        assert code == 0 and (out["stopped"], out["running"], out["forced"]) == (True, False, True), out
        assert out["interrupted"] == busy["busy"]  # exactly the call that was cut: {op, started_at}
        assert set(out["interrupted"]) == {"op", "started_at"} and out["interrupted"]["op"] == "remember"
        # its caller hears what happened, in the envelope, instead of a broken connection (`daemon_failed`)
        out_text, err_text = caller.communicate(timeout=60)
        assert "Traceback" not in out_text + err_text
        refused = parse_one_json(out_text)
        assert caller.returncode == 1 and refused["error"]["code"] == "daemon_stopped", refused
        assert refused["error"]["details"]["interrupted"] == busy["busy"]
    finally:
        with contextlib.suppress(ProcessLookupError):
            caller.kill()
        caller.wait(timeout=30)
    _wait_gone(pid)
    assert client.holder_pid(env) is None
    assert _contents(Path(db)) == []  # the interrupted write left nothing behind


def test_stop_force_on_a_process_that_cannot_answer_still_names_the_call_it_ended(slow_call: Any) -> None:
    env, embedder, db = slow_call
    env = {**env, "MNEMON_DAEMON_WAIT": "0.5"}  # how long a stop waits for a stopped process to answer
    pid = int(start(env)["pid"])
    caller, busy = _in_flight(env, embedder, db)
    os.kill(pid, signal.SIGSTOP)  # it can answer nothing now: what it runs is read from its lock file
    try:
        code, out = mnemon(env, "daemon", "stop", "--force")
        assert code == 0 and (out["stopped"], out["forced"], out["responding"]) == (True, True, False), out
        assert out["interrupted"] == busy["busy"]
        out_text, _ = caller.communicate(timeout=60)
        assert caller.returncode == 1 and parse_one_json(out_text)["error"]["code"] == "daemon_stopped"
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError):
            caller.kill()
        caller.wait(timeout=30)
    assert _contents(Path(db)) == []
