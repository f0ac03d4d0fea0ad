"""The thirty-seventh session's second round on the workbench, in the real browser:

- a server gone, then Overview clicked: the status line said "Status failed (network): cannot reach the server
  (Failed to fetch)" — the graph's failure overwritten by the store totals', nothing saying to start the server again,
  and no way to try again but reloading the page;
- a bad focus typed into the address bar over a loaded graph (#focus=nonexistent-id): Lighthouse stayed drawn while
  the address named the bad id, and the message was worded for a tool caller ("`recall`, or `graph` without a focus,
  lists ids");
- a note's path typed in the Folder box said "No notes under Projects/lighthouse.md/ (folder names are
  case-sensitive)";
- a right-to-left override in a search (U+202E) reversed the rest of the status line after the quoted query.
"""
from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from urllib.parse import quote

import pytest

from .test_workbench import LIGHTHOUSE, Page, Store, _start, _stop, _text, browser, page, server, store

__all__ = ["browser", "page", "server", "store"]  # the fixtures, shared with test_workbench.py


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def stoppable(store: Store) -> Iterator[tuple[str, list[object]]]:
    """A server of its own over the shared store (read-only) on a fixed port, so that it can stop and start again."""
    proc, url = _start(store, port=_free_port())
    procs: list[object] = [proc]
    yield url, procs
    for p in procs:
        _stop(p)  # type: ignore[arg-type]


def test_a_stopped_server_is_one_message_with_a_retry_that_works(page: Page, store: Store,
                                                                 stoppable: tuple[str, list[object]]) -> None:
    url, procs = stoppable
    page.open(url)
    _stop(procs[0])  # type: ignore[arg-type]
    errors = len(page.state()["errors"])
    page.page.locator("#overview").click()
    page.wait(f"!s.loading && s.errors.length >= {errors + 2}")  # the graph and the store totals both failed
    status = _text(page, "#status")
    assert "Cannot reach the mnemon server" in status and "mnemon serve" in status, status
    assert "Status failed" not in status and "Graph failed" not in status
    retry = page.page.locator("#status button", has_text="Retry")
    assert retry.count() == 1
    procs.append(_start(store, port=int(url.rstrip("/").rsplit(":", 1)[1]))[0])
    retry.click()
    page.wait("!s.loading && s.status.kind !== 'busy' && s.status.text.startsWith('Overview')")
    page.page.wait_for_function("document.getElementById('counts').textContent.includes('store:')")
    assert page.state()["nodes"] > 0


def test_a_bad_focus_in_the_address_leaves_the_drawing_and_the_address_agreeing(page: Page, server: str) -> None:
    page.open(server, focus=LIGHTHOUSE)
    page.page.evaluate("location.hash = '#focus=nonexistent-id'")
    page.wait("!s.loading && s.status.kind === 'error'")
    assert page.state()["focus"] == LIGHTHOUSE
    assert page.page.url.endswith("#focus=" + quote(LIGHTHOUSE, safe=""))  # the address names what is drawn
    status = _text(page, "#status")
    assert "No node “nonexistent-id” in this store" in status and "Lighthouse" in status, status
    assert "`recall`" not in status and "graph` without" not in status


def test_opening_on_a_bad_focus_shows_the_overview_and_says_why(page: Page, server: str) -> None:
    page.page.goto(server + "#focus=nonexistent-id")
    page.wait("!s.loading && s.nodes > 0 && s.status.kind !== 'busy'")
    assert page.state()["focus"] is None and page.page.url == server
    assert "No node “nonexistent-id” in this store" in _text(page, "#status")


def test_a_note_typed_in_the_folder_box_is_offered_to_focus_on(page: Page, server: str) -> None:
    page.open(server)
    page.enter("#folder", "Projects/lighthouse.md")
    page.wait("!s.loading && s.nodes === 0 && s.status.kind !== 'busy'")
    for where in ("#status", "#empty"):
        assert "Projects/lighthouse.md is a note, not a folder" in _text(page, where), _text(page, where)
    page.page.locator("#status button", has_text="Focus on Lighthouse").click()
    page.wait(f"!s.loading && s.focus === {json.dumps(LIGHTHOUSE)} && s.nodes > 1")
    assert page.page.locator("#folder").input_value() == ""  # a focus is no folder's overview


def test_a_right_to_left_control_in_a_query_stays_inside_its_quotes(page: Page, server: str) -> None:
    page.open(server)
    query = "\u202eabc"
    page.enter("#q", query)
    page.wait("s.status.kind !== 'busy' && s.status.text.includes('result')")
    isolated = page.page.evaluate("""q => [...document.querySelectorAll('#status bdi, #results-title bdi')]
        .filter((b) => b.textContent === q).map((b) => b.closest('[id]').id)""", query)
    assert sorted(isolated) == ["results-title", "status"]
