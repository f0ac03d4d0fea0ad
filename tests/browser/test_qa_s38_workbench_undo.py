"""The thirty-eighth session on the workbench, in the real browser: what was forgotten, and bringing it back.

Before it the page had no forget, nothing listed what `forget` or auto-prune had removed, and a memory removed since
the page listed it (a search result, an address with its #focus=) said only "Details failed (not_found): …" or
"No node “…” in this store". Now, on a server started with `--allow-writes`:

- a memory's details have Forget…, whose first press shows what the forget would do (the edges it would retire,
  from `forget` with dry_run) beside Confirm forget and Cancel; only the confirming press forgets;
- the Forgotten panel lists the memories forget and auto-prune removed whose removal still holds, each with Undo
  (`forget` with undo), or why it cannot come back; an Undo refused says why (a text remembered again since);
- a removed memory's details say when and by what, with Undo where it can come back.

A read-only server shows the list and the removed details, and no Forget or Undo.
"""
from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from typing import Any

import pytest

from .test_workbench import (LIGHTHOUSE, Page, Store, _cli, _ingested_store, _mnemon, _start, _stop, _text, browser,
                             page)

__all__ = ["browser", "page"]  # the fixtures, shared with test_workbench.py

ALPHA = "Alice manages the Berlin office since March"
BETA = "Bob reports to Alice in the Berlin office"
HOSTILE = '<img src=x onerror="window.pwned=1"> Carol keeps the <b>keys</b>'


def _show(store: Store, node_id: str) -> Any:
    done = subprocess.run(_mnemon("--db", str(store.db), "show", node_id), env=store.env, capture_output=True,
                          text=True, timeout=120)
    return json.loads(done.stdout)


def _remember(store: Store, text: str, **env: str) -> str:
    done = subprocess.run(_mnemon("--db", str(store.db), "remember", text, "--no-diff"),
                          env={**store.env, **env}, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return str(json.loads(done.stdout)["id"])


@pytest.fixture
def own_store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    """The example vault and two agent memories in a row (linked by their source's backbone), for each test: they
    forget and bring back."""
    return _ingested_store(tmp_path_factory, "workbench-undo")


@pytest.fixture
def writable(own_store: Store) -> Iterator[str]:
    proc, url = _start(own_store, "--allow-writes", read_only=False)
    yield url
    _stop(proc)


@pytest.fixture
def read_only(own_store: Store) -> Iterator[str]:
    proc, url = _start(own_store)
    yield url
    _stop(proc)


def _errors(page: Page) -> list[str]:
    """What the console said, but the 404 of a `show` of a removed memory and the 409 of an Undo refused (the
    browser logs every 4xx answer)."""
    return [e for e in page.console_errors if "status of 404" not in e and "status of 409" not in e]


def _open_details(page: Page, url: str, node_id: str) -> None:
    page.open(url, focus=LIGHTHOUSE)
    page.wait("s.writable !== null")
    page.page.evaluate("id => window.workbench.show(id)", node_id)
    page.wait(f"s.selected && s.selected.id === {json.dumps(node_id)}")
    page.page.locator("#details h3").wait_for()


def test_forget_shows_what_it_would_retire_first_and_undo_brings_it_back(page: Page, own_store: Store,
                                                                         writable: str) -> None:
    alpha = _remember(own_store, ALPHA)
    beta = _remember(own_store, BETA)
    edges = {e["id"] for e in _show(own_store, beta)["edges"]}
    assert len(edges) >= 1
    _open_details(page, writable, beta)
    forget = page.page.locator("#details button[data-action='forget']")
    forget.click()  # the first press asks the server what a forget would do: nothing is written
    hint = page.page.locator("#forget-confirm-hint")
    hint.wait_for()
    assert forget.inner_text() == "Confirm forget"
    assert f"It would retire {len(edges)} edge" in hint.inner_text()
    shown = {int(x) for x in hint.locator("li[data-edge]").evaluate_all("els => els.map(e => e.dataset.edge)")}
    assert shown == edges and alpha in hint.inner_text()  # the other end, by its title (or id, when not drawn)
    assert "null" not in hint.inner_text()
    assert _show(own_store, beta)["id"] == beta
    page.page.keyboard.press("Escape")  # changed their mind: the preview goes, the keyboard stays on Forget…
    assert forget.inner_text() == "Forget…" and not hint.is_visible()
    assert page.page.evaluate("document.activeElement.dataset.action") == "forget"
    assert _show(own_store, beta)["id"] == beta
    page.page.keyboard.press("Enter")
    page.page.locator("#details button", has_text="Confirm forget").wait_for()
    page.page.keyboard.press("Enter")
    page.wait("s.status.text.startsWith('Forgot') && s.status.kind === 'info'")
    assert "retired" in _text(page, "#status")
    gone = _show(own_store, beta)["error"]
    assert gone["code"] == "not_found" and gone["details"]["removed_by"] == "forget"
    requests = page.state()["requests"]
    assert requests.count("POST api/forget") == 3  # two previews, one forget
    # what is left of it: when it went, and its Undo
    removed = page.page.locator("#details p.removed")
    removed.wait_for()
    assert "This memory was forgotten at" in removed.inner_text() and "UTC" in removed.inner_text()
    assert BETA in _text(page, "#details h3")  # still named by its text, which `show` no longer answers
    undo = page.page.locator("#details button[data-action='undo']")
    assert undo.is_visible()
    undo.click()
    page.wait("s.status.text.startsWith('Brought back') && s.status.kind === 'info'")
    assert f"with {len(edges)} edge" in _text(page, "#status")
    back = _show(own_store, beta)
    assert back["id"] == beta and {e["id"] for e in back["edges"]} == edges
    page.page.locator("#details button[data-action='forget']").wait_for()  # its details again, as a live memory
    assert BETA in _text(page, "#details h3")
    assert _errors(page) == []


def test_the_forgotten_panel_lists_removals_and_undoes_them(page: Page, own_store: Store, writable: str) -> None:
    pruned = _remember(own_store, ALPHA)  # the oldest agent memory: the one a cap of 1 takes
    forgotten = _remember(own_store, HOSTILE)
    twin = _remember(own_store, BETA)
    _cli(own_store.db, own_store.env, "forget", forgotten)
    _cli(own_store.db, own_store.env, "forget", twin)
    # auto-pruned at a cap of 1 agent memory (vault rows are not counted), no grace period
    cap = {"MNEMON_MAX_INSIGHTS": "1", "MNEMON_AUTO_PRUNE_MIN_AGE": "0"}
    _remember(own_store, "Dora books the ferry to Texel", **cap)
    assert _show(own_store, pruned)["error"]["details"]["removed_by"] == "prune"
    page.open(writable)
    page.wait("s.writable === true")
    page.page.locator("#forgotten-open").click()
    items = page.page.locator("#forgotten li[data-id]")
    items.first.wait_for()
    ids = items.evaluate_all("els => els.map(e => e.dataset.id)")
    assert ids == [pruned, twin, forgotten]  # newest first
    assert page.page.evaluate("document.activeElement.id") == "forgotten-title"
    row = page.page.locator(f"#forgotten li[data-id='{forgotten}']")
    assert HOSTILE in row.inner_text()  # the text as text: no element made of it
    assert page.page.evaluate("window.pwned") is None and row.locator("img, b").count() == 0
    pruned_row = page.page.locator(f"#forgotten li[data-id='{pruned}']")
    assert "auto-pruned at the store’s cap of 1" in pruned_row.inner_text()
    # remembered again behind the page's back: its Undo is refused, and says why
    _remember(own_store, BETA)
    page.page.locator(f"#forgotten li[data-id='{twin}'] button[data-action='undo']").click()
    page.wait("s.status.kind === 'error' && s.status.text.includes('(duplicate)')")
    assert "remembered again" in page.page.locator(f"#forgotten li[data-id='{twin}'] .review-hint").inner_text()
    assert _show(own_store, twin)["error"]["code"] == "not_found"
    # an Undo that works: back in the store, gone from the list, its details shown
    page.page.locator(f"#forgotten li[data-id='{forgotten}'] button[data-action='undo']").focus()
    page.page.keyboard.press("Enter")
    page.wait("s.status.text.startsWith('Brought back') && s.status.kind === 'info'")
    assert _show(own_store, forgotten)["id"] == forgotten
    page.page.locator(f"#forgotten li[data-id='{forgotten}']").wait_for(state="detached")
    page.wait(f"s.selected && s.selected.id === {json.dumps(forgotten)}")
    page.page.locator("#details button[data-action='forget']").wait_for()
    assert HOSTILE in _text(page, "#details") and page.page.evaluate("window.pwned") is None
    # the duplicate's row now says it cannot come back, with no Undo (the list was refreshed)
    refused = page.page.locator(f"#forgotten li[data-id='{twin}']")
    assert refused.locator("button[data-action='undo']").count() == 0
    assert "remembered again" in refused.inner_text()
    assert _errors(page) == []


def test_a_forgotten_vault_line_is_listed_with_an_undo_the_next_ingest_finishes(page: Page, own_store: Store,
                                                                                writable: str) -> None:
    # (session 41: undo marks its note, and the next ingest reads it again and brings the line back)
    shown = _show(own_store, LIGHTHOUSE)
    bullet = next(e["target_id"] for e in shown["edges"] if str(e["target_id"]).startswith("vault:"))
    _cli(own_store.db, own_store.env, "forget", bullet)
    page.open(writable)
    page.wait("s.writable === true")
    page.page.locator("#forgotten-open").click()
    row = page.page.locator(f"#forgotten li[data-id='{bullet}']")
    row.wait_for()
    undo = row.locator("button[data-action='undo']")
    assert undo.count() == 1
    undo.click()
    page.wait("s.status.text.includes('ingest') && s.status.kind === 'info'")
    assert "Brought back" not in _text(page, "#status")  # nothing is back before the note is read
    assert _errors(page) == []


def test_an_address_naming_a_forgotten_memory_says_when_with_undo(page: Page, own_store: Store,
                                                                  writable: str) -> None:
    gone = _remember(own_store, BETA)
    _cli(own_store.db, own_store.env, "forget", gone)
    page.page.goto(writable + "#focus=" + gone)
    page.wait("!s.loading && s.nodes > 0 && s.status.kind !== 'busy'")
    status = _text(page, "#status")
    assert "was forgotten" in status and "No node" not in status, status
    page.page.locator("#details p.removed").wait_for()
    page.page.locator("#details button[data-action='undo']").click()
    page.wait("s.status.text.startsWith('Brought back')")
    assert _show(own_store, gone)["id"] == gone


def test_a_read_only_server_lists_what_was_forgotten_with_no_forget_or_undo(page: Page, own_store: Store,
                                                                            read_only: str) -> None:
    live = _remember(own_store, ALPHA)
    gone = _remember(own_store, BETA)
    _cli(own_store.db, own_store.env, "forget", gone)
    _open_details(page, read_only, live)
    assert page.state()["writable"] is False
    assert page.page.locator("#details button[data-action='forget']").count() == 0
    page.page.evaluate("id => window.workbench.show(id)", gone)
    page.page.locator("#details p.removed").wait_for()
    assert page.page.locator("#details button[data-action='undo']").count() == 0
    assert "--allow-writes" in _text(page, "#details")
    page.page.locator("#forgotten-open").click()
    page.page.locator(f"#forgotten li[data-id='{gone}']").wait_for()
    assert page.page.locator("#forgotten button[data-action='undo']").count() == 0
    assert not any(r.startswith("POST ") for r in page.state()["requests"])
    assert _errors(page) == []


def test_forgetting_what_was_forgotten_since_shows_when_with_undo(page: Page, own_store: Store,
                                                                  writable: str) -> None:
    """Forgotten elsewhere (the CLI, another tab) after its details were shown: Forget… said "Forget preview failed
    (not_found): …", the details still offering to forget a memory that was gone."""
    gone = _remember(own_store, BETA)
    _open_details(page, writable, gone)
    _cli(own_store.db, own_store.env, "forget", gone)
    page.page.locator("#details button[data-action='forget']").click()
    page.wait("s.status.text.includes('was already forgotten')")
    assert "failed" not in _text(page, "#status")
    page.page.locator("#details p.removed").wait_for()
    assert BETA in _text(page, "#details h3")
    assert page.page.locator("#details button[data-action='forget']").count() == 0
    page.page.locator("#details button[data-action='undo']").click()
    page.wait("s.status.text.startsWith('Brought back')")
    assert _show(own_store, gone)["id"] == gone
