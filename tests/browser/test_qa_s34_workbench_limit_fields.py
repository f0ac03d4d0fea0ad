"""The graph limits in the workbench's header: the Nodes and Links fields were 4.4 em wide, so their largest values
did not fit: 2,000 nodes read "200" and 10,000 links "100" (or "000" beside the spinner, once focused), while the
graph drew 2,000 nodes and 10,000 links. Each field now shows every value it takes whole, focused or not.
"""
from __future__ import annotations

import pytest

from .test_workbench import Page, browser, page, server, store

__all__ = ["browser", "page", "server", "store"]  # the fixtures, shared with test_workbench.py


def _fits(page: Page, selector: str) -> bool:
    return bool(page.page.evaluate("(s) => { const e = document.querySelector(s); "
                                   "return e.scrollWidth <= e.clientWidth; }", selector))


@pytest.mark.parametrize(("selector", "value"), [("#max-nodes", "2000"), ("#max-links", "10000"), ("#depth", "4")])
def test_each_limit_field_shows_its_largest_value_whole(page: Page, server: str, selector: str, value: str) -> None:
    page.open(server)
    field = page.page.locator(selector)
    assert field.get_attribute("max") == value
    field.fill(value)
    field.press("Enter")
    page.wait("!s.loading")
    assert field.input_value() == value
    assert _fits(page, selector)  # focused: the spinner shows beside the digits
    page.page.locator("#graph").focus()
    assert _fits(page, selector)
    assert page.console_errors == []


def test_the_header_stays_one_row_on_a_wide_screen(page: Page, server: str) -> None:
    page.open(server)
    tops = page.page.evaluate("['#q', '#max-links', '#frame'].map((s) => document.querySelector(s)"
                              ".getBoundingClientRect().top)")
    assert max(tops) - min(tops) < 10, tops  # one row (inputs and buttons differ in height by a pixel or two)
