"""Session 41's QA of the workbench behind a token, in the real browser.

A server started with `--allow-writes` and MNEMON_HTTP_TOKEN, and a person who mistyped the token at the prompt:
every load failed, and the status line said "Server info failed (unauthorized): this server needs `Authorization:
Bearer <token>` …" — words for an API caller, with nothing to press. Pressing Overview asked again and drew the
graph, but the page had settled that the server was read-only when its first question was refused: no Forget on a
memory, no Validate or Kill on an edge, until the page was reloaded. Now the status line says the token was refused,
with a button that asks for it again and redoes what failed; and once a request gets through, the page asks again
whether the server takes writes.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest

from .test_workbench import (LIGHTHOUSE, TOKEN, Page, Store, _answer_prompts, _start, _stop, browser, page,
                             writable_store)

__all__ = ["browser", "page", "writable_store"]  # the fixtures, shared with test_workbench.py


@pytest.fixture(scope="module")
def writable_token_server(writable_store: Store) -> Iterator[str]:
    proc, url = _start(replace(writable_store, env={**writable_store.env, "MNEMON_HTTP_TOKEN": TOKEN}),
                       "--allow-writes", read_only=False)
    yield url
    _stop(proc)


def _refused(page: Page, url: str) -> None:
    page.page.goto(url)
    page.wait("s.writable !== null && s.errors.length === 3")  # server info, graph and status: all refused
    assert page.state()["writable"] is False


def test_a_refused_token_says_so_and_offers_to_ask_again(page: Page, writable_token_server: str) -> None:
    asked = _answer_prompts(page, ["wrong", TOKEN])
    _refused(page, writable_token_server)
    status = page.page.locator("#status")
    assert "token" in status.inner_text().lower() and "Authorization: Bearer" not in status.inner_text()
    status.get_by_role("button").click()
    page.settled()
    page.wait("s.writable === true")
    assert len(asked) == 2
    page.wait("document.getElementById('counts').textContent.includes('store:')")


def test_after_a_refused_token_overview_brings_back_the_write_controls(page: Page,
                                                                      writable_token_server: str) -> None:
    asked = _answer_prompts(page, ["wrong", TOKEN])
    _refused(page, writable_token_server)
    page.page.locator("#overview").click()  # the next action asks once more, and the right token works
    page.settled()
    page.wait("s.writable === true")
    assert len(asked) == 2
    page.hook(f"show({LIGHTHOUSE!r})")
    page.page.locator("#details h3").wait_for()
    edge = page.hook("clickableLink()")
    assert edge is not None
    page.hook(f"explain({edge['id']})")
    page.page.locator("#details .review button[data-action='validate']").wait_for()


def test_an_action_refused_for_its_token_says_the_next_one_asks(page: Page, writable_token_server: str) -> None:
    asked = _answer_prompts(page, [TOKEN, "wrong"])
    page.open(writable_token_server, focus=LIGHTHOUSE)
    page.wait("s.writable === true")
    edge = page.hook("clickableLink()")
    assert edge is not None
    page.hook(f"explain({edge['id']})")
    validate = page.page.locator("#details .review button[data-action='validate']")
    validate.wait_for()
    page.page.evaluate("sessionStorage.setItem('mnemon-token', 'stale')")  # the server restarted with another
    validate.click()
    page.wait("s.status.kind === 'error'")
    assert len(asked) == 2
    status = page.page.locator("#status")
    assert "token" in status.inner_text() and "next action asks" in status.inner_text()
    assert status.get_by_role("button").count() == 0  # nothing to redo: no button that would do nothing
