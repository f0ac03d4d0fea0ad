"""A section longer than the pack's budget was cut to its first characters: `retrieve "boiler service code"` on a
long journal section returned its opening lines — none of the words it was found by — and an agent answered from
the wrong part of the note. The pack now shows the part of a shortened item that holds the matched words (from the
start of the line holding most of them, marked by a leading "…"), and its head when that already holds them."""
from __future__ import annotations

from pathlib import Path

import pytest

from mnemon.app.memory import Mnemon

FILLER = [f"Walked to the harbour number {i} and watched the ferries under grey skies." for i in range(60)]


@pytest.fixture
def journal(mem: Mnemon, tmp_path: Path) -> Mnemon:
    vault = tmp_path / "vault"
    vault.mkdir()
    lines = ["# Journal", "", *FILLER, "The boiler service code is 7741, written on the meter cupboard.",
             *FILLER[:5]]
    (vault / "Journal.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    mem.ingest(str(vault), embed=False)
    return mem


def _section(pack: dict) -> dict:
    [item] = [i for i in pack["items"] if i["id"].startswith("vault:Journal.md:section:")]
    return item


def test_a_shortened_section_shows_the_lines_it_was_found_by(journal: Mnemon) -> None:
    item = _section(journal.retrieve("boiler service code", budget=600))
    assert item["truncated"] is True
    assert "The boiler service code is 7741" in item["text"]
    assert item["text"].startswith("…The boiler service code")  # from the start of its line, the cut marked
    assert len(item["title"]) + len(item["text"]) <= 600


def test_a_shortened_section_found_by_its_head_keeps_its_head(journal: Mnemon) -> None:
    item = _section(journal.retrieve("harbour ferries grey skies", budget=600))
    assert item["truncated"] is True
    assert item["text"].startswith(FILLER[0]) and item["text"].endswith("…")


def test_the_window_is_the_head_when_it_holds_the_terms_or_none_are_given() -> None:
    from mnemon.core.text import window_with

    text = "alpha beta\n" + "filler words\n" * 50 + "gamma delta\n"
    assert window_with(text, 30, frozenset({"alpha"})) == (text[:30], 0)
    assert window_with(text, 30, frozenset()) == (text[:30], 0)
    start = text.index("gamma")
    assert window_with(text, 30, frozenset({"gamma"})) == (text[start:start + 30], start)
    # the line holding the most terms wins over an earlier line holding fewer
    both = "one gamma\n" + "x\n" * 40 + "gamma delta\n"
    assert window_with(both, 12, frozenset({"gamma", "delta"}))[1] == both.index("gamma delta")
