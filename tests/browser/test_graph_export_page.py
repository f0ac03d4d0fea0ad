"""`mnemon graph --format html --out FILE` opened in Chromium from the file itself: the page draws every node of the
view and its links, with its legend, and asks nothing of the network (no script, font or CDN: the page's
Content-Security-Policy would refuse them, and a request would show here)."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .test_workbench import LIGHTHOUSE, Store, _cli, _ingested_store, browser

__all__ = ["browser"]  # the fixture, shared with test_workbench.py


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> tuple[Store, Path]:
    store = _ingested_store(tmp_path_factory, "graph-export-page")
    return store, store.db.parent


@pytest.fixture
def opened(browser: Any) -> Iterator[tuple[Any, list[str], list[str]]]:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    requests: list[str] = []
    errors: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        yield page, requests, errors
    finally:
        context.close()


@pytest.mark.parametrize("bounds", [[], ["--focus", LIGHTHOUSE, "--depth", "2"]])
def test_the_page_shows_every_node_offline(exported: tuple[Store, Path], opened: tuple[Any, list[str], list[str]],
                                           bounds: list[str]) -> None:
    store, folder = exported
    out = folder / f"graph-{len(bounds)}.html"
    doc = _cli(store.db, store.env, "graph", "--format", "html", "--out", str(out), *bounds)
    view = _cli(store.db, store.env, "graph", *bounds)
    page, requests, errors = opened
    page.goto(out.as_uri())
    nodes = page.locator("svg g.node")
    assert nodes.count() == doc["nodes"] == len(view["nodes"]) > 1
    assert page.locator("svg line").count() == doc["links"] == len(view["links"])
    assert sorted(nodes.evaluate_all("els => els.map(e => e.dataset.id)")) == sorted(n["id"] for n in view["nodes"])
    first = nodes.first
    assert first.is_visible() and first.locator("circle").bounding_box()["width"] > 0
    drawn = page.locator("svg g.node text").all_text_contents()
    assert view["nodes"][0]["title"][:30] in drawn[0]
    summary = page.locator("#summary").inner_text()
    assert f"{doc['nodes']} nodes and {doc['links']} links" in summary
    if bounds:
        assert "around Lighthouse" in summary and page.locator("g.node.focus").count() == 1
    assert requests == [out.as_uri()] and errors == []
