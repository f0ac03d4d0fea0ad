"""The graph workbench in a real browser: `mnemon serve` as a subprocess over a store ingested from examples/vault,
driven by headless Debian Chromium through Playwright.

The page exposes `window.workbench` (state(), nodePoint(id), clickableLink(status), hitAt(x, y), emptyPoint(),
labelBoxes(), fitTransform()), which reads the live layout, view transform and what the last frame drew; the tests use
it to find where to click and to check what happened, and click with the real mouse. The review tests (validate,
weaken, kill an edge from the details panel) run against a second server started with `--allow-writes` over a store
of its own. Chromium comes from `scripts/browser.sh` (apt); Playwright's own browser downloads are never used. The
module skips when either is missing.
"""
from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote

import pytest

from conftest import EXAMPLE_VAULT

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip("no /usr/bin/chromium (bash scripts/browser.sh installs Debian's)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright cannot be imported (pip install -e '.[test]')",
                               exc_type=ImportError)

REPO = Path(__file__).resolve().parents[2]
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
LIGHTHOUSE = "note:Projects/lighthouse.md"
PROCUREMENT = "note:Areas/procurement.md"
BRAM = "note:People/bram-okafor.md"
TIMEOUT_MS = 15_000


# ---------------------------------------------------------------- the server


def _env(root: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MNEMON_")}
    env.update(HOME=str(root / "home"), XDG_CONFIG_HOME=str(root / "xdg"), MNEMON_HOME=str(root / "mnemon-home"),
               MNEMON_EMBED_PROVIDER="none", MNEMON_DAEMON="off",
               PYTHONPATH=os.pathsep.join(filter(None, [str(REPO / "src"), env.get("PYTHONPATH", "")])))
    return env


def _mnemon(*args: str) -> list[str]:
    return [sys.executable, "-m", "mnemon", *args]


def _cli(db: Path, env: dict[str, str], *args: str) -> Any:
    done = subprocess.run(_mnemon("--db", str(db), *args), env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(done.stdout)


@dataclass(frozen=True)
class Store:
    db: Path
    env: dict[str, str]
    killed_edge: int


def _ingested_store(tmp_path_factory: pytest.TempPathFactory, name: str) -> Store:
    """A store of its own in a fresh temp dir `name` (with its own HOME and config dir): the example vault, ingested
    through the CLI; no edge killed."""
    root = tmp_path_factory.mktemp(name)
    env = _env(root)
    db = root / "store.db"
    assert _cli(db, env, "ingest", "--vault", str(EXAMPLE_VAULT))["nodes"] > 0
    return Store(db, env, killed_edge=-1)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    """The example vault ingested, with one link between two notes killed (it must stay hidden unless asked for)."""
    ingested = _ingested_store(tmp_path_factory, "workbench")
    edges = _cli(ingested.db, ingested.env, "show", PROCUREMENT)["edges"]
    killed = int(next(e["id"] for e in edges if e["source_id"] == PROCUREMENT and e["target_id"] == BRAM))
    assert _cli(ingested.db, ingested.env, "kill-edge", str(killed), "--reason", "browser test")["status"] == "killed"
    return replace(ingested, killed_edge=killed)


def _start(store: Store, *extra: str, read_only: bool = True, port: int = 0) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(_mnemon("--db", str(store.db), "serve", "--port", str(port), *extra), env=store.env,
                            text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        ready, _, _ = select.select([proc.stdout], [], [], 0.2)
        if ready:
            line = proc.stdout.readline()
            if line:
                announced = json.loads(line)
                assert announced["ok"] is True and announced["read_only"] is read_only, announced
                return proc, str(announced["url"])
        if proc.poll() is not None:
            break
    if proc.poll() is None:
        proc.kill()
    _, stderr = proc.communicate(timeout=10)
    raise AssertionError(f"mnemon serve did not announce a URL: {stderr}")


def _stop(proc: subprocess.Popen[str]) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
    for stream in (proc.stdout, proc.stderr):
        if stream is not None:
            stream.close()


@pytest.fixture(scope="module")
def server(store: Store) -> Iterator[str]:
    proc, url = _start(store)
    yield url
    _stop(proc)


@pytest.fixture(scope="module")
def mounted_server(store: Store) -> Iterator[str]:
    proc, url = _start(store, "--mount", "/mnemon/")
    yield url
    _stop(proc)


@pytest.fixture(scope="module")
def writable_store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    """A store of its own for the server that takes writes (the review tests change it): the example vault, fresh."""
    return _ingested_store(tmp_path_factory, "workbench-writes")


@pytest.fixture(scope="module")
def writable_server(writable_store: Store) -> Iterator[str]:
    proc, url = _start(writable_store, "--allow-writes", read_only=False)
    yield url
    _stop(proc)


@pytest.fixture(scope="module")
def empty_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A store that holds nothing at all (created by `state backfill`, a write with nothing to write: a read-only
    server, like a read, does not create a database it is pointed at)."""
    root = tmp_path_factory.mktemp("workbench-empty")
    env = _env(root)
    db = root / "store.db"
    _cli(db, env, "state", "backfill")
    assert _cli(db, env, "status")["total_insights"] == 0
    proc, url = _start(Store(db, env, killed_edge=-1))
    yield url
    _stop(proc)


BULK_NOTES = 2000
QUIET = "note:Zeta/quiet-harbour-log.md"


@pytest.fixture(scope="module")
def big_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A vault of 2,001 notes where "Quiet Harbour Log" ranks last (no links, and its id sorts after the others):
    outside the 2,000 best-connected notes that are the most any overview draws."""
    root = tmp_path_factory.mktemp("workbench-big")
    vault = root / "vault"
    (vault / "Bulk").mkdir(parents=True)
    for i in range(BULK_NOTES):
        links = f"[[Bulk {(i + 1) % BULK_NOTES:04d}]] and [[Bulk {(i + 7) % BULK_NOTES:04d}]]"
        (vault / "Bulk" / f"bulk-{i:04d}.md").write_text(f"# Bulk {i:04d}\n\n- Linked to {links}\n", encoding="utf-8")
    (vault / "Zeta").mkdir()
    (vault / "Zeta" / "quiet-harbour-log.md").write_text("# Quiet Harbour Log\n", encoding="utf-8")
    env = _env(root)
    db = root / "store.db"
    assert _cli(db, env, "ingest", "--vault", str(vault))["notes_total"] == BULK_NOTES + 1
    proc, url = _start(Store(db, env, killed_edge=-1))
    yield url
    _stop(proc)


TOKEN = "s3cret"


@pytest.fixture(scope="module")
def token_server(store: Store) -> Iterator[str]:
    """The shared store (only read), behind a server that wants `Authorization: Bearer s3cret` on every API call."""
    proc, url = _start(replace(store, env={**store.env, "MNEMON_HTTP_TOKEN": TOKEN}))
    yield url
    _stop(proc)


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=30) as resp:
        return json.loads(resp.read())


# ---------------------------------------------------------------- the browser


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    # a home of its own: Chromium writes ~/.config/chromium (crash reports) and ~/.cache, here the runner's own
    env = {**os.environ, "HOME": str(tmp_path_factory.mktemp("chromium-home"))}
    with sync_api.sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, env=env)
        yield chromium
        chromium.close()


class Page:
    """A Playwright page plus what it logged and which requests it made."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.console_errors: list[str] = []
        self.requests: list[str] = []
        page.on("console", self._console)
        page.on("pageerror", lambda e: self.console_errors.append(f"pageerror: {e}"))
        page.on("request", lambda r: self.requests.append(r.url))
        page.set_default_timeout(TIMEOUT_MS)

    def _console(self, message: Any) -> None:
        if message.type == "error":
            self.console_errors.append(message.text)

    def state(self) -> dict[str, Any]:
        return dict(self.page.evaluate("window.workbench.state()"))

    def wait(self, predicate: str) -> None:
        """Wait until `predicate` (a JS expression over `s`, the workbench state) is true."""
        self.page.wait_for_function(f"() => {{ const s = window.workbench && window.workbench.state(); "
                                    f"return !!s && ({predicate}); }}", timeout=TIMEOUT_MS)

    def settled(self) -> dict[str, Any]:
        self.wait("!s.loading && s.settled && s.nodes > 0")
        return self.state()

    def open(self, url: str, focus: str | None = None) -> dict[str, Any]:
        """Load the workbench at `url` (focused on the node `focus`, when given) and wait until its graph is drawn
        and settled; returns the state then."""
        self.page.goto(url if focus is None else url + "#focus=" + quote(focus, safe=""))
        return self.settled()

    def enter(self, selector: str, text: str) -> None:
        """Fill the input `selector` with `text` and press Enter in it."""
        field = self.page.locator(selector)
        field.fill(text)
        field.press("Enter")

    def hook(self, call: str) -> Any:
        return self.page.evaluate(f"window.workbench.{call}")

    def graph_requests(self) -> list[str]:
        return [u for u in self.requests if "/api/graph" in u]


@contextmanager
def _new_page(browser: Any, width: int, height: int) -> Iterator[Page]:
    """A page in a browser context of its own (no cookies or storage shared with another test), closed afterwards."""
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        yield Page(context.new_page())
    finally:
        context.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Page]:
    """A fresh 1280 x 800 page, nothing loaded yet."""
    with _new_page(browser, 1280, 800) as fresh:
        yield fresh


@pytest.fixture
def narrow_page(browser: Any) -> Iterator[Page]:
    """A narrow screen: the side panel goes under the canvas, which is 600 pixels wide."""
    with _new_page(browser, 600, 700) as fresh:
        yield fresh


def _text(page: Page, selector: str) -> str:
    return str(page.page.locator(selector).inner_text())


# ---------------------------------------------------------------- tests


def test_the_page_loads_and_draws_the_overview(page: Page, server: str) -> None:
    s = page.open(server)
    assert s["nodes"] > 1 and s["links"] > 0
    assert s["focus"] is None
    # every node is on screen once framed, and the last frame drew them and their links
    assert s["drawn"]["nodes"] == s["nodes"]
    assert 0 < s["drawn"]["links"] <= s["visibleLinks"]
    assert s["drawn"]["labels"] > 0
    assert s["view"]["k"] > 0 and s["view"] == pytest.approx(page.hook("fitTransform()"))
    # the canvas really has a node's colour at that node's centre
    first = s["nodeIds"][0]
    point = page.hook(f"nodePoint({json.dumps(first)})")
    alpha = page.page.evaluate("""([x, y]) => {
        const c = document.getElementById('graph');
        const r = c.getBoundingClientRect();
        const ratio = c.width / r.width;
        return c.getContext('2d').getImageData(Math.round((x - r.left) * ratio), Math.round((y - r.top) * ratio), 1, 1).data[3];
    }""", [point["x"], point["y"]])
    assert alpha == 255
    assert s["status"]["kind"] != "error" and "Overview" in s["status"]["text"]
    assert any(u.endswith("/api/graph?max_nodes=150&max_links=600&include_candidates=true") for u in page.requests)
    assert "nodes" in _text(page, "#counts") and "store:" in _text(page, "#counts")
    assert page.page.locator("#legend li").count() >= 2
    assert page.console_errors == []


def test_search_lists_results_and_clicking_one_focuses_the_graph(page: Page, server: str) -> None:
    page.open(server)
    page.page.locator("#graph").focus()
    page.page.keyboard.press("/")  # the search box is one key away
    assert page.page.evaluate("document.activeElement.id") == "q"
    page.page.keyboard.type("deadline")
    page.page.keyboard.press("Enter")
    results = page.page.locator("#results li button")
    results.first.wait_for()
    assert results.count() >= 2
    target = str(results.first.get_attribute("data-id"))
    assert "deadline" in results.first.inner_text().lower()
    why = page.page.locator("#results li .why").first.inner_text()
    assert why.startswith("score ") and "keyword" in why  # why recall returned it, in its own signals
    before = len(page.graph_requests())
    results.first.click()
    page.wait(f"s.focus === {json.dumps(target)} && !s.loading && s.settled")
    focused = [u for u in page.graph_requests()[before:] if "focus=" in u]
    assert focused and unquote(focused[-1].split("focus=")[1].split("&")[0]) == target
    s = page.state()
    assert target in s["nodeIds"] and s["drawn"]["nodes"] == s["nodes"]
    # the same click showed the memory itself
    page.page.locator("#details h3").wait_for()
    assert "deadline" in _text(page, "#details").lower()
    assert page.page.url.endswith("#focus=" + quote(target, safe=""))
    assert page.console_errors == []


def test_a_search_longer_than_any_title_still_lists_what_recall_finds(page: Page, server: str) -> None:
    """The title lookup takes 500 characters and recall 2000: a longer search failed whole ("query must be at most
    500 characters") though recall had answers."""
    page.open(server)
    page.page.locator("#q").fill(("deadline supplier " * 40).strip())  # 719 characters
    page.page.locator("#q").press("Enter")
    results = page.page.locator("#results li button")
    results.first.wait_for()
    assert results.count() >= 1 and "deadline" in results.first.inner_text().lower()
    assert page.console_errors == []


def test_search_lists_a_note_by_its_title_and_picking_it_focuses_the_note(page: Page, server: str) -> None:
    """recall and search look in memory content only; the notes themselves are matched by title."""
    page.open(server)
    page.enter("#q", "lighthouse")
    # (not busy: "Searching for “lighthouse”…" has the same words while the last results still show)
    page.wait("s.status.kind !== 'busy' && s.status.text.includes('for “lighthouse”')")
    first = page.page.locator("#results li button").first
    assert first.get_attribute("data-id") == LIGHTHOUSE  # the note itself, before the memories that mention it
    assert "Lighthouse" in first.inner_text() and "Projects/lighthouse.md" in first.inner_text()
    assert page.page.locator("#results li button").count() > 1  # and the memories after it
    page.enter("#q", "harbour station")  # any case
    page.wait("s.status.kind !== 'busy' && s.status.text.includes('for “harbour station”')")
    # (the list is drawn after the status line: wait for it rather than read it at once)
    page.page.wait_for_function("id => document.querySelector('#results li button')?.getAttribute('data-id') === id",
                                arg="note:Projects/harbour-station.md", timeout=10_000)
    assert first.get_attribute("data-id") == "note:Projects/harbour-station.md"
    page.enter("#q", "Lighthouse")
    page.wait("s.status.kind !== 'busy' && s.status.text.includes('for “Lighthouse”')")
    first.click()
    page.wait(f"s.focus === {json.dumps(LIGHTHOUSE)} && !s.loading && s.settled")
    page.page.locator("#details h3").wait_for()
    assert _text(page, "#details h3") == "Lighthouse"
    assert _text(page, "#focus-label") == "Focus: Lighthouse"
    assert page.console_errors == []


def test_search_finds_a_note_no_overview_holds_and_picking_it_selects_and_focuses_it(page: Page,
                                                                                     big_server: str) -> None:
    widest = _get(big_server + "api/graph?max_nodes=2000&max_links=0")  # the most any overview draws
    assert len(widest["nodes"]) == 2000 and QUIET not in {n["id"] for n in widest["nodes"]}
    assert QUIET not in page.open(big_server)["nodeIds"]
    page.enter("#q", "quiet HARBOUR")
    page.wait("s.status.kind !== 'busy' && s.status.text.includes('for “quiet HARBOUR”')")
    first = page.page.locator("#results li button").first
    assert first.get_attribute("data-id") == QUIET
    assert "Quiet Harbour Log" in first.inner_text() and "Zeta/quiet-harbour-log.md" in first.inner_text()
    first.click()
    page.wait(f"s.focus === {json.dumps(QUIET)} && s.selected && s.selected.id === {json.dumps(QUIET)}"
              " && !s.loading && s.settled")
    s = page.state()
    assert s["selected"] == {"type": "node", "id": QUIET} and QUIET in s["nodeIds"] and s["drawn"]["nodes"] >= 1
    page.page.locator("#details h3").wait_for()
    assert _text(page, "#details h3") == "Quiet Harbour Log"
    assert _text(page, "#focus-label") == "Focus: Quiet Harbour Log"
    assert any("/api/find_nodes?query=quiet+HARBOUR" in u for u in page.requests)
    assert not any("max_nodes=2000" in u for u in page.requests)  # the server searches: no list of notes is fetched
    assert page.console_errors == []


def test_clicking_a_link_explains_it(page: Page, server: str, tmp_path: Path) -> None:
    s = page.open(server, focus=LIGHTHOUSE)
    assert s["focus"] == LIGHTHOUSE
    link = page.hook("clickableLink()")
    assert link is not None, "no link midpoint is free to click"
    page.page.mouse.click(link["x"], link["y"])
    page.wait(f"s.selected && s.selected.type === 'link' && s.selected.id === {link['id']}")
    page.page.locator("#details blockquote").wait_for()
    expected = _get(f"{server}api/explain_edge?id={link['id']}")["edge"]
    details = _text(page, "#details")
    assert expected["relation"] in details
    assert expected["source_path"] in details
    assert " ".join(expected["evidence_text"].split())[:60] in " ".join(details.split())
    assert expected["status"] in details and expected["truth_policy"] in details
    assert expected["relationship_type"]["category"] in details
    assert "audit events" in details.lower() and "created" in details
    assert "null" not in details and "undefined" not in details
    shot = tmp_path / "workbench.png"  # (a test's own: two runs, or two users, never share a file)
    page.page.screenshot(path=str(shot))
    assert shot.stat().st_size > 10_000
    assert page.console_errors == []


def test_links_both_ways_between_two_notes_are_drawn_apart_and_each_can_be_clicked(page: Page, server: str) -> None:
    s = page.open(server)
    drawn = _get(server + "api/graph?max_nodes=150&max_links=600&include_candidates=true")  # what the page loaded
    assert s["links"] == len(drawn["links"])
    ends = {(x["src"], x["dst"]): x["id"] for x in drawn["links"]}
    pairs = [(i, ends[(b, a)]) for (a, b), i in ends.items() if a < b and (b, a) in ends]
    assert pairs, "the example vault has links in both directions between notes"
    for pair in pairs:  # the first pair whose two midpoints are clear of nodes and other links
        points = [page.hook(f"linkMidpoint({i})") for i in pair]
        if all(page.hook(f"hitAt({p['x']}, {p['y']})") == {"link": i} for i, p in zip(pair, points, strict=True)):
            break
    else:
        raise AssertionError(f"no pair of opposite links can both be clicked: {pairs}")
    assert abs(points[0]["x"] - points[1]["x"]) + abs(points[0]["y"] - points[1]["y"]) > 6  # apart on screen
    for edge, point in zip(pair, points, strict=True):  # the real mouse picks each one
        page.page.mouse.click(point["x"], point["y"])
        page.wait(f"s.selected && s.selected.type === 'link' && s.selected.id === {edge}")
    assert page.console_errors == []


def test_clicking_a_node_shows_it_and_double_clicking_focuses_it(page: Page, server: str) -> None:
    s = page.open(server)
    target = LIGHTHOUSE if LIGHTHOUSE in s["nodeIds"] else s["nodeIds"][0]
    point = page.hook(f"nodePoint({json.dumps(target)})")
    page.page.mouse.click(point["x"], point["y"])
    page.wait(f"s.selected && s.selected.type === 'node' && s.selected.id === {json.dumps(target)}")
    page.page.locator("#details ul.edges").wait_for()
    details = _text(page, "#details")
    shown = _get(f"{server}api/show?id={quote(target, safe='')}")
    assert shown["title"] in details and "Projects/lighthouse.md" in details
    assert f"edges ({len(shown['edges'])})" in details.lower()
    assert "null" not in details and "undefined" not in details
    # an edge in the list explains that edge
    page.page.locator("#details ul.edges button").first.click()
    page.page.locator("#details blockquote").wait_for()
    assert page.state()["selected"]["type"] == "link"
    page.page.mouse.dblclick(point["x"], point["y"])
    page.wait(f"s.focus === {json.dumps(target)} && !s.loading && s.settled")
    assert page.state()["nodes"] > s["nodes"] or page.state()["focus"] == target
    assert page.console_errors == []


def test_wheel_zooms_drag_pans_and_double_click_on_empty_space_frames(page: Page, server: str) -> None:
    s = page.open(server)
    fit = s["view"]
    box = page.page.locator("#graph").bounding_box()
    centre = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.page.mouse.move(*centre)
    page.page.mouse.wheel(0, -400)
    page.wait(f"s.view.k > {fit['k']} * 1.3")
    assert page.state()["autoFrame"] is False
    page.page.mouse.wheel(0, 1200)
    page.wait(f"s.view.k < {fit['k']} * 0.6")
    zoomed = page.state()
    assert zoomed["drawn"]["nodes"] == zoomed["nodes"]
    # drag on empty space pans by the distance moved
    empty = page.hook("emptyPoint()")
    assert empty is not None
    page.page.mouse.move(empty["x"], empty["y"])
    page.page.mouse.down()
    page.page.mouse.move(empty["x"] + 60, empty["y"] + 30, steps=4)
    page.page.mouse.up()
    panned = page.state()["view"]
    assert panned["x"] == pytest.approx(zoomed["view"]["x"] + 60, abs=1)
    assert panned["y"] == pytest.approx(zoomed["view"]["y"] + 30, abs=1)
    # double-click on empty space frames the graph again
    empty = page.hook("emptyPoint()")
    page.page.mouse.dblclick(empty["x"], empty["y"])
    page.wait("s.autoFrame")
    framed = page.state()
    assert framed["view"] == pytest.approx(page.hook("fitTransform()"))
    assert framed["view"]["k"] == pytest.approx(fit["k"], rel=0.05)
    assert framed["focus"] is None  # framing is not focusing
    assert page.console_errors == []


def test_dragging_a_node_moves_it(page: Page, server: str) -> None:
    s = page.open(server)
    target = s["nodeIds"][0]
    start = page.hook(f"nodePoint({json.dumps(target)})")
    drop = page.hook("emptyPoint()")
    page.page.mouse.move(start["x"], start["y"])
    page.page.mouse.down()
    page.page.mouse.move(drop["x"], drop["y"], steps=8)
    held = page.hook(f"nodePoint({json.dumps(target)})")
    assert held["x"] == pytest.approx(drop["x"], abs=2) and held["y"] == pytest.approx(drop["y"], abs=2)
    page.page.mouse.up()
    page.settled()
    # no click came of it: a drag selects nothing
    assert page.state()["selected"] is None
    assert page.console_errors == []


def test_limits_feed_the_graph_request(page: Page, server: str) -> None:
    page.open(server)
    page.enter("#max-nodes", "4")
    page.wait("s.nodes === 4 && !s.loading")
    assert "max_nodes=4" in page.graph_requests()[-1]
    assert page.state()["truncated"] is True
    assert "cut by the limits" in _text(page, "#counts")
    assert page.console_errors == []


def test_a_folder_draws_the_overview_of_its_notes(page: Page, server: str) -> None:
    page.open(server)
    page.enter("#folder", "People")
    page.wait("s.requests.some((u) => u.includes('folder=People')) && !s.loading")
    ids = page.state()["nodeIds"]
    assert ids and all(i.startswith("note:People/") for i in ids)
    assert "People/" in _text(page, "#status")
    assert page.console_errors == []


def test_a_folder_without_notes_says_so_and_not_that_the_store_is_empty(page: Page, server: str) -> None:
    page.open(server)
    page.enter("#folder", "Peopl")  # a typo
    page.wait("s.requests.some((u) => u.includes('folder=Peopl&') || u.endsWith('folder=Peopl')) && !s.loading")
    page.wait("s.nodes === 0")
    empty = page.page.locator("#empty")
    assert empty.is_visible()
    assert empty.inner_text() == "No notes under Peopl/ (folder names are case-sensitive)."
    assert _text(page, "#status") == "No notes under Peopl/ (folder names are case-sensitive)."
    assert "ingest" not in empty.inner_text() and "Overview" not in _text(page, "#status")
    assert page.console_errors == []


def test_an_empty_store_keeps_its_hint_after_an_earlier_error(page: Page, empty_server: str) -> None:
    page.page.goto(empty_server + "#focus=no-such-node")  # (no such node: the overview is drawn instead)
    page.wait("s.focus === null && !s.loading && s.status.kind !== 'busy'")
    assert page.state()["status"]["text"].startswith("No node “no-such-node” in this store")
    empty = page.page.locator("#empty")
    page.page.locator("#overview").click()
    page.wait("s.focus === null && !s.loading && s.status.kind !== 'busy' && s.status.kind !== 'error'")
    assert empty.is_visible()
    assert empty.inner_text() == "Nothing to draw: the store has no graph yet (mnemon ingest --vault PATH)."
    assert all("404" in m for m in page.console_errors)


def test_a_plain_note_shows_its_kind_once(page: Page, server: str) -> None:
    page.open(server)
    page.page.evaluate(f"window.workbench.show({json.dumps(PROCUREMENT)})")  # a note whose type is just "note"
    page.page.locator("#details h3").wait_for()
    badges = page.page.locator("#details h3 + div .badge").all_inner_texts()
    assert badges == ["note", "context"]
    page.page.evaluate(f"window.workbench.show({json.dumps(LIGHTHOUSE)})")  # a typed note keeps its type
    page.wait("document.querySelector('#details h3') && document.querySelector('#details h3').textContent === "
              "'Lighthouse'")
    assert page.page.locator("#details h3 + div .badge").all_inner_texts()[:2] == ["note", "project"]
    assert page.console_errors == []


def _answer_prompts(page: Page, answers: list[str]) -> list[str]:
    """Answer each window.prompt with the next of `answers` (Cancel once they run out); returns the prompts seen."""
    asked: list[str] = []

    def on_dialog(dialog: Any) -> None:
        asked.append(dialog.message)
        if len(asked) <= len(answers):
            dialog.accept(answers[len(asked) - 1])
        else:
            dialog.dismiss()

    page.page.on("dialog", on_dialog)
    return asked


def test_a_token_is_asked_for_once_per_load(page: Page, token_server: str) -> None:
    asked = _answer_prompts(page, [TOKEN])
    s = page.open(token_server)  # three requests start at once and each gets a 401 first
    page.wait("s.writable !== null && s.status.kind !== 'busy'")
    page.wait("document.getElementById('counts').textContent.includes('store:')")
    assert len(asked) == 1 and "MNEMON_HTTP_TOKEN" in asked[0]
    assert s["nodes"] > 0 and page.state()["errors"] == []
    page.page.reload()  # kept for the tab
    page.settled()
    assert len(asked) == 1


def test_a_wrong_token_is_forgotten_and_the_next_action_asks_again(page: Page, token_server: str) -> None:
    asked = _answer_prompts(page, ["wrong", TOKEN])
    page.page.goto(token_server)
    page.wait("s.writable !== null && s.errors.length === 3")  # server info, graph and status: all refused
    assert len(asked) == 1
    s = page.state()
    assert {e["code"] for e in s["errors"]} == {"unauthorized"} and s["nodes"] == 0
    assert page.page.evaluate("sessionStorage.getItem('mnemon-token')") is None
    page.page.locator("#overview").click()  # the next action asks once more, and the right token works
    page.settled()
    assert len(asked) == 2
    assert page.page.evaluate("sessionStorage.getItem('mnemon-token')") == TOKEN


def test_an_api_error_shows_in_the_status_line(page: Page, server: str) -> None:
    page.open(server)  # (a focus the store lacks is no error: the page draws what it has)
    page.enter("#folder", "..")
    page.wait("s.status.kind === 'error'")
    status = page.page.locator("#status")
    assert "invalid_input" in status.inner_text() and "'..'" in status.inner_text()
    assert "error" in str(status.get_attribute("class"))
    assert page.state()["errors"][-1]["code"] == "invalid_input"
    # the error is the 400 the browser logs, not a script error
    assert page.console_errors and all("400" in m for m in page.console_errors)
    # and the page recovers
    page.page.locator("#folder").fill("")
    page.page.locator("#overview").click()
    s = page.settled()
    assert s["status"]["kind"] != "error" and s["focus"] is None


def test_the_page_works_under_a_mount_prefix(page: Page, mounted_server: str) -> None:
    assert mounted_server.endswith("/mnemon/")
    s = page.open(mounted_server.rstrip("/"))  # the server redirects to the slash, under which relative URLs work
    assert page.page.url.startswith(mounted_server)
    assert s["drawn"]["nodes"] == s["nodes"] > 0
    link = page.hook("clickableLink()")
    page.page.mouse.click(link["x"], link["y"])
    page.page.locator("#details blockquote").wait_for()
    origin = mounted_server[: mounted_server.index("/mnemon/")]
    fetched = [u for u in page.requests if u.startswith(origin)]
    assert fetched and all(u.startswith(mounted_server) or u == mounted_server.rstrip("/") for u in fetched), fetched
    assert any("/mnemon/api/explain_edge?id=" in u for u in fetched)
    for module in ("workbench.js", "state.js", "api.js", "view.js", "draw.js", "input.js", "layout.js", "details.js"):
        assert any(u.endswith("/mnemon/static/" + module) for u in fetched), module
    assert page.console_errors == []


def test_killed_links_are_hidden_until_asked_for(page: Page, server: str, store: Store) -> None:
    killed_edge = store.killed_edge
    s = page.open(server)
    assert PROCUREMENT in s["nodeIds"] and BRAM in s["nodeIds"]
    assert killed_edge not in [i for ids in s["linksByStatus"].values() for i in ids]
    assert "include_killed" not in page.graph_requests()[-1]
    page.page.locator("#show-killed").check()
    page.wait(f"!s.loading && s.linksByStatus.killed.includes({killed_edge})")
    assert "include_killed=true" in page.graph_requests()[-1]
    assert "killed" in _text(page, "#legend")
    page.settled()
    page.page.evaluate(f"window.workbench.explain({killed_edge})")
    page.page.locator("#details blockquote").wait_for()
    assert "killed" in _text(page, "#details")
    page.page.locator("#show-candidates").uncheck()
    page.wait("!s.loading && s.linksByStatus.candidate.length === 0")
    assert "include_candidates=false" in page.graph_requests()[-1]
    assert page.console_errors == []


TOUCH = """([events]) => {
    const canvas = document.getElementById('graph');
    for (const [type, id, x, y] of events) {
        canvas.dispatchEvent(new PointerEvent(type, {pointerId: id, pointerType: 'touch', isPrimary: id === 1,
            clientX: x, clientY: y, bubbles: true, cancelable: true, button: 0, buttons: type === 'pointerup' ? 0 : 1}));
    }
}"""


def test_pinch_zooms_and_double_tap_frames(page: Page, server: str) -> None:
    """Touch gestures, as the pointer events a touch screen sends (Playwright has no multi-touch of its own)."""
    s = page.open(server)
    k = s["view"]["k"]
    box = page.page.locator("#graph").bounding_box()
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.page.evaluate(TOUCH, [[["pointerdown", 1, cx - 50, cy], ["pointerdown", 2, cx + 50, cy],
                                ["pointermove", 2, cx + 100, cy], ["pointermove", 2, cx + 150, cy],
                                ["pointerup", 2, cx + 150, cy], ["pointerup", 1, cx - 50, cy]]])
    pinched = page.state()["view"]
    assert pinched["k"] == pytest.approx(2 * k, rel=0.01)
    assert page.state()["autoFrame"] is False
    empty = page.hook("emptyPoint()")
    x, y = empty["x"], empty["y"]
    page.page.evaluate(TOUCH, [[["pointerdown", 3, x, y], ["pointerup", 3, x, y],
                                ["pointerdown", 4, x + 3, y], ["pointerup", 4, x + 3, y]]])
    framed = page.state()
    assert framed["autoFrame"] is True and framed["view"] == pytest.approx(page.hook("fitTransform()"))
    assert page.console_errors == []


FRAMED = """async () => {
    // the view changes at once, its frame is drawn at the next animation frame: wait for that, then read it all at once
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    const canvas = document.getElementById('graph').getBoundingClientRect();
    const box = (id) => {
        const e = document.getElementById(id);
        return e.hidden || !e.offsetParent ? null : e.getBoundingClientRect();
    };
    const focus = box('focus-label');
    const legend = box('legend');
    const ctx = document.createElement('canvas').getContext('2d');
    ctx.font = '12px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
    const wb = window.workbench;
    const boxes = wb.labelBoxes();
    return {
        state: wb.state(), fit: wb.fitTransform(), boxes,
        top: focus ? focus.bottom - canvas.top : 0,
        bottom: legend ? legend.top - canvas.top : canvas.height,
        widths: boxes.map((b) => ctx.measureText(b.text).width),
        points: wb.state().nodeIds.map((id) => wb.nodePoint(id))
            .map((p) => ({ x: p.x - canvas.left, y: p.y - canvas.top })),
    };
}"""


def _assert_framed_with_labels(page: Page) -> dict[str, Any]:
    """Every label the last frame drew lies inside the canvas, between the focus label and the legend, at its first
    place; every node centre does too; and the boxes are the measured text, not a guess."""
    framed = page.page.evaluate(FRAMED)
    s, boxes = framed["state"], framed["boxes"]
    assert s["autoFrame"] and s["view"] == pytest.approx(framed["fit"])
    w, h, top, bottom = s["canvas"]["w"], s["canvas"]["h"], framed["top"], framed["bottom"]
    assert 0 <= top < bottom <= h
    assert len(boxes) == s["drawn"]["labels"] >= 8
    for box, width in zip(boxes, framed["widths"], strict=True):
        assert box["x1"] - box["x0"] == pytest.approx(width, abs=0.01), box
        assert 0 <= box["x0"] and box["x1"] <= w and top <= box["y0"] and box["y1"] <= bottom, (box, w, top, bottom)
    assert s["drawn"]["outside"] == 0  # no label was pushed off its first place by an edge
    for point in framed["points"]:
        assert 0 < point["x"] < w and top < point["y"] < bottom, point
    return s


def test_framing_leaves_room_for_the_labels_on_a_narrow_screen(narrow_page: Page, server: str) -> None:
    page = narrow_page
    page.open(server, focus=LIGHTHOUSE)
    s = _assert_framed_with_labels(page)
    assert s["canvas"]["w"] == 600 and s["focus"] == LIGHTHOUSE
    assert s["drawn"]["nodes"] == s["nodes"]
    assert page.page.locator("#focus-label").is_visible() and page.page.locator("#legend").is_visible()
    # zoomed in, labels meet the edges; the Frame button makes room for them again
    box = page.page.locator("#graph").bounding_box()
    page.page.mouse.move(box["x"] + box["width"] * 0.7, box["y"] + box["height"] / 2)
    page.page.mouse.wheel(0, -600)
    page.wait(f"!s.autoFrame && s.view.k > {s['view']['k']} * 1.5 && s.drawn.outside > 0")
    page.page.locator("#frame").click()
    page.wait(f"s.autoFrame && Math.abs(s.view.k - {s['view']['k']}) < 1e-9")
    _assert_framed_with_labels(page)
    # the overview too
    page.page.locator("#overview").click()
    page.wait("s.focus === null && !s.loading && s.settled && s.nodes > 0")
    _assert_framed_with_labels(page)
    assert page.console_errors == []


# ---------------------------------------------------------------- reviewing edges (a server that allows writes)


def _explain(store: Store, edge: int) -> dict[str, Any]:
    """The edge as the CLI explains it, straight from the store (not through the page)."""
    return dict(_cli(store.db, store.env, "explain-edge", str(edge)))


def _open_link(page: Page, url: str, status: str) -> dict[str, Any]:
    """Load the graph around Lighthouse, wait until the page knows whether the server takes writes, and click a link
    of this status: its details (and their review controls, if any) are in the panel."""
    page.open(url, focus=LIGHTHOUSE)
    page.wait("s.writable !== null")
    link = page.hook(f"clickableLink({json.dumps(status)})")
    assert link is not None and link["status"] == status, f"no {status} link is free to click"
    page.page.mouse.click(link["x"], link["y"])
    page.wait(f"s.selected && s.selected.type === 'link' && s.selected.id === {link['id']}")
    page.page.locator("#details blockquote").wait_for()
    return dict(link)


def test_a_read_only_server_shows_no_review_controls(page: Page, server: str) -> None:
    assert _get(server + "api")["read_only"] is True
    link = _open_link(page, server, "candidate")
    assert page.state()["writable"] is False
    assert page.page.locator("#details .review").count() == 0
    assert page.page.locator("#details button[data-action]").count() == 0
    assert page.page.locator("#review-reason").count() == 0
    details = _text(page, "#details")
    assert "Validate" not in details and "Kill" not in details and "Weaken" not in details
    assert not any(u.startswith("POST ") for u in page.state()["requests"])
    assert any(u.endswith("/api") for u in page.requests)  # it asked, once
    assert sum(u.endswith("/api") for u in page.requests) == 1
    assert link["id"] > 0 and page.console_errors == []


def test_validating_a_candidate_link_with_the_keyboard(page: Page, writable_server: str,
                                                       writable_store: Store, tmp_path: Path) -> None:
    link = _open_link(page, writable_server, "candidate")
    edge = link["id"]
    assert page.state()["writable"] is True
    review = page.page.locator("#details .review")
    assert review.get_by_role("button", name="Validate").is_visible()
    assert review.get_by_role("button", name="Weaken").is_visible()
    assert review.get_by_role("button", name="Kill…").is_visible()
    reason = "seen in the kickoff notes"
    page.page.locator("#review-reason").focus()
    page.page.keyboard.type(reason)
    review.scroll_into_view_if_needed()
    page.page.locator("aside.side").screenshot(path=str(tmp_path / "wb-review.png"))
    assert (tmp_path / "wb-review.png").stat().st_size > 5_000
    page.page.keyboard.press("Tab")  # a real button, next in the tab order
    assert page.page.evaluate("document.activeElement.dataset.action") == "validate"
    page.page.keyboard.press("Enter")
    page.wait(f"s.status.text.startsWith('Validated edge {edge}') && s.linksByStatus.active.includes({edge})")
    s = page.state()
    assert s["status"]["kind"] == "info" and edge not in s["linksByStatus"]["candidate"]
    assert "POST api/validate_edge" in s["requests"]
    # the store says so, not just the page
    explained = _explain(writable_store, edge)
    assert explained["edge"]["status"] == "active" and explained["edge"]["validated"] is True
    events = [ev for ev in explained["debug_log"] if ev["event"] == "validated"]
    assert events and events[-1]["actor"] == "user"
    assert reason in json.dumps(events[-1]) or explained["edge"]["metadata"]["validated_reason"] == reason
    # the panel was refreshed in place: the new status, the event, the reason; no Validate once validated
    page.page.locator("#details .badge.active").first.wait_for()
    details = _text(page, "#details")
    assert "validated by user" in details and reason in details
    assert page.page.locator("#details button[data-action='validate']").count() == 0
    assert page.page.evaluate("document.activeElement.dataset.action") == "weaken"  # the focus stayed in the panel
    assert page.console_errors == []


def test_killing_a_link_asks_first_then_it_goes(page: Page, writable_server: str, writable_store: Store) -> None:
    link = _open_link(page, writable_server, "candidate")
    edge = link["id"]
    before = page.state()
    kill = page.page.locator("#details button[data-action='kill']")
    kill.click()  # the first press only asks
    assert kill.inner_text() == "Confirm kill"
    assert page.page.locator("#review-confirm-hint").is_visible()
    for other in ("validate", "weaken"):  # while it asks, the other actions step aside
        assert not page.page.locator(f"#details button[data-action='{other}']").is_visible()
    assert _explain(writable_store, edge)["edge"]["status"] == "candidate"
    page.page.keyboard.press("Escape")  # changed their mind
    assert kill.inner_text() == "Kill…" and not page.page.locator("#review-confirm-hint").is_visible()
    assert page.page.locator("#details button[data-action='validate']").is_visible()
    assert page.page.evaluate("document.activeElement.dataset.action") == "kill"
    page.page.locator("#review-reason").fill("not a real relation")
    kill.click()
    page.page.locator("#details .review").get_by_role("button", name="Cancel").wait_for()
    kill.click()
    page.wait(f"s.status.text.startsWith('Killed edge {edge}') && s.linksByStatus.killed.includes({edge})")
    explained = _explain(writable_store, edge)
    assert explained["edge"]["status"] == "killed"
    killed = [ev for ev in explained["debug_log"] if ev["event"] == "killed"]
    assert killed and killed[-1]["thinking"]["reason"] == "not a real relation"
    # gone from the drawing: not visible, not drawn, not under the pointer where it was
    page.wait(f"s.visibleLinks === {before['visibleLinks'] - 1} && s.drawn.links === {before['drawn']['links'] - 1}")
    s = page.state()
    assert edge not in s["linksByStatus"]["active"] + s["linksByStatus"]["candidate"]
    assert page.hook(f"hitAt({link['x']}, {link['y']})") != {"link": edge}
    assert "Tick “killed” to see it" in s["status"]["text"]
    page.page.locator("#details .badge.killed").first.wait_for()
    assert page.page.locator("#details button[data-action]").count() == 0
    assert "not a real relation" in _text(page, "#details")
    # ticked, the tombstone is drawn again
    page.page.locator("#show-killed").check()
    page.wait(f"!s.loading && s.linksByStatus.killed.includes({edge})")
    assert page.console_errors == []


def test_weakening_and_a_failed_review_action(page: Page, writable_server: str, writable_store: Store) -> None:
    link = _open_link(page, writable_server, "candidate")
    edge = link["id"]
    strength = _explain(writable_store, edge)["edge"]["strength"]
    page.page.locator("#details button[data-action='weaken']").click()
    page.wait(f"s.status.text.startsWith('Weakened edge {edge}')")
    assert _explain(writable_store, edge)["edge"]["strength"] == pytest.approx(strength * 0.5, abs=1e-3)
    assert "weakened by weaken-edge" in _text(page, "#details")
    # killed behind the page's back: weakening it now fails, and says so where errors go
    _cli(writable_store.db, writable_store.env, "kill-edge", str(edge), "--reason", "elsewhere")
    page.page.locator("#details button[data-action='weaken']").click()
    page.wait("s.status.kind === 'error'")
    s = page.state()
    assert s["errors"][-1]["what"] == "Weaken" and s["errors"][-1]["code"] == "invalid_input"
    assert "Weaken failed (invalid_input)" in _text(page, "#status")
    assert page.page.locator("#details button[data-action='weaken']").is_enabled()  # ready to try again
    assert page.console_errors and all("400" in m for m in page.console_errors)  # the browser logs the 400


def _inside(page: Page, node_id: str) -> bool:
    point = page.hook(f"nodePoint({json.dumps(node_id)})")
    box = page.page.locator("#graph").bounding_box()
    return bool(point) and box["x"] < point["x"] < box["x"] + box["width"] and \
        box["y"] < point["y"] < box["y"] + box["height"]


def test_the_keyboard_alone_selects_nodes_and_focuses_the_graph(page: Page, server: str) -> None:
    s = page.open(server)
    canvas = page.page.locator("#graph")
    canvas.focus()
    page.page.keyboard.press("n")  # the first node: the best-connected note
    page.wait("s.selected && s.selected.type === 'node'")
    first = page.state()["selected"]["id"]
    assert first == s["nodeIds"][0] or _get(f"{server}api/show?id={quote(first, safe='')}")["kind"] == "note"
    page.page.locator("#details ul.edges").wait_for()  # its details, as a click shows them
    title = _get(f"{server}api/show?id={quote(first, safe='')}")["title"]
    assert title in _text(page, "#announce")  # said to a screen reader, which cannot see the ring
    page.page.keyboard.press("n")
    page.wait(f"s.selected && s.selected.id !== {json.dumps(first)}")
    page.page.keyboard.press("p")
    page.wait(f"s.selected && s.selected.id === {json.dumps(first)}")
    # Shift+arrow: the nearest node that way
    x0 = page.hook(f"nodePoint({json.dumps(first)})")["x"]
    page.page.keyboard.press("Shift+ArrowRight")
    page.wait(f"s.selected && s.selected.id !== {json.dumps(first)}")
    right = page.state()["selected"]["id"]
    assert page.hook(f"nodePoint({json.dumps(right)})")["x"] > x0
    page.page.keyboard.press("Shift+ArrowLeft")
    page.wait(f"s.selected && s.selected.id !== {json.dumps(right)}")
    assert page.hook(f"nodePoint({json.dumps(page.state()['selected']['id'])})")["x"] < \
        page.hook(f"nodePoint({json.dumps(right)})")["x"]
    # Enter focuses the graph on the selected node, and the keyboard stays on the canvas
    chosen = page.state()["selected"]["id"]
    page.page.keyboard.press("Enter")
    page.wait(f"s.focus === {json.dumps(chosen)} && !s.loading")
    assert page.page.evaluate("document.activeElement && document.activeElement.id") == "graph"
    assert page.console_errors == []


def test_a_node_picked_with_the_keyboard_is_brought_into_view(page: Page, server: str) -> None:
    s = page.open(server)
    page.page.locator("#graph").focus()
    for _ in range(8):
        page.page.keyboard.press("+")  # zoomed in as far as it goes: most nodes are off screen
    page.wait(f"s.view.k > {s['view']['k']} * 2.5")
    assert sum(not _inside(page, n) for n in s["nodeIds"]) > len(s["nodeIds"]) / 2
    seen = set()
    for _ in range(min(6, s["nodes"])):
        page.page.keyboard.press("n")
        page.wait("s.selected && s.selected.type === 'node'" + "".join(
            f" && s.selected.id !== {json.dumps(i)}" for i in seen))
        picked = page.state()["selected"]["id"]
        seen.add(picked)
        assert _inside(page, picked), picked
    assert page.console_errors == []


def test_labels_in_a_dense_focus_do_not_cover_other_nodes(page: Page, server: str) -> None:
    s = page.open(server, focus=LIGHTHOUSE)
    assert s["nodes"] > 20  # the note, its sections, headings, bullets, tags, dates and the notes it links
    over = [o for o in s["drawn"]["overNodes"] if o["label"] != LIGHTHOUSE]  # (the focus's label is always drawn)
    assert over == [], f"labels drawn over other nodes: {over}"
    assert s["drawn"]["labels"] >= s["nodes"] * 0.8  # shortened where needed, not dropped
    assert page.console_errors == []
