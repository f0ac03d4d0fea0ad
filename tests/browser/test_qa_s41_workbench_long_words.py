"""Session 41's QA of the workbench in the real browser: text with no place to break it.

A search for one long word (a pasted hash, a run of characters without a space) titled the results panel "Results for
“xxxx…”": the heading did not wrap, pushed the panel wider than the side column, and its "close" button out of sight,
so the only way to close the results was to search again.
"""
from __future__ import annotations

from .test_workbench import Page, browser, page, server, store

__all__ = ["browser", "page", "server", "store"]  # the fixtures, shared with test_workbench.py

LONG_WORD = "procurement" * 30


def test_a_long_word_searched_keeps_the_results_heading_and_its_close_button_in_the_panel(page: Page,
                                                                                             server: str) -> None:
    page.open(server)
    page.enter("#q", LONG_WORD)
    page.wait("s.status.text.includes('result') && !s.status.text.startsWith('Searching')")
    overflow = page.page.evaluate("""() => {
        const box = document.querySelector('#results-box');
        return [box.scrollWidth, box.clientWidth];
    }""")
    assert overflow[0] <= overflow[1], f"the results panel is {overflow[0]} px wide in {overflow[1]} px"
    close = page.page.locator("#results-close")
    panel = page.page.locator("#results-box").bounding_box()
    button = close.bounding_box()
    assert panel is not None and button is not None
    assert button["x"] + button["width"] <= panel["x"] + panel["width"], (button, panel)
    close.click()
    assert page.page.locator("#results-box").is_hidden()
    assert page.console_errors == []
