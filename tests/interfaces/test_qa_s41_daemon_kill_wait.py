"""A forced stop never kills a resident process that is still closing its stores. `daemon stop --force` ends a
process that does not answer with SIGTERM, then SIGKILL — after 3 s, while the process's way out (rolling back the
call it cut, closing its stores) is allowed UNWIND_S (5 s): one closing between 3 and 5 s was killed mid-close."""
from __future__ import annotations

import signal

import pytest

from mnemon.interfaces.daemon import client


class _Clock:
    """Time that passes only when the code under test sleeps."""

    def __init__(self) -> None:
        self.now = 0.0

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


@pytest.mark.parametrize("unwinds_in", [client.UNWIND_S * 0.5, client.UNWIND_S * 0.99])
def test_a_process_that_leaves_within_the_unwind_time_is_never_killed(monkeypatch: pytest.MonkeyPatch,
                                                                      unwinds_in: float) -> None:
    clock, sent = _Clock(), []
    terminated_at: list[float] = []

    def kill(pid: int, sig: int) -> None:
        sent.append(sig)
        if sig == signal.SIGTERM:
            terminated_at.append(clock.now)

    def holder(_environ: object) -> int | None:  # the lock is held until its way out is over
        return 4242 if not terminated_at or clock.now - terminated_at[0] < unwinds_in else None

    monkeypatch.setattr(client.os, "kill", kill)
    monkeypatch.setattr(client, "holder_pid", holder)
    monkeypatch.setattr(client, "time", clock)
    assert client.terminate({}, 4242) is True
    assert signal.SIGKILL not in sent


def test_a_process_still_there_after_the_unwind_time_is_killed(monkeypatch: pytest.MonkeyPatch) -> None:
    clock, sent = _Clock(), []
    killed: list[float] = []

    def kill(pid: int, sig: int) -> None:
        sent.append(sig)
        if sig == signal.SIGKILL:
            killed.append(clock.now)

    monkeypatch.setattr(client.os, "kill", kill)
    monkeypatch.setattr(client, "holder_pid", lambda _environ: None if killed else 4242)
    monkeypatch.setattr(client, "time", clock)
    assert client.terminate({}, 4242) is True
    assert killed and killed[0] >= client.UNWIND_S
