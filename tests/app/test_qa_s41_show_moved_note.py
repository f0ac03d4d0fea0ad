"""`show` of a note renamed or moved since says where it went: `mnemon show note:a.md` after `a.md` became `A.md`
(or moved to a folder) was a plain `not_found`, as if the note had never been there."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.errors import NotFound


def _vault(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    root.mkdir()
    (root / "a.md").write_text("# Alpha\n\n- Harbour crane inspection on Thursday\n", encoding="utf-8")
    (root / "b.md").write_text("# Beta\n\nSee [[a]].\n", encoding="utf-8")
    return root


def test_show_of_a_renamed_note_names_its_new_id(make_mem: Callable[..., Mnemon], tmp_path: Path) -> None:
    root = _vault(tmp_path)
    m = make_mem()
    m.ingest(str(root), embed=False)
    (root / "a.md").rename(root / "A.md")
    m.ingest(str(root), embed=False)
    with pytest.raises(NotFound) as caught:
        m.show("note:a.md")
    assert caught.value.details["moved_to"] == "note:A.md"
    assert "note:A.md" in caught.value.message
    assert m.show("note:A.md")["id"] == "note:A.md"


def test_a_move_after_a_move_names_where_it_is_now(make_mem: Callable[..., Mnemon], tmp_path: Path) -> None:
    root = _vault(tmp_path)
    m = make_mem()
    m.ingest(str(root), embed=False)
    (root / "Archive").mkdir()
    (root / "a.md").rename(root / "Archive" / "a.md")
    m.ingest(str(root), embed=False)
    (root / "Archive" / "a.md").rename(root / "Archive" / "alpha.md")
    m.ingest(str(root), embed=False)
    for old in ("note:a.md", "note:Archive/a.md"):
        with pytest.raises(NotFound) as caught:
            m.show(old)
        assert caught.value.details["moved_to"] == "note:Archive/alpha.md"


def test_a_note_that_is_back_or_never_was_gets_no_hint(make_mem: Callable[..., Mnemon], tmp_path: Path) -> None:
    root = _vault(tmp_path)
    m = make_mem()
    m.ingest(str(root), embed=False)
    (root / "a.md").rename(root / "A.md")
    m.ingest(str(root), embed=False)
    (root / "A.md").rename(root / "a.md")  # moved back: shown as it is
    m.ingest(str(root), embed=False)
    assert m.show("note:a.md")["id"] == "note:a.md"
    with pytest.raises(NotFound) as caught:
        m.show("note:never.md")
    assert "moved_to" not in caught.value.details
