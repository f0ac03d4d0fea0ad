"""A document given by path (`--file`, `--payload`, `resolve --file`, `import FILE`) may be a pipe or `/dev/stdin`:
only a regular file used to count, so `sense add --file /dev/null` (or a named pipe, or `<(…)`) answered
`not_found "no file …"` for a file that exists. A pipe is read; what holds no document is `invalid_input`."""
from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

Run = Callable[..., tuple[int, Any]]
MAIL = {"id": "mail-1", "sense_type": "gws", "observed_at": "2025-01-03T00:00:00Z", "text": "parcel delivered"}


@contextmanager
def fifo_feeding(tmp_path: Path, text: str) -> Iterator[Path]:
    """A named pipe a thread writes `text` into once the command opens it."""
    path = tmp_path / "pipe"
    os.mkfifo(path)

    def feed() -> None:
        with open(path, "w", encoding="utf-8") as fh:  # blocks until the reader opens the pipe
            fh.write(text)
    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    try:
        yield path
    finally:
        writer.join(timeout=10)
        assert not writer.is_alive(), "the command never opened the pipe"


def test_a_named_pipe_is_read_like_a_file(cli_run: Run, tmp_path: Path) -> None:
    with fifo_feeding(tmp_path, json.dumps(MAIL)) as pipe:
        code, out = cli_run(["sense", "add", "--file", str(pipe)])
    assert code == 0 and out["added"] == 1, out


def test_an_empty_pipe_is_an_empty_document(cli_run: Run, tmp_path: Path) -> None:
    with fifo_feeding(tmp_path, " \n") as pipe:
        code, out = cli_run(["state", "assert", "--file", str(pipe)])
    assert code == 1 and out["error"]["code"] == "invalid_input", out
    assert out["error"]["message"] == f"the assertion in {pipe} is empty; expected a JSON document"


@pytest.mark.parametrize("command", [["sense", "add", "--file"], ["predict", "add", "--file"],
                                     ["action", "record", "--file"], ["resolve", "--file"],
                                     ["remember", "--payload"], ["import"]])
def test_dev_null_exists_and_is_an_empty_document_not_a_missing_file(cli_run: Run, command: list[str]) -> None:
    code, out = cli_run([*command, "/dev/null"])
    assert code == 1 and out["error"]["code"] == "invalid_input", out
    assert "/dev/null is empty; expected a JSON document" in out["error"]["message"]


@pytest.mark.parametrize("command", [["sense", "add", "--file", "-"], ["remember", "--payload", "-"],
                                     ["import", "-"], ["resolve", "--file", "-"]])
def test_an_empty_stdin_is_an_empty_document(cli_run: Run, command: list[str]) -> None:
    code, out = cli_run(command, input="")
    assert code == 1 and out["error"]["code"] == "invalid_input", out
    assert "on stdin is empty; expected a JSON document" in out["error"]["message"]
    # (with --file left out, nothing piped is a document missing: usage, test_qa_s36_contract2)


def test_a_directory_is_refused_and_a_missing_path_is_not_found(cli_run: Run, tmp_path: Path) -> None:
    code, out = cli_run(["sense", "add", "--file", str(tmp_path)])
    assert (code, out["error"]["code"]) == (1, "invalid_input") and "is a directory" in out["error"]["message"]
    code, out = cli_run(["import", str(tmp_path)])
    assert (code, out["error"]["code"]) == (1, "invalid_input") and "is a directory" in out["error"]["message"]
    code, out = cli_run(["sense", "add", "--file", str(tmp_path / "absent.json")])
    assert (code, out["error"]["code"]) == (1, "not_found"), out


def test_an_export_streams_back_in_through_a_pipe(cli_run: Run, tmp_path: Path) -> None:
    assert cli_run(["remember", "the parcel came on Tuesday"])[0] == 0
    exported = tmp_path / "e.json"
    assert cli_run(["export", "--out", str(exported)])[0] == 0
    with fifo_feeding(tmp_path, exported.read_text(encoding="utf-8")) as pipe:
        code, out = cli_run(["import", str(pipe)])
    assert code == 0 and out["skipped"] == 1 and out["errors"] == 0, out  # the same memory, read to the end


def test_an_endless_device_is_refused_not_read_forever(cli_run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    from mnemon.interfaces.cli import files

    monkeypatch.setattr(files, "DEVICE_LIMIT", 1024)
    code, out = cli_run(["sense", "add", "--file", "/dev/zero"])
    assert code == 1 and out["error"]["code"] == "invalid_input" and "does not end" in out["error"]["message"]


def test_a_file_with_a_utf8_byte_order_mark_is_read(cli_run, tmp_path) -> None:
    """A JSON file saved by Windows Notepad starts with U+FEFF: every --file reader refused it as not JSON."""
    draft = tmp_path / "bom.json"
    draft.write_bytes(b"\xef\xbb\xbf" + b'{"schema_version": "1", "insights": [{"content": "Notepad saved this"}]}')
    code, out = cli_run(["import", str(draft)])
    assert code == 0, out
    assert cli_run(["search", "Notepad"])[1]["results"]
