"""A pack item cut to its budget shows the lines holding its matched words (after a leading "…"), but its `line`
pointed at the section's heading only: in a long note the item said line 3 for text from line 3,005, and an agent
sent to the note read the wrong part. A section item now also says `text_line`, the line its shown text starts
at (the section's first line under its heading when not cut, or the first line of the part shown)."""
from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, strategies as st

from mnemon.app.memory import Mnemon

FILLER = [f"Entry {i} about ordinary filler text that nobody needs." for i in range(300)]


def _ingest(mem: Mnemon, tmp_path: Path, text: str) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "Big.md").write_text(text, encoding="utf-8")
    mem.ingest(str(vault), embed=False)


def _section(pack: dict) -> dict:
    [item] = [i for i in pack["items"] if i["id"].startswith("vault:Big.md:section:")]
    return item


def test_a_cut_item_says_the_line_its_shown_text_starts_at(mem: Mnemon, tmp_path: Path) -> None:
    lines = ["# Big", "", "## Log", "", *FILLER, "The zephyrquartz incident happened here.", *FILLER[:20]]
    _ingest(mem, tmp_path, "\n".join(lines) + "\n")
    item = _section(mem.retrieve("zephyrquartz incident", budget=600))
    assert item["truncated"] is True and item["text"].startswith("…The zephyrquartz incident")
    assert item["line"] == 3  # the section (its heading)
    assert item["text_line"] == lines.index("The zephyrquartz incident happened here.") + 1


def test_an_item_shown_whole_says_where_its_text_starts(mem: Mnemon, tmp_path: Path) -> None:
    _ingest(mem, tmp_path, "# Big\n\n## Log\n\n\nThe zephyrquartz incident happened here.\n")
    item = _section(mem.retrieve("zephyrquartz incident"))
    assert "truncated" not in item
    assert (item["line"], item["text_line"]) == (3, 6)


def test_a_cut_item_shown_from_its_head_starts_at_its_first_line(mem: Mnemon, tmp_path: Path) -> None:
    lines = ["# Big", "", "## Log", "", "The zephyrquartz incident happened here.", *FILLER]
    _ingest(mem, tmp_path, "\n".join(lines) + "\n")
    item = _section(mem.retrieve("zephyrquartz incident", budget=600))
    assert item["truncated"] is True and item["text_line"] == 5


@given(st.lists(st.sampled_from(["", "   ", "## Head", "Plain words here.", "- a bullet", "Setext", "---", "===",
                                 "# Top", "more text"]), max_size=25))
def test_a_sections_body_line_is_where_its_text_starts_in_the_note(lines: list[str]) -> None:
    from mnemon.app.vault.plan import plan_note

    plan = plan_note("N.md", "\n".join(lines).encode(), 0.0, ())
    for node in plan.nodes:
        meta = json.loads(node.metadata)
        if meta.get("memory_kind") == "section" and "body_line" in meta:
            assert lines[meta["body_line"] - 1].strip() == node.content.split("\n")[0].strip()
            assert meta["body_line"] >= meta["line"]
