"""A note opening with a '---' block that YAML reads as a list or as text, not as `key: value` properties, keeps its
text: '---' over 'Intro paragraph about giraffes.' and '---' (a thematic break and a setext heading, as CommonMark
renders it) or over '- first point about zebras' was dropped from the note as front matter, so 'mnemon recall
giraffes' found nothing, and the warning ('front matter is a str, not a mapping') did not say the text was lost.
Now its lines are the note's text, and the warning, naming the file in 'mnemon ingest', says so."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pytest

from mnemon.core.vault.frontmatter import split_front_matter
from mnemon.core.vault.parser import parse_note


@pytest.mark.parametrize(("block", "what"), [
    (["- first point about zebras", "- second point"], "a list"),
    (["Intro paragraph about giraffes."], "text"),
    (["Intro paragraph about giraffes.", "", "It goes on over two paragraphs."], "text"),
    (["42"], "a number"),
    (["2024-03-05"], "a date"),
])
def test_the_block_is_the_note_s_text_with_a_warning(block: list[str], what: str) -> None:
    lines = ["---", *block, "---", "Body text."]
    front, body_start, warnings = split_front_matter(lines)
    assert front is None and body_start == 0
    assert [(w.code, w.line) for w in warnings] == [("front_matter_not_mapping", 1)]
    assert what in warnings[0].message and "the note's text" in warnings[0].message
    note = parse_note("n.md", "\n".join(lines))
    said = " ".join(section.body for section in note.sections) + " ".join(h.text for h in note.headings)
    assert all(line in said for line in block)


def test_a_listed_block_s_items_are_bullets() -> None:
    note = parse_note("n.md", "---\n- Waiting on the reply from legal\n- second point\n---\nBody.\n")
    assert [item.text for item in note.list_items] == ["Waiting on the reply from legal", "second point"]
    assert note.front_matter is None and note.title == "n"


def test_properties_and_empty_front_matter_stay_front_matter() -> None:
    assert split_front_matter(["---", "title: x", "---"])[0] is not None
    assert split_front_matter(["---", "---", "Body."])[0:2] == (split_front_matter(["---", "---"])[0], 2)
    assert split_front_matter(["---", "# a YAML comment", "---"])[2] == []


def test_ingest_keeps_the_text_and_names_the_file(cli_run: Callable[..., tuple[int, Any]], tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "Scalar.md").write_text("---\nIntro paragraph about giraffes.\n---\nBody text.\n", encoding="utf-8")
    code, out = cli_run(["ingest", "--vault", vault, "--no-embed"])
    assert code == 0
    assert [(w["path"], w["code"]) for w in out["warnings"]] == [("Scalar.md", "front_matter_not_mapping")]
    code, found = cli_run(["recall", "giraffes"])
    assert code == 0 and [r["insight"]["source"] for r in found["results"]] == ["vault:Scalar.md"]
