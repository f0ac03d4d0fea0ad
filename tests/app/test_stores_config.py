"""Settings precedence (flag > env > file > default), store location, named stores, --readonly."""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mnemon.app.config import load_config, parse_duration
from mnemon.core.errors import InvalidInput, NotFound


def test_default_location_is_home_data_store(tmp_path: Path) -> None:
    cfg = load_config({"MNEMON_HOME": str(tmp_path), "HOME": str(tmp_path)})
    assert cfg.db_path == tmp_path / "data" / "default" / "mnemon.db" and cfg.store == "default"
    assert cfg.embed_provider == "local" and cfg.max_insights == 1000 and cfg.prune_min_age_s == 86400


def test_precedence_flag_over_env_over_file_over_default(tmp_path: Path) -> None:
    conf = tmp_path / "c.json"
    conf.write_text(json.dumps({"store": "fromfile", "max_insights": 7, "embed_provider": "none"}))
    env = {"MNEMON_HOME": str(tmp_path), "MNEMON_CONFIG": str(conf), "HOME": str(tmp_path)}
    assert load_config(env).store == "fromfile" and load_config(env).max_insights == 7
    env["MNEMON_STORE"] = "fromenv"
    assert load_config(env).store == "fromenv"
    assert load_config(env, store="fromflag").store == "fromflag"
    assert load_config(env, db=str(tmp_path / "x.db")).db_path == tmp_path / "x.db"
    (tmp_path / "active").write_text("fromactive\n")
    assert load_config({"MNEMON_HOME": str(tmp_path), "HOME": str(tmp_path)}).store == "fromactive"


def test_a_store_or_home_given_closer_than_the_files_db_names_the_database(tmp_path: Path) -> None:
    # `init` writes the db path into the config file; a later --store or MNEMON_HOME must still be obeyed
    conf = tmp_path / "c.json"
    pinned = tmp_path / "pinned.db"
    conf.write_text(json.dumps({"db": str(pinned)}))
    env = {"MNEMON_CONFIG": str(conf), "HOME": str(tmp_path)}
    assert load_config(env).db_path == pinned
    assert load_config(env, store="work").db_path == Path("~/.mnemon").expanduser() / "data" / "work" / "mnemon.db"
    home = tmp_path / "h"
    assert load_config(env, home=str(home)).db_path == home / "data" / "default" / "mnemon.db"
    assert load_config({**env, "MNEMON_STORE": "s", "MNEMON_HOME": str(home)}).db_path == home / "data" / "s" / \
        "mnemon.db"
    # a home from the environment (a profile's) keeps the db the file names; a db given closer still wins
    assert load_config({**env, "MNEMON_HOME": str(home)}).db_path == pinned
    assert load_config({**env, "MNEMON_STORE": "s", "MNEMON_DB": str(tmp_path / "e.db")}).db_path == \
        tmp_path / "e.db"
    assert load_config({**env, "MNEMON_STORE": "s"}, db=str(tmp_path / "f.db")).db_path == tmp_path / "f.db"
    conf.write_text(json.dumps({"db": str(pinned), "store": "fromfile"}))
    assert load_config(env).db_path == pinned


@pytest.mark.parametrize("env", [{"MNEMON_STORE": "../escape"}, {"MNEMON_STORE": "-x"},
                                 {"MNEMON_MAX_INSIGHTS": "lots"}, {"MNEMON_AUTO_PRUNE_MIN_AGE": "soon"}])
def test_bad_settings_are_invalid_input(tmp_path: Path, env: dict[str, str]) -> None:
    with pytest.raises(InvalidInput):
        load_config({"MNEMON_HOME": str(tmp_path), "HOME": str(tmp_path), **env})


def test_missing_explicit_config_file_is_not_found(tmp_path: Path) -> None:
    with pytest.raises(NotFound):
        load_config({"HOME": str(tmp_path)}, config_path=str(tmp_path / "nope.json"))


def test_durations() -> None:
    assert [parse_duration(v) for v in ("24h", "7d", "30m", "90s", "0", "1.5h", 12)] == \
        [86400, 604800, 1800, 90, 0, 5400, 12]


def test_store_commands_create_set_list_remove(cli_run: Callable[..., tuple[int, Any]], home: Path) -> None:
    assert cli_run(["store", "create", "work"])[0] == 0
    assert (home / "data" / "work" / "mnemon.db").exists()
    code, out = cli_run(["store", "create", "work"])
    assert code != 0 and out["error"]["code"] == "conflict"
    assert cli_run(["store", "set", "work"])[1] == {"status": "active", "name": "work"}
    code, out = cli_run(["remember", "lives in the work store"])
    assert code == 0
    listing = cli_run(["store", "list"])[1]
    assert listing["active"] == "work" and {s["name"] for s in listing["stores"]} >= {"work"}
    code, out = cli_run(["store", "remove", "work"])
    assert code != 0 and out["error"]["code"] == "conflict"  # the active store is protected
    cli_run(["store", "create", "other"])
    cli_run(["store", "set", "other"])
    assert cli_run(["store", "remove", "work"])[1]["error"]["code"] == "conflict"  # it holds a memory
    assert cli_run(["store", "remove", "work", "--force"])[0] == 0 and not (home / "data" / "work").exists()
    code, out = cli_run(["store", "set", "ghost"])
    assert code != 0 and out["error"]["code"] == "not_found"
    code, out = cli_run(["store", "create", "bad/name"])
    assert code != 0 and out["error"]["code"] == "invalid_input"


def test_db_and_store_flags_and_env_pick_the_file(cli_run: Callable[..., tuple[int, Any]], home: Path,
                                                  tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    explicit = tmp_path / "explicit.db"
    cli_run(["--db", str(explicit), "remember", "in explicit"])
    cli_run(["--store", "flagged", "remember", "in flagged"])
    monkeypatch.setenv("MNEMON_STORE", "envstore")
    cli_run(["remember", "in envstore"])
    for path, text in ((explicit, "in explicit"), (home / "data" / "flagged" / "mnemon.db", "in flagged"),
                       (home / "data" / "envstore" / "mnemon.db", "in envstore")):
        code, out = cli_run(["--db", str(path), "status"])
        assert out["total_insights"] == 1, path


def test_readonly_refuses_every_write_with_a_json_error(cli_run: Callable[..., tuple[int, Any]]) -> None:
    code, out = cli_run(["remember", "Kubernetes note one"])
    a = out["id"]
    b = cli_run(["remember", "second Kubernetes note"])[1]["id"]
    for args in (["remember", "new"], ["remember", "Kubernetes note one"], ["forget", a],
                 ["link", a, b, "--type", "causal"], ["gc"], ["gc", "--keep", a]):
        code, out = cli_run(["--readonly", *args])
        assert code != 0 and out["ok"] is False and out["error"]["code"] == "readonly", args
    code, shown = cli_run(["--readonly", "show", a])
    assert code == 0 and shown["access_count"] == 0  # reads work and leave no trace
    assert cli_run(["--readonly", "status"])[1]["total_insights"] == 2
    assert cli_run(["status"])[1]["total_insights"] == 2


def test_a_dry_run_forget_of_a_scope_reads_a_readonly_store(cli_run: Callable[..., tuple[int, Any]],
                                                              tmp_path: Path) -> None:
    """The world model's part of `forget --source … --dry-run` took the write lock: `readonly`, as no dry run is."""
    payload = tmp_path / "p.json"
    payload.write_text(json.dumps({"source_path": "mneme://agent/run-1", "nodes": [{"ref": "a", "name": "Ana"}],
                                   "edges": [], "observations": []}), encoding="utf-8")
    assert cli_run(["remember", "--payload", str(payload)])[0] == 0
    code, out = cli_run(["--readonly", "forget", "--source", "mneme://agent/run-1", "--dry-run"])
    assert code == 0 and out["dry_run"] is True and out["removed"]["nodes"] == 1, out
    code, out = cli_run(["--readonly", "forget", "--source", "mneme://agent/run-1"])
    assert code != 0 and out["error"]["code"] == "readonly"


def test_readonly_on_a_missing_store_is_a_clear_error(cli_run: Callable[..., tuple[int, Any]]) -> None:
    code, out = cli_run(["--readonly", "status"])
    assert code != 0 and out["error"]["code"] == "store_error" and "no database" in out["error"]["message"]


def test_after_init_a_store_flag_still_picks_the_database(cli_run: Callable[..., tuple[int, Any]], home: Path,
                                                          example_vault: Path) -> None:
    """`init` writes the db it saw into the config file; that must not send a later `--store work` call elsewhere."""
    assert cli_run(["init", "--vault", str(example_vault)])[0] == 0
    assert cli_run(["--store", "work", "remember", "only in work"])[0] == 0
    assert cli_run(["--store", "work", "status"])[1]["total_insights"] == 1
    assert cli_run(["status"])[1]["total_insights"] == 0


def test_the_store_in_use_cannot_be_removed_however_it_was_picked(cli_run: Callable[..., tuple[int, Any]],
                                                                  home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert cli_run(["store", "create", "work"])[0] == 0
    assert cli_run(["--store", "work", "remember", "work memory that matters"])[0] == 0
    code, out = cli_run(["--store", "work", "store", "remove", "work"])
    assert code != 0 and out["error"]["code"] == "conflict"
    monkeypatch.setenv("MNEMON_STORE", "work")
    code, out = cli_run(["store", "remove", "work"])
    assert code != 0 and out["error"]["code"] == "conflict"
    assert cli_run(["status"])[1]["total_insights"] == 1
    monkeypatch.delenv("MNEMON_STORE")
    assert cli_run(["store", "remove", "work", "--force"])[0] == 0  # picked by nothing now: removable


@pytest.mark.parametrize("name", ["foo\n", "foo\n\n", "\nfoo"])
def test_a_store_name_with_a_newline_is_refused(cli_run: Callable[..., tuple[int, Any]], home: Path,
                                                name: str) -> None:
    code, out = cli_run(["store", "create", name])
    assert code != 0 and out["error"]["code"] == "invalid_input"
    assert not (home / "data").exists() or not any((home / "data").iterdir())


def test_unreadable_settings_are_invalid_input_not_internal(cli_run: Callable[..., tuple[int, Any]], home: Path,
                                                           tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"\xff{}")
    huge = tmp_path / "huge.json"
    huge.write_text('{"max_insights": 1e400}')
    for conf in (bad, huge):
        code, out = cli_run(["--config", str(conf), "status"])
        assert code != 0 and out["error"]["code"] == "invalid_input", out
    home.mkdir(parents=True, exist_ok=True)
    (home / "active").write_bytes(b"caf\xe9")
    code, out = cli_run(["store", "list"])
    assert code != 0 and out["error"]["code"] == "invalid_input" and "active" in out["error"]["message"]
    (home / "active").write_text("bad name!\n")
    code, out = cli_run(["status"])
    assert code != 0 and out["error"]["code"] == "invalid_input" and "store set" in out["error"]["message"]
    assert cli_run(["--store", "default", "store", "set", "default"])[0] == 0  # the way out the message names
    assert cli_run(["status"])[0] == 0


def test_config_says_where_each_value_came_from(cli_run, tmp_path, monkeypatch) -> None:
    """A setting that "does not take" is one given somewhere else too: `config` names the flag, variable or file."""
    conf = tmp_path / "c.json"
    conf.write_text(json.dumps({"max_insights": 50, "card_theme": "light"}), encoding="utf-8")
    monkeypatch.setenv("MNEMON_CARD_THEME", "dark")
    code, out = cli_run(["--config", str(conf), "--db", str(tmp_path / "x.db"), "config"])
    assert code == 0, out
    sources = out["sources"]
    assert sources["max_insights"] == f"config file {conf}" and out["max_insights"] == 50
    assert sources["card_theme"] == "MNEMON_CARD_THEME" and out["card_theme"] == "dark"  # the variable wins
    assert sources["db"] == "--db" and sources["audit_content"] == "default"
    assert cli_run(["config"])[1]["sources"]["db"] == "home and store"
