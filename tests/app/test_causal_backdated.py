"""Causal edges are a function of the memories' times, not of the order they were written in.

A write looks back over the 10 newest memories of its source dated at or before it (`graph_rules.causal_edges`);
a backdated write also looks at the first 10 dated after it, since each of those would have had it in its own
lookback had the two arrived in time order. The guarantee:

- exact: while no source holds more than `CAUSAL_LOOKBACK + 1` memories, the causal edges (src, dst, sub-type)
  written in any order with explicit times equal those of a write in time order, through `remember` and `import`;
- beyond that, the lookback window slides: a late-arriving memory cannot push an older one out of a later memory's
  window (the edge that memory already made stays), so the edges written in any order contain those of the
  in-order write, and every one of them is the edge the in-order rule makes for its pair.
"""
from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from mnemon.app.append_batch import AppendBatch
from mnemon.app.memory import Mnemon, open_store
from mnemon.core import graph_rules
from mnemon.core.model import Memory, iso
from mnemon.ports.store.base import Store

from conftest import FakeClock

T0 = datetime(2025, 6, 1, 9, 0, tzinfo=timezone.utc)
WORDS = ["cache", "latency", "checkout", "deploy", "queue", "billing", "pager", "budget"]
CUES = ["", "", "because", "so that", "therefore", "due to", "prevented", "as a result"]
Spec = tuple[int, str, str]  # (hour after T0, source, content)
Key = tuple[str, str, str]  # (src's created_at, dst's created_at, sub-type): times are distinct within a case

_memory = st.tuples(st.lists(st.sampled_from(WORDS), min_size=2, max_size=4, unique=True), st.sampled_from(CUES))


def _specs(draws: Sequence[tuple[list[str], str]], hours: Sequence[int], sources: Sequence[str]) -> list[Spec]:
    out = []
    for k, ((words, cue), hour, source) in enumerate(zip(draws, hours, sources)):
        # lower-case words only: no entity is extracted, so the token sets do not depend on what the store knows
        head, tail = words[: len(words) // 2 or 1], words[len(words) // 2 or 1:]
        out.append((hour, source, " ".join([*head, cue, *tail, f"item{k}"]).replace("  ", " ")))
    return out


def _at(hour: int) -> str:
    return iso(T0 + timedelta(hours=hour))


@contextmanager
def _fresh(make_mem: Callable[..., Mnemon], request: pytest.FixtureRequest, backend: str,
           tmp_path: Path) -> Iterator[Mnemon]:
    """An empty store of this test's backend, for one Hypothesis example (the fixtures' store is shared by all)."""
    schema: Store | None = None
    if backend == "postgres":
        schema = open_store(request.getfixturevalue("pg_url"))
        schema.reset_for_tests()  # type: ignore[attr-defined]
        db: str | Path = schema.path  # type: ignore[attr-defined]
    else:
        db = tmp_path / f"{uuid.uuid4().hex}.db"
    m = make_mem("none", db=db, clock=FakeClock(datetime(2026, 3, 1, tzinfo=timezone.utc)))
    try:
        yield m
    finally:
        m.close()
        if schema is not None:
            schema.close()


def _remember(m: Mnemon, specs: Sequence[Spec]) -> None:
    for hour, source, content in specs:
        m.remember(content, source=source, created_at=_at(hour), entity_mode="provided", no_diff=True)


def _import(m: Mnemon, specs: Sequence[Spec]) -> None:
    items = [{"content": c, "source": s, "created_at": _at(h), "entity_mode": "provided"} for h, s, c in specs]
    assert m.import_json({"insights": items}, no_diff=True)["errors"] == 0


def _causal(m: Mnemon) -> set[Key]:
    store = m.rt.store
    at = {n.id: n.created_at for n in store.iter_nodes()}
    assert not any(n.entities for n in store.iter_nodes())
    return {(at[e.src], at[e.dst], e.sub_type) for e in store.iter_edges(statuses=("active",)) if e.type == "causal"}


def _every_pair(specs: Sequence[Spec]) -> set[Key]:
    """The edge the in-order rule makes for each pair of a source, with no window: what any order may contain."""
    mems = sorted((Memory(id=_at(h), content=c, source=s, created_at=_at(h)) for h, s, c in specs),
                  key=lambda x: x.created_at)
    out: set[Key] = set()
    for k, later in enumerate(mems):
        for earlier in (x for x in mems[:k] if x.source == later.source):
            out |= {(e.src, e.dst, e.sub_type) for e in graph_rules.causal_edges(later, [earlier], "now")}
    return out


_FEW = dict(draws=st.lists(_memory, min_size=2, max_size=9), data=st.data())
_ONE_BY_ONE = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def _case(draws: list[tuple[list[str], str]], data: st.DataObject, sources: Sequence[str]) -> tuple[
        list[Spec], list[Spec]]:
    n = len(draws)
    hours = data.draw(st.lists(st.integers(0, 400), min_size=n, max_size=n, unique=True), label="hours")
    chosen = data.draw(st.lists(st.sampled_from(sources), min_size=n, max_size=n), label="sources")
    specs = _specs(draws, hours, chosen)
    return sorted(specs), data.draw(st.permutations(specs), label="write order")


@_ONE_BY_ONE
@given(**_FEW)
def test_remember_in_any_order_makes_the_causal_edges_of_time_order(
        make_mem: Callable[..., Mnemon], request: pytest.FixtureRequest, facade_backend: str, tmp_path: Path,
        draws: list[tuple[list[str], str]], data: st.DataObject) -> None:
    in_order, shuffled = _case(draws, data, ["user", "agent"])
    with _fresh(make_mem, request, facade_backend, tmp_path) as a, _fresh(make_mem, request, facade_backend,
                                                                            tmp_path) as b:
        _remember(a, in_order)
        _remember(b, shuffled)
        assert _causal(b) == _causal(a)


@_ONE_BY_ONE
@given(**_FEW, cuts=st.lists(st.integers(1, 8), max_size=3))
def test_imports_in_any_order_make_the_causal_edges_of_time_order(
        make_mem: Callable[..., Mnemon], request: pytest.FixtureRequest, facade_backend: str, tmp_path: Path,
        draws: list[tuple[list[str], str]], data: st.DataObject, cuts: list[int]) -> None:
    """The shuffled memories arrive in a few imports: one that only appends goes through `AppendBatch`, one that
    reaches before stored memories one `write_memory` at a time."""
    in_order, shuffled = _case(draws, data, ["user", "agent"])
    bounds = sorted({0, len(shuffled), *(c for c in cuts if c < len(shuffled))})
    with _fresh(make_mem, request, facade_backend, tmp_path) as a, _fresh(make_mem, request, facade_backend,
                                                                            tmp_path) as b:
        _remember(a, in_order)
        for start, end in zip(bounds, bounds[1:]):
            _import(b, shuffled[start:end])
        assert _causal(b) == _causal(a)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(draws=st.lists(_memory, min_size=13, max_size=16), data=st.data())
def test_past_the_lookback_window_any_order_keeps_every_edge_of_time_order(
        make_mem: Callable[..., Mnemon], request: pytest.FixtureRequest, facade_backend: str, tmp_path: Path,
        draws: list[tuple[list[str], str]], data: st.DataObject) -> None:
    """One source with more memories than the window holds: every in-order edge is made, and nothing but edges the
    rule makes for some pair of the source (a window an early memory arrived too late for keeps its edge)."""
    in_order, shuffled = _case(draws, data, ["user"])
    with _fresh(make_mem, request, facade_backend, tmp_path) as a, _fresh(make_mem, request, facade_backend,
                                                                            tmp_path) as b:
        _remember(a, in_order)
        _remember(b, shuffled)
        assert _causal(a) <= _causal(b) <= _every_pair(in_order)


def test_a_backdated_cause_links_to_the_later_effect_that_explains_it(make_mem: Callable[..., Mnemon]) -> None:
    m = make_mem("none")
    effect = m.remember("We added a cache because the checkout latency spiked", created_at=_at(5))
    cause = m.remember("The checkout latency spiked during the sale", created_at=_at(1))
    assert cause["edges_created"]["causal"] == 1
    edges = [e for e in m.rt.store.iter_edges(statuses=("active",)) if e.type == "causal"]
    # the later memory carries the cue: it is the effect, as when the two are written in time order
    assert [(e.src, e.dst, e.sub_type) for e in edges] == [(cause["id"], effect["id"], "causes")]
    assert edges[0].metadata["cue"] == "because"


def test_the_forward_look_is_the_rule_of_the_later_write_mirrored() -> None:
    """`causal_edges(m, [], later=[l])` is `causal_edges(l, [m])`: same direction, sub-type, weight and metadata."""
    texts = ["Checkout latency spiked during the sale", "We added a cache so that checkout latency stays low",
             "Checkout latency fell because of the cache", "The cache prevented checkout latency spikes"]
    for a in texts:
        for b in texts:
            if a == b:
                continue
            early = Memory(id="early", content=a, source="user", created_at=_at(1))
            late = Memory(id="late", content=b, source="user", created_at=_at(2))
            ahead = graph_rules.causal_edges(early, [], "now", later_same_source=[late])
            in_time = graph_rules.causal_edges(late, [early], "now")
            assert ahead == in_time


def test_an_append_batch_has_nothing_after_the_memory_it_writes(make_mem: Callable[..., Mnemon]) -> None:
    m = make_mem("none")
    m.remember("The checkout latency spiked", created_at=_at(1))
    batch = AppendBatch(m.rt.store)
    assert batch.recent_memories(graph_rules.CAUSAL_LOOKBACK, source="user", after=_at(1)) == []


def test_recent_memories_after_a_time_are_the_oldest_after_it_oldest_first(store: Store) -> None:
    for k, hour in enumerate([3, 1, 4, 2, 5]):
        store.insert_node(Memory(id=f"m{k}", content=f"note {k}", source="user", created_at=_at(hour)))
    store.insert_node(Memory(id="other", content="elsewhere", source="agent", created_at=_at(3)))
    got = store.recent_memories(2, source="user", after=_at(2), exclude=["m0"])
    assert [x.created_at for x in got] == [_at(4), _at(5)]
    assert [x.id for x in store.recent_memories(9, source="user", until=_at(2))] == ["m3", "m1"]
