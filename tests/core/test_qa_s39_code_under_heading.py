"""An indented code block right under a heading, no blank line between, is code: a heading ends its block, and only
a paragraph keeps an indented line as its own text (CommonMark). '# H' over '    - [ ] x' was read as an open loop,
its '    [[Example]]' as a links_to edge to a placeholder ('mnemon show note:Code.md' listed both)."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from hypothesis import given, settings, strategies as st

from mnemon.core.vault.parser import parse_note


def test_code_directly_under_an_atx_heading() -> None:
    note = parse_note("a.md", "# H\n    - [ ] x in code\n    [[Example]] #example\n\n## Next ##\n\tmore [[Tabbed]]\n"
                              "\n- [ ] the real task [[Real]]\n")
    assert [task.text for task in note.tasks] == ["the real task [[Real]]"]
    assert [link.target for link in note.wikilinks] == ["Real"]
    assert note.tags == ()
    assert [heading.text for heading in note.headings] == ["H", "Next"]


def test_code_directly_under_a_setext_heading_or_a_break() -> None:
    note = parse_note("a.md", "Title\n=====\n    - [ ] under setext\n\nText\n\n---\n    - [ ] under a break\n")
    assert note.tasks == ()


def test_a_paragraph_or_a_list_item_keeps_its_indented_line() -> None:
    note = parse_note("a.md", "# H\n\nA paragraph\n    - [ ] continues it\n\n- item\n  # heading in the item\n"
                              "    - [ ] the item's content\n")
    assert [task.text for task in note.tasks] == ["continues it", "the item's content"]


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=1, max_value=6), st.sampled_from(["    ", "\t", "  \t", "     "]),
       st.text(alphabet="ab [x]#@.", min_size=1, max_size=20))
def test_nothing_indented_under_a_heading_is_extracted(level: int, indent: str, words: str) -> None:
    note = parse_note("a.md", f"{'#' * level} Heading\n{indent}- [ ] {words} [[Hidden]]\n\nAfter [[Shown]].\n")
    assert note.tasks == () and [link.target for link in note.wikilinks] == ["Shown"]


def test_ingest_reads_it_as_code(cli_run: Callable[..., tuple[int, Any]], tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "Code.md").write_text("# H\n    - [ ] x\n    [[Example]]\n", encoding="utf-8")
    assert cli_run(["ingest", "--vault", vault, "--no-embed"])[0] == 0
    code, shown = cli_run(["show", "note:Code.md"])
    assert code == 0
    assert sorted({edge["edge_type"] for edge in shown["edges"]}) == ["has_section"]
