"""Session 41's QA of the resident process's end on SIGTERM (`mnemon daemon stop --force` on a process that cannot
answer sends it, as does `kill`): the kernel hands a process-wide signal to any thread that does not block it — a
thread a library started (numpy's BLAS workers, a model's OpenMP pool), or, after a SIGSTOP, whichever thread the
SIGCONT lets run first. Taken there, the main thread, waiting for the command's embedding server, was never
interrupted: the call ran on, the stop killed the process, and its caller got `daemon_failed` instead of
`daemon_stopped` (a flaky `test_stop_force_on_a_process_that_cannot_answer_still_names_the_call_it_ended`)."""
from __future__ import annotations

import contextlib
import ctypes
import os
import platform
import signal
import sys
from pathlib import Path
from typing import Any

import pytest

from conftest import parse_one_json
from interfaces.test_daemon import _contents, _in_flight, _wait_gone, daemon_env, slow_call, start  # noqa: F401

_TGKILL = {"x86_64": 234, "aarch64": 131}.get(platform.machine())  # the syscall's number (Python has no wrapper)

pytestmark = pytest.mark.skipif(sys.platform != "linux" or _TGKILL is None,
                                reason="sends the signal to one thread with Linux's tgkill")

# started in every process of the test's environment, at interpreter start, as a library's worker thread would be:
# a thread beside the main one that does not block SIGTERM
_SPARE_THREAD = "import threading\nthreading.Thread(target=threading.Event().wait, daemon=True).start()\n"


def _signal_thread(pid: int, tid: int) -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    assert libc.syscall(_TGKILL, pid, tid, signal.SIGTERM) == 0, os.strerror(ctypes.get_errno())


def _takes_sigterm(pid: int, tid: int) -> bool:
    with open(f"/proc/{pid}/task/{tid}/status") as status:
        blocked = next(int(line.split()[1], 16) for line in status if line.startswith("SigBlk:"))
    return not blocked & (1 << (signal.SIGTERM - 1))


def test_sigterm_taken_by_another_thread_still_interrupts_the_call_and_answers_its_caller(
        slow_call: Any, tmp_path: Path) -> None:
    env, embedder, db = slow_call
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(_SPARE_THREAD)
    env = {**env, "PYTHONPATH": os.pathsep.join([str(site), env["PYTHONPATH"]])}
    pid = int(start(env)["pid"])
    caller, busy = _in_flight(env, embedder, db)
    try:
        others = [int(t) for t in os.listdir(f"/proc/{pid}/task") if int(t) != pid and _takes_sigterm(pid, int(t))]
        assert others, "the spare thread did not start in the resident process"
        _signal_thread(pid, others[0])
        out_text, err_text = caller.communicate(timeout=20)  # the embedding server still holds the call
        assert "Traceback" not in out_text + err_text
        refused = parse_one_json(out_text)
        assert caller.returncode == 1 and refused["error"]["code"] == "daemon_stopped", refused
        assert refused["error"]["details"]["interrupted"] == busy["busy"]
    finally:
        embedder.release.set()
        with contextlib.suppress(ProcessLookupError):
            caller.kill()
        caller.wait(timeout=30)
    _wait_gone(pid)
    assert _contents(Path(db)) == []  # the interrupted write left nothing behind
