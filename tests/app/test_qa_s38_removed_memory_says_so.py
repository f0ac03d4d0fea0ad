"""QA round (session 38): asking for a memory the store removed says when, by what, and how it comes back.

A store at its cap auto-prunes: `remember` names the id in `auto_pruned_ids`, and a later `mnemon show ID` answered
"no active memory with id 'ID'; `mnemon recall` or `mnemon log` lists ids" — the words for an id never stored, so
the user looked for a typo. The row is still in the database (soft-deleted): the refusal keeps its code,
`not_found`, and says it was auto-pruned (or forgotten) at what time, with how to get it back."""
from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.errors import NotFound


def _pruned(m: Mnemon) -> str:
    first = m.remember("the first memory about lanterns", importance=1)["id"]
    out = m.remember("the second memory about kettles", importance=2)
    assert out["auto_pruned_ids"] == [first]
    return first


CALLS: dict[str, Callable[[Mnemon, str], Any]] = {
    "show": lambda m, i: m.show(i), "forget": lambda m, i: m.forget(i), "related": lambda m, i: m.related(i),
    "gc --keep": lambda m, i: m.gc(keep=i)}


@pytest.mark.parametrize("call", sorted(CALLS))
def test_an_auto_pruned_memory_is_named_as_pruned(make_mem: Callable[..., Mnemon], call: str) -> None:
    m = make_mem(max_insights=1, prune_min_age="0")
    first = _pruned(m)
    with pytest.raises(NotFound) as err:
        CALLS[call](m, first)
    assert "auto-pruned" in err.value.message and "--revive-forgotten" in err.value.message
    assert err.value.details["removed_by"] == "prune" and err.value.details["deleted_at"]


def test_a_forgotten_memory_is_named_as_forgotten_and_a_typo_as_unknown(mem: Mnemon) -> None:
    node_id = mem.remember("a memory about ferns")["id"]
    mem.forget(node_id)
    with pytest.raises(NotFound) as err:
        mem.show(node_id)
    assert err.value.details["removed_by"] == "forget" and "forgotten at" in err.value.message
    with pytest.raises(NotFound) as err:
        mem.show(node_id[:8])
    assert "no active memory" in err.value.message and "removed_by" not in err.value.details


def test_a_removed_payload_row_comes_back_with_its_payload(make_mem: Callable[..., Mnemon]) -> None:
    # (auto-prune never takes a payload's row, test_qa_s40_prune_payload_rows.py; a forget of it does)
    m = make_mem()
    out = m.remember_payload(json.dumps({"source_path": "mneme://qa/ferry", "nodes": [
        {"ref": "f", "type": "task", "name": "Ferry"}], "observations": [
        {"node": "f", "kind": "fact", "text": "The ferry leaves at nine.", "score": 1}]}))
    obs = out["observations"][0]["id"]
    m.forget(obs)
    with pytest.raises(NotFound) as err:
        m.show(obs)
    assert err.value.details["removed_by"] == "forget" and "payload again" in err.value.message


def test_the_cli_names_its_own_command_for_the_text(cli_run: Callable[..., tuple[int, Any]],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MNEMON_MAX_INSIGHTS", "1")
    monkeypatch.setenv("MNEMON_AUTO_PRUNE_MIN_AGE", "0")
    _, first = cli_run(["remember", "the first memory about lanterns", "--imp", "1"])
    _, second = cli_run(["remember", "the second memory about kettles", "--imp", "2"])
    assert second["auto_pruned_ids"] == [first["id"]]
    code, out = cli_run(["show", first["id"]])
    assert code == 1 and out["error"]["code"] == "not_found"
    assert "`mnemon log --op prune`" in out["error"]["message"], out
    assert out["error"]["details"]["removed_by"] == "prune"
