"""The store's totals in the workbench's status line: "store: N memories, M edges" summed every status `status`
counts, so the edges of a forgotten memory (retired: no graph view draws them, no toggle shows them) were counted
as the store's edges. The line counts the edges the page can draw: active, candidate and killed.

They were read once, when the page loaded: memories an agent wrote while the page was open never showed, whatever
was clicked. The Overview button reads them again.
"""
from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from .test_workbench import Page, Store, _cli, _get, _ingested_store, _start, _stop, _text, browser, page

__all__ = ["browser", "page"]  # the fixtures, shared with test_workbench.py


def _totals(page: Page) -> tuple[int, int]:
    page.wait("document.getElementById('counts').textContent.includes('store:')")
    counts = _text(page, "#counts")
    found = re.search(r"store: (\d+) memories, (\d+) edges", counts)
    assert found, counts
    return int(found.group(1)), int(found.group(2))


@pytest.fixture(scope="module")
def forgotten(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server over the example vault plus two memories linked to each other, one of them forgotten since."""
    store: Store = _ingested_store(tmp_path_factory, "workbench-store-totals")
    _cli(store.db, store.env, "remember", "Ana Lima moved the Lighthouse build to the staging cluster",
         "--entities", "Ana Lima")
    gone = _cli(store.db, store.env, "remember", "Ana Lima reviewed the Lighthouse budget on Friday",
                "--entities", "Ana Lima")
    assert _cli(store.db, store.env, "forget", gone["id"])["edges_retired"] > 0
    proc, url = _start(store)
    yield url
    _stop(proc)


@pytest.fixture
def written(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Store]]:
    """A server over a store of its own (the example vault), and that store, to write to while a page shows it."""
    store = _ingested_store(tmp_path_factory, "workbench-totals-written")
    proc, url = _start(store)
    yield url, store
    _stop(proc)


def test_the_store_totals_leave_out_the_edges_of_forgotten_memories(page: Page, forgotten: str) -> None:
    status = _get(forgotten + "api/status")
    by_status = status["edges_by_status"]
    assert by_status.get("retired", 0) > 0
    drawable = sum(by_status.get(s, 0) for s in ("active", "candidate", "killed"))
    page.open(forgotten)
    assert _totals(page) == (status["total_insights"], drawable)
    assert page.console_errors == []


def test_the_overview_button_reads_the_totals_again(page: Page, written: tuple[str, Store]) -> None:
    url, store = written
    page.open(url)
    memories, edges = _totals(page)
    _cli(store.db, store.env, "remember", "Ana Lima moved the Lighthouse build to the staging cluster")
    page.page.locator("#overview").click()
    page.wait(f"document.getElementById('counts').textContent.includes('store: {memories + 1} memories')")
    assert _totals(page)[0] == memories + 1
    assert page.console_errors == []
