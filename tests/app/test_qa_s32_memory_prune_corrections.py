"""QA round (session 32) of auto-prune against corrections an agent states in words, on both backends.

Recall reads "Mira moved from Lisbon to Porto" as retiring an older "Mira lives in Lisbon" (the old fact comes back
demoted and flagged `corrected_by`), just as it would with a `supersedes` link. Auto-prune already passed over a
correction held by a link, but not over one held only by its wording: the correction, written with a low importance,
was the weakest memory and went first, and recall then answered "Mira lives in Lisbon" as the current fact."""
from __future__ import annotations

from collections.abc import Callable

from mnemon.app.memory import Mnemon

from conftest import FakeClock  # tests/ is on sys.path (rootdir of the test packages)


def _fact_and_its_correction(m: Mnemon, clock: FakeClock) -> tuple[str, str]:
    old = m.remember("Mira lives in Lisbon", importance=4, source="chat")["id"]
    clock.advance(minutes=5)
    new = m.remember("Mira moved from Lisbon to Porto", importance=1, source="chat")["id"]
    return old, new


def _fill(m: Mnemon, n: int, importance: int = 2) -> list[str]:
    return [m.remember(f"gardening note {i} about tomatoes zq{i}x", importance=importance, source=f"g{i}")["id"]
            for i in range(n)]


def _prune_three_times(m: Mnemon) -> list[str]:
    return [pid for k in range(3) for pid in m.remember(f"later note {k} zz{k}y", source="later")["auto_pruned_ids"]]


def test_auto_prune_passes_over_a_correction_said_in_words(make_mem: Callable[..., Mnemon],
                                                             clock: FakeClock) -> None:
    m = make_mem(max_insights=4, prune_min_age="0", clock=clock)
    old, new = _fact_and_its_correction(m, clock)
    fillers = _fill(m, 2)
    clock.advance(days=90)  # the correction (importance 1) is now the weakest memory of the store
    pruned = _prune_three_times(m)
    assert new not in pruned and set(fillers) <= set(pruned)
    results = {r["insight"]["id"]: r for r in m.recall("where does Mira live", verbose=True)["results"]}
    assert results[old].get("corrected_by") == new
    assert results[new]["score"] > results[old]["score"]


def test_the_correction_of_a_forgotten_fact_is_prunable_again(make_mem: Callable[..., Mnemon],
                                                              clock: FakeClock) -> None:
    m = make_mem(max_insights=2, prune_min_age="0", clock=clock)
    old, new = _fact_and_its_correction(m, clock)
    m.forget(old)  # nothing left for it to keep demoted
    clock.advance(days=90)
    m.remember("later note zz0y", importance=4, source="later")
    assert new in m.remember("later note zz1y", importance=4, source="later")["auto_pruned_ids"]


def test_a_correction_of_a_later_memory_keeps_nothing_demoted_and_is_prunable(make_mem: Callable[..., Mnemon],
                                                                             clock: FakeClock) -> None:
    # recall retires only what was said before the correction: a later "Mira lives in Lisbon" is the news
    m = make_mem(max_insights=2, prune_min_age="0", clock=clock)
    new = m.remember("Mira moved from Lisbon to Porto", importance=1, source="chat")["id"]
    clock.advance(days=1)
    m.remember("Mira lives in Lisbon", importance=4, source="chat")
    clock.advance(days=90)
    assert new in m.remember("later note zz0y", importance=4, source="later")["auto_pruned_ids"]


def test_an_unrelated_memory_with_correction_words_is_prunable(make_mem: Callable[..., Mnemon],
                                                              clock: FakeClock) -> None:
    m = make_mem(max_insights=2, prune_min_age="0", clock=clock)
    m.remember("Ana lives in Lisbon", importance=4, source="chat")
    moved = m.remember("Mira moved from Berlin to Porto", importance=1, source="chat")["id"]
    clock.advance(days=90)
    assert moved in m.remember("later note zz0y", importance=4, source="later")["auto_pruned_ids"]
