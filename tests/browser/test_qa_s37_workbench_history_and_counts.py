"""The thirty-seventh session's workbench findings, in the real browser:

- the browser's Back button left the page (every focus replaced the one history entry, so Back after focusing on
  Lighthouse and then Ada Quill went to whatever page came before the workbench, not back to Lighthouse);
- an empty store's status line said "Overview: the best-connected notes. Double-click a node to focus on it." beside
  a canvas saying there is nothing to draw.
"""
from __future__ import annotations

import json

from .test_workbench import LIGHTHOUSE, PROCUREMENT, Page, _text, browser, empty_server, page, server, store

__all__ = ["browser", "empty_server", "page", "server", "store"]  # the fixtures, shared with test_workbench.py

ADA = "note:People/ada-quill.md"


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
