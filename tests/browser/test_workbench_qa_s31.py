"""The workbench as a user exploring their graph uses it: the keyboard, Unicode and right-to-left titles, long ids, a
token with accents, and searches answered out of order. Each test failed before its fix:

* Ctrl/Cmd/Alt with -, 0 or f on the focused canvas zoomed or framed the graph and stole the browser's page zoom
  and find;
* opening an edge or a node from the details panel's own buttons replaced the pressed button, so the keyboard focus
  fell to <body> and the next Tab started again at the top of the page;
* a title cut for its label could end in half an emoji (a lone surrogate, drawn as a replacement box); a Hebrew or
  Arabic title was laid out left to right, on the canvas and in the panel ("!" and "…" on the wrong side);
* an edge to a node with a long id (`vault:…:section:…`, no space to wrap at) overflowed the side panel;
* a token with a character above U+00FF made fetch refuse every request ("cannot reach the server"), with no way
  back short of closing the tab, and one with é was sent as Latin-1, never matching the server's UTF-8;
* a slow search answered after a newer one replaced its results; a long query filled the status line.
"""
from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest

from .test_workbench import (LIGHTHOUSE, Page, Store, _answer_prompts, _cli, _env, _new_page, _start, _stop,
                             browser, server, store)

__all__ = ["browser", "server", "store"]  # the fixtures, shared with test_workbench.py

HEBREW = "note:עברית/shalom.md"
EMOJI = "note:Projects/emoji.md"
UNICODE_TOKEN = "sécret€"
LONE_SURROGATE = r"/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/"


@pytest.fixture(scope="module")
def unicode_store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    """Four notes: an emoji title whose 30-character label would end inside an emoji, a Hebrew and an Arabic title
    ending in punctuation, and a very long Latin title; linked to each other."""
    root = tmp_path_factory.mktemp("workbench-unicode")
    vault = root / "vault"
    (vault / "Projects").mkdir(parents=True)
    (vault / "עברית").mkdir()
    long_title = "Quarterly planning " + "very long title word " * 40
    (vault / "Projects" / "long.md").write_text(
        f"# {long_title}\n\n- Needs follow up with [[Emoji note]] and [[שלום עולם!]]\n", encoding="utf-8")
    (vault / "Projects" / "emoji.md").write_text(
        "# Emoji note " + "x" * 15 + "🎉" * 10 + "\n\n- Deadline 2026-05-01 for [[Quarterly planning]]\n",
        encoding="utf-8")
    (vault / "עברית" / "shalom.md").write_text(
        "# שלום עולם!\n\n- צריך לעקוב אחרי הספק (follow up)\n- [[Emoji note]]\n", encoding="utf-8")
    (vault / "Projects" / "arabic.md").write_text("# مرحبا بالعالم؟\n\n- موعد نهائي مهم\n", encoding="utf-8")
    env = _env(root)
    db = root / "store.db"
    assert _cli(db, env, "ingest", "--vault", str(vault))["notes_total"] == 4
    return Store(db, env, killed_edge=-1)


@pytest.fixture(scope="module")
def unicode_server(unicode_store: Store) -> Iterator[str]:
    proc, url = _start(unicode_store)
    yield url
    _stop(proc)


@pytest.fixture(scope="module")
def unicode_token_server(unicode_store: Store) -> Iterator[str]:
    proc, url = _start(Store(unicode_store.db, {**unicode_store.env, "MNEMON_HTTP_TOKEN": UNICODE_TOKEN}, -1))
    yield url
    _stop(proc)


@pytest.fixture
def page(browser: Any) -> Iterator[Page]:
    with _new_page(browser, 1280, 800) as fresh:
        yield fresh


def test_ctrl_and_alt_keys_on_the_canvas_are_left_to_the_browser(page: Page, server: str) -> None:
    page.open(server)
    page.page.evaluate("""() => { window.prevented = [];
        document.addEventListener('keydown', (e) => {
            if (!['Control', 'Alt', 'Meta', 'Shift'].includes(e.key)) window.prevented.push(e.defaultPrevented);
        }); }""")
    canvas = page.page.locator("#graph")
    canvas.focus()
    before = page.state()["view"]
    for key in ("Control+Minus", "Control+0", "Control+f", "Alt+0", "Meta+Equal"):
        canvas.press(key)
    time.sleep(0.2)
    assert page.state()["view"] == before
    assert page.page.evaluate("window.prevented") == [False] * 5
    canvas.press("Minus")  # without a modifier the key is still the canvas's
    page.wait(f"s.view.k < {before['k']}")


def test_opening_an_edge_from_the_panel_keeps_the_keyboard_in_the_panel(page: Page, server: str) -> None:
    page.open(server)
    page.hook(f"show({json.dumps(LIGHTHOUSE)})")
    page.page.locator("#details ul.edges button").first.wait_for()
    page.page.locator("#details ul.edges button").first.focus()
    page.page.keyboard.press("Enter")
    page.wait("s.selected && s.selected.type === 'link'")
    page.page.locator("#details blockquote, #details h4").first.wait_for()
    page.page.wait_for_function("() => document.activeElement && document.activeElement.tagName === 'H3'")
    assert page.page.evaluate("document.getElementById('details').contains(document.activeElement)")
    page.page.keyboard.press("Tab")  # the next stop is the panel's first button (the edge's source), not the header
    assert page.page.evaluate("document.getElementById('details').contains(document.activeElement)")
    page.page.keyboard.press("Enter")
    page.wait("s.selected && s.selected.type === 'node'")
    page.page.wait_for_function("() => document.activeElement && document.activeElement.tagName === 'H3' && "
                                "document.getElementById('details').contains(document.activeElement)")
    assert page.console_errors == []


def test_unicode_and_right_to_left_titles_and_long_ids(page: Page, unicode_server: str) -> None:
    s = page.open(unicode_server)
    assert HEBREW in s["nodeIds"] and EMOJI in s["nodeIds"]
    boxes = {b["id"]: b for b in page.hook("labelBoxes()")}
    assert page.page.evaluate(f"(texts) => texts.filter((t) => {LONE_SURROGATE}.test(t))",
                              [b["text"] for b in boxes.values()]) == []
    assert boxes[EMOJI]["text"].endswith("…")
    assert boxes[HEBREW]["dir"] == "rtl" and boxes["note:Projects/arabic.md"]["dir"] == "rtl"
    assert boxes[EMOJI]["dir"] == "ltr"
    page.hook(f"show({json.dumps(HEBREW)})")
    page.page.locator("#details ul.edges").wait_for()
    heading = page.page.locator("#details h3")
    assert heading.inner_text() == "שלום עולם!"
    assert heading.evaluate("(e) => getComputedStyle(e).direction") == "rtl"
    # the edges to the note's own bullets name them by id: they wrap inside the panel instead of running past it
    assert page.page.evaluate("""() => { const side = document.querySelector('.side');
        return side.scrollWidth <= side.clientWidth; }""")
    page.page.mouse.dblclick(*page.hook(f"nodePoint({json.dumps(HEBREW)})").values())
    page.wait(f"s.focus === {json.dumps(HEBREW)} && !s.loading")
    label = page.page.locator("#focus-label bdi")
    assert label.inner_text() == "שלום עולם!" and label.evaluate("(e) => getComputedStyle(e).direction") == "rtl"
    assert page.console_errors == []


def test_a_token_with_accents_and_a_euro_sign_is_sent_as_utf8(page: Page, unicode_token_server: str) -> None:
    asked = _answer_prompts(page, [UNICODE_TOKEN])
    s = page.open(unicode_token_server)
    page.wait("s.writable !== null && s.status.kind !== 'busy'")
    assert len(asked) == 1 and s["nodes"] == 4
    assert page.state()["errors"] == []
    page.page.reload()  # kept for the tab, and still accepted
    page.settled()
    assert len(asked) == 1 and page.state()["errors"] == []


def test_a_slow_search_answered_after_a_newer_one_does_not_replace_it(page: Page, server: str) -> None:
    page.open(server)

    # the recall for "battery" answers 1.5 s late (delayed in the page: a Playwright route handler that sleeps would
    # hold every other request too, and keep the answers in order)
    page.page.evaluate("""() => { const fetchNow = window.fetch;
        window.fetch = (url, init) => String(url).includes('api/recall?query=battery')
            ? new Promise((done) => setTimeout(done, 1500)).then(() => fetchNow(url, init)) : fetchNow(url, init); }""")
    page.enter("#q", "battery")
    page.enter("#q", "Ada")
    page.page.wait_for_function("() => document.getElementById('results-title').textContent.includes('Ada')")
    time.sleep(2.0)  # the battery search has been answered by now
    assert "Ada" in page.page.locator("#results-title").text_content()
    assert "Ada" in page.state()["status"]["text"] and "battery" not in page.state()["status"]["text"]
    assert page.page.locator("#results li button").count() >= 1


def test_a_long_query_keeps_the_status_line_to_a_line(page: Page, server: str) -> None:
    page.open(server)
    query = "supplier " * 55  # 495 characters: within what find_nodes takes
    page.enter("#q", query)
    page.wait("s.status.kind !== 'busy'")
    status = page.state()["status"]
    assert status["kind"] == "info" and len(status["text"]) < 200, status
    assert page.page.locator("#status").evaluate("(e) => e.getBoundingClientRect().height") < 40

