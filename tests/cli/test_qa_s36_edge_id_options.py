"""An unknown option on a command that takes a negative edge id is named as one: `validate-edge -21 --dry-run`
answered "Got unexpected extra argument (--dry-run)" (the commands let every unknown option through so that `-21`
could be the id), and `validate-edge --dry-run -21` took `--dry-run` for the id. A negative id is still the id,
before or after the options."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pytest

Run = Callable[..., tuple[int, Any]]


@pytest.mark.parametrize("line, option", [
    (["validate-edge", "-21", "--dry-run"], "--dry-run"),
    (["validate-edge", "--dry-run", "-21"], "--dry-run"),
    (["kill-edge", "-3", "--resaon", "typo"], "--resaon"),
    (["weaken-edge", "7", "--factr", "0.5"], "--factr"),
    (["explain-edge", "-3", "--json"], "--json"),
])
def test_an_unknown_option_is_named(cli_run: Run, line: list[str], option: str) -> None:
    code, out = cli_run(line)
    assert code == 2 and out["error"]["code"] == "usage"
    assert out["error"]["message"].startswith(f"No such option '{option}'")


def test_a_negative_id_is_the_id_wherever_it_stands(cli_run: Run, tmp_path: Path) -> None:
    vault = tmp_path / "v"
    vault.mkdir()
    (vault / "Plan.md").write_text("# Plan\n\n- Risk: the vendor may slip\n", encoding="utf-8")
    assert cli_run(["ingest", "--vault", vault])[0] == 0
    [risk] = [link for link in cli_run(["graph", "--focus", "note:Plan.md"])[1]["links"] if link["type"] == "has_risk"]
    assert risk["id"] < 0
    code, out = cli_run(["weaken-edge", "--reason", "-2", str(risk["id"]), "--factor", "0.9"])
    assert code == 0 and out["id"] == risk["id"]
    code, out = cli_run(["kill-edge", "--reason", "wrong", "--", str(risk["id"])])
    assert code == 0 and out["killed"] is True
    code, out = cli_run(["explain-edge", str(risk["id"])])
    assert code == 0 and out["edge"]["status"] == "killed"
    assert out["debug_log"][1]["thinking"]["reason"] == "-2"


def test_an_option_left_without_its_value_is_said(cli_run: Run) -> None:
    code, out = cli_run(["validate-edge", "-3", "--reason"])
    assert code == 2 and out["error"]["message"] == "Option '--reason' requires an argument."
