"""QA round (session 38): an export naming one memory id twice, with other text the second time, says so.

`mnemon import backup.json` of such a file (two backups concatenated by hand, a row copied and edited) answered the
second row `"action": "skipped", "reason": "repeated"` with `errors: 0`: its text was in no store and the reply read
as a whole restore. It is an error row now, naming the row that holds the id; the same row twice is still a repeat."""
from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from mnemon.app import backup
from mnemon.app.memory import Mnemon


def _backup_with_repeat(m: Mnemon, text: str | None) -> tuple[str, str]:
    kept = m.remember("The staging database restarts at 02:00")["id"]
    m.remember("Deploys freeze on the last Friday of the quarter")
    doc = m.export_json()
    row = next(r for r in doc["insights"] if r["id"] == kept)
    doc["insights"].append({**row, "content": text or row["content"]})
    return kept, json.dumps(doc)


@pytest.mark.parametrize("dry_run", [False, True])
@pytest.mark.parametrize("batch", [1, 2_000])  # the repeat in the same batch as the first row, or a later one
def test_an_id_repeated_with_other_text_is_an_error_row(make_mem: Callable[..., Mnemon], tmp_path: Any,
                                                        monkeypatch: pytest.MonkeyPatch, dry_run: bool,
                                                        batch: int) -> None:
    monkeypatch.setattr(backup, "BATCH", batch)
    kept, doc = _backup_with_repeat(make_mem("hash", db=tmp_path / "a.db"), "The staging database restarts at 03:00")
    fresh = make_mem("hash", db=tmp_path / "b.db")
    out = fresh.import_json(doc, dry_run=dry_run)
    assert out["errors"] == 1 and out["skipped"] == 0, out
    [row] = [r for r in out["results"] if r["index"] == 2]
    assert row["action"] == "error" and row["id"] == kept
    assert "insight 0" in row["error"]["message"] and "other text" in row["error"]["message"]
    if not dry_run:
        assert fresh.show(kept)["content"] == "The staging database restarts at 02:00"  # the first row stands


def test_the_same_row_twice_is_still_a_repeat_naming_the_first(make_mem: Callable[..., Mnemon],
                                                               tmp_path: Any) -> None:
    kept, doc = _backup_with_repeat(make_mem("hash", db=tmp_path / "a.db"), None)
    out = make_mem("hash", db=tmp_path / "b.db").import_json(doc)
    assert out["errors"] == 0 and out["imported"] == 2
    [row] = [r for r in out["results"] if r["index"] == 2]
    assert (row["action"], row["reason"], row["first_index"], row["id"]) == ("skipped", "repeated", 0, kept)


def test_the_cli_restore_counts_the_repeat_as_an_error(cli_run: Callable[..., tuple[int, Any]],
                                                       tmp_path: Any) -> None:
    assert cli_run(["remember", "The staging database restarts at 02:00"])[0] == 0
    code, doc = cli_run(["export"])
    doc["insights"].append({**doc["insights"][0], "content": "The staging database restarts at 03:00"})
    path = tmp_path / "backup.json"
    path.write_text(json.dumps(doc))
    code, out = cli_run(["--db", str(tmp_path / "fresh.db"), "import", str(path)])
    assert code == 0 and out["imported"] == 1 and out["errors"] == 1, out
    assert out["results"][1]["action"] == "error"
