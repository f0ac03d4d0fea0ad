"""Session 41's QA of the workbench's details panel, in the real browser: the other ends of a node's edges.

A search result picked loads the graph around it and its details at once. When `show` answered before the graph (a
focus graph is the slower query, more so on a big store), the details listed each edge's other end by its id
("→ has_risk vault:Projects/lighthouse.md:observation:e4a2…", a memory's by its UUID) and kept those ids after the
graph, which names every one of them, was drawn. Now the names follow the graph as it arrives, and a node the page
has drawn once keeps its name in later views.
"""
from __future__ import annotations

from .test_workbench import LIGHTHOUSE, Page, browser, page, server, store

__all__ = ["browser", "page", "server", "store"]  # the fixtures, shared with test_workbench.py

DELAY_FOCUS_GRAPH = """() => { const fetchNow = window.fetch;
    window.fetch = (url, init) => /api\\/graph\\?.*focus=/.test(String(url))
        ? new Promise((done) => setTimeout(done, 800)).then(() => fetchNow(url, init)) : fetchNow(url, init); }"""


def _edge_ends(page: Page) -> list[str]:
    return list(page.page.locator("#details ul.edges li bdi").all_inner_texts())


def test_a_node_shown_before_its_graph_arrives_names_its_edges_ends_once_it_does(page: Page, server: str) -> None:
    page.open(server)
    page.page.evaluate(DELAY_FOCUS_GRAPH)
    page.enter("#q", "Lighthouse")
    page.page.locator(f"#results button[data-id='{LIGHTHOUSE}']").click()
    page.page.locator("#details ul.edges").wait_for()
    page.wait(f"s.focus === {LIGHTHOUSE!r} && !s.loading")
    ends = _edge_ends(page)
    assert ends and not [end for end in ends if ":observation:" in end or end.startswith("vault:")], ends
    assert page.console_errors == []


def test_a_node_drawn_before_keeps_its_name_in_the_edges_of_a_later_view(page: Page, server: str) -> None:
    page.open(server, focus=LIGHTHOUSE)
    drawn = set(page.state()["nodeIds"])
    observation = next(n for n in drawn if ":observation:" in n)
    page.hook("overview()")  # the observation is drawn no more
    page.settled()
    assert observation not in page.state()["nodeIds"]
    page.hook(f"show({LIGHTHOUSE!r})")
    page.page.locator("#details ul.edges").wait_for()
    ends = _edge_ends(page)
    assert observation not in ends and not [end for end in ends if ":observation:" in end], ends
