"""The prompt hook recalls the prompt several times (the whole, its first and last line, its questions), each
embedding the query. With an embedding server that takes the connection and never answers, each waited the full
embedding timeout (30 s): the hook took 91 s for a three-line prompt, far past the 20 s Claude Code gives it — the
user waited at every prompt and got nothing. Now the hook caps its embedding wait and, once the provider failed,
asks no further query: it answers within its budget, from keywords and the graph."""
from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable, Iterator

import pytest

from mnemon.app.integrations import hooks

CliRaw = Callable[..., tuple[int, str, str]]
CliRun = Callable[..., tuple[int, object]]


@pytest.fixture
def silent_server() -> Iterator[tuple[str, list[socket.socket]]]:
    """An endpoint that accepts every connection and never answers (an embedding server wedged)."""
    server = socket.create_server(("127.0.0.1", 0))
    taken: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.05)
        while not stop.is_set():
            try:
                taken.append(server.accept()[0])
            except (TimeoutError, OSError):
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.getsockname()[1]}", taken
    stop.set()
    thread.join()
    for conn in taken:
        conn.close()
    server.close()


def test_a_wedged_embedder_does_not_hold_the_prompt_past_the_hooks_budget(
        cli_run: CliRun, cli_raw: CliRaw, silent_server: tuple[str, list[socket.socket]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert cli_run(["remember", "The deploy pipeline runs on the self-hosted runner named atlas",
                    "--cat", "fact"])[0] == 0
    endpoint, taken = silent_server
    monkeypatch.setenv("MNEMON_EMBED_PROVIDER", "ollama")
    monkeypatch.setenv("MNEMON_EMBED_ENDPOINT", endpoint)
    monkeypatch.setenv("MNEMON_EMBED_TIMEOUT", "30")
    monkeypatch.setattr(hooks, "EMBED_TIMEOUT_S", 0.3)
    prompt = "which runner does the deploy pipeline use?\nthe log says: step failed\nwhy did the deploy fail?"
    started = time.monotonic()
    code, out, _ = cli_raw(["hook", "claude-code", "prompt"], input=json.dumps({"prompt": prompt}))
    elapsed = time.monotonic() - started
    assert code == 0
    context = json.loads(out)["hookSpecificOutput"]["additionalContext"]
    assert "runner named atlas" in context
    assert elapsed < 5, elapsed  # one wait of 0.3 s (and a probe's), not 30 s per query
    assert len(taken) <= 2
