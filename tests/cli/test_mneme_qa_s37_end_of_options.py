"""QA round 37: `mneme` leaves alone what comes after `--`, as Mneme's parser and mnemon's do.

`mneme note search-content --vault V -- --json` (a note about a CLI's flags) answered "Missing argument 'QUERY'":
the translation dropped `--json` as Mneme's output flag; `-- --db` was taken for the global `--db` ("--db needs a
value"), `-- --force` was dropped as Mneme's guard-rail flag, and `-- --help` printed the search's JSON with a help
note after it. After `--` every word is an argument; the options
`mneme` adds (`--pattern`, `--days-threshold`, `--surface-limit`) go before it."""
from __future__ import annotations

from pathlib import Path

import pytest

from cli.test_mneme_qa_s31 import mneme  # noqa: F401  (a fixture)
from mnemon.interfaces.mneme_cli import translate


@pytest.mark.parametrize("word", ["--json", "--db", "--force", "--db=x", "--help"])
def test_a_word_after_the_end_of_options_is_searched_for(mneme, tmp_path: Path, word: str) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "cli.md").write_text(f"# CLI\n\n- pass {word} to the tool\n", encoding="utf-8")
    code, out = mneme(["note", "search-content", "--vault", vault, "--", word])
    assert code == 0 and out["query"] == word and out["count"] == 1


def test_options_mneme_adds_go_before_the_end_of_options() -> None:
    assert translate(["note", "daily", "append", "--content", "x", "--", "y"]) == \
        ["note", "daily", "append", "--content", "x", "--pattern", "memory/YYYY-MM-DD.md", "--", "y"]
    assert translate(["note", "read", "--db", "d", "--", "--db", "--json", "--force"]) == \
        ["--db", "d", "note", "read", "--", "--db", "--json", "--force"]
    assert translate(["agent", "preflight", "--", "--surface-limit"]) == \
        ["agent", "preflight", "--surface-limit", "5", "--", "--surface-limit"]
    assert translate(["forget", "--", "-5"]) == ["forget", "--", "-5"]  # a memory id, not Mneme's dated forget
