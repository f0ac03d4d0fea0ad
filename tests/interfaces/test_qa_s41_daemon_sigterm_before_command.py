"""A SIGTERM that reaches the resident process after its caller's "go" but before the command starts: nothing ran,
so the caller runs the command itself, as it does when the process closes before its "ready". The caller got
`daemon_failed` ("run the command again") and the stop's answer said `interrupted: null`."""
from __future__ import annotations

import os
import signal
import socket
import threading
from pathlib import Path
from typing import Any

import pytest

from mnemon.interfaces.daemon import client, server as daemon_server
from mnemon.interfaces.daemon.server import Server


def _hand_over(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, server: Server) -> tuple[int | None, list[Any]]:
    """`client.forward` of a `recall` call to `server` over a socket pair: (what forward returned, what `_run`
    raised)."""
    ours, theirs = socket.socketpair()
    raised: list[Any] = []

    def serve() -> None:
        with theirs:
            request = client.receive(theirs)  # (the accepting thread's part)
            assert request is not None
            try:
                server._run(theirs, request)
            except BaseException as exc:  # noqa: BLE001 — the test looks at it
                raised.append(exc)

    worker = threading.Thread(target=serve)
    worker.start()
    monkeypatch.setattr(client, "connect", lambda _environ: ours)
    try:
        returned = client.forward(["--db", str(tmp_path / "s.db"), "recall", "alpha"], dict(os.environ))
    finally:
        worker.join(10)
    return returned, raised


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Server:
    monkeypatch.setenv("MNEMON_DAEMON", "on")  # the caller's environment: off, the process declines every call
    return Server(str(tmp_path / "d"), "k", 60.0)


def test_a_sigterm_right_after_the_go_sends_the_caller_back_to_run_it_itself(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, server: Server) -> None:
    def record(call: Any) -> None:  # the first step after the "go"
        if call is not None:
            server.on_sigterm(signal.SIGTERM, None)

    monkeypatch.setattr(server, "_record", record)
    returned, raised = _hand_over(tmp_path, monkeypatch, server)
    assert returned is None  # the caller runs the command in its own process
    assert len(raised) == 1 and type(raised[0]).__name__ == "_Leave"  # and the process still leaves
    assert server.interrupted is None and server.served == 0
    assert not (tmp_path / "s.db").exists()  # nothing ran here


def test_a_sigterm_while_the_callers_settings_are_read_sends_it_back_too(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, server: Server) -> None:
    def declines(_argv: list[str]) -> bool:
        server.on_sigterm(signal.SIGTERM, None)
        return False

    monkeypatch.setattr(daemon_server, "_declines", declines)
    returned, raised = _hand_over(tmp_path, monkeypatch, server)
    assert returned is None
    assert len(raised) == 1 and type(raised[0]).__name__ == "_Leave"
    assert server.interrupted is None


def test_a_sigterm_during_the_command_still_interrupts_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          server: Server, capsys: pytest.CaptureFixture[str]) -> None:
    from mnemon.interfaces.cli import main as cli_main

    def main(*_args: Any, **_kwargs: Any) -> int:
        server.on_sigterm(signal.SIGTERM, None)
        return 0

    monkeypatch.setattr(cli_main, "main", main)
    returned, raised = _hand_over(tmp_path, monkeypatch, server)
    assert returned == 1 and raised == []
    assert '"daemon_stopped"' in capsys.readouterr().out
    assert server.interrupted is not None and server.interrupted["op"] == "recall"
