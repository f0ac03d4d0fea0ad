"""A successful import's per-row report maps the file's rows to ids without echoing their text back.

`mnemon import draft.json` of 50,000 memories answered 10 MB: every row of `results` carried the memory's full text
(up to 8,000 characters each), which the caller sent and holds already. A row is now `{index, id, action}` (plus a
skip's reason), which is what a script needs to map its draft to the stored ids; `--full-report` gives each row's text
and every refused row in full, as before."""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mnemon.app.import_report import LISTED_ERRORS

CliRun = Callable[..., tuple[int, Any]]
ROWS = 300


def _text(k: int) -> str:
    return f"Harbour log entry {k}: " + "the ferry schedule changed again because of the tide tables " * 6


def _draft(tmp_path: Path, rows: list[Any]) -> Path:
    path = tmp_path / "draft.json"
    path.write_text(json.dumps({"schema_version": "1", "insights": rows}), encoding="utf-8")
    return path


def test_a_large_draft_import_maps_rows_to_ids_without_their_text(cli_run: CliRun, tmp_path: Path) -> None:
    draft = _draft(tmp_path, [{"content": _text(k)} for k in range(ROWS)] + [{"content": _text(0)}])
    code, dry = cli_run(["import", "--dry-run", draft])
    assert code == 0 and dry["would_import"] == ROWS
    assert dry["results"][0] == {"index": 0, "action": "would_add"}
    code, doc = cli_run(["import", draft])
    assert code == 0 and doc["imported"] == ROWS and doc["skipped"] == 1
    assert len(json.dumps(doc)) < 100 * (ROWS + 1), "the reply grows with the rows, not with their text"
    assert all("content" not in row for row in doc["results"])
    assert [row["index"] for row in doc["results"]] == list(range(ROWS + 1))
    for k in (0, 7, ROWS - 1):
        assert doc["results"][k]["action"] == "added"
        assert cli_run(["show", doc["results"][k]["id"]])[1]["content"] == _text(k)
    assert doc["results"][ROWS] == {"index": ROWS, "id": doc["results"][0]["id"], "action": "skipped"}


def test_full_report_gives_each_rows_text_and_every_refused_row(cli_run: CliRun, tmp_path: Path) -> None:
    rows: list[Any] = [{"content": _text(k)} for k in range(3)] + [5] * (LISTED_ERRORS + 10)
    code, doc = cli_run(["import", "--full-report", _draft(tmp_path, rows)])
    assert code == 0 and doc["imported"] == 3 and doc["errors"] == LISTED_ERRORS + 10
    assert [row["content"] for row in doc["results"][:3]] == [_text(k) for k in range(3)]
    assert sum(row["action"] == "error" for row in doc["results"]) == LISTED_ERRORS + 10
    assert "error_groups" not in doc and "errors_omitted" not in doc


def test_a_restore_answers_its_rows_without_text_unless_asked(cli_run: CliRun, tmp_path: Path) -> None:
    for k in range(3):
        assert cli_run(["remember", _text(k), "--no-diff"])[0] == 0
    export = tmp_path / "export.json"
    assert cli_run(["export", "--out", export])[0] == 0
    code, doc = cli_run(["--store", "other", "import", export])
    assert code == 0 and doc["imported"] == 3
    assert all(set(row) == {"index", "id", "action"} for row in doc["results"]), doc["results"]
    code, full = cli_run(["--store", "other", "import", "--full-report", "--dry-run", export])
    assert code == 0 and {row["content"] for row in full["results"]} == {_text(k) for k in range(3)}
