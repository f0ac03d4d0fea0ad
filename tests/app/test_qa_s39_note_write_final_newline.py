"""QA round (session 39): a note `note write` writes ends with exactly one line break, as the other edits leave one.

`mnemon note write Inbox/a.md --content "x"` wrote the one byte `x`: a Markdown file without a final newline (the
dry-run diff said `\\ No newline at end of file`), and the next append had to add the break before its own text,
while `upsert-section`, `add-bullet` and `note daily append` end what they write with one. Now every mode ends the
content with one line break in the note's style (trailing breaks of the content become one); content that is blank
(empty, or only spaces and breaks) is written as given, and `note replace` edits exactly the text it names."""
from __future__ import annotations

import tempfile
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mnemon.app import notes

CLOCK = lambda: datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)  # noqa: E731


@pytest.mark.parametrize("mode", notes.WRITE_MODES)
@pytest.mark.parametrize(("content", "written"), [("x", b"x\n"), ("x\n", b"x\n"), ("x\n\n\n", b"x\n"),
                                                  ("# T\r\n\r\nbody", b"# T\n\nbody\n"), ("", b"")])
def test_a_new_note_ends_with_one_line_break(tmp_path: Path, mode: str, content: str, written: bytes) -> None:
    preview = notes.write_note(tmp_path, "a.md", content, mode=mode, dry_run=True, clock=CLOCK)
    assert "No newline at end of file" not in preview["diff"]
    out = notes.write_note(tmp_path, "a.md", content, mode=mode, clock=CLOCK)
    assert (tmp_path / "a.md").read_bytes() == written and out["bytes"] == len(written)


def test_appends_make_one_line_each(tmp_path: Path) -> None:
    for text in ("x", "y", "z\n"):
        notes.write_note(tmp_path, "a.md", text, clock=CLOCK)
    assert (tmp_path / "a.md").read_bytes() == b"x\ny\nz\n"


def test_a_crlf_note_gets_a_crlf_break(tmp_path: Path) -> None:
    (tmp_path / "w.md").write_bytes(b"# W\r\n\r\nold\r\n")
    notes.write_note(tmp_path, "w.md", "new", mode="overwrite", clock=CLOCK)
    assert (tmp_path / "w.md").read_bytes() == b"new\r\n"
    notes.write_note(tmp_path, "w.md", "more", clock=CLOCK)
    assert (tmp_path / "w.md").read_bytes() == b"new\r\nmore\r\n"


def test_an_append_to_a_note_without_a_final_break_keeps_its_last_line(tmp_path: Path) -> None:
    (tmp_path / "n.md").write_bytes(b"# N\n\nlast line")
    preview = notes.write_note(tmp_path, "n.md", "added", dry_run=True, clock=CLOCK)
    assert preview["diff"].endswith("-last line\n\\ No newline at end of file\n+last line\n+added\n"), preview["diff"]
    notes.write_note(tmp_path, "n.md", "added", clock=CLOCK)
    assert (tmp_path / "n.md").read_bytes() == b"# N\n\nlast line\nadded\n"


def test_replace_still_edits_exactly_the_text_it_names(tmp_path: Path) -> None:
    (tmp_path / "r.md").write_bytes(b"# R\n\nold")
    notes.replace_in_note(tmp_path, "r.md", "old", "new", clock=CLOCK)
    assert (tmp_path / "r.md").read_bytes() == b"# R\n\nnew"


def test_the_cli_write_ends_the_note(tmp_path: Path, cli_run: Callable[..., tuple[int, Any]]) -> None:
    code, out = cli_run(["note", "write", "Inbox/a.md", "--vault", str(tmp_path), "--content", "x"])
    assert code == 0 and out["bytes"] == 2 and "No newline" not in out["diff"], out
    assert (tmp_path / "Inbox" / "a.md").read_bytes() == b"x\n"


@settings(max_examples=100, deadline=None)
@given(st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="%`~<"), max_size=30),
       st.sampled_from(notes.WRITE_MODES))
def test_the_dry_run_diff_is_the_write(content: str, mode: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        vault = Path(folder)
        (vault / "n.md").write_bytes(b"# N\n\nlast\n")
        if mode == "create":
            (vault / "n.md").unlink()
        preview = notes.write_note(vault, "n.md", content, mode=mode, dry_run=True, clock=CLOCK)
        out = notes.write_note(vault, "n.md", content, mode=mode, clock=CLOCK)
        data = (vault / "n.md").read_bytes()
        assert preview.get("diff") == out.get("diff") and preview["bytes"] == out["bytes"] == len(data)
        if content.strip():
            assert data.endswith(b"\n") and not data.endswith(b"\n\n")
