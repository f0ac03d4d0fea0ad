"""A blank card folder or `init` path (a script's unset "$OUT", "$VAULT") is refused naming the flag, as a blank
`--db` is: `thought --out " "` wrote its cards into a folder named by a space in the working directory, `--out ""`
quietly used the default folder, and `init --vault " "` (or `--db`, `--out`) wrote a config file naming
"<working directory>/ " that every later command then used."""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

BLANKS = ["", " ", "\n", "\t "]


@pytest.mark.parametrize("blank", BLANKS)
@pytest.mark.parametrize("command", [["thought"], ["surface", "alpha"], ["surface"]])
def test_a_blank_card_folder_is_refused(cli_run: Callable[..., tuple[int, Any]], tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch, command: list[str], blank: str) -> None:
    db = tmp_path / "s.db"
    assert cli_run(["--db", str(db), "remember", "alpha bravo charlie"])[0] == 0
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    code, out = cli_run(["--db", str(db), *command, "--out", blank])
    assert code == 1 and out["error"]["code"] == "invalid_input", out
    assert "--out" in out["error"]["message"] and "blank" in out["error"]["message"]
    assert list(cwd.iterdir()) == []  # no folder named by the blank, nothing written where the command ran


@pytest.mark.parametrize("blank", BLANKS)
def test_run_once_refuses_a_blank_card_folder_before_ingesting(cli_run: Callable[..., tuple[int, Any]],
                                                               tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               blank: str) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "a.md").write_text("# A\n\nalpha\n", encoding="utf-8")
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    db = tmp_path / "s.db"
    code, out = cli_run(["--db", str(db), "run-once", "--vault", str(vault), "--out", blank])
    assert code == 1 and out["error"]["code"] == "invalid_input", out
    assert list(cwd.iterdir()) == [] and not db.exists()  # refused before the ingest made the store


@pytest.mark.parametrize("blank", BLANKS)
@pytest.mark.parametrize("flag", ["--vault", "--db", "--out"])
def test_init_refuses_a_blank_path(cli_run: Callable[..., tuple[int, Any]], tmp_path: Path,
                                   monkeypatch: pytest.MonkeyPatch, flag: str, blank: str) -> None:
    config = tmp_path / "config.json"
    monkeypatch.chdir(tmp_path)
    given = {"--vault": str(tmp_path / "vault"), flag: blank}
    code, out = cli_run(["--config", str(config), "init", *[part for item in given.items() for part in item]])
    assert code == 1 and out["error"]["code"] == "invalid_input", out
    assert flag in out["error"]["message"] and "blank" in out["error"]["message"]
    assert not config.exists()


def test_init_still_writes_the_paths_it_is_given(cli_run: Callable[..., tuple[int, Any]], tmp_path: Path) -> None:
    config = tmp_path / "config.json"
    code, out = cli_run(["--config", str(config), "init", "--vault", str(tmp_path / "v"), "--db",
                         str(tmp_path / "s.db"), "--out", str(tmp_path / "cards")])
    assert code == 0, out
    written = json.loads(config.read_text(encoding="utf-8"))
    assert (written["vault"], written["db"], written["out"]) == (str(tmp_path / "v"), str(tmp_path / "s.db"),
                                                                 str(tmp_path / "cards"))
