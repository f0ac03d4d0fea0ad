"""`note write --mode append` after a `%%` comment or code fence never closed wrote text nobody sees — Obsidian hides
the rest of the note, the graph reads it as code or nothing — and reported success, where `daily append`,
`add-bullet` and `upsert` refuse an edit landing there. The append is refused the same way (invalid_input with
comment_line or fence_line, nothing written), and so is content that opens one it never closes; content that
closes the one left open above is the writer's own."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from mnemon.app import notes
from mnemon.app.note_hidden import hidden_from
from mnemon.core.errors import InvalidInput


@pytest.mark.parametrize("old, content, key, line", [
    ("# N\n\n%% private start\nsecret\n", "- [ ] call Bob\n", "comment_line", 3),
    ("# N\n\n```\ncode", "more\n", "fence_line", 3),
    ("---\ntitle: x\n---\n# N\n%%\n", "text\n", "comment_line", 5),
    ("# N\n\ntext\n", "- [ ] call Bob\n%% draft\n", "comment_line", 2),  # the content's own line
    ("# N\n\ntext", "```python\nprint()\n", "fence_line", 1),
])
def test_an_append_nobody_would_see_is_refused_and_writes_nothing(tmp_path: Path, old: str, content: str, key: str,
                                                                  line: int) -> None:
    (tmp_path / "N.md").write_text(old, encoding="utf-8")
    with pytest.raises(InvalidInput) as refused:
        notes.write_note(tmp_path, "N.md", content, mode="append")
    assert refused.value.details[key] == line
    assert (tmp_path / "N.md").read_text(encoding="utf-8") == old
    assert not (tmp_path / ".mnemon-backups").exists()


def test_content_closing_what_was_left_open_is_written(tmp_path: Path) -> None:
    (tmp_path / "N.md").write_text("# N\n\n%% private start\nsecret\n", encoding="utf-8")
    out = notes.write_note(tmp_path, "N.md", "%%\n- [ ] call Bob\n", mode="append")
    assert out["changed"] is True
    assert (tmp_path / "N.md").read_text(encoding="utf-8").endswith("secret\n%%\n- [ ] call Bob\n")


_PIECES = ["# T", "text", "%%", "%% open", "```", "~~~", "- item", "%%x%%", ""]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=6), st.lists(st.sampled_from(_PIECES), min_size=1, max_size=4))
def test_an_append_is_written_exactly_when_it_leaves_nothing_hidden(
        tmp_path_factory: pytest.TempPathFactory, old: list[str], added: list[str]) -> None:
    root = tmp_path_factory.mktemp("v")
    text, content = "".join(x + "\n" for x in old), "".join(x + "\n" for x in added)
    (root / "n.md").write_text(text, encoding="utf-8")
    after = (text + content).splitlines(keepends=True)
    seen = hidden_from(after) is None  # (the note as the append would leave it hides nothing)
    try:
        notes.write_note(root, "n.md", content, mode="append")
    except InvalidInput:
        assert not seen and (root / "n.md").read_text(encoding="utf-8") == text
    else:
        assert seen
