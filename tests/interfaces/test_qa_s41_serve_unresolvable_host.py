"""`mnemon serve --host nonexistent.invalid` said that listening there "exposes this memory to the network" and asked
for a token; with one it said "cannot listen". The name cannot be resolved, and that is what it says now — before
any talk of tokens, and before a store is opened or a socket made."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

CliRun = Callable[..., tuple[int, Any]]


@pytest.mark.parametrize("auth", [[], ["--token", "s3cret"], ["--no-auth"]])
def test_serve_on_a_name_that_does_not_resolve_says_so(cli_run: CliRun, monkeypatch: pytest.MonkeyPatch,
                                                        auth: list[str]) -> None:
    from mnemon.interfaces.http import server

    def never(*_a: Any, **_k: Any) -> Any:
        raise RuntimeError("the server was started")

    monkeypatch.setattr(server, "make_server", never)
    code, doc = cli_run(["serve", "--host", "nonexistent.invalid", "--port", "0", *auth])
    assert code == 1 and doc["error"]["code"] == "invalid_input", doc
    message = doc["error"]["message"]
    assert "nonexistent.invalid" in message and "resolve" in message and "network" not in message, message
