"""An Obsidian ``%%`` that is never closed hides the rest of the note, as Obsidian shows it: it was read as text, so a
task or link below it was an open loop or an edge, and its words were found, that the note's reader never sees."""
from __future__ import annotations

from hypothesis import given, strategies as st

from mnemon.core.vault import parse_note
from mnemon.core.vault.parser import blank_comments

NOTE = ("# Plan\n\nThe quasar launch is on track. %% unsure about\n- [ ] call [[Ana]] about the quokka\n"
        "More private words\n")


def test_the_rest_of_the_note_after_an_unclosed_opener_is_hidden() -> None:
    note = parse_note("Plan.md", NOTE)
    assert note.tasks == () and note.wikilinks == ()
    assert [(w.code, w.line) for w in note.warnings] == [("unclosed_comment", 3)]
    [section] = note.sections
    assert "quokka" not in section.body and "unsure" not in section.body
    assert section.body.strip() == "The quasar launch is on track."


def test_an_opener_in_inline_code_or_a_fence_opens_nothing() -> None:
    note = parse_note("a.md", "# A\n\nUse `%%` to comment.\n\n```\n%%\n```\n\n- [ ] a task still here\n")
    assert [task.text for task in note.tasks] == ["a task still here"] and note.warnings == ()


@given(st.text(alphabet="ab%<!->\n", max_size=40))
def test_blanking_keeps_length_and_lines_and_nothing_after_an_unclosed_opener(text: str) -> None:
    blanked = blank_comments(text)
    assert len(blanked) == len(text) and blanked.count("\n") == text.count("\n")
    assert "%%" not in blanked  # (one left standing would open a comment: closed or not, it is blanked)
