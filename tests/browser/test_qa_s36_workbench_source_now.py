"""The edge details panel says where a decided edge's line is now: `explain_edge` gives `source_now` (the line moved
or reworded, or gone from its note) and the panel showed only the evidence as it was decided on, as if the note
still said it."""
from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from .test_workbench import Page, _cli, _env, _start, _stop, _text, browser, page

__all__ = ["browser", "page"]  # the fixtures, shared with test_workbench.py


@pytest.fixture(scope="module")
def changed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int, int]]:
    """A server over a vault whose note changed after two decisions: (URL, the killed edge whose line moved, the
    validated link whose line is gone)."""
    root = tmp_path_factory.mktemp("workbench-source-now")
    env = _env(root)
    db, vault = root / "store.db", root / "vault"
    vault.mkdir()
    (vault / "Bob.md").write_text("# Bob\n", encoding="utf-8")
    note = vault / "Plan.md"
    note.write_text("# Plan\n\n- Risk: the zircon vendor may slip\n- See [[Bob]] about it\n", encoding="utf-8")
    _cli(db, env, "ingest", "--vault", str(vault))
    edges = _cli(db, env, "show", "note:Plan.md")["edges"]
    risk = int(next(e["id"] for e in edges if e["edge_type"] == "has_risk"))
    link = int(next(e["id"] for e in edges if e["edge_type"] == "links_to"))
    _cli(db, env, "kill-edge", str(risk), "--reason", "not a risk")
    _cli(db, env, "validate-edge", str(link))
    note.write_text("# Plan\n\nA new first line.\n\n- Risk: the zircon vendor may slip\n", encoding="utf-8")
    _cli(db, env, "ingest", "--vault", str(vault))
    proc, url = _start(_Store(db, env))
    yield url, risk, link
    _stop(proc)


class _Store:
    def __init__(self, db, env) -> None:  # (what `_start` reads of a store)
        self.db, self.env = db, env


def _explain(page: Page, url: str, edge: int) -> str:
    page.open(url)
    page.settled()
    page.page.evaluate(f"window.workbench.explain({json.dumps(edge)})")
    page.page.locator("#details blockquote").first.wait_for()
    return " ".join(_text(page, "#details").split())


def test_a_killed_edge_whose_line_moved_shows_where_it_is_now(page: Page, changed: tuple[str, int, int]) -> None:
    url, risk, _ = changed
    details = _explain(page, url, risk)
    assert "Risk: the zircon vendor may slip" in details  # the evidence it was killed on
    assert "now reads at line 5" in details
    assert page.console_errors == []


def test_a_validated_link_gone_from_its_note_says_so(page: Page, changed: tuple[str, int, int]) -> None:
    url, _, link = changed
    details = _explain(page, url, link)
    assert "See [[Bob]] about it" in details and "No longer in its note" in details
    assert page.console_errors == []
