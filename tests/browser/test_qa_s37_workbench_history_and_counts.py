"""The thirty-seventh session's workbench findings, in the real browser:

- the browser's Back button left the page (every focus replaced the one history entry, so Back after focusing on
  Lighthouse and then Ada Quill went to whatever page came before the workbench, not back to Lighthouse);
- an empty store's status line said "Overview: the best-connected notes. Double-click a node to focus on it." beside
  a canvas saying there is nothing to draw;
- one link was counted "1 links" in the footer (and one memory "1 memories").
"""
from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from .test_workbench import (LIGHTHOUSE, PROCUREMENT, Page, Store, _cli, _env, _start, _stop, _text, browser,
                             empty_server, page, server, store)

__all__ = ["browser", "empty_server", "page", "server", "store"]  # the fixtures, shared with test_workbench.py

ADA = "note:People/ada-quill.md"


@pytest.fixture(scope="module")
def one_memory_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("workbench-one-memory")
    env = _env(root)
    db = root / "store.db"
    _cli(db, env, "remember", "The kiln reached 1200 degrees on Monday")
    proc, url = _start(Store(db, env, killed_edge=-1))
    yield url
    _stop(proc)
SUPPLIERS = "note:Areas/suppliers.md"


def _focus(page: Page, node: str) -> None:
    page.page.evaluate(f"window.workbench.focus({json.dumps(node)})")
    page.wait(f"!s.loading && s.focus === {json.dumps(node)}")


def test_back_and_forward_step_through_the_focuses(page: Page, server: str) -> None:
    page.open(server)
    _focus(page, LIGHTHOUSE)
    _focus(page, ADA)
    page.page.go_back()
    page.wait(f"!s.loading && s.focus === {json.dumps(LIGHTHOUSE)}")
    assert _text(page, "#focus-label") == "Focus: Lighthouse"
    page.page.go_back()  # the overview the page opened on
    page.wait("!s.loading && s.focus === null && s.nodes > 0")
    assert page.page.url == server
    page.page.go_forward()
    page.wait(f"!s.loading && s.focus === {json.dumps(LIGHTHOUSE)}")
    assert page.console_errors == []


def test_opening_a_focus_from_its_address_adds_no_step(page: Page, server: str) -> None:
    page.page.goto("about:blank")
    page.open(server, focus=PROCUREMENT)
    page.page.go_back()  # the page before the workbench: the focus it opened on is its first entry, not a second
    page.page.wait_for_url("about:blank")


def test_an_empty_store_says_so_in_the_status_line_too(page: Page, empty_server: str) -> None:
    page.page.goto(empty_server)
    page.wait("!s.loading && s.status.kind !== 'busy'")
    empty = "Nothing to draw: the store has no graph yet (mnemon ingest --vault PATH)."
    assert _text(page, "#empty") == empty
    assert _text(page, "#status") == empty  # not "the best-connected notes. Double-click a node …"
    assert page.console_errors == []


def test_one_link_and_one_node_are_counted_in_the_singular(page: Page, server: str) -> None:
    page.open(server, focus=SUPPLIERS)
    page.page.locator("#show-candidates").uncheck()  # Suppliers keeps one active link, to its section
    page.wait("!s.loading && s.nodes === 2")
    assert _text(page, "#counts").startswith("2 nodes · 1 link · store:")
    assert page.console_errors == []


def test_one_memory_is_counted_in_the_singular(page: Page, one_memory_server: str) -> None:
    page.open(one_memory_server)
    page.wait("document.getElementById('counts').textContent.includes('store:')")
    assert _text(page, "#counts") == "1 node · 0 links · store: 1 memory, 0 edges"
    assert page.console_errors == []
