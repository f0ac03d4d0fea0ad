"""An unknown card theme is refused where the settings are read (`invalid_input` naming the setting, where it came
from and the themes there are) and `doctor` reports it: it used to render every card dark without a word."""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mnemon.app.config import load_config
from mnemon.core.errors import InvalidInput
from mnemon.render.cards import THEMES


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    return {"HOME": str(tmp_path), "MNEMON_HOME": str(tmp_path / "home"), **extra}


def _config(tmp_path: Path, theme: Any) -> Path:
    path = tmp_path / "cfg" / "config.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"card_theme": theme}), encoding="utf-8")
    return path


def test_an_unknown_theme_in_the_environment_is_refused_naming_the_variable_and_the_themes(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput) as caught:
        load_config(_env(tmp_path, MNEMON_CARD_THEME="solarized"))
    message = caught.value.message
    assert "card_theme" in message and "MNEMON_CARD_THEME" in message and '"solarized"' in message
    assert "dark, light" in message
    assert caught.value.details == {"setting": "card_theme", "allowed": list(THEMES)}


@pytest.mark.parametrize("theme", ["x", "", "dark-ish", 3, ["light"], None])
def test_an_unknown_theme_in_the_config_file_is_refused_naming_the_file(tmp_path: Path, theme: Any) -> None:
    if theme is None:  # null in the file means "not set": the default
        assert load_config(_env(tmp_path), config_path=str(_config(tmp_path, None))).card_theme == "dark"
        return
    path = _config(tmp_path, theme)
    with pytest.raises(InvalidInput) as caught:
        load_config(_env(tmp_path), config_path=str(path))
    assert str(path) in caught.value.message and "one of dark, light" in caught.value.message
    assert caught.value.details == {"setting": "card_theme", "config": str(path), "allowed": list(THEMES)}


def test_a_known_theme_is_read_in_any_case_and_the_environment_overrules_the_file(tmp_path: Path) -> None:
    path = _config(tmp_path, " Light ")
    assert load_config(_env(tmp_path), config_path=str(path)).card_theme == "light"
    assert load_config(_env(tmp_path, MNEMON_CARD_THEME="DARK"), config_path=str(path)).card_theme == "dark"
    assert load_config(_env(tmp_path)).card_theme == "dark"  # the default


def test_doctor_reports_an_unknown_theme_and_other_commands_refuse_it(
        tmp_path: Path, cli_run: Callable[..., tuple[int, Any]], monkeypatch: pytest.MonkeyPatch) -> None:
    path = _config(tmp_path, "solarized")
    code, out = cli_run(["--config", str(path), "doctor"])
    assert code != 0 and out["error"]["code"] == "doctor_failed", out
    check = out["error"]["details"]["checks"]["config"]
    assert (check["ok"], check["setting"], check["allowed"]) == (False, "card_theme", ["dark", "light"])
    code, out = cli_run(["--config", str(path), "thought", "--out", str(tmp_path / "cards")])
    assert code != 0 and out["error"]["code"] == "invalid_input", out
    assert not (tmp_path / "cards").exists()  # no card was drawn in the wrong colours
    monkeypatch.setenv("MNEMON_CARD_THEME", "neon")
    code, out = cli_run(["status"])
    assert code != 0 and out["error"]["details"]["setting"] == "card_theme", out
