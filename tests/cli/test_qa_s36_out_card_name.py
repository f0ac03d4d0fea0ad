"""`--out` names the folder cards are written to: `thought --out card.svg` made a folder named `card.svg` and wrote
`thought_<time>.svg` and `.png` inside it, saying nothing. A name that reads as a card file (.svg or .png) that is
not a folder already is refused by `thought`, `surface` and `run-once` alike, before any work."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

Run = Callable[..., tuple[int, Any]]


def test_an_out_named_as_a_card_file_is_refused(cli_run: Run, tmp_path: Path, example_vault: Path) -> None:
    for name, line in (("card.svg", ["thought"]), ("Card.PNG", ["surface", "--render"]),
                       ("cards/today.svg", ["surface", "--prompt", "battery"]),
                       ("card.png", ["run-once", "--vault", example_vault])):
        code, out = cli_run([*line, "--out", tmp_path / name])
        assert code == 1 and out["error"]["code"] == "invalid_input", line
        assert "folder" in out["error"]["message"] and name in out["error"]["message"]
    assert not any((tmp_path / n).exists() for n in ("card.svg", "Card.PNG", "cards", "card.png"))
    code, status = cli_run(["status"])
    assert code == 0 and status["nodes_by_kind"] == {}  # run-once refused before it ingested anything


def test_a_folder_that_exists_is_a_folder_whatever_its_name(cli_run: Run, tmp_path: Path,
                                                           example_vault: Path) -> None:
    folder = tmp_path / "deck.svg"
    folder.mkdir()
    code, out = cli_run(["run-once", "--vault", example_vault, "--out", folder])
    assert code == 0 and Path(out["image"]).parent == folder.resolve()


def test_init_refuses_an_out_named_as_a_card_file(cli_run: Run, tmp_path: Path, example_vault: Path) -> None:
    """`init --out card.svg` wrote it to the config, and every later `thought` failed on an --out never typed."""
    code, out = cli_run(["init", "--vault", example_vault, "--out", tmp_path / "card.svg"])
    assert code == 1 and out["error"]["code"] == "invalid_input" and "not a card file" in out["error"]["message"]
    code, shown = cli_run(["config"])
    assert code == 0 and shown.get("vault") in (None, "")  # no config file was written


def test_a_config_out_named_as_a_card_file_is_refused_naming_the_config_file(cli_run: Run, tmp_path: Path,
                                                                             example_vault: Path) -> None:
    """An `out` in the config file naming a card file was refused with a message about `--out`, which nobody typed:
    the refusal names the setting and the file it came from; `--out` given wins over it; doctor reports it."""
    config = tmp_path / "conf" / "config.json"
    config.parent.mkdir()
    config.write_text(json.dumps({"vault": str(example_vault), "out": "cards/today.svg"}), encoding="utf-8")
    for line in (["thought"], ["surface", "--render"], ["run-once"]):
        code, out = cli_run(["--config", config, *line])
        assert code == 1 and out["error"]["code"] == "invalid_input", line
        message = out["error"]["message"]
        assert "--out" not in message.split(", or give")[0] and str(config) in message, message
        assert out["error"]["details"]["setting"] == "out" and out["error"]["details"]["config"] == str(config)
    code, status = cli_run(["status"])
    assert code == 0 and status["nodes_by_kind"] == {}  # run-once refused before it ingested anything
    code, out = cli_run(["--config", config, "thought", "--out", tmp_path / "cards"])
    assert code == 0, out  # the flag's folder, not the config's card file
    code, out = cli_run(["--config", config, "doctor"])
    report = out["error"]["details"]
    assert code != 0 and not report["checks"]["out_parent"]["ok"]
    assert any(str(config) in p and "card file" in p for p in report["problems"])
