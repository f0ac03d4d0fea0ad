"""What the proactive pass brings up, and how often: a dismissed (weakened) observation is demoted in proportion, a
done item is never a deadline or a loop to follow up, repeated thoughts rotate through the good candidates, and a
rebuilding ingest drops the thought history that `update` keeps."""
from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import pytest

from mnemon.app.memory import Mnemon
from mnemon.app.thoughts import RECENT_PENALTY, RECENT_WINDOW, compose, cooldown

from .vault_graph import build, example_notes

WAITING = "Waiting for school confirmation before choosing an apartment"


@pytest.fixture
def graph(mem: Mnemon, clock) -> tuple[Mnemon, dict[str, str]]:  # type: ignore[no-untyped-def]
    mem.rt.clock = clock
    return mem, build(mem, example_notes())


def _row(rows: list[dict[str, Any]], text: str) -> dict[str, Any]:
    return next(c for c in rows if c["observation"]["text"] == text)


# ── a weakened observation edge ───────────────────────────────────────────────────────────────────────────────
def test_a_weakened_observation_edge_demotes_its_item_in_proportion(graph: tuple[Mnemon, dict[str, str]]) -> None:
    """`weaken-edge` on a bullet's own edge changed nothing: it kept its rank and score (only strength exactly 0
    suppressed it, as "forgotten")."""
    mem, ids = graph
    full = _row(mem.debug_candidates(limit=50)["candidates"], WAITING)
    edge = mem.rt.store.find_edge("note:Projects/move.md", ids[WAITING], "has_blocked")
    assert edge is not None and edge.id is not None
    mem.weaken_edge(edge.id, reason="dismissed: not now", factor=0.5)
    half = _row(mem.debug_candidates(limit=50)["candidates"], WAITING)
    assert half["score"] == pytest.approx(full["score"] / 2, abs=1e-3)
    assert sum(half["score_breakdown"].values()) == pytest.approx(half["score"])
    assert half["score_breakdown"]["weakened"] < 0
    assert "observation edge weakened (strength ×0.5)" in half["reasons"]
    mem.weaken_edge(edge.id, reason="dismissed again", factor=0.1)  # 0.05 of it: a candidate edge now
    rows = mem.debug_candidates(limit=50)["candidates"]
    low = _row(rows, WAITING)
    assert low["score"] == pytest.approx(full["score"] * 0.05, abs=1e-3)
    assert [c["observation"]["text"] for c in rows].index(WAITING) > 0
    # the card still names the edge it hangs on, and says it is a candidate now
    assert (low["path"][1]["via"], low["path"][1]["truth_policy"]) == ("has_blocked", "candidate_only")
    assert mem.thought()["memory"] != ids[WAITING]


def test_dismissing_an_observation_outright_is_not_called_forgetting(graph: tuple[Mnemon, dict[str, str]]) -> None:
    mem, ids = graph
    edge = mem.rt.store.find_edge("note:Projects/move.md", ids[WAITING], "has_blocked")
    assert edge is not None and edge.id is not None
    mem.weaken_edge(edge.id, reason="dismissed", factor=0.0)
    debug = mem.debug_candidates(include_skipped=True, limit=50)
    assert WAITING not in [c["observation"]["text"] for c in debug["candidates"]]
    reasons = _row(debug["skipped"], WAITING)["skip_reasons"]
    assert "observation edge weakened to strength 0" in reasons
    assert not any("forgotten" in r for r in reasons)


def test_an_unweakened_edge_below_full_confidence_is_not_demoted(graph: tuple[Mnemon, dict[str, str]]) -> None:
    """Ingest gives a bullet's edge its confidence as strength (a score-3 bullet: 0.5 and 0.5): only strength lost
    since then demotes it."""
    mem, _ids = graph
    for row in mem.debug_candidates(limit=50)["candidates"]:
        assert "weakened" not in row["score_breakdown"]


# ── a done item ───────────────────────────────────────────────────────────────────────────────────────────────
PERMIT = ("# Permit work\n- [x] Paid the invoice before the deadline 2026-11-30\n"
          "- [ ] Ask about the parking permit\n")
PAID = "Paid the invoice before the deadline 2026-11-30"


@pytest.fixture
def permit(mem: Mnemon, tmp_path: Path, clock) -> Mnemon:  # type: ignore[no-untyped-def]
    clock.advance(days=278)  # 2026-12-04: the paid invoice's deadline is four days past
    mem.rt.clock = clock
    vault = tmp_path / "vault"
    (vault / "Projects").mkdir(parents=True)
    (vault / "Projects" / "permit.md").write_text(PERMIT, encoding="utf-8")
    mem.ingest(str(vault), embed=False)
    return mem


def test_a_done_item_is_never_past_due_and_ranks_below_the_open_one(permit: Mnemon) -> None:
    """A checked task whose words name a deadline came first as "Past due: … Check whether this was done"."""
    rows = permit.candidates(limit=5)["candidates"]
    texts = [c["observation"]["text"] for c in rows]
    assert texts.index("Ask about the parking permit") < texts.index(PAID)
    paid = _row(rows, PAID)
    assert "deadline_words" not in paid["score_breakdown"] and "deadline wording" not in paid["reasons"]
    thought = permit.thought()
    assert thought["title"] == "Open loop: Ask about the parking permit"
    card = next(t for t in permit.surface(prompt="paid invoice deadline", limit=3)["thoughts"]
                if t["surface"]["source_id"] == paid["observation"]["id"])
    assert card["title"].startswith("Done: ") and "Past due" not in card["title"]
    assert "Check whether" not in card["action"] and "Follow up" not in card["action"]
    assert [a["type"] for a in card["suggested_actions"]] == ["inspect"]  # nothing to append under Next Actions


@pytest.mark.parametrize("text", [PAID, "Follow up with the landlord: resolved, waiting on nothing"])
def test_a_done_item_reads_as_done_whatever_its_words(text: str) -> None:
    parts = compose([], text, "done", "Permit work", date(2026, 12, 4))
    assert parts["title"].startswith("Done: ")
    assert not any(w in parts["action"] for w in ("Follow up on", "Check whether", "what is due"))


# ── the cooldown ──────────────────────────────────────────────────────────────────────────────────────────────
def test_the_cooldown_grows_with_how_recently_and_how_often_an_item_was_shown() -> None:
    assert cooldown([0]) == RECENT_PENALTY  # shown last: Mneme's −3
    assert cooldown([0]) > cooldown([1]) > cooldown([RECENT_WINDOW - 1]) > 0
    assert cooldown([0, 3]) > cooldown([0]) and cooldown([1, 2]) > cooldown([0])
    assert cooldown([]) == 0


def _three_equal_notes(vault: Path) -> None:
    vault.mkdir()
    for name in ("Alder", "Birch", "Cedar"):
        (vault / f"{name.lower()}.md").write_text(f"# {name}\n- [ ] Waiting on the vendor reply for the {name} "
                                                  "order\n", encoding="utf-8")


def _runs(mem: Mnemon, n: int) -> list[str]:
    return [str(mem.thought()["memory"]) for _ in range(n)]


def test_repeated_thoughts_rotate_through_the_good_candidates(make_mem, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                              clock) -> None:
    """Six runs gave A, B, C, then A, A, A: once each had been shown, a flat −3 tied them again and the same one won
    every run. The order is still a function of the history: a second store with the same history gives the same."""
    vault = tmp_path / "vault"
    _three_equal_notes(vault)
    sequences = []
    for k in range(2):
        mem = make_mem("hash", db=tmp_path / f"m{k}.db", clock=clock)
        mem.ingest(str(vault), embed=False)
        sequences.append(_runs(mem, 9))
    runs = sequences[0]
    assert len(set(runs[:3])) == 3
    assert runs[3:6] == runs[:3] and runs[6:9] == runs[:3]  # a rotation, not the same card again and again
    assert sequences[1] == runs


def test_a_lower_candidate_gets_its_turn_once_the_best_were_shown(graph: tuple[Mnemon, dict[str, str]]) -> None:
    """The deadline is 3 points ahead of the next: with a flat −3 it came back on every run after the second."""
    mem, _ids = graph
    shown = _runs(mem, 8)
    assert len(set(shown)) >= 3 and max(map(shown.count, shown)) <= 4


# ── thought history and rebuilds ──────────────────────────────────────────────────────────────────────────────
def _ops(mem: Mnemon) -> list[tuple[int, str]]:
    return [(e.id, e.op) for e in mem.rt.store.oplog(10_000)]


def test_a_rebuild_drops_thought_history_and_update_keeps_it(mem: Mnemon, example_vault: Path) -> None:
    """A rebuilding ingest reported `thoughts_cleared: 0` and kept every thought (it deleted from a `thoughts` table
    that does not exist), so a removed note's text stayed in the history and its cooldown went on applying."""
    mem.ingest(str(example_vault), embed=False)
    mem.remember("The harbour crane inspection is booked for Friday")  # audit rows of other kinds must stay
    mem.thought()
    mem.thought()
    note = example_vault / "Projects" / "lighthouse.md"
    note.write_text(note.read_text(encoding="utf-8") + "\n- one more line\n", encoding="utf-8")
    kept = mem.ingest(str(example_vault), mode="update", embed=False)
    assert "thoughts_cleared" not in kept and "thoughts" in kept["preserved"]
    assert [op for _id, op in _ops(mem)].count("thought") == 2
    others = [row for row in _ops(mem) if row[1] != "thought"]
    note.write_text(note.read_text(encoding="utf-8") + "- another line\n", encoding="utf-8")
    out = mem.ingest(str(example_vault), embed=False)
    assert out["thoughts_cleared"] == 2
    after = _ops(mem)
    assert "thought" not in [op for _id, op in after]
    assert [row for row in after if row not in others] == [row for row in after if row[1] == "ingest"][:1]
    assert all("recently_surfaced" not in c["score_breakdown"] for c in mem.candidates(limit=10)["candidates"])
    # a thought that takes the id of the last one dropped (SQLite reuses the highest rowid) is history too
    for _ in range(2):
        mem.thought()
        note.write_text(note.read_text(encoding="utf-8") + "- and one more\n", encoding="utf-8")
        assert mem.ingest(str(example_vault), embed=False)["thoughts_cleared"] == 1
        assert "thought" not in [op for _id, op in _ops(mem)]


def test_a_rebuild_of_a_store_that_never_had_thoughts_clears_none(mem: Mnemon, example_vault: Path) -> None:
    mem.ingest(str(example_vault), embed=False)
    mem.remember("A memory of its own")
    before = _ops(mem)
    note = example_vault / "Projects" / "lighthouse.md"
    note.write_text(note.read_text(encoding="utf-8") + "\n- one more line\n", encoding="utf-8")
    assert mem.ingest(str(example_vault), embed=False)["thoughts_cleared"] == 0
    assert _ops(mem)[1:] == before  # only this ingest's own row was added
