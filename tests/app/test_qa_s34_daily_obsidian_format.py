"""`note daily` in a vault whose Obsidian daily-notes setting uses a format the editor cannot write (Obsidian's own
example "dddd, MMMM Do YYYY", week numbers): the note went to `Daily/2026-03-01.md` with `pattern_source:
"default"` and not a word — a second daily note the user never sees beside theirs. The reply now warns that the
Obsidian setting was passed over, naming its folder and format; a readable setting still wins silently."""
from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

import pytest

from mnemon.app import daily_notes

CLOCK = lambda: datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)  # noqa: E731


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    (root / ".obsidian").mkdir(parents=True)
    return root


def _setting(vault: Path, **setting: str) -> None:
    (vault / ".obsidian" / "daily-notes.json").write_text(json.dumps(setting), encoding="utf-8")


@pytest.mark.parametrize("fmt", ["dddd, MMMM Do YYYY", "gggg-[W]ww"])
def test_an_obsidian_format_passed_over_is_warned_of(vault: Path, fmt: str) -> None:
    _setting(vault, folder="Journal", format=fmt)
    for action, content in (("read", None), ("append", "- standup")):
        out = daily_notes.daily_note(vault, action, content=content, clock=CLOCK)
        assert out["path"] == "Daily/2026-03-01.md" and out["pattern_source"] == "default"
        [warning] = out["warnings"]
        assert warning["code"] == "obsidian_daily_format_unsupported"
        assert warning["folder"] == "Journal" and warning["format"] == fmt and "--pattern" in warning["message"]


def test_a_readable_obsidian_setting_or_none_warns_of_nothing(vault: Path) -> None:
    assert "warnings" not in daily_notes.daily_note(vault, "read", clock=CLOCK)
    _setting(vault, folder="Journal", format="DD-MM-YYYY")
    out = daily_notes.daily_note(vault, "read", clock=CLOCK)
    assert out["path"] == "Journal/01-03-2026.md" and "warnings" not in out
    _setting(vault, folder="Journal", format="dddd, MMMM Do YYYY")  # a pattern given decides: nothing to warn of
    assert "warnings" not in daily_notes.daily_note(vault, "read", pattern="Log/YYYY-MM-DD", clock=CLOCK)
