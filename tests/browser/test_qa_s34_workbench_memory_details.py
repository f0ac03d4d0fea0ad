"""The details panel of a remembered memory, in the workbench: it showed the id, tags, importance and the creation
time, but not the entities the memory names (what its entity links are made of) nor who wrote it (its `source`,
"agent", "user" or a `mneme://` scope: only a vault path was shown), though `show` returns both. A note or a vault
memory keeps its source path only.
"""
from __future__ import annotations

import json

from collections.abc import Iterator

import pytest

from .test_workbench import Page, Store, _cli, _ingested_store, _start, _stop, _text, browser, page

__all__ = ["browser", "page"]  # the fixtures, shared with test_workbench.py

CONTENT = "Ana Lima moved the Lighthouse build to the staging cluster on Friday"


@pytest.fixture(scope="module")
def remembered(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """A server over the example vault plus one memory an agent wrote, naming two entities: (URL, the memory's id)."""
    store: Store = _ingested_store(tmp_path_factory, "workbench-memory-details")
    added = _cli(store.db, store.env, "remember", CONTENT, "--entities", "Ana Lima,staging cluster",
                 "--source", "agent")
    proc, url = _start(store)
    yield url, str(added["id"])
    _stop(proc)


def _details_of(page: Page, url: str, node: str) -> None:
    """Open the page focused on `node` and click it, as a user does, until its details show."""
    page.open(url, focus=node)
    point = page.hook(f"nodePoint({json.dumps(node)})")
    page.page.mouse.click(point["x"], point["y"])
    page.page.locator("#details h3").wait_for()


def _field(page: Page, label: str) -> str | None:
    values = page.page.evaluate("""(label) => [...document.querySelectorAll('#details dt')]
        .filter((dt) => dt.textContent === label).map((dt) => dt.nextElementSibling.textContent)""", label)
    return str(values[0]) if values else None


def test_a_remembered_memory_shows_its_entities_and_who_wrote_it(page: Page, remembered: tuple[str, str]) -> None:
    url, memory = remembered
    _details_of(page, url, memory)
    assert "Ana Lima moved the Lighthouse build" in _text(page, "#details h3")
    assert _field(page, "entities") == "Ana Lima, staging cluster"
    assert _field(page, "source") == "agent"
    assert page.console_errors == []


def test_a_note_keeps_its_source_path_and_no_source_line(page: Page, remembered: tuple[str, str]) -> None:
    url, _ = remembered
    _details_of(page, url, "note:Projects/lighthouse.md")
    assert _field(page, "source path") == "Projects/lighthouse.md"
    assert _field(page, "source") is None and _field(page, "entities") is None
    assert page.console_errors == []
