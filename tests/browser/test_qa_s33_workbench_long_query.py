"""A search longer than the API takes, in the workbench: `find_nodes` and `recall` refuse a query above 2,000
characters (`invalid_input`), and a pasted page of text turned the search into "Search failed (invalid_input)".

The search box takes 2,000 characters (`maxlength`): a longer paste is cut there, the search runs on what the box
holds, and the status says the box keeps at most 2,000 characters. A longer query that reaches the search another way
(a script setting the box) is cut the same way, on whole characters, rather than sent to be refused.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from .test_workbench import Page, _new_page, browser, server, store

__all__ = ["browser", "server", "store"]  # the fixtures, shared with test_workbench.py

LIMIT = 2000


@pytest.fixture
def page(browser: Any) -> Iterator[Page]:
    with _new_page(browser, 1280, 800) as fresh:
        yield fresh


def _searched(page: Page) -> dict[str, Any]:
    page.wait("s.status.kind !== 'busy' && !s.status.text.startsWith('Searching')")
    return dict(page.state()["status"])


def test_a_pasted_query_over_the_limit_is_cut_to_it_and_searched(page: Page, server: str) -> None:
    page.open(server)
    query = "supplier battery " * 160  # 2,720 characters
    page.page.locator("#q").focus()
    page.page.keyboard.insert_text(query)  # as a paste puts it in
    assert len(page.page.locator("#q").input_value()) == LIMIT
    page.page.locator("#q").press("Enter")
    status = _searched(page)
    assert status["kind"] != "error" and "failed" not in status["text"], status
    assert "2,000 characters" in status["text"]
    assert page.page.locator("#results li button").count() >= 1
    assert page.page.locator("#status").evaluate("(e) => e.getBoundingClientRect().height") < 40  # one line
    assert not page.console_errors


def test_a_query_over_the_limit_set_by_a_script_is_cut_on_whole_characters(page: Page, server: str) -> None:
    page.open(server)
    # 1,999 letters then emoji: the 2,000th character is one whose UTF-16 form is two units, not to be split
    page.page.evaluate(f"""() => {{ const q = document.getElementById('q');
        q.value = 'b'.repeat({LIMIT - 1}) + '🔋'.repeat(600); q.form.requestSubmit(); }}""")
    status = _searched(page)
    assert status["kind"] != "error" and "failed" not in status["text"], status
    assert "2,000 characters" in status["text"]
    assert not page.console_errors
