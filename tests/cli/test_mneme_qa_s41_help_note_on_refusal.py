"""`mneme CMD --help` ends mnemon's help with what `mneme` changes about the command; a line that asks for help
but is answered with a JSON document instead (a usage error, `--version`) prints that document alone: the note
glued after it made stdout hold no valid JSON (`mneme forget --help --bogus`, `mneme --version --help`)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mnemon.interfaces.mneme_cli import main


def _run(capsys: pytest.CaptureFixture[str], args: list[str]) -> tuple[int, str]:
    capsys.readouterr()
    code = main(args)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out


@pytest.mark.parametrize("args", [["forget", "--help", "--bogus"], ["agent", "preflight", "--help", "--db", "a",
                                                                       "--db", "b"],
                                  ["--store", "a", "--store", "b", "--help"], ["note", "move", "--help", "--nope"]])
def test_a_refused_help_line_prints_the_envelope_alone(capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    code, out = _run(capsys, args)
    assert code == 2 and json.loads(out)["error"]["code"] == "usage", out


def test_version_with_help_prints_the_version_alone(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _run(capsys, ["--version", "--help"])
    assert code == 0 and json.loads(out)["name"] == "mneme", out


def test_help_still_ends_with_the_mneme_note(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _run(capsys, ["forget", "--help"])
    assert code == 0 and out.startswith("Usage:") and "Through `mneme`:" in out


_OPTIONS = st.sampled_from(["--bogus", "--db", "a", "--store", "--pretty", "--limit", "x", "--version", "--json"])


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(command=st.sampled_from([["forget"], ["agent", "preflight"], ["note", "daily"], ["note", "delete"], ["init"],
                                ["note", "move"], []]),
       before=st.lists(_OPTIONS, max_size=3), after=st.lists(_OPTIONS, max_size=3))
def test_a_help_line_prints_help_or_one_json_document(capsys: pytest.CaptureFixture[str], command: list[str],
                                                      before: list[str], after: list[str]) -> None:
    args = [*command, *before, "--help", *after]
    code, out = _run(capsys, args)
    if out.startswith("Usage:"):
        assert code == 0
    else:
        doc = json.loads(out)  # one document, nothing after it
        assert (code == 0) == (doc.get("ok") is not False), out


def test_help_reads_no_store(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _run(capsys, ["init", "--help", "--db", str(tmp_path / "d.sqlite")])
    assert code == 0 and not (tmp_path / "d.sqlite").exists()
