"""QA round (session 38): an export row whose values no store could hold is an error row, as a draft's would be.

`mnemon import backup.json` of an export edited to `"effective_importance": 7` (no importance, reads and links make
more than 1.5 × max(1, ln(1 + reads))), or to an `updated_at` years before its `created_at`, restored the row as
given, `errors: 0`: the 7 outranked every memory auto-prune weighs. A draft's out-of-range importance or future
`created_at` is refused per row; these now are too, the rest of the file restored."""
from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from mnemon.app.backup_rows import parse_insight
from mnemon.app.memory import Mnemon
from mnemon.core.errors import InvalidInput

NOW = "2026-06-01T00:00:00.000000Z"
ROW = {"id": "m1", "content": "The staging database restarts at 02:00", "created_at": "2026-05-01T00:00:00Z"}


@pytest.mark.parametrize(("edit", "named"), [
    ({"effective_importance": 7}, "effective_importance 7.0"),
    ({"effective_importance": 1.6, "access_count": 0}, "effective_importance 1.6"),
    ({"updated_at": "2020-01-01T00:00:00Z"}, "updated_at '2020-01-01T00:00:00.000000Z' is before created_at"),
])
def test_an_edited_row_is_an_error_the_rest_restored(make_mem: Callable[..., Mnemon], tmp_path: Path,
                                                     edit: dict[str, object], named: str) -> None:
    src = make_mem("hash", db=tmp_path / "a.db")
    src.remember("The staging database restarts at 02:00")
    src.remember("Deploys freeze on the last Friday of the quarter")
    doc = src.export_json()
    doc["insights"][1].update(edit)
    for dry_run in (True, False):
        out = make_mem("hash", db=tmp_path / "b.db").import_json(json.dumps(doc), dry_run=dry_run)
        assert out["errors"] == 1 and out["imported" if not dry_run else "would_import"] == 1, out
        assert named in out["results"][1]["error"]["message"]


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=st.floats(min_value=0, max_value=100, allow_nan=False), reads=st.integers(min_value=0, max_value=10**6))
def test_a_value_is_taken_exactly_when_reads_and_links_can_make_it(value: float, reads: int) -> None:
    row = {**ROW, "effective_importance": value, "access_count": reads}
    most = 1.5 * max(1.0, math.log1p(reads))
    if value <= most:
        assert parse_insight(row, 0, NOW)[0].effective_importance == value
    elif value > most + 1e-3:
        with pytest.raises(InvalidInput, match="effective_importance"):
            parse_insight(row, 0, NOW)


def test_an_updated_at_within_a_day_before_created_at_is_one_remember_writes() -> None:
    # `remember` takes a created_at up to a day past the clock, and stamps updated_at with the clock
    mem, _ = parse_insight({**ROW, "updated_at": "2026-04-30T01:00:00Z"}, 0, NOW)
    assert mem.updated_at == "2026-04-30T01:00:00.000000Z"


def test_a_store_s_own_export_restores_whole(make_mem: Callable[..., Mnemon], tmp_path: Path) -> None:
    src = make_mem("hash", db=tmp_path / "a.db")
    ids = [src.remember(f"Fact {i} about the harbour pilot", importance=5)["id"] for i in range(3)]
    for _ in range(4):
        src.recall("harbour pilot")
    src.link(ids[0], ids[2], "semantic")
    src.gc()
    out = make_mem("hash", db=tmp_path / "b.db").import_json(json.dumps(src.export_json()))
    assert out["errors"] == 0 and out["imported"] == 3
