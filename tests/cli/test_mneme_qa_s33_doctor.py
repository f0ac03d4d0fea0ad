"""QA round 33: `mneme doctor` names the commands to run as `mneme …`.

Its advice said "run `mnemon update`" to a user who runs `mneme`: the command as typed under the script they ran
is `mneme update`. Paths in the report are left as they are; `mnemon doctor` still says `mnemon …`."""
from __future__ import annotations

import json
import shlex
from pathlib import Path

from cli.test_mneme_qa_s31 import mneme  # noqa: F401  (a fixture)


def test_each_next_step_names_mneme(mneme, cli_run, tmp_path: Path, example_vault: Path) -> None:
    config = tmp_path / "mnemon" / "config.json"  # a path holding "mnemon" is a path, never reworded
    assert mneme(["--config", config, "init", "--vault", example_vault, "--db", tmp_path / "m.sqlite",
                  "--out", tmp_path / "out"])[0] == 0
    code, out = mneme(["--config", config, "doctor"])
    given = shlex.quote(str(config))  # each suggested command carries the --config that chose the store
    assert code == 0 and out["next"] == f"run `mneme --config {given} ingest` to build the graph"
    assert out["config"] == str(config)
    assert mneme(["--config", config, "ingest"])[0] == 0
    code, out = mneme(["--config", config, "doctor"])
    assert out["next"] == (f"run `mneme --config {given} update` after editing notes; `mneme --config {given} "
                           "retrieve --prompt …` to use it")
    assert cli_run(["--config", config, "doctor"])[1]["next"].startswith(f"run `mnemon --config {given} update`")
    code, out = mneme(["--config", config, "--pretty", "doctor"])
    assert code == 0 and f"`mneme --config {given} update`" in out["next"]


def test_a_failing_doctor_names_mneme_in_its_problems(mneme, tmp_path: Path) -> None:
    config = tmp_path / "mnemon" / "missing.json"
    code, out = mneme(["--config", config, "doctor"])
    error = out["error"]
    init = f"`mneme --config {shlex.quote(str(config))} init --vault DIR"  # the --config that chose the store too
    assert code == 1 and error["code"] == "doctor_failed"
    assert f"{init}`" in error["message"] and "mnemon init" not in error["message"]
    assert error["details"]["problems"][0] == error["details"]["next"]
    assert f"{init}`" in error["details"]["next"]
    assert error["details"]["config"] == str(config)
    config.parent.mkdir()
    config.write_text(json.dumps({"vault": str(tmp_path / "nowhere")}))
    code, out = mneme(["--config", config, "doctor"])
    assert f"{init} --force`" in out["error"]["details"]["next"]
    config.write_text("{not json")
    code, out = mneme(["--config", config, "doctor"])
    assert "mnemon init" not in json.dumps(out) and code == 1
