"""Proactive candidates, the biased walk, thoughts with history, and `surface` (one shape, no mutation)."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from mnemon.app.memory import Mnemon
from mnemon.app.thoughts import parse_hints, score_observation
from mnemon.core.errors import InvalidInput
from mnemon.core.model import Memory

from .vault_graph import build, example_notes

WAITING = "Waiting for school confirmation before choosing an apartment"
DEADLINE = "Application deadline due 2026-03-20 for the primary school"


@pytest.fixture
def graph(mem: Mnemon, clock) -> tuple[Mnemon, dict[str, str]]:  # type: ignore[no-untyped-def]
    mem.rt.clock = clock  # 2026-03-01: the school deadline is 19 days ahead
    ids = build(mem, example_notes(), links=[("Projects/move.md", "Projects/school-search.md", "active"),
                                             ("People/alex.md", "Projects/move.md", "candidate")])
    return mem, ids


def test_candidates_rank_open_loops_and_deadlines_with_breakdowns(graph: tuple[Mnemon, dict[str, str]]) -> None:
    mem, ids = graph
    out = mem.candidates(limit=5)
    texts = [c["observation"]["text"] for c in out["candidates"]]
    assert set(texts[:2]) == {WAITING, DEADLINE}
    top = out["candidates"][0]
    assert sum(top["score_breakdown"].values()) == pytest.approx(top["score"])
    deadline = next(c for c in out["candidates"] if c["observation"]["text"] == DEADLINE)
    assert deadline["score_breakdown"]["freshness"] == 0.8
    assert any("within 30 days" in r for r in deadline["reasons"])
    archived = next(c for c in out["candidates"] if c["observation"]["source_path"].startswith("Archive/"))
    assert archived["score_breakdown"]["source_quality"] == -2.5


def test_status_words_match_whole_words_not_substrings() -> None:
    node = Memory(id="m", content="Residue on the undone shelf needs to be defined", created_at="2026-02-01T00:00:00Z",
                  metadata={"observation_kind": "fact", "score": 1.0})
    from datetime import datetime, timezone
    _, parts, _ = score_observation(node, hints=(), now=datetime(2026, 3, 1, tzinfo=timezone.utc), recent_seeds=set())
    assert "deadline_words" not in parts  # Mneme read "residue" as "due"


def test_a_deadline_card_reads_its_date_from_today(graph: tuple[Mnemon, dict[str, str]], clock) -> None:  # type: ignore[no-untyped-def]
    mem, _ = graph
    ahead = next(t for t in mem.surface(limit=5)["thoughts"] if DEADLINE in t["evidence"])
    assert ahead["title"].startswith("Deadline:")
    assert "before 2026-03-20 (in 19 days)" in ahead["action"] and "2026-03-20 (in 19 days)" in ahead["insight"]
    clock.advance(days=31)  # 2026-04-01: the date has passed
    past = next(t for t in mem.surface(limit=5)["thoughts"] if DEADLINE in t["evidence"])
    assert past["title"].startswith("Past due:") and "what is due" not in past["action"]
    assert "done by 2026-03-20 (12 days ago)" in past["action"]


def test_dates_written_out_count_as_dates_and_a_yearless_one_does_not() -> None:
    from datetime import datetime, timezone
    now = datetime(2026, 6, 10, tzinfo=timezone.utc)
    written = Memory(id="w", content="Contract renewal due 30 Jun 2026", created_at="2026-01-01T00:00:00Z",
                     metadata={"observation_kind": "risk", "score": 1.0})
    score, parts, reasons = score_observation(written, hints=(), now=now, recent_seeds=set())
    assert parts["freshness"] == 0.8 and "dated 2026-06-30, within 30 days" in reasons
    yearless = Memory(id="y", content="Contract renewal due Jun 30", created_at="2026-01-01T00:00:00Z",
                      metadata={"observation_kind": "risk", "score": 1.0})
    assert score_observation(yearless, hints=(), now=now, recent_seeds=set())[1]["freshness"] != 0.8


def test_walk_uses_only_active_edges(graph: tuple[Mnemon, dict[str, str]]) -> None:
    mem, _ = graph
    rows = mem.candidates(limit=10, hops=6)["candidates"]
    for row in rows:
        for step in row["path"][1:]:
            assert step["truth_policy"] != "candidate_only"
    move = next(r for r in rows if r["observation"]["text"] == WAITING)
    assert "note:Projects/school-search.md" in [s["id"] for s in move["path"]]  # active link walked
    alex = next(r for r in rows if r["seed"]["id"] == "note:People/alex.md")
    assert "note:Projects/move.md" not in [s["id"] for s in alex["path"]]  # candidate link not walked
    assert mem.candidates(limit=1, hops=6)["candidates"][0]["path"] == mem.candidates(limit=1, hops=6)["candidates"][0]["path"]


def test_hops_bound_the_path(graph: tuple[Mnemon, dict[str, str]]) -> None:
    mem, _ = graph
    assert all(len(c["path"]) <= 2 for c in mem.candidates(hops=1, limit=5)["candidates"])


def test_killed_observation_edge_suppresses_candidate(graph: tuple[Mnemon, dict[str, str]]) -> None:
    mem, ids = graph
    store = mem.rt.store
    edge = store.find_edge("note:Projects/move.md", ids[WAITING], "has_blocked")
    with store.transaction():
        store.set_edge_status(edge.id, "killed", actor="test", reason="feedback kill")
    dbg = mem.debug_candidates(include_skipped=True)
    assert WAITING not in [c["observation"]["text"] for c in dbg["candidates"]]
    skipped = next(c for c in dbg["skipped"] if c["observation"]["text"] == WAITING)
    assert "observation edge killed" in skipped["skip_reasons"]
    assert "skipped" not in mem.debug_candidates()


def test_thought_renders_card_records_history_and_cools_down(graph: tuple[Mnemon, dict[str, str]], tmp_path: Path) -> None:
    mem, _ = graph
    first = mem.thought(out=str(tmp_path / "cards"))
    assert first["title"].startswith(("Deadline", "Open loop"))
    assert Path(first["image"]).exists() and Path(first["card"]["svg"]).read_text(encoding="utf-8").startswith("<svg")
    assert mem.rt.store.oplog(5, op="thought")[0].detail["memory"] == first["memory"]
    second = mem.thought()
    assert second["memory"] != first["memory"]  # the recently-surfaced penalty moved the first seed down
    assert "image" not in second


def test_thought_on_empty_store(mem: Mnemon) -> None:
    assert mem.thought()["empty_reason"] == "no_candidates"


def test_surface_has_one_shape_and_does_not_mutate(graph: tuple[Mnemon, dict[str, str]]) -> None:
    mem, _ = graph
    before = len(mem.rt.store.oplog(1000))
    with_prompt = mem.surface(prompt="school confirmation for the move", limit=3)
    without = mem.surface(limit=3)
    assert set(with_prompt) == set(without) == {"prompt", "count", "thoughts", "retrieval", "empty_reason"}
    assert without["prompt"] is None and without["count"] == 3
    for t in with_prompt["thoughts"] + without["thoughts"]:
        assert {"title", "insight", "action", "path", "evidence", "why_now", "score", "surface",
                "suggested_actions"} <= set(t)
        assert t["surface"]["truth_policy"]
    assert len(mem.rt.store.oplog(1000)) == before
    for blank in ("", "   "):  # a blank prompt is a mistake (as for retrieve), not a silent switch to proactive cards
        with pytest.raises(InvalidInput):
            mem.surface(prompt=blank)


def test_suggested_actions_follow_the_source(graph: tuple[Mnemon, dict[str, str]]) -> None:
    mem, _ = graph
    out = mem.surface(prompt="Alex lease renewal garden flat move", limit=10)
    kinds = {a["type"] for t in out["thoughts"] for a in t["suggested_actions"]}
    assert "vault_append_bullet" in kinds
    bullet = next(a for t in out["thoughts"] for a in t["suggested_actions"] if a["type"] == "vault_append_bullet")
    assert bullet["heading"] == "Next Actions" and bullet["command"][:3] == ["mnemon", "note", "add-bullet"]
    candidate = [t for t in out["thoughts"] if t["surface"]["truth_policy"] == "candidate_only"]
    for t in candidate:
        assert t["suggested_actions"][0]["type"] == "synapse_review"
        assert t["title"].startswith("Unconfirmed")


def test_scoped_payload_memory_suggests_review(mem: Mnemon) -> None:
    build(mem, [])
    with mem.rt.store.transaction():
        mem.rt.store.insert_node(Memory(id="p1", content="Validate retrieval before trusting output",
                                        source="mneme://test/validation", created_at="2026-02-01T00:00:00Z",
                                        updated_at="2026-02-01T00:00:00Z", inserted_at="2026-02-01T00:00:00Z",
                                        metadata={"memory_kind": "observation", "observation_kind": "fact",
                                                  "score": 5}))
    out = mem.surface(prompt="validate retrieval output")
    assert out["thoughts"][0]["suggested_actions"][0]["type"] == "graph_memory_review"


def test_hint_parsing_and_validation(graph: tuple[Mnemon, dict[str, str]]) -> None:
    mem, _ = graph
    assert parse_hints("Lease, taxes") == ("leas", "tax")
    with pytest.raises(InvalidInput):
        mem.candidates(hops=99)
    with pytest.raises(InvalidInput):
        mem.candidates(limit=0)
    with pytest.raises(InvalidInput):
        mem.candidates(hints=5)
    lease = mem.candidates(hints="lease", limit=10)["candidates"]
    alex = next(c for c in lease if c["seed"]["id"] == "note:People/alex.md")
    assert alex["score_breakdown"].get("hints") == 2.0



@settings(max_examples=300)
@given(st.text(alphabet=st.characters(categories=("L", "N", "P", "Zs")), max_size=120))
def test_the_proactive_pass_reads_the_words_keyword_search_reads(text: str) -> None:
    from mnemon.core.text import tokens
    from mnemon.core.vault.proactive import words_of

    assert words_of(text) == frozenset(tokens(text))


_DATE_PIECES = st.sampled_from(["2026-03-20", "30 Jun 2026", "Jun 30", "Mar 5, 2027", "2026-02-30", "due", "by",
                                "[[2026-04-11]]", "https://x.org/2026-01-02", "waiting", "3", "Apr", " ", "-"])


@settings(max_examples=200, deadline=None)
@given(st.lists(_DATE_PIECES, max_size=8).map(" ".join))
def test_dates_stored_at_ingest_score_as_the_text_would(text: str) -> None:
    """Ingestion stores the days a bullet names (`dates` in its metadata) so the proactive pass does not parse every
    bullet's dates again; the stored days must score exactly as reading the text does."""
    from datetime import datetime, timezone
    from mnemon.app.vault.plan import _dated_days
    now = datetime(2026, 3, 1, tzinfo=timezone.utc)
    plain = Memory(id="m", content=text, created_at="2026-01-01T00:00:00Z", metadata={"observation_kind": "risk"})
    stored = Memory(id="m", content=text, created_at="2026-01-01T00:00:00Z",
                    metadata={"observation_kind": "risk", "dates": _dated_days(text)})
    assert score_observation(stored, hints=("due",), now=now, recent_seeds=set()) == \
        score_observation(plain, hints=("due",), now=now, recent_seeds=set())


def test_candidates_word_their_hint_reasons_as_scoring_one_observation_does(graph: tuple[Mnemon, dict[str, str]]) -> None:
    from mnemon.app.thoughts import scored_candidates
    mem, _ = graph
    hints = parse_hints("school,deadline")
    kept, suppressed = scored_candidates(mem.rt, hints=hints)
    assert any(any(r.startswith("matched hint: ") for r in c.reasons) for c in kept)
    for c in kept + suppressed:  # (a note's type adds to the score, never to the reasons)
        assert c.reasons == score_observation(c.memory, hints=hints, now=mem.rt.now(), recent_seeds=set())[2]
