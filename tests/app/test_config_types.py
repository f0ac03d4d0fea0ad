"""Config files with values of the wrong type, and relative paths in them.

A wrong type is refused when the config is read, as `invalid_input` naming the setting and the file (it used to
surface as an `internal` TypeError from whichever command first used the value); a relative path in the file means
beside the file, not wherever the command happens to run."""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, strategies as st

from mnemon.app.config import SETTINGS, Config, load_config
from mnemon.core.errors import InvalidInput


def _env(tmp_path: Path) -> dict[str, str]:
    return {"HOME": str(tmp_path), "MNEMON_HOME": str(tmp_path / "home")}


def _write(path: Path, values: dict[str, Any]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(values), encoding="utf-8")
    return path


@pytest.mark.parametrize(("key", "value"), [
    ("max_insights", "abc"), ("max_insights", [3]), ("max_insights", True), ("max_insights", 2.5),
    ("ann_min_rows", {"n": 1}), ("vault", 5), ("vault", ["notes"]), ("db", ["x.db"]), ("store", 7),
    ("embed_provider", ["hash"]), ("audit_content", [1]), ("daemon", {"on": True}),
    ("prune_min_age", [24]), ("daemon_idle", "soon"),  # (card_theme: tests/app/test_config_card_theme.py)
])
def test_a_wrong_type_in_the_config_file_is_invalid_input_naming_the_key_and_the_file(
        tmp_path: Path, key: str, value: Any) -> None:
    path = _write(tmp_path / "cfg" / "config.json", {key: value})
    with pytest.raises(InvalidInput) as caught:
        load_config(_env(tmp_path), config_path=str(path))
    assert key in caught.value.message and str(path) in caught.value.message
    assert caught.value.details == {"setting": key, "config": str(path)}


def test_the_cli_answers_a_wrong_type_with_a_json_envelope_naming_the_key(
        tmp_path: Path, cli_run: Callable[..., tuple[int, Any]]) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "a.md").write_text("# A\n\n- a line\n", encoding="utf-8")
    for key, value, command in (("vault", 5, ["ingest"]), ("max_insights", [1], ["status"]),
                                ("vault", ["notes"], ["doctor"])):
        path = _write(tmp_path / f"{key}.json", {key: value})
        code, out = cli_run(["--config", str(path), *command])
        assert code != 0 and out["ok"] is False, (key, out)
        if command == ["doctor"]:  # doctor's finding, with its report (tests/cli/test_first_run.py)
            assert out["error"]["code"] == "doctor_failed", out
            assert out["error"]["details"]["checks"]["config"]["setting"] == key
        else:
            assert out["error"]["code"] == "invalid_input", out
            assert out["error"]["details"]["setting"] == key
        assert str(path) in out["error"]["message"]


def test_right_types_still_load_and_a_whole_number_written_as_a_float_counts(tmp_path: Path) -> None:
    path = _write(tmp_path / "config.json", {"max_insights": 7.0, "ann_min_rows": "12", "audit_content": False,
                                             "daemon": 0, "prune_min_age": 3600, "daemon_idle": "5m",
                                             "card_theme": "light", "store": "work"})
    cfg = load_config(_env(tmp_path), config_path=str(path))
    assert (cfg.max_insights, cfg.ann_min_rows, cfg.audit_content, cfg.daemon) == (7, 12, False, False)
    assert (cfg.prune_min_age_s, cfg.daemon_idle_s, cfg.card_theme, cfg.store) == (3600.0, 300.0, "light", "work")


def test_relative_paths_in_the_config_file_are_read_beside_the_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli_run: Callable[..., tuple[int, Any]]) -> None:
    folder = tmp_path / "settings"
    path = _write(folder / "config.json", {"db": "data/mine.db", "vault": "../notes", "home": "~/elsewhere"})
    elsewhere = tmp_path / "cwd"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    monkeypatch.setenv("HOME", str(tmp_path))
    env = {"HOME": str(tmp_path)}
    cfg = load_config(env, config_path=str(path))
    assert cfg.db_path == folder / "data" / "mine.db"
    assert cfg.vault == str(tmp_path / "notes")
    assert cfg.home == tmp_path / "elsewhere"  # `~` is the user's home, not the file's folder
    # a path given on the command line or in the environment keeps meaning the working directory
    assert load_config({**env, "MNEMON_DB": "env.db"}, config_path=str(path)).db_path == Path("env.db")
    code, out = cli_run(["--config", "../settings/config.json", "config"])
    assert code == 0 and out["db"] == str(folder / "data" / "mine.db") and out["vault"] == str(tmp_path / "notes")


def test_absolute_paths_and_server_urls_in_the_config_file_are_kept(tmp_path: Path) -> None:
    url = "postgresql://user@localhost/mnemon"
    path = _write(tmp_path / "a" / "config.json", {"db": url, "vault": str(tmp_path / "v")})
    cfg = load_config(_env(tmp_path), config_path=str(path))
    assert cfg.db_path == url and cfg.vault == str(tmp_path / "v")


_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
                     lambda inner: (st.lists(inner, max_size=3)
                                    | st.dictionaries(st.text(max_size=4), inner, max_size=3)),
                     max_leaves=5)


@given(key=st.sampled_from([s.name for s in SETTINGS]), value=_JSON)
def test_any_json_value_in_the_config_file_loads_with_the_settings_type_or_is_refused_by_name(
        tmp_path_factory: pytest.TempPathFactory, key: str, value: Any) -> None:
    folder = tmp_path_factory.mktemp("cfg")
    path = _write(folder / "config.json", {key: value})
    try:
        cfg = load_config({"HOME": str(folder), "MNEMON_HOME": str(folder / "home")}, config_path=str(path))
    except InvalidInput as exc:
        assert exc.details.get("setting", key) == key
        return
    assert isinstance(cfg, Config)
    assert isinstance(cfg.max_insights, int) and isinstance(cfg.ann_min_rows, int)
    assert isinstance(cfg.audit_content, bool) and isinstance(cfg.daemon, bool)
    assert cfg.vault is None or isinstance(cfg.vault, str)
    assert isinstance(cfg.embed_provider, str) and isinstance(cfg.card_theme, str) and isinstance(cfg.store, str)
