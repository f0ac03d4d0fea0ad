"""Session 41's QA of `--limit` in recall: a shorter list is the top of a longer one — the same ids in the same
order — for a WHY question whose causes are moved first, for a correction moved above what it retires, and for any
other question."""
from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings, strategies as st

from mnemon.app.memory import Mnemon

_TEAM = [
    "We dropped Redis because the managed cluster bill tripled",
    "Redis cost too much to run for our traffic",
    "Redis eviction caused stale sessions in March",
    "We chose PostgreSQL over MySQL because of JSONB support",
    "MySQL replication lag hurt the reporting jobs",
    "Q3 goal: ship the billing revamp",
    "The mobile team ships a release every two weeks",
    "Alice leads the platform team",
    "Mira lives in Lisbon near the river",
    "Mira moved from Lisbon to Porto",
]
_FILLER = "Redis note {k}: the cache cluster {k} runs on node {n}"
_STORES = itertools.count()
_QUERIES = ["why did we drop Redis", "why did we pick PostgreSQL over MySQL", "where does Mira live",
            "when did Redis evict sessions", "who leads the platform team", "Redis cache cluster"]


def _ids(out: dict[str, Any]) -> list[str]:
    return [r["insight"]["id"] for r in out["results"]]


def _team_store(mem: Mnemon, fillers: int, causes: list[tuple[int, int]]) -> list[str]:
    """The team's decisions, `fillers` memories about the Redis cluster that rank between them, and causal links
    (cause, effect) by index among all of them: a weak filler linked as the cause of the best answer."""
    made = [mem.remember(text, category="decision", created_at=f"2026-11-02T09:{k:02d}:00Z")["id"]
            for k, text in enumerate(_TEAM)]
    made += [mem.remember(_FILLER.format(k=k, n=k % 5), category="fact",
                          created_at=f"2026-11-02T10:{k:02d}:00Z")["id"] for k in range(fillers)]
    for cause, effect in causes:
        if cause % len(made) != effect % len(made):
            mem.link(made[cause % len(made)], made[effect % len(made)], "causal", weight=0.9)
    return made


def _assert_prefix(mem: Mnemon, query: str, limits: list[int]) -> None:
    longest = _ids(mem.recall(query, limit=max(limits)))
    for n in sorted(limits):
        assert _ids(mem.recall(query, limit=n)) == longest[:n], (query, n, longest)


def test_a_weak_cause_below_the_tenth_result_is_in_limit_10_as_in_limit_20(mem: Mnemon) -> None:
    # `recall "why did we drop Redis" --limit 10` and `--limit 20` differed at ranks 8–10: the causes-first order
    # ran after the list was cut, so the 15th result, the cause of the best one, came up only in the longer list
    made = _team_store(mem, 24, [])
    full = _ids(mem.recall("why did we drop Redis", limit=30))
    weak = full[15]
    mem.link(weak, made[0], "causal", weight=0.9)
    twenty = _ids(mem.recall("why did we drop Redis", limit=20))
    assert twenty.index(weak) < twenty.index(made[0])
    for n in range(1, 20):
        assert _ids(mem.recall("why did we drop Redis", limit=n)) == twenty[:n], n


# a link from a filler (ranked low) to one of the first decisions, or any link
_LINKS = st.tuples(st.integers(len(_TEAM), 40), st.integers(0, 4)) | st.tuples(st.integers(0, 40), st.integers(0, 40))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(fillers=st.integers(4, 22), causes=st.lists(_LINKS, max_size=4),
       query=st.sampled_from(_QUERIES), limits=st.lists(st.integers(1, 30), min_size=2, max_size=3, unique=True))
def test_any_limit_is_the_top_of_a_larger_one(make_mem: Callable[..., Mnemon], tmp_path: Path, fillers: int,
                                              causes: list[tuple[int, int]], query: str, limits: list[int]) -> None:
    mem = make_mem("hash", db=tmp_path / f"store-{next(_STORES)}.db")  # a fresh store for each example
    _team_store(mem, fillers, causes)
    _assert_prefix(mem, query, limits)
