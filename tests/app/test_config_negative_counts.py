"""A negative count or duration in the settings is refused, naming the setting and where it came from.

`MNEMON_MAX_INSIGHTS=-3` (or `"max_insights": -3` in the config file) used to load, and auto-prune — which only runs
for a cap above 0 — was silently off, while a cap of the wrong type was an `invalid_input`. Every integer setting is a
count (`max_insights`, `ann_min_rows`, `ann_cold_min_rows`) and every duration a length of time, so a negative one is
refused the same way; `0` stays valid (for `max_insights` it means "auto-prune off")."""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, strategies as st

from mnemon.app.config import SETTINGS_BY_NAME, load_config
from mnemon.core.errors import InvalidInput

COUNTS = ("max_insights", "ann_min_rows", "ann_cold_min_rows")
DURATIONS = ("prune_min_age", "daemon_idle")


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    return {"HOME": str(tmp_path), "MNEMON_HOME": str(tmp_path / "home"), **extra}


def _config_file(path: Path, values: dict[str, Any]) -> Path:
    path.write_text(json.dumps(values), encoding="utf-8")
    return path


@pytest.mark.parametrize("name", COUNTS)
@pytest.mark.parametrize("raw", ["-3", "-1", " -1 ", "-1000000"])
def test_a_negative_count_in_the_environment_is_invalid_input_naming_the_variable(
        tmp_path: Path, name: str, raw: str) -> None:
    env_var = SETTINGS_BY_NAME[name].env
    with pytest.raises(InvalidInput) as caught:
        load_config(_env(tmp_path, **{env_var: raw}))
    assert name in caught.value.message and env_var in caught.value.message and "≥ 0" in caught.value.message
    assert caught.value.details == {"setting": name}


@pytest.mark.parametrize("name", COUNTS)
@pytest.mark.parametrize("value", [-3, -1, -1.0, "-2"])
def test_a_negative_count_in_the_config_file_is_invalid_input_naming_the_key_and_the_file(
        tmp_path: Path, name: str, value: Any) -> None:
    path = _config_file(tmp_path / "config.json", {name: value})
    with pytest.raises(InvalidInput) as caught:
        load_config(_env(tmp_path), config_path=str(path))
    assert name in caught.value.message and str(path) in caught.value.message
    assert caught.value.details == {"setting": name, "config": str(path)}


@pytest.mark.parametrize("name", DURATIONS)
@pytest.mark.parametrize("value", [-5, -0.5, -86400])
def test_a_negative_number_of_seconds_in_the_config_file_is_invalid_input(
        tmp_path: Path, name: str, value: float) -> None:
    path = _config_file(tmp_path / "config.json", {name: value})
    with pytest.raises(InvalidInput) as caught:
        load_config(_env(tmp_path), config_path=str(path))
    assert name in caught.value.message and str(path) in caught.value.message
    assert caught.value.details == {"setting": name, "config": str(path)}


def test_a_negative_cap_says_that_zero_is_how_to_turn_auto_prune_off(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match="0 turns auto-prune off"):
        load_config(_env(tmp_path, MNEMON_MAX_INSIGHTS="-3"))


def test_zero_and_positive_values_still_load(tmp_path: Path) -> None:
    cfg = load_config(_env(tmp_path, MNEMON_MAX_INSIGHTS="0", MNEMON_ANN_MIN_ROWS="0", MNEMON_ANN_COLD_MIN_ROWS="5",
                           MNEMON_AUTO_PRUNE_MIN_AGE="0", MNEMON_DAEMON_IDLE="0"))
    assert (cfg.max_insights, cfg.ann_min_rows, cfg.ann_cold_min_rows) == (0, 0, 5)
    assert (cfg.prune_min_age_s, cfg.daemon_idle_s) == (0.0, 0.0)
    path = _config_file(tmp_path / "config.json", {"max_insights": 0, "prune_min_age": 0, "daemon_idle": 60})
    cfg = load_config(_env(tmp_path), config_path=str(path))
    assert (cfg.max_insights, cfg.prune_min_age_s, cfg.daemon_idle_s) == (0, 0.0, 60.0)


def test_a_flag_or_variable_over_a_bad_file_value_still_wins(tmp_path: Path) -> None:
    # the file is read only for what no higher level gives: a negative there that is overruled is never used
    path = _config_file(tmp_path / "config.json", {"max_insights": -3})
    cfg = load_config(_env(tmp_path, MNEMON_MAX_INSIGHTS="7"), config_path=str(path))
    assert cfg.max_insights == 7


def test_the_cli_answers_a_negative_cap_with_an_envelope_and_writes_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli_run: Callable[..., tuple[int, Any]]) -> None:
    monkeypatch.setenv("MNEMON_MAX_INSIGHTS", "-3")
    code, out = cli_run(["remember", "a memory that must not be stored"])
    assert code != 0 and out["ok"] is False and out["error"]["code"] == "invalid_input", out
    assert out["error"]["details"]["setting"] == "max_insights" and "MNEMON_MAX_INSIGHTS" in out["error"]["message"]
    monkeypatch.delenv("MNEMON_MAX_INSIGHTS")
    path = _config_file(tmp_path / "config.json", {"max_insights": -3})
    code, out = cli_run(["--config", str(path), "status"])
    assert code != 0 and out["error"]["code"] == "invalid_input" and str(path) in out["error"]["message"]
    code, out = cli_run(["status"])
    assert code == 0 and out["total_insights"] == 0


@given(name=st.sampled_from(COUNTS), value=st.integers(min_value=-10**12, max_value=10**12))
def test_a_count_loads_exactly_when_it_is_not_negative(
        tmp_path_factory: pytest.TempPathFactory, name: str, value: int) -> None:
    folder = tmp_path_factory.mktemp("neg")
    env = _env(folder, **{SETTINGS_BY_NAME[name].env: str(value)})
    try:
        cfg = load_config(env)
    except InvalidInput as exc:
        assert value < 0 and exc.details == {"setting": name}
        return
    assert value >= 0 and getattr(cfg, name) == value
