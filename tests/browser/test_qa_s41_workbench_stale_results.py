"""Session 41's QA of the workbench after a write, in the real browser: the search results.

A memory forgotten from its details (picked from the results of a search) stayed in those results as if nothing had
happened: the same text, score and signals, one click from a "This memory was forgotten" panel. Now its result says
it is forgotten, until Undo brings it back; so does one forgotten elsewhere (the CLI, another tab) once picked.
"""
from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from .test_qa_s38_workbench_undo import _remember
from .test_workbench import Page, Store, _cli, _ingested_store, _start, _stop, browser, page

__all__ = ["browser", "page"]  # the fixtures, shared with test_workbench.py

FERRY = "Dora books the ferry to Texel every spring"


@pytest.fixture
def own_store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    return _ingested_store(tmp_path_factory, "workbench-stale-results")


@pytest.fixture
def writable(own_store: Store) -> Iterator[str]:
    proc, url = _start(own_store, "--allow-writes", read_only=False)
    yield url
    _stop(proc)


def _result(page: Page, node_id: str) -> object:
    return page.page.locator(f"#results button[data-id={json.dumps(node_id)}]")


def test_a_result_forgotten_from_its_details_says_so_until_undo(page: Page, own_store: Store, writable: str) -> None:
    ferry = _remember(own_store, FERRY)
    page.open(writable)
    page.wait("s.writable === true")
    page.enter("#q", "ferry Texel")
    result = _result(page, ferry)
    result.click()  # type: ignore[attr-defined]
    forget = page.page.locator("#details button[data-action='forget']")
    forget.click()
    page.page.locator("#details button", has_text="Confirm forget").click()
    page.wait("s.status.text.startsWith('Forgot') && s.status.kind === 'info'")
    page.page.locator(f"#results button[data-id={json.dumps(ferry)}].removed").wait_for()
    assert "forgotten" in result.inner_text()  # type: ignore[attr-defined]
    page.page.locator("#details button[data-action='undo']").click()
    page.wait("s.status.text.startsWith('Brought back') && s.status.kind === 'info'")
    page.page.locator(f"#results button[data-id={json.dumps(ferry)}]:not(.removed)").wait_for()
    assert "forgotten" not in result.inner_text()  # type: ignore[attr-defined]


def test_a_result_forgotten_elsewhere_says_so_once_picked(page: Page, own_store: Store, writable: str) -> None:
    ferry = _remember(own_store, FERRY)
    page.open(writable)
    page.enter("#q", "ferry Texel")
    result = _result(page, ferry)
    result.wait_for()  # type: ignore[attr-defined]
    _cli(own_store.db, own_store.env, "forget", ferry)  # another client, after the search listed it
    result.click()  # type: ignore[attr-defined]
    page.page.locator("#details p.removed").wait_for()
    page.page.locator(f"#results button[data-id={json.dumps(ferry)}].removed").wait_for()
