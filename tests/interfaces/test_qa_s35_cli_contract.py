"""QA session 35: the CLI's JSON contract under hostile input. Every command prints exactly one JSON document on
stdout; a failure is the error envelope with a non-zero exit, never a traceback, never a document cut short
followed by a second one."""
from __future__ import annotations

import io
import json
import sqlite3
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from mnemon.app import backup_export

from interfaces.test_daemon import daemon_env, start, status  # noqa: F401  (the resident process's fixture)

from conftest import parse_one_json

CliRaw = Callable[..., tuple[int, str, str]]


def test_export_to_stdout_failing_midway_prints_only_the_error(cli_raw: CliRaw,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A damaged page met after the memories were written printed the partial export and then the envelope:
    `mnemon export > backup.json` left a file no JSON reader (nor `mnemon import`) accepts."""
    for text in ("We run the API on Kubernetes", "Postgres backups run nightly"):
        assert cli_raw(["remember", text])[0] == 0

    def damaged(rt: Any) -> Iterator[str]:
        yield '\n],"world":{'
        raise sqlite3.DatabaseError("database disk image is malformed")

    monkeypatch.setattr(backup_export, "export_world_chunks", damaged)
    code, out, err = cli_raw(["export"])
    assert code != 0
    doc = parse_one_json(out)
    assert doc["ok"] is False and doc["error"]["code"] == "store_error"
    assert "Traceback" not in err


def test_export_to_stdout_whole_is_one_document(cli_raw: CliRaw) -> None:
    assert cli_raw(["remember", "We run the API on Kubernetes"])[0] == 0
    code, out, _err = cli_raw(["export"])
    assert code == 0
    doc = json.loads(out)
    assert doc["kind"] == "mnemon-export" and len(doc["insights"]) == 1


LONG = "x" * 300  # one name of 300 bytes: past the 255 a file system allows


@pytest.mark.parametrize("argv", [
    ["store", "create", LONG],
    ["ingest", "--vault", LONG],
    ["thought", "--out", "{tmp}/" + LONG],
    ["export", "--out", "{tmp}/a\x00b"],
    ["import", "a\x00b"],
    ["sense", "add", "--file", "a\x00b"],
    ["init", "--vault", "a\x00b"],
], ids=["store-create", "ingest-vault", "thought-out", "export-out-nul", "import-nul", "sense-nul",
        "init-nul"])
def test_a_path_the_system_refuses_is_the_users_input_not_an_internal_error(
        argv: list[str], cli_run: Callable[..., tuple[int, Any]], tmp_path: Any) -> None:
    """A 300-byte name or a NUL byte in a path answered code 'internal' ("OSError: [Errno 36] File name too long",
    "ValueError: embedded null byte"), which says mnemon has a bug, for input the user can correct."""
    code, out = cli_run([a.replace("{tmp}", str(tmp_path)) for a in argv])
    assert code != 0 and out["ok"] is False
    assert out["error"]["code"] in ("invalid_input", "not_found"), out
    assert "Errno" not in out["error"]["message"] and "ValueError" not in out["error"]["message"]


def _vault(root: Any, notes: int) -> Any:
    root.mkdir()
    for k in range(notes):
        (root / f"note-{k}.md").write_text(f"# Note {k}\n\n- links to [[note-{(k + 1) % notes}]]\n", "utf-8")
    return root


@pytest.mark.parametrize("workers", ["0", "-1"])
def test_ingest_refuses_a_number_of_workers_below_one(workers: str, cli_run: Callable[..., tuple[int, Any]],
                                                      tmp_path: Any) -> None:
    """`--workers 0` and `--workers -1` were taken for one process without a word (0 reads as 'as many as there
    are cores' in many tools)."""
    vault = _vault(tmp_path / "vault", 3)
    code, out = cli_run(["ingest", "--vault", str(vault), "--workers", workers])
    assert code != 0 and out["error"]["code"] == "invalid_input" and "--workers" in out["error"]["message"]
    assert cli_run(["status"])[1]["total_insights"] == 0


def test_ingest_starts_no_more_parsing_processes_than_it_has_batches(cli_run: Callable[..., tuple[int, Any]],
                                                                     tmp_path: Any,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The pool forks every worker it is given at once: `ingest --workers 100000` over a 400-note vault forked
    processes until the machine ran out, for 12 batches of notes."""
    import concurrent.futures

    from mnemon.app.vault import ingest as ingest_module

    asked: list[int] = []
    real_pool = concurrent.futures.ProcessPoolExecutor

    def pool(max_workers: int, mp_context: Any) -> Any:
        asked.append(max_workers)
        return real_pool(max_workers=2, mp_context=mp_context)

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", pool)
    monkeypatch.setattr(ingest_module, "POOL_MIN_FILES", 2)
    vault = _vault(tmp_path / "vault", 60)
    code, out = cli_run(["ingest", "--vault", str(vault), "--workers", "100000", "--no-embed"])
    assert code == 0 and out["notes_read"] == 60
    batches = len(ingest_module._batch_bounds(60))
    assert asked and asked[0] <= batches, (asked, batches)


@pytest.mark.parametrize("blank", ["", " "])
def test_export_out_blank_is_refused(blank: str, cli_run: Callable[..., tuple[int, Any]], tmp_path: Any,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A script's unset "$OUT": `export --out ""` printed the whole export where a summary was expected and
    `--out " "` wrote it to a file named by a space in the working directory."""
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    assert cli_run(["remember", "We run the API on Kubernetes"])[0] == 0
    code, out = cli_run(["export", "--out", blank])
    assert code != 0 and out["error"]["code"] == "invalid_input" and "--out" in out["error"]["message"]
    assert list(cwd.iterdir()) == []


def test_export_out_dash_is_stdout(cli_raw: CliRaw, tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """`import -` reads stdin; `export --out -` wrote a file named '-' and printed a summary."""
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    assert cli_raw(["remember", "We run the API on Kubernetes"])[0] == 0
    code, out, _err = cli_raw(["export", "--out", "-"])
    assert code == 0 and json.loads(out)["kind"] == "mnemon-export"
    assert list(cwd.iterdir()) == []


@pytest.mark.parametrize("blank", ["", "  "])
def test_a_blank_config_flag_is_refused(blank: str, cli_run: Callable[..., tuple[int, Any]], tmp_path: Any,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A script's unset "$CONFIG": `--config ""` quietly read the user's own config file (its db, its store), as
    `--db ""` once did; `--config "  "` read a file named by two spaces if the working directory held one."""
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    if blank:
        (cwd / blank).write_text('{"store": "elsewhere"}', "utf-8")
    monkeypatch.chdir(cwd)
    code, out = cli_run(["--config", blank, "remember", "a fact to keep"])
    assert code != 0 and out["error"]["code"] == "invalid_input" and "--config" in out["error"]["message"]
    assert cli_run(["status"])[1]["total_insights"] == 0


DEEP = "[" * 100_000 + "]" * 100_000  # valid JSON, nested past what Python's parser recurses into


@pytest.mark.parametrize("argv", [
    ["remember", "--payload", "{file}"],
    ["import", "{file}"],
    ["sense", "add", "--file", "{file}"],
    ["predict", "add", "--file", "{file}"],
    ["action", "record", "--file", "-"],
], ids=["payload", "import", "sense", "predict", "action-stdin"])
def test_a_json_document_nested_too_deeply_is_invalid_input(argv: list[str], cli_run: Callable[..., tuple[int, Any]],
                                                            tmp_path: Any) -> None:
    """'[[[[…]]]]' 100,000 deep answered code internal ("RecursionError: maximum recursion depth exceeded while
    decoding a JSON array"), for every command that reads a JSON document."""
    doc = tmp_path / "deep.json"
    doc.write_text(DEEP, "utf-8")
    code, out = cli_run([a.replace("{file}", str(doc)) for a in argv], input=DEEP)
    assert code != 0 and out["error"]["code"] == "invalid_input", out
    assert "nested" in out["error"]["message"]
    assert cli_run(["status"])[1]["total_insights"] == 0


@pytest.mark.parametrize(("argv", "error"), [(["retrieve"], "usage"), (["retrieve", "--prompt", "-"], "invalid_input")])
def test_retrieve_without_a_prompt_and_no_stdin_says_so(argv: list[str], error: str, cli_raw: CliRaw,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """`mnemon retrieve <&-` (stdin closed, as under some process supervisors) answered code internal
    ("AttributeError: 'NoneType' object has no attribute 'read'"). No prompt at all is a usage error, as `recall`
    without a query is; '-' with no stdin to read is invalid input."""
    monkeypatch.setattr("sys.stdin", None)
    code, out, _err = cli_raw(argv)
    doc = parse_one_json(out)
    assert code != 0 and doc["error"]["code"] == error and "--prompt" in doc["error"]["message"]


def test_a_call_the_resident_process_answers_with_stdout_closed_ends_as_one_of_its_own(
        daemon_env: dict[str, str], tmp_path: Any) -> None:
    """`mnemon search x >&-` with a resident process running printed a traceback ("AttributeError: 'NoneType'
    object has no attribute 'write'") and exited 1; run alone it prints nothing and exits 0."""
    import os
    import subprocess
    import sys

    db = str(tmp_path / "m.db")
    alone = {**daemon_env, "MNEMON_DAEMON": "off"}
    assert subprocess.run([sys.executable, "-m", "mnemon", "--db", db, "remember", "Café Zürich"], env=alone,
                          capture_output=True, timeout=60).returncode == 0
    start(daemon_env)
    ends = []
    for env in (daemon_env, alone):
        proc = subprocess.run([sys.executable, "-m", "mnemon", "--db", db, "search", "Zürich"], env=env,
                              stderr=subprocess.PIPE, timeout=60, preexec_fn=lambda: os.close(1))
        ends.append((proc.returncode, proc.stderr))
    assert ends[0] == ends[1] == (0, b"")
    assert (status(daemon_env) or {}).get("served") == 1


@pytest.mark.parametrize("argv", [["ingest", "--vault", "{vault}"], ["embed", "--all"]], ids=["ingest", "embed"])
def test_a_bulk_command_with_stderr_closed_runs(argv: list[str], cli_raw: CliRaw, tmp_path: Any,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """`mnemon ingest --vault V 2>&-` (a cron line that throws away stderr) answered code internal
    ("AttributeError: 'NoneType' object has no attribute 'isatty'", from the progress bar) and ingested nothing."""
    vault = _vault(tmp_path / "vault", 3)
    monkeypatch.setattr("sys.stderr", None)
    code, out, _err = cli_raw([a.replace("{vault}", str(vault)) for a in argv])
    assert code == 0, out
    assert parse_one_json(out).get("ok") is not False


def test_remember_dash_with_stdin_closed_says_so(cli_raw: CliRaw, monkeypatch: pytest.MonkeyPatch) -> None:
    """`mnemon remember - <&-` answered code internal ("AttributeError: 'NoneType' object has no attribute
    'read'")."""
    monkeypatch.setattr("sys.stdin", None)
    code, out, _err = cli_raw(["remember", "-"])
    doc = parse_one_json(out)
    assert code != 0 and doc["error"]["code"] == "invalid_input" and "stdin" in doc["error"]["message"]


def test_export_out_naming_a_pipe_is_refused_and_left_a_pipe(cli_run: Callable[..., tuple[int, Any]],
                                                             tmp_path: Any) -> None:
    """`export --out` renamed its temporary file over whatever the path named: a named pipe (or, run as root,
    `--out /dev/null` or `/dev/full`: the device itself) was replaced by a regular file holding the export."""
    import os
    import stat

    assert cli_run(["remember", "We run the API on Kubernetes"])[0] == 0
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    keep = os.open(fifo, os.O_RDWR | os.O_NONBLOCK)  # a reader and writer of its own: nothing blocks on it
    try:
        os.write(keep, b"0123456789abcdef")
        code, out = cli_run(["export", "--out", str(fifo)])
    finally:
        os.close(keep)
    assert code != 0 and out["error"]["code"] == "invalid_input", out
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_export_out_through_a_symlink_writes_its_target(cli_run: Callable[..., tuple[int, Any]],
                                                        tmp_path: Any) -> None:
    """`export --out latest.json`, a link to the dated file, replaced the link by a file: the link was gone and
    the file it named kept the old export."""
    assert cli_run(["remember", "We run the API on Kubernetes"])[0] == 0
    target = tmp_path / "backup-1.json"
    target.write_text("{}", "utf-8")
    link = tmp_path / "latest.json"
    link.symlink_to(target.name)
    code, out = cli_run(["export", "--out", str(link)])
    assert code == 0 and out["path"] == str(target.resolve())
    assert link.is_symlink() and json.loads(target.read_text("utf-8"))["kind"] == "mnemon-export"


class _InterruptedStdout:
    """A terminal where Ctrl-C lands while the export is being written out: part of the first write gets through."""

    def __init__(self) -> None:
        self.text, self._interrupted = "", False
        self.encoding = "utf-8"

    def write(self, text: str) -> int:
        if not self._interrupted and len(text) > 200:
            self._interrupted = True
            self.text += text[:100]
            raise KeyboardInterrupt
        self.text += text
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False


def test_an_interrupt_while_the_export_is_printed_adds_no_second_document(monkeypatch: pytest.MonkeyPatch,
                                                                          cli_raw: CliRaw) -> None:
    """Ctrl-C while a large export was being written to stdout printed the 'aborted' envelope after the part already
    out: a reader got a cut export with a second document glued to it. Once a document has begun on stdout, the
    envelope goes to stderr."""

    from mnemon.interfaces.cli.main import main

    assert cli_raw(["remember", "We run the API on Kubernetes"])[0] == 0
    out, err = _InterruptedStdout(), io.StringIO()
    monkeypatch.setattr("sys.stdout", out)
    monkeypatch.setattr("sys.stderr", err)
    code = main(["export"])
    assert code != 0
    assert out.text.startswith('{"kind":"mnemon-export"') and '"ok":false' not in out.text
    assert json.loads(err.getvalue().strip().splitlines()[-1])["error"]["code"] == "aborted"


@pytest.mark.parametrize("argv", [
    ["note", "write", "Projects/tidewatch.md", "--mode", "overwrite"],
    ["write", "--path", "Projects/tidewatch.md", "--mode", "overwrite"],
    ["note", "upsert-section", "Projects/tidewatch.md", "--heading", "Notes"],
], ids=["note-write", "write", "upsert-section"])
def test_a_note_is_not_emptied_when_content_is_left_out_and_stdin_is_empty(
        argv: list[str], cli_run: Callable[..., tuple[int, Any]], example_vault: Any) -> None:
    """Run by an agent or cron (stdin /dev/null, not a terminal), `note write PATH --mode overwrite` without
    --content read the empty stdin and wrote it: the note was emptied (a backup kept the text)."""
    note = example_vault / "Projects" / "tidewatch.md"
    before = note.read_bytes()
    code, out = cli_run([*argv, "--vault", str(example_vault)], input="")
    assert code != 0 and out["error"]["code"] == "invalid_input" and "--content" in out["error"]["message"]
    assert note.read_bytes() == before
    assert not (example_vault / ".mnemon-backups").exists()


HUGE = "9" * 5000  # an integer literal longer than Python converts from text (4,300 digits)


@pytest.mark.parametrize(("argv", "doc"), [
    (["import", "-"], '{"insights":[{"content":"x","importance":%s}]}'),
    (["remember", "--payload", "-"], '{"source_path":"mneme://h","nodes":[{"ref":"n","name":"N","x":%s}]}'),
    (["sense", "add", "--file", "-"], '{"sense_type":"manual","source_id":%s}'),
    (["predict", "add", "--file", "-"], '{"title":"t","confidence":%s}'),
], ids=["import", "payload", "sense", "predict"])
def test_a_number_too_long_to_read_is_invalid_input(argv: list[str], doc: str,
                                                    cli_run: Callable[..., tuple[int, Any]]) -> None:
    """A 5,000-digit number in a JSON document answered code internal ("ValueError: Exceeds the limit (4300
    digits) for integer string conversion …")."""
    code, out = cli_run(argv, input=doc % HUGE)
    assert code != 0 and out["error"]["code"] == "invalid_input", out
    assert "digits" in out["error"]["message"] and "set_int_max_str_digits" not in out["error"]["message"]
    assert cli_run(["status"])[1]["total_insights"] == 0


def test_export_to_stdout_without_room_to_hold_it_says_what_to_do(cli_run: Callable[..., tuple[int, Any]],
                                                                  tmp_path: Any,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The export printed to stdout is held until whole (in memory, then a temporary file): with no room there
    (a full or missing temporary folder) the answer names the way out instead of an internal OSError."""
    import tempfile

    from mnemon.interfaces.cli import main as cli_main

    assert cli_run(["remember", "We run the API on Kubernetes"])[0] == 0
    monkeypatch.setattr(cli_main, "SPOOL_IN_MEMORY", 16)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "no-such-folder"))
    code, out = cli_run(["export"])
    assert code != 0 and out["error"]["code"] == "invalid_input", out
    assert "--out" in out["error"]["message"] and "TMPDIR" in out["error"]["message"]


@pytest.mark.parametrize("argv", [
    ["remember", "We run the API on Kubernetes", "--tags", "infra", "--tags", "k8s"],
    ["--store", "default", "--store", "other", "remember", "We run the API on Kubernetes"],
    ["remember", "We run the API on Kubernetes", "--imp", "5", "--imp=2"],
], ids=["tags", "global-store", "imp-equals"])
def test_an_option_given_twice_is_refused_and_stores_nothing(argv: list[str],
                                                             cli_run: Callable[..., tuple[int, Any]]) -> None:
    """Click kept the last of an option given twice without a word: `--tags infra --tags k8s` stored the tag k8s
    alone, `--store a --store b` wrote into b."""
    code, out = cli_run(argv)
    assert code == 2 and out["error"]["code"] == "usage" and "twice" in out["error"]["message"], out
    assert cli_run(["status"])[1]["total_insights"] == 0


def test_a_flag_given_twice_is_still_a_flag(cli_run: Callable[..., tuple[int, Any]]) -> None:
    assert cli_run(["remember", "We run the API on Kubernetes"])[0] == 0
    code, out = cli_run(["--pretty", "--pretty", "recall", "Kubernetes", "--verbose", "--verbose"])
    assert code == 0 and out["results"]


class _GoneReader(io.StringIO):
    """stdout whose reader went away (`mneme … | head -c1` after head exited)."""

    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")


@pytest.mark.parametrize("argv", [["tick"], ["remember"], ["note", "--help"], ["remember", "add", "--help"]],
                         ids=["unsupported", "usage", "help-note", "mneme-help"])
def test_mneme_answers_its_own_lines_quietly_to_a_reader_that_went_away(argv: list[str],
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """What `mneme` prints itself (an unsupported command, its own usage errors and help) raised BrokenPipeError
    with a traceback on stderr when the reader had gone; mnemon's commands end quietly with exit 1."""
    from mnemon.interfaces.mneme_cli import main as mneme_main

    err = io.StringIO()
    monkeypatch.setattr("sys.stdout", _GoneReader())
    monkeypatch.setattr("sys.stderr", err)
    assert mneme_main(argv) == 1
    assert err.getvalue() == ""


@pytest.mark.parametrize("argv", [["tick"], ["note", "--help"]], ids=["unsupported", "help-note"])
def test_mneme_with_stdout_closed_prints_nothing_and_does_not_fail(argv: list[str],
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """`mneme note --help >&-` failed with AttributeError ('NoneType' object has no attribute 'write')."""
    from mnemon.interfaces.mneme_cli import main as mneme_main

    monkeypatch.setattr("sys.stdout", None)
    assert mneme_main(argv) in (0, 2)


@pytest.mark.parametrize("argv", [["show", "no-such-id"], ["no-such-command"], ["recall", "x", "--limit", "0"]],
                         ids=["error", "usage", "invalid"])
def test_an_error_to_a_reader_that_went_away_ends_quietly(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """`mnemon show x | head -c0`-like: the error envelope written to a reader that had gone raised BrokenPipeError
    with a traceback on stderr, where a successful answer ends quietly with exit 1."""
    from mnemon.interfaces.cli.main import main

    err = io.StringIO()
    monkeypatch.setattr("sys.stdout", _GoneReader())
    monkeypatch.setattr("sys.stderr", err)
    assert main(argv) == 1
    assert err.getvalue() == ""
