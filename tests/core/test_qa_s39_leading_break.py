"""A note that opens with a lone '---' over text is a thematic break, not front matter left open: 'mnemon ingest
--vault V' warned front_matter_unterminated for '---' / 'Some text after a break.', which no reader would call front
matter. The warning stays when a `key: value` line follows the '---', as front matter's would."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from hypothesis import given, settings, strategies as st

from mnemon.core.vault.parser import parse_note


def test_a_break_over_text_is_no_front_matter_left_open() -> None:
    for text in ("---\nSome text after a break.\n\nMore: text.\n", "---\n\n# Heading\n- item: one\n", "---\n",
                 "---\n- [ ] a task: soon\n", "---\n> quoted: text\n"):
        note = parse_note("a.md", text)
        assert note.warnings == () and note.front_matter is None, text


def test_a_key_value_line_below_keeps_the_warning() -> None:
    for text in ("---\ntitle: Oops\ntags: [a]\n\nbody\n", "---\n\naliases:\n  - x\n", "---\n\"my key\": 1\n"):
        note = parse_note("a.md", text)
        assert [w.code for w in note.warnings] == ["front_matter_unterminated"], text


@settings(max_examples=60, deadline=None)
@given(st.from_regex(r"[A-Za-z][A-Za-z0-9_-]{0,12}", fullmatch=True), st.text(alphabet="ab 1-", max_size=10))
def test_any_simple_key_looks_like_front_matter(key: str, value: str) -> None:
    note = parse_note("a.md", f"---\n{key}: {value}\nbody text\n")
    assert [w.code for w in note.warnings] == ["front_matter_unterminated"]


def test_ingest_warns_only_for_the_open_front_matter(cli_run: Callable[..., tuple[int, Any]], tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "Break.md").write_text("---\nSome text after a break.\n", encoding="utf-8")
    (vault / "Open.md").write_text("---\ntitle: Oops\n\nbody text\n", encoding="utf-8")
    code, answer = cli_run(["ingest", "--vault", vault, "--no-embed"])
    assert code == 0
    assert [(w["path"], w["code"]) for w in answer["warnings"]] == [("Open.md", "front_matter_unterminated")]
