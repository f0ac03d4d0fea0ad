"""Advice a `mneme` refusal prints is a command line that runs as printed (with its placeholders filled in).

`mneme --config /missing.json run-once` (Mneme's documented `--config` line, before its `init`) said "create it with
`mneme --config /missing.json init`", and that line, run as printed, is refused: `init` needs `--vault`.
"""
from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest


@pytest.mark.parametrize("command", [["run-once"], ["retrieve", "--prompt", "supplier"], ["doctor"]])
def test_the_advice_for_a_missing_config_file_creates_it(mneme_run, tmp_path: Path, example_vault: Path,
                                                        command: list[str]) -> None:
    missing = tmp_path / "project-mneme.json"
    code, out = mneme_run(["--config", missing, *command])
    assert code == 1 and out["error"]["code"] in ("not_found", "doctor_failed")
    advice = re.search(r"`(mneme [^`]*init[^`]*)`", json.dumps(out["error"]))
    assert advice, out["error"]
    words = shlex.split(advice.group(1).replace("DIR", shlex.quote(str(example_vault))))
    code, created = mneme_run(words[1:])
    assert code == 0, created
    assert created["config"] == str(missing) and created["vault"] == str(example_vault)
    assert mneme_run(["--config", missing, "doctor"])[0] == 0


@pytest.mark.parametrize("flag", ["--replace", "--allow-empty"])
def test_run_once_takes_the_flag_its_refusal_names(mneme_run, tmp_path: Path, example_vault: Path, flag: str) -> None:
    """`mneme run-once` of another vault, or of its vault emptied (an unmounted folder), on a store holding its notes
    is refused, naming the flag that lets the run remove them: run-once takes it, as `ingest` and `update` do (it was
    a usage error)."""
    db, cards = tmp_path / "m.sqlite", tmp_path / "cards"
    assert mneme_run(["ingest", "--vault", example_vault, "--db", db])[0] == 0
    if flag == "--replace":
        folder, left = tmp_path / "other", 1
        folder.mkdir()
        (folder / "note.md").write_text("# Other note\n", encoding="utf-8")
    else:
        folder, left = example_vault, 0
        for note in example_vault.rglob("*.md"):
            note.unlink()
    line = ["run-once", "--vault", folder, "--db", db, "--out", cards]
    code, out = mneme_run(line)
    assert code == 1 and out["error"]["code"] == "conflict" and flag in out["error"]["message"]
    code, out = mneme_run([*line, flag])
    assert code == 0, out
    assert out["stats"]["notes_removed"] == 13 and out["stats"]["notes_total"] == left


def test_another_vault_on_a_db_file_is_advised_another_db_file(mneme_run, tmp_path: Path, example_vault: Path) -> None:
    """Mneme's lines name the database with --db; the refusal of another vault's ingest advised "another store for it
    (--store NAME)", which --db overrules: `mneme --store other ingest --vault OTHER --db X` was refused again. It
    names another --db file, which the user can follow."""
    db = tmp_path / "m.sqlite"
    assert mneme_run(["ingest", "--vault", example_vault, "--db", db])[0] == 0
    other = tmp_path / "other"
    other.mkdir()
    (other / "note.md").write_text("# Other note\n", encoding="utf-8")
    code, out = mneme_run(["ingest", "--vault", other, "--db", db])
    assert code == 1 and out["error"]["code"] == "conflict"
    assert "--db" in out["error"]["message"], out["error"]["message"]
    code, out = mneme_run(["ingest", "--vault", other, "--db", tmp_path / "other.sqlite"])
    assert code == 0 and out["notes_total"] == 1
