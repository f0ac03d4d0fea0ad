"""QA round 37 (second `mneme` round): what `mneme` answers says what the user gave and names commands the user
can run under `mneme`, the program they ran."""
from __future__ import annotations

import shlex
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


@pytest.fixture
def ingested(mneme, tmp_path: Path, example_vault: Path) -> Path:  # noqa: F811
    db = tmp_path / "m.sqlite"
    code, out = mneme(["ingest", "--vault", example_vault, "--db", db])
    assert code == 0, out
    return db


@pytest.mark.parametrize("prompt", [["--prompt", "Lighthouse pilot vendor contract"], []], ids=["prompt", "proactive"])
def test_a_card_suggests_commands_that_run_under_mneme(mneme, ingested: Path, prompt: list[str]) -> None:  # noqa: F811
    # a Mneme user copying a card's command got `mnemon --db … show …`: another program's name
    from mnemon.interfaces.mneme_cli import translate

    code, out = mneme(["surface", "--db", ingested, *prompt])
    assert code == 0 and out["thoughts"]
    commands = [a["command"] for t in out["thoughts"] for a in t["suggested_actions"] if "command" in a]
    assert {c[0] for c in commands} == {"mneme"}
    kinds = {a["type"] for t in out["thoughts"] for a in t["suggested_actions"]}
    assert {"inspect", "vault_append_bullet"} <= kinds
    for command in commands:
        assert translate(command[1:]) == command[1:]  # mneme runs it as mnemon would
    inspect = next(a["command"] for a in out["thoughts"][0]["suggested_actions"] if a["type"] == "inspect")
    code, shown = mneme(inspect[1:])
    assert code == 0 and shown["id"] == inspect[-1]
    bullet = next(a for t in out["thoughts"] for a in t["suggested_actions"] if a["type"] == "vault_append_bullet")
    code, added = mneme(bullet["command"][1:])
    assert code == 0 and added["changed"] is True, added


def test_mnemon_still_suggests_mnemon_commands(ingested: Path) -> None:
    from mnemon.app.config import load_config
    from mnemon.app.memory import Mnemon

    mem = Mnemon.open(load_config(db=str(ingested)))
    try:
        cards = mem.surface(prompt="Lighthouse pilot vendor contract")["thoughts"]
    finally:
        mem.close()
    assert {a["command"][0] for t in cards for a in t["suggested_actions"]} == {"mnemon"}


def test_the_note_write_hint_names_mneme_ingest(mneme, tmp_path: Path) -> None:  # noqa: F811
    vault = tmp_path / "vault"
    vault.mkdir()
    for line in (["note", "write", "--vault", vault, "New.md", "--content", "hello"],
                 ["write", "--vault", vault, "--path", "Other.md", "--content", "hello"]):
        code, out = mneme(line)
        assert code == 0, out
        assert "`mneme ingest`" in out["hint"] and "mnemon" not in out["hint"], out["hint"]


@pytest.mark.parametrize("line", [["surface", "--prompt", "x"], ["--readonly", "status"]], ids=["read", "readonly"])
def test_a_missing_database_names_the_writes_that_create_it_under_mneme(mneme, tmp_path: Path,  # noqa: F811
                                                                        line: list[str]) -> None:
    # "a write (`mnemon remember`, `mnemon ingest`) creates it": under mneme, `remember TEXT` is refused
    code, out = mneme([*line, "--db", tmp_path / "none.db"])
    assert code != 0 and out["ok"] is False
    message = out["error"]["message"]
    db = shlex.quote(str(tmp_path / "none.db"))  # each suggested command carries the --db that named the store
    assert f"`mneme --db {db} ingest`" in message and f"`mneme --db {db} remember add`" in message, message
    assert "mnemon" not in message.replace(f"{tmp_path}", "")


def test_advice_names_mneme_only_for_a_command_mneme_reads_as_mnemon_does(mneme, ingested: Path) -> None:  # noqa: F811
    # `mneme remember TEXT` is refused (Mneme's remember takes add or remove): advice to store a fact with it must
    # keep mnemon's name, where `link` reads alike under both
    code, out = mneme(["agent", "preflight", "--db", ingested, "--prompt",
                       "Actually, correction: the vendor contract was signed on Monday"])
    assert code == 0 and out["route"]["path"] == "correction"
    step = out["route"]["next_step"]
    db = f"--db {shlex.quote(str(ingested))}"  # each suggested command carries the --db that named the store
    assert f"`mnemon {db} remember`" in step and f"`mneme {db} link NEW_ID OLD_ID --type supersedes`" in step, step
    assert "`mneme remember`" not in step and f"`mneme {db} remember`" not in step


def test_typed_keeps_the_commands_the_program_reads_otherwise() -> None:
    from mnemon.core.surface import typed, typed_as
    from mnemon.interfaces.mneme_cli import reads_alike

    text = ("`mnemon remember`, `mnemon forget abc`, `mnemon note delete A.md --force`, `mnemon alias merge 'Ada L'"
            " Ada`, `mnemon forget`")
    assert typed(text) == text
    with typed_as("mneme", alike=reads_alike):
        assert typed(text) == ("`mnemon remember`, `mneme forget abc`, `mnemon note delete A.md --force`, "
                               "`mneme alias merge 'Ada L' Ada`, `mnemon forget`")


@pytest.mark.parametrize("line", [["tick"], ["feedback", "t1", "--accept"], ["explain", "t1"], ["index"],
                                  ["think", "--prompt", "x"], ["sense", "run", "md"]])
def test_an_unsupported_commands_advice_names_a_command_mneme_runs(mneme, line: list[str],  # noqa: F811
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    # `mneme tick` answered "use `mnemon candidates`": another program's name, for a command `mneme` runs as it is
    from mnemon.interfaces.mneme_cli import main

    code, out = mneme(line)
    instead = out["error"]["details"]["instead"]
    assert code == 2 and instead.startswith("mneme ") and f"use `{instead}`" in out["error"]["message"]
    for command in instead.split(" ")[1].split("|"):  # `weaken-edge|kill-edge|validate-edge ID`: each
        capsys.readouterr()
        assert main([command, "--help"]) == 0, command
        assert capsys.readouterr().out.startswith(f"Usage: mneme {command}")
