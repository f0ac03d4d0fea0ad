"""An import's refused rows are listed boundedly: the first ones in full, the rest counted by message.

`mnemon import --dry-run bad.json` of 50,000 draft rows each with `"importance": 9` answered a 6.3 MB error envelope
repeating "importance must be an integer from 1 to 5; got 9" 50,000 times. The first refused rows keep their entry as
before (`details.results[0]` is what agents read); the others are counted in `error_groups` (code, message, count,
the first row numbers) and `errors_omitted`."""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mnemon.app.import_report import LISTED_ERRORS

CliRun = Callable[..., tuple[int, Any]]
NINE = "importance must be an integer from 1 to 5; got 9"


def _write(path: Path, doc: Any) -> Path:
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def test_a_dry_run_of_2000_refused_rows_answers_a_small_envelope(cli_run: CliRun, tmp_path: Path) -> None:
    bad = _write(tmp_path / "bad.json", {"schema_version": "1", "insights": [
        {"content": f"Fact {k} about the harbour", "importance": 9} for k in range(2000)]})
    code, doc = cli_run(["import", "--dry-run", bad])
    assert code == 1 and doc["error"]["code"] == "invalid_input"
    assert len(json.dumps(doc)) < 12_000, "the refused rows are not each listed"
    details = doc["error"]["details"]
    assert details["errors"] == 2000 and details["errors_omitted"] == 2000 - LISTED_ERRORS
    assert details["results"][0] == {"index": 0, "action": "error", "error": {"code": "invalid_input",
                                                                            "message": NINE}}
    assert [r["index"] for r in details["results"]] == list(range(LISTED_ERRORS))
    assert details["error_groups"] == [{"code": "invalid_input", "message": NINE, "count": 2000,
                                        "first_indexes": [0, 1, 2, 3, 4]}]
    assert "error_groups" in doc["error"]["message"]


def test_a_partial_import_lists_every_landed_row_and_groups_the_refused(cli_run: CliRun, tmp_path: Path) -> None:
    rows: list[Any] = [{"content": f"Kept fact {k} about the ferry"} for k in range(5)]
    rows += [{"content": f"Fact {k}", "importance": 9 if k % 2 else 0} for k in range(1000)] + [7] * 300
    code, doc = cli_run(["import", _write(tmp_path / "mixed.json", {"insights": rows})])
    assert code == 0 and doc["imported"] == 5 and doc["errors"] == 1300
    assert [r["action"] for r in doc["results"][:5]] == ["added"] * 5
    assert sum(r["action"] == "error" for r in doc["results"]) == LISTED_ERRORS
    assert doc["errors_omitted"] == 1300 - LISTED_ERRORS
    groups = {g["message"]: (g["count"], g["first_indexes"]) for g in doc["error_groups"]}
    assert groups == {"importance must be an integer from 1 to 5; got 0": (500, [5, 7, 9, 11, 13]),
                      NINE: (500, [6, 8, 10, 12, 14]),
                      "each insight must be a JSON object": (300, [1005, 1006, 1007, 1008, 1009])}


def test_a_few_refused_rows_answer_as_before(cli_run: CliRun, tmp_path: Path) -> None:
    code, doc = cli_run(["import", _write(tmp_path / "few.json", {"insights": [{"content": "We ship"}, 5, 6]})])
    assert code == 0 and doc["errors"] == 2 and "error_groups" not in doc and "errors_omitted" not in doc
    assert [r["action"] for r in doc["results"]] == ["added", "error", "error"]


def test_a_restore_of_2000_malformed_rows_answers_a_small_envelope(cli_run: CliRun, tmp_path: Path) -> None:
    assert cli_run(["remember", "We deploy on Fridays"])[0] == 0
    code, export = cli_run(["export", "--no-vectors"])
    assert code == 0
    row = export["insights"][0]
    export["insights"] = [dict(row, id=f"00000000-0000-4000-8000-{k:012d}", content=5) for k in range(2000)]
    for member in [key for key in export if key.startswith("world_")]:
        export[member] = []
    code, doc = cli_run(["--store", "other", "import", _write(tmp_path / "broken.json", export)])
    assert code == 1 and doc["error"]["code"] == "invalid_input"
    assert len(json.dumps(doc)) < 12_000
    details = doc["error"]["details"]
    assert details["errors"] == 2000 and details["errors_omitted"] == 2000 - LISTED_ERRORS
    assert details["results"][0]["action"] == "error" and details["results"][0]["id"] == (
        "00000000-0000-4000-8000-000000000000")
    [group] = details["error_groups"]
    assert group["count"] == 2000 and group["first_indexes"] == [0, 1, 2, 3, 4]
