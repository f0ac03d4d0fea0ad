"""A '<pre>' (or '<script>', '<style>', '<textarea>') never closed is HTML to the end of the note, as CommonMark
renders it, so nothing below it is read: 'mnemon ingest --vault V' of '# Pre' over '<pre>', 'some code' and
'- [ ] hidden task' answered "warnings": [] where an unclosed code fence is warned of (unclosed_code_fence, with its
line). It now says so: unclosed_html_block, at the opening tag's line."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from hypothesis import given, settings, strategies as st

from mnemon.core.vault.parser import parse_note


def test_an_unclosed_pre_is_warned_of_at_its_line() -> None:
    note = parse_note("a.md", "# Pre\n\n<pre>\nsome code\n\n- [ ] hidden task\n[[Hidden]]\n")
    assert note.tasks == () and note.wikilinks == ()
    assert [(w.code, w.line) for w in note.warnings] == [("unclosed_html_block", 3)]
    assert "<pre>" in note.warnings[0].message


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["pre", "script", "style", "textarea", "PRE"]), st.booleans())
def test_a_closed_one_is_not_warned_of(tag: str, same_line: bool) -> None:
    block = f"<{tag}>x</{tag}>\n" if same_line else f"<{tag}>\nx\n\n</{tag}>\n"
    note = parse_note("a.md", f"# A\n{block}- [ ] shown\n")
    assert note.warnings == () and [task.text for task in note.tasks] == ["shown"]
    assert [w.code for w in parse_note("a.md", f"# A\n{block}<{tag}>\nrest\n").warnings] == ["unclosed_html_block"]


def test_a_block_level_tag_left_open_is_not_warned_of() -> None:
    # a <div> block ends at a blank line whether or not '</div>' follows: nothing is hidden past it
    note = parse_note("a.md", "<div>\nx\n\n- [ ] shown\n")
    assert note.warnings == () and [task.text for task in note.tasks] == ["shown"]


def test_ingest_prints_the_warning(cli_run: Callable[..., tuple[int, Any]], tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "Pre.md").write_text("# Pre\n\n<pre>\nsome code\n\n- [ ] hidden task\n", encoding="utf-8")
    code, answer = cli_run(["ingest", "--vault", vault, "--no-embed"])
    assert code == 0
    assert [(w["path"], w["code"], w["line"]) for w in answer["warnings"]] == [("Pre.md", "unclosed_html_block", 3)]
