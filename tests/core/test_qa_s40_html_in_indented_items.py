"""An HTML block inside a list item whose lines are indented four spaces or more is HTML, as CommonMark reads it: a
list item's content is indented relative to the item ('- item' over a blank line and '    <div>' is the item's
'  <div>'). The parser looked only at lines indented up to three spaces, so '    <div>' over '    - [ ] hidden task'
and '    [[Hidden]]' made an open loop and an edge the note's reader sees as HTML."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from hypothesis import given, settings, strategies as st

from mnemon.core.vault.parser import parse_links, parse_note


def _tasks(text: str) -> list[str]:
    return [task.text for task in parse_note("a.md", text).tasks]


def _links(text: str) -> list[str]:
    found = [link.target for link in parse_note("a.md", text).wikilinks]
    assert found == [link.target for link in parse_links("a.md", text).wikilinks]
    return found


def test_a_block_in_an_item_s_second_paragraph_is_html() -> None:
    note = "- item\n\n    <div>\n    - [ ] hidden task [[Hidden]]\n    </div>\n\n- [ ] shown\n"
    assert _tasks(note) == ["shown"]
    assert _links(note) == []


def test_a_block_interrupting_an_item_s_paragraph_ends_where_the_item_does() -> None:
    assert _links("- item\n    <div>\n    [[Hidden]]\n[[Out]]\n") == ["Out"]


def test_a_block_after_a_blank_line_goes_back_to_markdown_after_the_next() -> None:
    assert _links("10. item\n\n    <div>\n    [[Hidden]]\n\n    [[AfterBlank]]\n") == ["AfterBlank"]


def test_a_pre_in_an_item_runs_to_its_closing_tag() -> None:
    note = "- item\n\n    <pre>\n    - [ ] in pre\n\n    [[InPre]]\n    </pre>\n- [ ] after\n"
    assert _tasks(note) == ["after"] and _links(note) == []
    assert parse_note("a.md", note).warnings == ()


def test_a_nested_item_opening_with_a_block() -> None:
    assert _tasks("- a\n    - <div>\n      - [ ] hidden\n- [ ] shown\n") == ["shown"]
    assert _links("- a\n  - b\n    <div>\n    [[Hidden]]\n") == []


def test_a_lone_tag_cannot_interrupt_the_item_s_paragraph() -> None:
    assert _links("- item\n    <span>\n    [[Shown]]\n") == ["Shown"]
    assert _links("- item\n\n    <span>\n    [[Hidden]]\n") == []


def test_what_is_no_item_s_block_stays_markdown() -> None:
    assert _links("Para\n    <div>\n    [[Continued]]\n") == ["Continued"]  # (a paragraph's continuation)
    assert _links("- a\nlazy\n\n    <div>\n    [[Hidden]]\n") == []  # (a lazy line is still the item's)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["- ", "* ", "1. ", "10) ", "-   "]), st.integers(min_value=4, max_value=7),
       st.sampled_from(["div", "table", "details", "p"]), st.booleans())
def test_an_item_s_indented_block_hides_its_lines(marker: str, indent: int, tag: str, blank: bool) -> None:
    content = len(marker)
    if not content <= indent <= content + 3:  # (deeper is the item's indented code, shallower leaves the item)
        indent = content + 2
    pad = " " * indent
    note = f"{marker}item\n{chr(10) if blank else ''}{pad}<{tag}>\n{pad}- [ ] hidden [[Hidden]]\n\n- [ ] shown\n"
    assert _tasks(note) == ["shown"] and _links(note) == []


def test_ingest_makes_no_open_loop_or_edge_from_it(cli_run: Callable[..., tuple[int, Any]], tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "Q.md").write_text("# Items\n\n- item\n\n    <div>\n    - [ ] hidden task\n    [[Hidden]]\n"
                                "    </div>\n", encoding="utf-8")
    assert cli_run(["ingest", "--vault", vault, "--no-embed"])[0] == 0
    code, shown = cli_run(["show", "note:Q.md"])
    assert code == 0
    assert sorted({edge["edge_type"] for edge in shown["edges"]}) == ["has_section"]


def test_an_item_s_marker_inside_a_block_is_the_block_s_text() -> None:
    # '  - <span>' is the '<table>' block's text, no nested item: the '<details>' below is item one's, and ends where
    # it does ('- words' was hidden in it)
    assert _links("- <table>\n  - <span>\n\n   <details>\n- words [[Shown]]\n") == ["Shown"]
    assert _links("-   </pre>\n      <span>\n    1. </div>\n\n        <table>\n       - words [[Shown]]\n") == [
        "Shown"]


def test_a_lone_tag_right_below_a_block_opens_one() -> None:
    # (no paragraph is open below an HTML block, so the lone tag is not a paragraph's text)
    assert _links("10. <pre>\n       </pre>\n       <span>\n    10. <span> [[Hidden]]\n") == []
    assert _links("<pre>\nx\n</pre>\n<span>\n[[Hidden]]\n") == []


def test_a_line_below_a_block_is_no_lazy_continuation_of_a_nested_item() -> None:
    assert _links("- <details>\n\n  1. <pre>\n  words [[Shown]]\n      </div> [[Continued]]\n") == [
        "Shown", "Continued"]


def test_a_marker_past_every_item_s_content_is_no_item() -> None:
    assert _links("> text\n    * text\n      * <details> [[Continued]]\n") == ["Continued"]
