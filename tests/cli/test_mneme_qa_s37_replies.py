"""QA round 37 (second `mneme` round): what `mneme` answers says what the user gave and names commands the user
can run under `mneme`, the program they ran."""
from __future__ import annotations

from pathlib import Path

import pytest

from cli.test_mneme_qa_s31 import mneme  # noqa: F401  (a fixture)


@pytest.mark.parametrize("action", ["read", "append"])
def test_daily_pattern_source_says_default_when_mneme_supplied_the_pattern(mneme, tmp_path: Path,  # noqa: F811
                                                                           action: str) -> None:
    # mneme adds Mneme's `--pattern memory/YYYY-MM-DD.md` to a line without one: the reply said
    # "pattern_source": "argument", a pattern the user never typed
    vault = tmp_path / "vault"
    vault.mkdir()
    content = ["--content", "- called Bob"] if action == "append" else []
    code, out = mneme(["note", "daily", action, "--vault", vault, *content])
    assert code == 0, out
    assert out["pattern"] == "memory/YYYY-MM-DD.md" and out["path"].startswith("memory/")
    assert out["pattern_source"] == "default"
    code, out = mneme(["note", "daily", action, "--vault", vault, "--pattern", "memory/YYYY-MM-DD.md", *content])
    assert code == 0 and out["pattern_source"] == "argument"
    code, out = mneme(["note", "daily", action, "--vault", vault, "--pattern=Journal/YYYY-MM-DD.md", *content])
    assert code == 0 and out["pattern_source"] == "argument" and out["path"].startswith("Journal/")
