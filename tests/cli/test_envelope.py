"""The agent contract: every command prints exactly one JSON document; failures are
`{"ok": false, "error": {"code", "message"}}` with a non-zero exit, never a traceback on stdout or stderr."""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
import pytest

from mnemon.interfaces.cli import commands  # noqa: F401  (registers the commands)
from mnemon.interfaces.cli.main import cli


def _all_commands(group: click.Group = cli, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    out: list[tuple[str, ...]] = []
    for name, cmd in sorted(group.commands.items()):
        path = (*prefix, name)
        if isinstance(cmd, click.Group):
            out.extend(_all_commands(cmd, path))
        else:
            out.append(path)
    return out


def _assert_error(code: int, out: Any) -> None:
    assert code != 0
    assert out["ok"] is False and set(out["error"]) >= {"code", "message"}
    assert isinstance(out["error"]["code"], str) and out["error"]["message"]


@pytest.fixture
def ids(cli_run: Callable[..., tuple[int, Any]]) -> dict[str, str]:
    a = cli_run(["remember", "We run the API on Kubernetes"])[1]["id"]
    b = cli_run(["remember", "Kubernetes upgrades happen because of CVEs"])[1]["id"]
    return {"a": a, "b": b}


# Success and failure for each foundation command. {a}/{b} are memory ids, {file} an import file, {missing} a path.
FOUNDATION: dict[tuple[str, ...], tuple[list[str], list[str]]] = {
    ("remember",): (["remember", "a brand new memory", "--cat", "fact", "--imp", "4", "--tags", "x,y"],
                    ["remember", "x", "--imp", "9"]),
    ("recall",): (["recall", "Kubernetes"], ["recall", "Kubernetes", "--limit", "0"]),
    ("search",): (["search", "Kubernetes"], ["search", "Kubernetes", "--limit", "oops"]),
    ("show",): (["show", "{a}"], ["show", "no-such-id"]),
    ("forget",): (["forget", "{b}"], ["forget", "no-such-id"]),
    ("link",): (["link", "{a}", "{b}", "--type", "causal", "--sub-type", "enables"],
                ["link", "{a}", "{b}", "--type", "friendship"]),
    ("related",): (["related", "{a}", "--depth", "2"], ["related", "{a}", "--depth", "0"]),
    ("status",): (["status"], ["status", "--nope"]),
    ("log",): (["log", "--limit", "5"], ["log", "--limit", "0"]),
    ("gc",): (["gc", "--threshold", "0.9"], ["gc", "--keep", "no-such-id"]),
    ("import",): (["import", "{file}"], ["import", "{missing}"]),
    ("export",): (["export"], ["export", "--bogus"]),
    ("embed",): (["embed", "--status"], ["--embed", "none", "embed", "--all"]),
    ("store", "list"): (["store", "list"], ["store", "list", "--bogus"]),
    ("store", "create"): (["store", "create", "fresh"], ["store", "create", "bad/name"]),
    ("store", "set"): (["store", "set", "default"], ["store", "set", "ghost"]),
    ("store", "remove"): (["store", "remove", "spare"], ["store", "remove", "default"]),
    ("config",): (["config"], ["--config", "{missing}", "config"]),
}


def _fill(args: list[str], ids: dict[str, str], tmp_path: Path) -> list[str]:
    f = tmp_path / "in.json"
    f.write_text(json.dumps({"insights": [{"content": "imported fact"}]}))
    return [a.format(a=ids["a"], b=ids["b"], file=f, missing=tmp_path / "missing.json") for a in args]


def test_every_foundation_command_is_registered() -> None:
    registered = set(_all_commands())
    assert set(FOUNDATION) <= registered, sorted(set(FOUNDATION) - registered)


@pytest.mark.parametrize("command", sorted(FOUNDATION))
def test_foundation_command_success_and_failure(command: tuple[str, ...], cli_run: Callable[..., tuple[int, Any]],
                                                ids: dict[str, str], tmp_path: Path) -> None:
    ok_args, bad_args = FOUNDATION[command]
    if command == ("store", "remove"):
        cli_run(["store", "create", "spare"])
    code, out = cli_run(_fill(ok_args, ids, tmp_path))
    assert code == 0, out
    assert not (isinstance(out, dict) and out.get("ok") is False), out
    code, out = cli_run(_fill(bad_args, ids, tmp_path))
    _assert_error(code, out)


@pytest.mark.parametrize("command", _all_commands())
def test_every_command_turns_a_usage_error_into_the_envelope(command: tuple[str, ...],
                                                             cli_run: Callable[..., tuple[int, Any]]) -> None:
    code, out = cli_run([*command, "--definitely-not-an-option"])
    _assert_error(code, out)
    assert out["error"]["code"] == "usage"


def test_unknown_command_and_missing_argument(cli_run: Callable[..., tuple[int, Any]]) -> None:
    _assert_error(*cli_run(["no-such-command"]))
    _assert_error(*cli_run(["show"]))
    _assert_error(*cli_run(["remember"]))


def test_remember_reads_stdin_and_pretty_is_still_one_document(cli_run: Callable[..., tuple[int, Any]]) -> None:
    code, out = cli_run(["--pretty", "remember", "-"], input="from stdin\nwith two lines")
    assert code == 0 and out["action"] == "added"
    assert cli_run(["show", out["id"]])[1]["content"] == "from stdin\nwith two lines"


def test_undecodable_bytes_in_argv_are_a_json_error_not_a_crash(cli_run: Callable[..., tuple[int, Any]]) -> None:
    code, out = cli_run(["remember", "bad \udcff bytes"])  # how Python hands over invalid UTF-8 argv
    _assert_error(code, out)
    assert out["error"]["code"] == "invalid_input"


def test_unexpected_exceptions_become_an_internal_error(cli_run: Callable[..., tuple[int, Any]],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    from mnemon.app.memory import Mnemon

    def boom(self: Mnemon) -> None:
        raise RuntimeError("simulated bug")

    monkeypatch.setattr(Mnemon, "status", boom)
    code, out = cli_run(["status"])
    _assert_error(code, out)
    assert out["error"]["code"] == "internal"


def test_a_real_process_keeps_the_contract(cli_proc: Callable[..., tuple[int, Any]]) -> None:
    code, out = cli_proc(["remember", "process-level memory", "--cat", "fact"])
    assert code == 0 and out["action"] == "added"
    code, out = cli_proc(["remember", "x", "--cat", "nonsense"])
    _assert_error(code, out)
    code, out = cli_proc(["show", "missing"])
    _assert_error(code, out)
    assert out["error"]["code"] == "not_found"


def test_a_db_that_cannot_be_a_store_is_a_store_error_and_is_left_alone(cli_run, tmp_path: Path) -> None:
    import sqlite3

    notes = tmp_path / "notes.json"
    notes.write_text('{"not": "a database"}')
    foreign = tmp_path / "other-app.sqlite"
    with sqlite3.connect(foreign) as conn:
        conn.execute("CREATE TABLE accounts (id INTEGER PRIMARY KEY)")
    conn.close()
    before = foreign.read_bytes()
    for db in (tmp_path, notes, foreign):  # a folder, a text file, another program's database
        code, out = cli_run(["--db", str(db), "recall", "anything"])
        assert code == 1 and out["error"]["code"] == "store_error", out
        assert str(db) in out["error"]["message"]
    assert notes.read_text() == '{"not": "a database"}' and foreign.read_bytes() == before
    with sqlite3.connect(foreign) as conn:  # never migrated into a mnemon store
        assert {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")} == {"accounts"}
    conn.close()


def test_arguments_that_are_not_utf8_are_invalid_input_for_every_command(
        cli_run: Callable[..., tuple[int, Any]], ids: dict[str, str]) -> None:
    bad = "a\udcff"  # how Python hands over an argument whose bytes are not UTF-8
    for args in (["show", bad], ["recall", f"Kubernetes {bad}"], ["search", bad], ["log", "--op", bad],
                 ["link", ids["a"], ids["b"], "--sub-type", bad], ["forget", "--source", f"mneme://{bad}"],
                 ["related", bad], ["gc", "--keep", bad]):
        code, out = cli_run(args)
        _assert_error(code, out)
        assert out["error"]["code"] == "invalid_input" and "UTF-8" in out["error"]["message"], args


def test_output_is_standard_json_and_non_numbers_are_refused(cli_run: Callable[..., tuple[int, Any]],
                                                            ids: dict[str, str]) -> None:
    for args in (["gc", "--threshold", "nan"], ["gc", "--threshold", "inf"], ["gc", "--limit", "0"],
                 ["link", ids["a"], ids["b"], "--meta", '{"x": NaN}'], ["recall", "x", "--brief",
                                                                       "--excerpt-chars", "0"]):
        code, out = cli_run(args)
        _assert_error(code, out)
        assert out["error"]["code"] == "invalid_input", args
    from mnemon.interfaces.payloads import dumps
    assert json.loads(dumps({"score": float("nan"), "xs": [float("inf"), 1.5]})) == {"score": None, "xs": [None, 1.5]}


def test_errors_are_indented_when_pretty_is_asked(cli_raw: Callable[..., tuple[int, str, str]]) -> None:
    code, out, _ = cli_raw(["--pretty", "show", "nope"])
    assert code != 0 and out.startswith("{\n") and json.loads(out)["error"]["code"] == "not_found"


def test_remember_from_stdin_is_the_same_memory_as_from_an_argument(cli_run: Callable[..., tuple[int, Any]]) -> None:
    first = cli_run(["remember", "-"], input="Deploys are frozen on Fridays\n")[1]
    again = cli_run(["remember", "Deploys are frozen on Fridays"])[1]
    assert again["action"] == "skipped" and again["id"] == first["id"]


def test_recall_filters_are_checked(cli_run: Callable[..., tuple[int, Any]], ids: dict[str, str]) -> None:
    code, out = cli_run(["recall", "Kubernetes", "--cat", "Decision"])
    _assert_error(code, out)
    assert out["error"]["code"] == "invalid_input" and "decision" in out["error"]["message"]
    for extra in (["--cat", "fact"], ["--brief"], ["--explain"], ["--limit", "-1"], ["--limit", "0"]):
        code, out = cli_run(["recall", "Kubernetes", "--basic", *extra])
        _assert_error(code, out)
    code, out = cli_run(["recall", "w " * 3000, "--basic"])
    assert code != 0 and out["error"]["code"] == "invalid_input"
    code, out = cli_run(["recall", "", "--basic", "--limit", "5"])  # upstream's browse call: every memory
    assert code == 0 and isinstance(out, list) and {m["id"] for m in out} == set(ids.values())


def test_output_is_utf8_whatever_the_locale(tmp_path: Path) -> None:
    """Under a latin-1 (or ASCII) stdout, a memory in another script used to fail to print (and was reported as
    bad input); JSON is UTF-8."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "PYTHONIOENCODING": "latin-1", "MNEMON_DAEMON": "off", "MNEMON_EMBED_PROVIDER": "hash"}
    db = str(tmp_path / "m.db")
    for args in (["remember", "東京 office opens in May"], ["search", "東京"]):
        proc = subprocess.run([sys.executable, "-m", "mnemon", "--db", db, *args], env=env, capture_output=True,
                              timeout=60)
        assert proc.returncode == 0, proc.stdout
    assert "東京" in json.loads(proc.stdout.decode("utf-8"))["results"][0]["content"]


@pytest.mark.parametrize(("args", "hint"), [
    (["recall", "x", "--pretty"], "give it before the command (mnemon --pretty recall …)"),
    (["retrieve", "--prompt", "x", "--db", "other.db"], "give it before the command (mnemon --db … retrieve …)"),
    (["note", "read", "a.md", "--store", "work"], "give it before the command (mnemon --store … note read …)"),
])
def test_a_global_option_after_the_command_says_where_it_belongs(
        cli_run: Callable[..., tuple[int, Any]], args: list[str], hint: str) -> None:
    code, out = cli_run(args)
    _assert_error(code, out)
    assert out["error"]["code"] == "usage" and hint in out["error"]["message"]
    # an option that exists nowhere gets no such hint
    code, out = cli_run(["recall", "x", "--bogus"])
    assert out["error"]["code"] == "usage" and "before the command" not in out["error"]["message"]
