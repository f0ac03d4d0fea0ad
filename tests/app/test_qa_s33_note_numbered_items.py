"""QA round 33: `add-bullet` under a numbered list.

It saw only `-`, `*` and `+` bullets: under `1. a` / `2. b` a new `c` was written as `- c` (another list to every
renderer) and `a` again was added a second time. A numbered list goes on with the next number, and an item already
there is reported as such, as for bullets."""
from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest

from mnemon.app import notes

CLOCK = lambda: datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)  # noqa: E731


def _vault(tmp_path: Path, text: str) -> Path:
    (tmp_path / "n.md").write_text(text, encoding="utf-8")
    return tmp_path


def _text(vault: Path) -> str:
    return (vault / "n.md").read_text(encoding="utf-8")


@pytest.mark.parametrize(("listed", "added"), [
    ("1. a\n2. b\n", "3. c"),
    ("1) a\n2) b\n", "3) c"),
    ("7. a\n8. b\n", "9. c"),
    ("1. a\n1. b\n", "1. c"),  # numbered lazily: every item "1.", the new one too
    ("1. a\n   - sub\n2. b\n", "3. c"),
])
def test_a_numbered_list_goes_on_with_the_next_number(tmp_path: Path, listed: str, added: str) -> None:
    vault = _vault(tmp_path, f"## L\n{listed}\n## Next\n")
    out = notes.add_bullet(vault, "n.md", "L", "c", clock=CLOCK)
    assert out["bullet"] == added and not out["duplicate"]
    assert _text(vault) == f"## L\n{listed}{added}\n\n## Next\n"


@pytest.mark.parametrize("given", ["a", "2. a", "- a", " A "])
def test_an_item_already_numbered_is_not_added_again(tmp_path: Path, given: str) -> None:
    vault = _vault(tmp_path, "## L\n1. a\n2. b\n")
    out = notes.add_bullet(vault, "n.md", "L", given, clock=CLOCK)
    assert out["duplicate"] and not out["changed"]
    assert _text(vault) == "## L\n1. a\n2. b\n"


def test_a_given_number_is_kept_and_bullets_still_take_their_marker(tmp_path: Path) -> None:
    vault = _vault(tmp_path, "## L\n1. a\n\n## B\n* x\n")
    assert notes.add_bullet(vault, "n.md", "L", "5. e", clock=CLOCK)["bullet"] == "5. e"
    assert notes.add_bullet(vault, "n.md", "B", "y", clock=CLOCK)["bullet"] == "* y"
    assert _text(vault) == "## L\n1. a\n5. e\n\n## B\n* x\n* y\n"
