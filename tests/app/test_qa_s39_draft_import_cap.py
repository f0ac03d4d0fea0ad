"""A draft import that leaves the store over its auto-prune cap says so, as a restore and `forget --undo` do.

`mnemon import draft.json` of 50,000 generated memories into a store with the default cap (1,000) answered
`"imported": 50000, "auto_pruned": 0` and no warning: the imported memories sit in their grace period, and once it is
over every later write soft-deletes the lowest-importance ones until 1,000 are left — 49,000 memories lost, ten a
write, with nothing said when raising the cap would still have kept them all. A restore of the same memories warned."""
from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mnemon.app.memory import Mnemon


def _over_cap(reply: dict[str, Any]) -> list[tuple[str, str]]:
    return [m.groups() for w in reply.get("warnings", [])
            if (m := re.match(r"this store (would then hold|now holds) (\d+) memories, over its cap", w))]


def _draft(n: int, start: int = 0) -> dict[str, Any]:
    return {"schema_version": "1", "insights": [{"content": f"Imported fact {k} about the harbour"}
                                                for k in range(start, start + n)]}


@pytest.mark.parametrize(("cap", "stored", "drafted", "warned"),
                         [(5, 0, 8, "8"), (5, 3, 3, "6"), (5, 0, 5, None), (5, 2, 3, None), (0, 0, 8, None)])
def test_a_draft_import_past_the_cap_warns_and_its_dry_run_too(make_mem: Callable[..., Mnemon], cap: int,
                                                              stored: int, drafted: int, warned: str | None) -> None:
    m = make_mem("hash", max_insights=cap)
    for k in range(stored):
        m.remember(f"Stored fact {k} about the ferry", no_diff=True)
    dry = m.import_json(_draft(drafted), dry_run=True)
    real = m.import_json(_draft(drafted))
    assert real["imported"] == drafted and real["auto_pruned"] == 0  # all inside their grace period
    assert _over_cap(dry) == ([("would then hold", warned)] if warned else []), dry.get("warnings")
    assert _over_cap(real) == ([("now holds", warned)] if warned else []), real.get("warnings")


def test_the_cli_import_of_a_draft_warns(cli_run: Callable[..., tuple[int, Any]], tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "draft.json"
    path.write_text(json.dumps(_draft(4)))
    monkeypatch.setenv("MNEMON_MAX_INSIGHTS", "3")
    code, doc = cli_run(["import", str(path)])
    assert code == 0 and doc["imported"] == 4 and _over_cap(doc) == [("now holds", "4")], doc
