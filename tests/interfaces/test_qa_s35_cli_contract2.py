"""QA session 35, the CLI's JSON contract, second round: `--version` as JSON, a misspelt `log --op`, options that
contradict or would be ignored, a config folder, an import whose every row fails, and '-' reading stdin for every
prompt and query."""
from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conftest import parse_one_json

CliRaw = Callable[..., tuple[int, str, str]]
CliRun = Callable[..., tuple[int, Any]]


# ── 1. --version ───────────────────────────────────────────────────────────────────────────────────────────────
def test_version_is_one_json_document(cli_raw: CliRaw) -> None:
    """It printed `mnemon, version 0.1.0`: the one answer no JSON reader could take."""
    from mnemon import __version__

    code, out, err = cli_raw(["--version"])
    assert code == 0 and err == ""
    assert parse_one_json(out) == {"name": "mnemon", "version": __version__}


def test_mneme_version_is_one_json_document(capsys: pytest.CaptureFixture[str]) -> None:
    from mnemon import __version__
    from mnemon.interfaces.mneme_cli import main as mneme_main

    capsys.readouterr()
    code = mneme_main(["--version"])
    out, _err = capsys.readouterr()
    assert code == 0
    assert parse_one_json(out) == {"name": "mneme", "version": __version__}


# ── 2. log --op ────────────────────────────────────────────────────────────────────────────────────────────────
def test_log_with_a_misspelt_op_names_the_known_ones_closest_first(cli_run: CliRun) -> None:
    """`log --op remeber` answered `{"entries": []}`: the log looked empty when the word was wrong."""
    assert cli_run(["remember", "We deploy on Fridays"])[0] == 0
    code, doc = cli_run(["log", "--op", "remeber"])
    assert code == 1 and doc["error"]["code"] == "invalid_input"
    assert "remeber" in doc["error"]["message"]
    assert doc["error"]["details"]["valid"][0] == "remember"
    assert "kill-edge" in doc["error"]["details"]["valid"]


def test_log_with_a_known_op_not_yet_written_is_an_empty_log(cli_run: CliRun) -> None:
    assert cli_run(["log", "--op", "kill-edge"]) == (0, {"entries": []})
    assert cli_run(["remember", "We deploy on Fridays"])[0] == 0
    code, doc = cli_run(["log", "--op", "remember"])
    assert code == 0 and [e["op"] for e in doc["entries"]] == ["remember"]


def test_every_op_the_code_logs_is_a_known_op() -> None:
    """The list `log --op` checks against holds every literal operation name the package writes to the oplog."""
    import re

    from mnemon.core.model import LOG_OPS

    src = Path(__file__).resolve().parents[2] / "src" / "mnemon"
    written: set[str] = set()
    pattern = re.compile(r"""(?:\.log\(|\.log\(\*_decision\(|record_access\(rt, \[[^\]]*\], |log_many\(\[\()"""
                         r"""["']([a-z][a-z_:-]*)["']""")
    for path in src.rglob("*.py"):
        written.update(pattern.findall(path.read_text(encoding="utf-8")))
    assert written and written <= set(LOG_OPS), sorted(written - set(LOG_OPS))


# ── 3. options that contradict, or would be dropped ────────────────────────────────────────────────────────────
def test_embed_status_with_all_is_refused_and_runs_nothing(cli_run: CliRun) -> None:
    """`embed --status --all` ran the backfill and dropped --status without a word."""
    assert cli_run(["--embed", "none", "remember", "We deploy on Fridays"])[0] == 0
    code, doc = cli_run(["embed", "--status", "--all"])
    assert code == 2 and doc["error"]["code"] == "usage"
    assert "--status" in doc["error"]["message"] and "--all" in doc["error"]["message"]
    code, status = cli_run(["embed", "--status"])
    assert code == 0 and status["embedded"] == 0  # nothing was embedded
    assert cli_run(["log", "--op", "embed:backfill"]) == (0, {"entries": []})


@pytest.mark.parametrize("extra", [["--content", "bought milk"], ["--heading", "Log"], ["--content", "-"]])
def test_daily_read_with_text_to_write_is_refused(cli_run: CliRun, tmp_path: Path, extra: list[str]) -> None:
    """`note daily read --content x` printed the note and dropped the text."""
    vault = tmp_path / "vault"
    vault.mkdir()
    code, doc = cli_run(["note", "daily", "read", "--vault", vault, "--date", "2026-03-02", *extra], input="stdin\n")
    assert code == 1 and doc["error"]["code"] == "invalid_input"
    assert extra[0] in doc["error"]["message"]
    assert list(vault.rglob("*.md")) == []
    code, doc = cli_run(["note", "daily", "read", "--vault", vault, "--date", "2026-03-02"])
    assert code == 0 and doc["exists"] is False


def test_serve_with_a_token_and_no_auth_is_refused_before_listening(cli_run: CliRun,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """`serve --token x --no-auth` started with the token required and said nothing."""
    from mnemon.interfaces.http import server

    def never(*_a: Any, **_k: Any) -> Any:
        raise RuntimeError("the server was started")

    monkeypatch.setattr(server, "make_server", never)
    code, doc = cli_run(["serve", "--port", "0", "--token", "s3cret", "--no-auth"])
    assert code == 1 and doc["error"]["code"] == "invalid_input"
    assert "--no-auth" in doc["error"]["message"]
    monkeypatch.setenv("MNEMON_HTTP_TOKEN", "s3cret")
    code, doc = cli_run(["serve", "--port", "0", "--no-auth"])
    assert code == 1 and "MNEMON_HTTP_TOKEN" in doc["error"]["message"]


@pytest.mark.parametrize("wait", ["nan", "NaN", "-nan"])
def test_daemon_stop_wait_nan_is_refused(cli_run: CliRun, wait: str) -> None:
    code, doc = cli_run(["daemon", "stop", "--wait", wait])
    assert code == 2 and doc["error"]["code"] == "usage" and "--wait" in doc["error"]["message"]


@pytest.mark.parametrize("command", ["recall", "search"])
def test_excerpt_chars_without_brief_is_refused(cli_run: CliRun, command: str) -> None:
    """`search x --excerpt-chars 5` printed every text whole: the length applies to --brief's excerpts only."""
    text = "We deploy the billing service on Fridays after the QA sign-off"
    assert cli_run(["remember", text])[0] == 0
    code, doc = cli_run([command, "billing", "--excerpt-chars", "12"])
    assert code == 1 and doc["error"]["code"] == "invalid_input"
    assert "--brief" in doc["error"]["message"]
    code, doc = cli_run([command, "billing", "--brief", "--excerpt-chars", "12"])
    assert code == 0 and doc["results"] and all(len(r["excerpt"]) <= 12 for r in doc["results"])
    code, doc = cli_run([command, "billing", "--brief"])
    assert code == 0 and doc["results"][0]["excerpt"] == text  # 240 by default


# ── 4. --config naming a folder ────────────────────────────────────────────────────────────────────────────────
def test_config_naming_a_folder_says_so(cli_run: CliRun, tmp_path: Path) -> None:
    """It said "config file … is not valid JSON: [Errno 21] Is a directory"."""
    folder = tmp_path / "conf"
    folder.mkdir()
    code, doc = cli_run(["--config", folder, "status"])
    assert code == 1 and doc["error"]["code"] == "invalid_input"
    message = doc["error"]["message"]
    assert "is a folder, not a file" in message and "JSON" not in message.split(":")[0] and "Errno" not in message


# ── 5. import where every row fails ────────────────────────────────────────────────────────────────────────────
@pytest.mark.parametrize("dry_run", [[], ["--dry-run"]])
def test_import_with_every_row_refused_fails(cli_run: CliRun, tmp_path: Path, dry_run: list[str]) -> None:
    """`[1, 2]` answered exit 0 with `errors: 2`: `mnemon import f && rm f` deleted a file nothing was taken from."""
    draft = tmp_path / "draft.json"
    draft.write_text("[1, 2]", encoding="utf-8")
    code, doc = cli_run(["import", *dry_run, draft])
    assert code == 1 and doc["ok"] is False and doc["error"]["code"] == "invalid_input"
    details = doc["error"]["details"]
    assert details["errors"] == 2 and [r["action"] for r in details["results"]] == ["error", "error"]
    assert cli_run(["status"])[1]["total_insights"] == 0


def test_restoring_an_export_whose_every_memory_is_malformed_fails(cli_run: CliRun, tmp_path: Path) -> None:
    assert cli_run(["remember", "We deploy on Fridays"])[0] == 0
    code, export = cli_run(["export"])
    assert code == 0
    for row in export["insights"]:
        row["content"] = 5
    for member in [key for key in export if key.startswith("world_")]:
        export[member] = []  # (a remember's own sense event would be restored: a partial import)
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(export), encoding="utf-8")
    code, doc = cli_run(["--store", "other", "import", broken])
    assert code == 1 and doc["error"]["code"] == "invalid_input"
    assert doc["error"]["details"]["results"][0]["action"] == "error"


def test_a_partial_import_still_answers_with_its_errors(cli_run: CliRun, tmp_path: Path) -> None:
    draft = tmp_path / "draft.json"
    draft.write_text(json.dumps({"insights": [{"content": "We deploy on Fridays"}, 5]}), encoding="utf-8")
    code, doc = cli_run(["import", draft])
    assert code == 0 and doc["imported"] == 1 and doc["errors"] == 1


# ── 6. '-' reads stdin for every prompt and query ──────────────────────────────────────────────────────────────
@pytest.mark.parametrize("argv", [["surface", "--prompt", "-"], ["surface", "-"],
                                  ["agent", "preflight", "--prompt", "-"]])
def test_prompt_dash_reads_stdin(cli_run: CliRun, argv: list[str]) -> None:
    """`surface --prompt -` and `agent preflight --prompt -` searched for the text "-" (`retrieve` read stdin)."""
    assert cli_run(["remember", "The billing service is deployed on Fridays"])[0] == 0
    code, doc = cli_run(argv, input="billing deploy\n")
    assert code == 0 and doc["prompt"] == "billing deploy"
    code, retrieved = cli_run(["retrieve", "--prompt", "-"], input="billing deploy\n")
    assert code == 0 and retrieved["prompt"] == "billing deploy"


@pytest.mark.parametrize("command", ["recall", "search"])
def test_query_dash_reads_stdin(cli_run: CliRun, command: str) -> None:
    assert cli_run(["remember", "The billing service is deployed on Fridays"])[0] == 0
    code, doc = cli_run([command, "-"], input="billing\n")
    assert code == 0 and len(doc["results"]) == 1


@pytest.mark.parametrize("argv", [["surface", "--prompt", "-"], ["agent", "preflight", "--prompt", "-"],
                                  ["recall", "-"]])
def test_prompt_dash_with_stdin_closed_is_invalid_input(cli_run: CliRun, monkeypatch: pytest.MonkeyPatch,
                                                        argv: list[str]) -> None:
    monkeypatch.setattr(sys, "stdin", None)
    code, doc = cli_run(argv)
    assert code == 1 and doc["error"]["code"] == "invalid_input" and "stdin" in doc["error"]["message"]


# ── sweep: import --no-diff of an export ───────────────────────────────────────────────────────────────────────
@pytest.mark.parametrize("kind_last", [False, True])
def test_import_no_diff_of_an_export_is_refused(cli_run: CliRun, tmp_path: Path, kind_last: bool) -> None:
    """A restore keeps the file's ids and never runs the duplicate check: `--no-diff` changed nothing, silently."""
    assert cli_run(["remember", "We deploy on Fridays"])[0] == 0
    code, export = cli_run(["export"])
    assert code == 0
    if kind_last:  # read whole, then restored
        export = {**{k: v for k, v in export.items() if k != "kind"}, "kind": export["kind"]}
    backup = tmp_path / "backup.json"
    backup.write_text(json.dumps(export), encoding="utf-8")
    code, doc = cli_run(["--store", "other", "import", "--no-diff", backup])
    assert code == 1 and doc["error"]["code"] == "invalid_input" and "--no-diff" in doc["error"]["message"]
    code, doc = cli_run(["--store", "other", "status"])  # the refused import made no store
    assert code == 1 and doc["error"]["code"] == "not_found"
    code, doc = cli_run(["--store", "other", "import", backup])
    assert code == 0 and doc["imported"] == 1


# ── sweep: graph --depth without --focus ───────────────────────────────────────────────────────────────────────
def test_graph_depth_without_focus_is_refused(cli_run: CliRun) -> None:
    """The overview has no hops to count: `graph --depth 3` drew the same graph and reported depth 3 as applied."""
    assert cli_run(["remember", "We deploy on Fridays"])[0] == 0
    code, doc = cli_run(["graph", "--depth", "3"])
    assert code == 2 and doc["error"]["code"] == "usage" and "--focus" in doc["error"]["message"]
    code, overview = cli_run(["graph"])
    assert code == 0 and overview["nodes"]
    code, around = cli_run(["graph", "--focus", overview["nodes"][0]["id"], "--depth", "3"])
    assert code == 0 and around["limits"]["depth"] == 3
