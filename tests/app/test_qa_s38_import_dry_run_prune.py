"""QA round (session 38): a draft import's dry run names the memories its auto-prune would take.

A store at its cap, a draft of new memories: `mnemon import draft.json --dry-run` answered `"auto_pruned": 0,
"auto_pruned_ids": []`, and the real `mnemon import draft.json` then soft-deleted three stored memories to make room.
The dry run is how a user checks an import loses nothing; it now says `would_auto_prune` (and the ids), the same
memories the real run takes."""
from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from mnemon.app.memory import Mnemon


def _draft(*texts: str) -> str:
    return json.dumps({"schema_version": "1", "insights": [{"content": t, "importance": 2} for t in texts]})


@pytest.mark.parametrize(("cap", "stored", "drafted"), [(3, 3, 2), (3, 3, 3), (2, 5, 1), (5, 3, 1), (0, 3, 4)])
def test_the_dry_run_names_the_memories_the_real_import_prunes(make_mem: Callable[..., Mnemon], cap: int,
                                                               stored: int, drafted: int) -> None:
    m = make_mem(max_insights=0)
    for i in range(stored):
        m.remember(f"stored fact {i} about the lighthouse keeper", importance=1 + i % 3, no_diff=True)
    m.rt.max_insights = cap  # the store grew under a larger cap, or none (a cap lowered since)
    m.rt.prune_min_age_s = 0
    draft = _draft(*(f"drafted fact {i} about the harbour pilot" for i in range(drafted)))
    dry = m.import_json(draft, dry_run=True)
    assert m.status()["total_insights"] == stored  # a dry run writes nothing
    real = m.import_json(draft)
    assert dry["would_auto_prune_ids"] == real["auto_pruned_ids"]
    assert dry["would_auto_prune"] == real["auto_pruned"] == len(real["auto_pruned_ids"])
    assert dry["auto_pruned"] == 0 and dry["auto_pruned_ids"] == []  # nothing was pruned by the dry run itself


def test_memories_inside_their_grace_period_are_not_announced(make_mem: Callable[..., Mnemon]) -> None:
    m = make_mem(max_insights=2, prune_min_age="24h")
    for i in range(2):
        m.remember(f"stored fact {i} about the lighthouse keeper", importance=1)
    dry = m.import_json(_draft("drafted fact about the harbour pilot"), dry_run=True)
    assert dry["would_auto_prune"] == 0 and dry["would_auto_prune_ids"] == []
    assert m.import_json(_draft("drafted fact about the harbour pilot"))["auto_pruned_ids"] == []


def test_the_cli_dry_run_says_what_the_import_would_prune(cli_run: Callable[..., tuple[int, Any]],
                                                          monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    monkeypatch.setenv("MNEMON_MAX_INSIGHTS", "2")
    monkeypatch.setenv("MNEMON_AUTO_PRUNE_MIN_AGE", "0")
    for text in ("old fact about apples", "old fact about pears"):
        assert cli_run(["remember", text, "--imp", "2"])[0] == 0
    draft = tmp_path / "draft.json"
    draft.write_text(_draft("new fact about kiwis"))
    code, dry = cli_run(["import", str(draft), "--dry-run"])
    assert code == 0 and dry["would_auto_prune"] == 1, dry
    code, real = cli_run(["import", str(draft)])
    assert code == 0 and real["auto_pruned_ids"] == dry["would_auto_prune_ids"], real
