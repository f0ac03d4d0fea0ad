"""Session 41's QA of WHY answers: a memory with no word, name or meaning of the question comes in only through a
link from a memory that has one, ranks below every memory that has one, and says which memory brought it in."""
from __future__ import annotations

from typing import Any

from mnemon.app.memory import Mnemon

_QUESTION = "why did we pick PostgreSQL over MySQL"


def _store(mem: Mnemon) -> dict[str, str]:
    """The answer, three memories written after it the same day that share nothing with the question, a memory
    that shares one word, and later standup notes (so none of the first ones is among the newest)."""
    texts = ["We picked PostgreSQL over MySQL because of JSONB support", "Q3 goal: ship the billing revamp",
             "The mobile team ships a release every two weeks", "The office plants need water on Fridays"]
    made = {t: mem.remember(t, created_at=f"2026-11-02T09:{k:02d}:00Z")["id"] for k, t in enumerate(texts)}
    made["venue"] = mem.remember("We still have to pick a venue for the offsite",
                                 created_at="2026-11-05T09:00:00Z")["id"]
    for k in range(25):
        mem.remember(f"Standup note {k}: the design review moved to room {k}", created_at=f"2026-11-10T09:{k:02d}:00Z")
    made["answer"] = made[texts[0]]
    made["q3"] = made[texts[1]]
    return made


def _tied(row: dict[str, Any]) -> bool:
    s = row["signals"]
    return s["keyword"] > 0 or s["entity"] > 0 or s["similarity"] >= 0.25


def test_a_memory_without_a_tie_to_the_question_ranks_below_one_with_a_tie(mem_none: Mnemon) -> None:
    # `recall "why did we pick PostgreSQL over MySQL" --limit 3` answered "Q3 goal: ship the billing revamp" second,
    # keyword, entity and similarity all 0, in through a graph score of 0.285 (written after the answer that day),
    # above "We still have to pick a venue", which says one of the question's words
    made = _store(mem_none)
    rows = mem_none.recall(_QUESTION, limit=3)["results"]
    assert [r["insight"]["id"] for r in rows[:2]] == [made["answer"], made["venue"]]
    tied = [_tied(r) for r in mem_none.recall(_QUESTION, limit=20)["results"]]
    assert tied == sorted(tied, reverse=True), tied


def test_a_memory_in_only_through_a_link_says_which_matched_memory_brought_it(mem_none: Mnemon) -> None:
    made = _store(mem_none)
    for out in (mem_none.recall(_QUESTION, limit=10, explain=True), mem_none.recall(_QUESTION, brief=True,
                                                                                   explain=True)):
        rows = out["results"]
        ids = [r.get("id") or r["insight"]["id"] for r in rows]
        q3 = rows[ids.index(made["q3"])]
        assert q3["through"] == made["answer"] and q3["via"] == "temporal", q3
        for row in rows:  # every untied result names a tied result above it that links to it
            if not _tied(row):
                assert row["through"] in ids[:ids.index(row.get("id") or row["insight"]["id"])], row
            else:
                assert "through" not in row, row
        rerank = next(s for s in out["trace"] if s["stage"] == "rerank")
        assert rerank["in_through_a_link"] >= 1


def test_a_cause_linked_to_the_answer_still_comes_first(mem_none: Mnemon) -> None:
    # the graph's part in a WHY answer is its causes: one the answer links to leads the list, tie or no tie
    made = _store(mem_none)
    cause = mem_none.remember("The licence audit worried legal", created_at="2026-11-01T09:00:00Z")["id"]
    mem_none.link(cause, made["answer"], "causal", weight=0.9)
    ids = [r["insight"]["id"] for r in mem_none.recall(_QUESTION, limit=5)["results"]]
    assert ids[:2] == [cause, made["answer"]], ids


def test_a_memory_two_unmatched_links_from_the_answer_is_not_in_it(mem_none: Mnemon) -> None:
    # the same answer went on with "Standup note 1…", "Standup note 2…": each linked only from the standup note
    # before it, which shares nothing with the question either
    _store(mem_none)
    texts = [r["insight"]["content"] for r in mem_none.recall(_QUESTION, limit=20)["results"]]
    assert not any(t.startswith(("Standup note 1", "Standup note 2")) for t in texts), texts
