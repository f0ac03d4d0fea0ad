"""First run: `init`, `doctor`, the config file and where it is named — found by following the README from a blank
home (each test gets its own temp home and config dir from tests/conftest.py)."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest


def _config(tmp_path: Path, example_vault: Path, **extra: object) -> Path:
    conf = tmp_path / "c.json"
    conf.write_text(json.dumps({"vault": str(example_vault), "out": str(tmp_path / "out"), **extra}),
                    encoding="utf-8")
    return conf


def test_doctor_fails_a_db_that_is_not_a_database(cli_run, example_vault: Path, tmp_path: Path) -> None:
    # doctor said ok while every later command failed with `store_error`: it only looked at the folder
    db = tmp_path / "notes.db"
    db.write_text("not a database\n", encoding="utf-8")
    conf = _config(tmp_path, example_vault, db=str(db))
    code, out = cli_run(["--config", conf, "doctor"])
    assert code == 1 and out["error"]["code"] == "doctor_failed"
    check = out["error"]["details"]["checks"]["db_parent"]
    assert check["ok"] is False and "not a SQLite database" in check["error"]
    (tmp_path / "dir.db").mkdir()
    conf = _config(tmp_path, example_vault, db=str(tmp_path / "dir.db"))
    assert cli_run(["--config", conf, "doctor"])[1]["error"]["details"]["checks"]["db_parent"]["ok"] is False
    db.write_bytes(b"")  # an empty file is what SQLite makes of a new database: fine
    conf = _config(tmp_path, example_vault, db=str(db))
    assert cli_run(["--config", conf, "doctor"])[0] == 0


@pytest.mark.parametrize("body", ['{"vault": ', '{"max_insights": "lots"}', '[1]', '{"out": 7}',
                                  '{"follow_symlinks": "no"}', '{"hints": 5}'])
def test_doctor_reports_a_config_that_does_not_load(cli_run, tmp_path: Path, body: str) -> None:
    # doctor is where a broken config should be diagnosed, yet it failed like any other command (`invalid_input`, or
    # `internal` for an `out` that is not text) with no report
    conf = tmp_path / "c.json"
    conf.write_text(body, encoding="utf-8")
    code, out = cli_run(["--config", conf, "doctor"])
    assert code == 1 and out["error"]["code"] == "doctor_failed", out
    details = out["error"]["details"]
    assert details["checks"]["config"]["ok"] is False and str(conf) in details["problems"][0]
    assert details["checks"]["config"]["path"] == str(conf)


@pytest.mark.parametrize(("key", "value"), [("out", 7), ("out", ["a"]), ("follow_symlinks", "no"),
                                            ("hints", 5), ("hints", [1, 2])])
def test_vault_keys_of_the_wrong_type_are_refused_naming_the_file(cli_run, example_vault: Path, tmp_path: Path,
                                                                  key: str, value: object) -> None:
    # `out: 7` was an `internal` TypeError; `follow_symlinks: "no"` was read as true
    conf = _config(tmp_path, example_vault, **{key: value})
    code, out = cli_run(["--config", conf, "ingest"])
    assert code == 1 and out["error"]["code"] == "invalid_input", out
    assert key in out["error"]["message"] and str(conf) in out["error"]["message"]


def test_a_relative_out_in_the_config_file_is_beside_the_file(cli_run, example_vault: Path, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    # as `vault`, `db` and `home`: read against the working directory it put cards wherever the command ran
    conf = tmp_path / "conf" / "c.json"
    conf.parent.mkdir()
    conf.write_text(json.dumps({"vault": str(example_vault), "out": "cards"}), encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    code, out = cli_run(["--config", conf, "doctor"])
    report = out if code == 0 else out["error"]["details"]
    assert report["settings"]["out"] == str(tmp_path / "conf" / "cards"), out


def test_mnemon_config_naming_a_missing_file_is_not_found(cli_run, tmp_path: Path, example_vault: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    # as `--config PATH`: a file named on purpose that is not there was silently replaced by the defaults
    missing = tmp_path / "typo.json"
    monkeypatch.setenv("MNEMON_CONFIG", str(missing))
    code, out = cli_run(["config"])
    assert code == 1 and out["error"]["code"] == "not_found" and str(missing) in out["error"]["message"]
    assert "MNEMON_CONFIG" in out["error"]["message"]
    code, out = cli_run(["doctor"])  # doctor reports it, init creates it
    assert out["error"]["code"] == "doctor_failed"
    code, out = cli_run(["init", "--vault", example_vault])
    assert code == 0 and out["config"] == str(missing) and missing.exists()
    assert cli_run(["config"])[1]["config_path"] == str(missing)


def test_init_where_the_config_cannot_be_written_is_a_clean_error(cli_run, example_vault: Path,
                                                                  tmp_path: Path) -> None:
    # a config path under a file (or an unwritable folder) was an `internal` FileNotFoundError/PermissionError
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    code, out = cli_run(["--config", blocker / "sub" / "c.json", "init", "--vault", example_vault])
    assert code == 1 and out["error"]["code"] == "invalid_input", out
    assert str(blocker / "sub" / "c.json") in out["error"]["message"]
    if os.name == "posix" and os.geteuid() != 0:  # root writes anywhere
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        code, out = cli_run(["--config", locked / "c.json", "init", "--vault", example_vault])
        assert out["error"]["code"] == "invalid_input" and not list(locked.iterdir())


def test_doctor_names_a_key_no_command_reads(cli_run, example_vault: Path, tmp_path: Path) -> None:
    """A misspelled key was ignored without a word by every command: doctor warns, with the key it resembles."""
    conf = _config(tmp_path, example_vault, vualt="~/notes", colour="blue")
    code, out = cli_run(["--config", conf, "doctor"])
    assert code == 0, out
    assert len(out["warnings"]) == 2
    assert "'vualt'" in out["warnings"][1] and "did you mean 'vault'" in out["warnings"][1]
    assert "'colour'" in out["warnings"][0]
    assert "warnings" not in cli_run(["--config", _config(tmp_path, example_vault), "doctor"])[1]
