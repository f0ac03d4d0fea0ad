"""`doctor`'s advice names what to fix. A setting that does not load names where its value came from — the variable,
the flag or the config file — as the settings' precedence picks it: `MNEMON_CARD_THEME=solarized mnemon doctor` said
"fix <config.json>, or remove it", a file that did not even exist. And every failing check comes with a problem:
an empty vault or a config without `out` failed with `problems: []` and "fix the failing checks"."""
from __future__ import annotations

import json
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest


def _details(cli_run: Callable[..., tuple[int, Any]], args: list[str]) -> dict[str, Any]:
    code, out = cli_run([*args, "doctor"])
    assert code == 1 and out["error"]["code"] == "doctor_failed", out
    return dict(out["error"]["details"])


def test_a_bad_variable_is_named_as_the_origin_not_the_config_file(
        cli_run: Callable[..., tuple[int, Any]], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MNEMON_CARD_THEME", "solarized")
    details = _details(cli_run, [])
    assert details["checks"]["config"]["origin"] == "MNEMON_CARD_THEME"
    assert details["next"] == "set MNEMON_CARD_THEME to a valid value (one of dark, light), or unset it"
    assert details["config"] not in details["next"]


def test_the_variable_is_named_even_when_the_config_file_sets_the_same_setting_well(
        cli_run: Callable[..., tuple[int, Any]], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    conf = tmp_path / "c.json"
    conf.write_text(json.dumps({"max_insights": 50}), encoding="utf-8")
    monkeypatch.setenv("MNEMON_MAX_INSIGHTS", "-3")
    details = _details(cli_run, ["--config", str(conf)])
    assert details["checks"]["config"]["origin"] == "MNEMON_MAX_INSIGHTS"
    assert "MNEMON_MAX_INSIGHTS" in details["next"] and str(conf) not in details["next"]


def test_a_bad_value_in_the_file_names_the_file_and_the_setting(
        cli_run: Callable[..., tuple[int, Any]], tmp_path: Path) -> None:
    conf = tmp_path / "c.json"
    conf.write_text(json.dumps({"card_theme": "neon"}), encoding="utf-8")
    details = _details(cli_run, ["--config", str(conf)])
    assert details["checks"]["config"]["origin"] == f"config file {conf}"
    assert details["next"].startswith(f"fix setting card_theme in {conf} (one of dark, light)")


def test_a_flag_outranks_the_variable_and_is_named(
        cli_run: Callable[..., tuple[int, Any]], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MNEMON_STORE", "fine")
    details = _details(cli_run, ["--store", "no spaces allowed"])
    assert details["checks"]["config"]["origin"] == "--store"
    assert details["next"] == "give --store a valid value, or leave it out"
    monkeypatch.setenv("MNEMON_STORE", "bad/name")
    details = _details(cli_run, [])
    assert (details["checks"]["config"]["origin"], details["next"]) == (
        "MNEMON_STORE", "set MNEMON_STORE to a valid value, or unset it")


def test_a_store_name_from_the_active_pointer_keeps_the_pointers_own_advice(
        cli_run: Callable[..., tuple[int, Any]], tmp_path: Path) -> None:
    home = tmp_path / "h"
    home.mkdir()
    (home / "active").write_text("bad name\n", encoding="utf-8")
    details = _details(cli_run, ["--home", str(home)])
    assert "origin" not in details["checks"]["config"]
    assert "store set" in details["next"] and "config" not in details["next"]


def test_a_config_file_that_is_not_json_is_still_the_files_fault(
        cli_run: Callable[..., tuple[int, Any]], tmp_path: Path) -> None:
    conf = tmp_path / "c.json"
    conf.write_text("{", encoding="utf-8")
    details = _details(cli_run, ["--config", str(conf)])
    assert details["checks"]["config"]["origin"] == f"config file {conf}"
    assert details["next"].startswith(f"fix {conf}")


def _config(tmp_path: Path, **values: Any) -> Path:
    conf = tmp_path / "c.json"
    conf.write_text(json.dumps(values), encoding="utf-8")
    return conf


def test_a_config_naming_only_the_vault_is_healthy_cards_go_to_the_homes_folder(
        cli_run: Callable[..., tuple[int, Any]], tmp_path: Path) -> None:
    (tmp_path / "v").mkdir()
    (tmp_path / "v" / "a.md").write_text("# A\n\n- Pay the lease by 2026-05-01\n", encoding="utf-8")
    code, out = cli_run(["--config", _config(tmp_path, vault=str(tmp_path / "v")), "--home", tmp_path / "h",
                         "doctor"])
    assert code == 0 and out["ok"] is True, out
    assert out["checks"]["out_parent"] == {"ok": True, "path": str(tmp_path / "h" / "cards"), "default": True}


def test_an_empty_vault_is_a_named_problem(cli_run: Callable[..., tuple[int, Any]], tmp_path: Path) -> None:
    (tmp_path / "v").mkdir()
    details = _details(cli_run, ["--config", str(_config(tmp_path, vault=str(tmp_path / "v")))])
    assert details["checks"]["markdown_notes"]["ok"] is False
    assert details["problems"] == [f"vault {str(tmp_path / 'v')!r} holds no Markdown notes (*.md): is it the right"
                                   " folder?"] and details["next"] == details["problems"][0]


def test_a_database_or_output_folder_under_a_file_fails(cli_run: Callable[..., tuple[int, Any]],
                                                         tmp_path: Path) -> None:
    # a regular file where a folder belongs passed (os.access says a writable file is writable), and `ingest` then
    # failed with `store_error`
    (tmp_path / "v").mkdir()
    (tmp_path / "v" / "a.md").write_text("# A\n", encoding="utf-8")
    (tmp_path / "afile").write_text("", encoding="utf-8")
    conf = _config(tmp_path, vault=str(tmp_path / "v"), db=str(tmp_path / "afile" / "x.db"),
                   out=str(tmp_path / "afile" / "cards"))
    details = _details(cli_run, ["--config", str(conf)])
    assert details["checks"]["db_parent"]["ok"] is False and details["checks"]["out_parent"]["ok"] is False
    assert [p.split(" cannot")[0] for p in details["problems"]] == [
        f"database {tmp_path / 'afile' / 'x.db'}", f"output folder {tmp_path / 'afile' / 'cards'}"]


def test_a_config_without_a_vault_says_so(cli_run: Callable[..., tuple[int, Any]], tmp_path: Path) -> None:
    details = _details(cli_run, ["--config", str(_config(tmp_path))])
    # with the --config that chose the file, as each suggested command carries the options that chose the store
    init = shlex.join(["mnemon", "--config", str(_config(tmp_path)), "init", "--vault", "DIR", "--force"])
    assert details["problems"][0].startswith(f"no vault is set: run `{init}`")


def test_a_missing_vault_from_the_variable_is_fixed_there_not_by_init(
        cli_run: Callable[..., tuple[int, Any]], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # "name your vault with `mnemon init --vault DIR --force`" changed nothing: MNEMON_VAULT overrules the file
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "a.md").write_text("# A\n", encoding="utf-8")
    assert cli_run(["init", "--vault", str(tmp_path / "notes")])[0] == 0
    monkeypatch.setenv("MNEMON_VAULT", str(tmp_path / "gone"))
    details = _details(cli_run, [])
    assert details["checks"]["vault"] == {"ok": False, "path": str(tmp_path / "gone")}
    assert "point MNEMON_VAULT at your vault" in details["next"] and "init" not in details["next"]
    monkeypatch.delenv("MNEMON_VAULT")
    assert cli_run(["doctor"])[0] == 0  # the file's vault, once the variable is gone
    (tmp_path / "notes" / "a.md").unlink()
    (tmp_path / "notes").rmdir()
    assert "`mnemon init --vault DIR --force`" in _details(cli_run, [])["next"]  # the file's own: init fixes it
