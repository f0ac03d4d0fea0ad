"""QA round 38: `note write --mode create` gives a new note LF line endings, as every other way of making one does.

`mnemon note write c.md --mode create --content $'# C\\r\\nline\\r\\n'` wrote the CRs as given, while the same content
with `--mode append` or `overwrite` to a note not there yet, an upsert-section or add-bullet making a note, and a
daily create all write LF: the vault's one CRLF note came from this mode only. A note already CRLF keeps CRLF."""
from __future__ import annotations

import tempfile
from datetime import datetime, timezone
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mnemon.app import notes

CLOCK = lambda: datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)  # noqa: E731


@pytest.mark.parametrize("mode", notes.WRITE_MODES)
def test_every_write_mode_makes_a_new_note_with_lf(tmp_path: Path, mode: str) -> None:
    preview = notes.write_note(tmp_path, "c.md", "# C\r\nline\r\n", mode=mode, dry_run=True, clock=CLOCK)
    assert preview["diff"].endswith("+# C\n+line\n")
    notes.write_note(tmp_path, "c.md", "# C\r\nline\r\n", mode=mode, clock=CLOCK)
    assert (tmp_path / "c.md").read_bytes() == b"# C\nline\n"


def test_the_cli_create_writes_lf(tmp_path: Path, cli_run) -> None:
    code, out = cli_run(["note", "write", "c.md", "--vault", str(tmp_path), "--mode", "create", "--content",
                         "# C\r\nline\rend"])
    assert code == 0 and out["created"] and out["bytes"] == len(b"# C\nline\nend\n")  # (one final break: s39)
    assert (tmp_path / "c.md").read_bytes() == b"# C\nline\nend\n"


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n%`~<"), max_size=8),
                min_size=1, max_size=6), st.lists(st.sampled_from(["\n", "\r\n", "\r"]), min_size=6, max_size=6))
def test_create_writes_what_append_to_a_new_note_writes(lines: list[str], ends: list[str]) -> None:
    # (no comment or fence openers: an append that would hide itself is refused, a create is not)
    content = "".join(line + end for line, end in zip(lines, ends))
    with tempfile.TemporaryDirectory() as folder:
        vault = Path(folder)
        notes.write_note(vault, "c.md", content, mode="create", clock=CLOCK)
        notes.write_note(vault, "a.md", content, mode="append", clock=CLOCK)
        assert (vault / "c.md").read_bytes() == (vault / "a.md").read_bytes()
        assert b"\r" not in (vault / "c.md").read_bytes()
