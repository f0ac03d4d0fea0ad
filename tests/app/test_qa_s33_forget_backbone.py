"""QA round (session 33): forgetting a memory keeps its source's chain whole.

A source's memories are chained in time order by backbone steps (`temporal` / `backbone`, or `reply` out of a
question), and a backdated write is spliced in: prev ↔ new ↔ next replaces prev ↔ next. Forgetting (or
auto-pruning) the memory in the middle retired its two steps and left nothing in their place: its neighbours were
cut apart for good (the next write links only to the newest memory), a remember-then-forget of a backdated memory
changed the store's edge counts, and a question lost the step to its answer. The two memories on either side of a
memory that leaves the chain are consecutive now, and get the steps a write in time order gives them (the retired
ones back, when the splice retired them)."""
from __future__ import annotations

import tempfile
from collections.abc import Callable
from datetime import timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from mnemon.app.config import load_config
from mnemon.app.memory import Mnemon

from conftest import FakeClock  # tests/ is on sys.path (rootdir of the test packages)

WORDS = ("Ana", "Apollo", "vendor", "because", "delayed", "budget", "lamp", "tea", "Porto", "so")


def _at(clock: FakeClock, hours: float) -> str:
    return (clock.now - timedelta(hours=hours)).isoformat()


def _steps(m: Mnemon, a: str, b: str) -> list[tuple[str, str, str]]:
    """The active backbone steps between two memories, both ways."""
    return sorted((e.src, e.dst, e.sub_type) for e in m.rt.store.edges_of([a, b], types=("temporal",), direction="out")
                  if {e.src, e.dst} == {a, b} and e.sub_type in ("backbone", "reply"))


def test_forgetting_the_middle_memory_joins_its_neighbours(make_mem: Callable[..., Mnemon], clock: FakeClock) -> None:
    m = make_mem(clock=clock)
    first = m.remember("Did the Apollo vendor reply?", source="chat", created_at=_at(clock, 30))["id"]
    middle = m.remember("Not yet, still waiting", source="chat", created_at=_at(clock, 29))["id"]
    last = m.remember("The Apollo vendor finally replied on Friday", source="chat", created_at=_at(clock, 20))["id"]
    assert _steps(m, first, last) == []
    out = m.forget(middle)
    assert out["backbone_rejoined"] == 2
    # what a write in time order gives them: a reply step out of the question (within 24 h), a backbone step back
    assert _steps(m, first, last) == sorted([(first, last, "reply"), (last, first, "backbone")])
    related = {r["id"] for r in m.related(first, depth=1, edge_type="temporal")["related"]}
    assert last in related
    assert m.log(op="forget")["entries"][0]["detail"]["backbone_rejoined"] == 2


def test_auto_prune_of_two_neighbours_leaves_one_chain(make_mem: Callable[..., Mnemon], clock: FakeClock) -> None:
    m = make_mem(max_insights=0, prune_min_age="0", clock=clock)
    keep_a = m.remember("Kickoff of the harbour project", source="log", importance=4, created_at=_at(clock, 90))["id"]
    weak = [m.remember(f"filler note {k} about gulls zq{k}", source="log", importance=1,
                       created_at=_at(clock, 80 - k))["id"] for k in range(2)]
    keep_b = m.remember("Harbour project closed", source="log", importance=4, created_at=_at(clock, 60))["id"]
    m.rt.max_insights = 3  # (the cap, read on each write as the config's would be)
    pruned = m.remember("unrelated memory of another source", source="other", importance=4)["auto_pruned_ids"]
    assert sorted(pruned) == sorted(weak)
    assert _steps(m, keep_a, keep_b) == sorted([(keep_a, keep_b, "backbone"), (keep_b, keep_a, "backbone")])
    assert [e["detail"].get("backbone_rejoined") for e in m.log(op="prune")["entries"]] == [2, 2]


ITEM = st.tuples(st.lists(st.sampled_from(WORDS), min_size=1, max_size=5), st.integers(0, 100),
                 st.sampled_from(["a", "b"]))


@settings(max_examples=40, deadline=None)
@given(pre=st.lists(ITEM, max_size=6), extra=ITEM)
def test_remember_then_forget_leaves_the_counts_as_they_were(pre: list[tuple[list[str], int, str]],
                                                             extra: tuple[list[str], int, str]) -> None:
    with tempfile.TemporaryDirectory() as home:
        clock = FakeClock()
        m = Mnemon.open(load_config({"MNEMON_HOME": home, "MNEMON_EMBED_PROVIDER": "hash", "XDG_CONFIG_HOME": home}))
        m.rt.clock = clock
        try:
            for k, (words, hours, source) in enumerate(pre):
                m.remember(" ".join(words) + f" n{k}", source=source, created_at=_at(clock, hours))
            before = m.status()
            words, hours, source = extra
            m.forget(m.remember(" ".join(words) + " extra", source=source, created_at=_at(clock, hours))["id"])
            after = m.status()
            for key in ("total_insights", "by_category", "edges_by_type", "top_entities"):
                assert after[key] == before[key], key
        finally:
            m.close()
