"""`remember` as an agent following docs/agents.md uses it: a correction worded the usual way names the old fact in
`diff_matches`, so the agent can `link NEW OLD --type supersedes`; a sentence that is no correction names none."""
from __future__ import annotations

from collections.abc import Callable

import pytest

from mnemon.app.memory import Mnemon

PAIRS = [
    ("Mira lives in Lisbon", "Mira moved from Lisbon to Porto", "Lisbon"),
    ("Jonas lives in Berlin", "Jonas moved from Berlin to Hamburg", "Berlin"),
    ("Ana lives in Madrid", "Ana relocated from Madrid to Valencia", "Madrid"),
    ("Sven works at Tyrell", "Sven now works at Wayne instead of Tyrell", "Tyrell"),
    ("Team chat runs on Slack", "The team switched from Slack to Zulip for chat", "Slack"),
]


@pytest.mark.parametrize("provider", ["hash", "none"])
def test_each_correction_names_the_old_fact_the_agent_links_it_to(make_mem: Callable[..., Mnemon],
                                                                  provider: str) -> None:
    mem = make_mem(provider)
    olds = {}
    for i, (old, _, _) in enumerate(PAIRS):
        olds[old] = mem.remember(old, category="fact", created_at=f"2026-11-0{i + 1}T09:00:00Z")["id"]
        mem.remember(f"filler note {i}: the weekly review went fine", created_at=f"2026-11-0{i + 1}T10:00:00Z")
    for old, new, value in PAIRS:
        out = mem.remember(new, category="fact")
        assert out["action"] == "added" and out["diff_suggestion"] == "CONFLICT", new
        named = {m["id"]: m for m in out["diff_matches"]}
        assert olds[old] in named, new
        assert named[olds[old]]["suggestion"] == "CONFLICT" and f'retires "{value}"' in named[olds[old]]["reason"]
        assert set(named) == {olds[old]}, new  # no other fact of the store is called the stale one
        mem.link(out["id"], olds[old], "supersedes")
    assert mem.rt.store.count_active() == 2 * len(PAIRS) + len(PAIRS)  # advisory: nothing was replaced


def test_a_long_correction_finds_its_old_fact_among_many_similar_memories(mem: Mnemon) -> None:
    old = mem.remember("Mira lives in Lisbon")["id"]
    for i in range(30):  # "lisbon" is in most memories: too common for the rarest-words lookup
        mem.remember(f"Colleague number {i} works from the Lisbon office")
    for what in ("plays the old piano", "feeds her two cats", "loves the Porto wine", "planned months of travel",
                 "finally bought a piano", "has two cats and a dog", "visited Porto with her cats", "moved her piano"):
        mem.remember(f"Mira {what}")
    out = mem.remember("After months of planning, Mira finally moved from Lisbon to Porto with her two cats and the "
                       "old piano")
    assert out["diff_suggestion"] == "CONFLICT"
    assert [m["id"] for m in out["diff_matches"] if m["suggestion"] == "CONFLICT"] == [old]


def test_no_correction_no_conflict(mem: Mnemon) -> None:
    lisbon = mem.remember("Mira lives in Lisbon")["id"]
    berlin = mem.remember("Mira lives in Berlin")["id"]
    out = mem.remember("Mira moved the meeting from Monday to Friday")
    assert out["diff_suggestion"] == "ADD" and out["diff_matches"] == []
    out = mem.remember("Jonas moved from Berlin to Hamburg")
    assert out["diff_suggestion"] == "ADD" and out["diff_matches"] == []
    # an overlap verdict carries no correction reason; said again after the newer "Berlin", "Lisbon" is an UPDATE
    # naming it (its changed part is a stated difference, as a measure's new value is)
    out = mem.remember("Mira lives in Lisbon.")
    assert out["diff_suggestion"] == "UPDATE" and not any("cue" in m.get("reason", "") for m in out["diff_matches"])
    duplicate, = (m for m in out["diff_matches"] if m["suggestion"] == "DUPLICATE")
    assert duplicate["id"] == lisbon and berlin in duplicate["reason"]
