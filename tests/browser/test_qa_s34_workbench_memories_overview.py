"""The overview of a store without a vault (only what `remember` wrote): the graph view draws its best-connected
recent memories, but the status line said "Overview: the best-connected notes", of a store that has no note.
"""
from __future__ import annotations

from collections.abc import Iterator

import pytest

from .test_workbench import Page, Store, _cli, _env, _start, _stop, browser, page, server, store

__all__ = ["browser", "page", "server", "store"]  # the fixtures, shared with test_workbench.py


@pytest.fixture(scope="module")
def memories_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("workbench-memories-only")
    env = _env(root)
    db = root / "store.db"
    for text in ("The kiln reached 1200 degrees on Monday", "The kiln cracked a shelf on Tuesday"):
        _cli(db, env, "remember", text)
    proc, url = _start(Store(db, env, killed_edge=-1))
    yield url
    _stop(proc)


def test_the_overview_of_a_store_without_notes_says_it_shows_memories(page: Page, memories_server: str) -> None:
    s = page.open(memories_server)
    assert s["nodes"] == 2
    text = s["status"]["text"]
    assert text.startswith("Overview:") and "memories" in text and "notes" not in text.replace("no notes", ""), text
    assert page.console_errors == []


def test_the_overview_of_a_vault_still_says_notes(page: Page, server: str) -> None:
    assert page.open(server)["status"]["text"].startswith("Overview: the best-connected notes.")
