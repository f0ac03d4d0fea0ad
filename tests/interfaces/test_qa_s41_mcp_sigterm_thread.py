"""Session 41's QA of `mnemon mcp serve`'s end on SIGTERM: the kernel hands a process-wide signal to any of its
threads, and after a first tool call the server has numpy's BLAS worker beside its main thread. When the worker got
it, the main thread's read of stdin was never interrupted: the server did not stop until the client closed stdin,
and then it exited 1 with an "internal" envelope (the stop was raised in its clean-up). CI failed on this."""
from __future__ import annotations

import ctypes
import json
import os
import platform
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from interfaces.test_mcp import _env  # (tests/ is on sys.path)

_TGKILL = {"x86_64": 234, "aarch64": 131}.get(platform.machine())  # the syscall's number (Python has no wrapper)

pytestmark = pytest.mark.skipif(sys.platform != "linux" or _TGKILL is None,
                                reason="sends the signal to one thread with Linux's tgkill")


def _signal_thread(pid: int, tid: int) -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    assert libc.syscall(_TGKILL, pid, tid, signal.SIGTERM) == 0, os.strerror(ctypes.get_errno())


def test_sigterm_delivered_to_a_worker_thread_stops_the_server_while_stdin_stays_open(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    proc = subprocess.Popen([sys.executable, "-m", "mnemon", "--db", str(db), "mcp", "serve"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_env(tmp_path))
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    try:
        call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                "params": {"name": "remember", "arguments": {"content": "Dana owns the billing service"}}}
        proc.stdin.write(json.dumps(call).encode() + b"\n")
        proc.stdin.flush()
        assert json.loads(proc.stdout.readline())["result"]["isError"] is False
        workers = [int(t) for t in os.listdir(f"/proc/{proc.pid}/task") if int(t) != proc.pid]
        if not workers:
            pytest.skip("the server runs no thread beside its main one here (a one-thread BLAS)")
        _signal_thread(proc.pid, workers[0])
        assert proc.wait(timeout=20) == 0, proc.stderr.read().decode()  # stdin is still open
        out = proc.stdout.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdin.close()
    assert out == b""  # nothing but JSON-RPC answers on stdout: no error envelope
    assert not Path(f"{db}-wal").exists() and not Path(f"{db}-shm").exists()


def test_a_message_split_across_reads_and_a_last_line_without_newline_are_both_answered(tmp_path: Path) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "mnemon", "--db", str(tmp_path / "m.db"), "mcp", "serve"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=_env(tmp_path))
    assert proc.stdin is not None and proc.stdout is not None
    first = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping"}).encode() + b"\n"
    proc.stdin.write(first[:10])
    proc.stdin.flush()
    proc.stdin.write(first[10:] + json.dumps({"jsonrpc": "2.0", "id": 2, "method": "ping"}).encode())
    out, _ = proc.communicate(timeout=30)
    assert [json.loads(line)["id"] for line in out.splitlines()] == [1, 2]
    assert proc.returncode == 0
