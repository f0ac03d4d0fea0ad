"""Auto-prune passes over a newer memory that keeps an older one demoted by its wording: a correction ("moved from
X") already, but not a hand-over ("Kenji handed the CI pipeline to Aiko") or a change said ("The API rate limit is
now 250 …"). Written with a low importance, the update was the weakest memory and went first, and recall answered the
stale value ("Our API rate limit is 100 …") as current again."""
from __future__ import annotations

from collections.abc import Callable

import pytest

from mnemon.app.memory import Mnemon

from conftest import FakeClock  # tests/ is on sys.path (rootdir of the test packages)

UPDATES = [
    ("Our API rate limit is 100 requests per minute", "The API rate limit is now 250 requests per minute",
     "what is the API rate limit"),
    ("Kenji maintains the CI pipeline", "Kenji handed the CI pipeline to Aiko", "who maintains the CI pipeline"),
]


@pytest.mark.parametrize(("old", "new", "question"), UPDATES, ids=[u[1] for u in UPDATES])
def test_auto_prune_passes_over_an_update_keeping_a_fact_demoted(make_mem: Callable[..., Mnemon], clock: FakeClock,
                                                                  old: str, new: str, question: str) -> None:
    m = make_mem(max_insights=4, prune_min_age="0", clock=clock)
    old_id = m.remember(old, importance=4, source="chat")["id"]
    clock.advance(minutes=5)
    new_id = m.remember(new, importance=1, source="chat")["id"]
    fillers = [m.remember(f"gardening note {i} about tomatoes zq{i}x", importance=2, source=f"g{i}")["id"]
               for i in range(2)]
    clock.advance(days=90)  # the update (importance 1) is now the weakest memory of the store
    pruned = [p for k in range(3) for p in m.remember(f"later note {k} zz{k}y", source="later")["auto_pruned_ids"]]
    assert new_id not in pruned and set(fillers) <= set(pruned)
    results = {r["insight"]["id"]: r for r in m.recall(question)["results"]}
    assert results[old_id].get("corrected_by") == new_id
