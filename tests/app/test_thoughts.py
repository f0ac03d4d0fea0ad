"""Proactive candidates, the biased walk, thoughts with history, and `surface` (one shape, no mutation)."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from mnemon.app.memory import Mnemon
from mnemon.app.thoughts import parse_hints, score_observation
from mnemon.core.errors import InvalidInput
from mnemon.core.model import Memory

from .vault_graph import Note, Obs, build, example_notes

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
    assert bullet["heading"] == "Next Actions"
    assert bullet["command"][:5] == ["mnemon", "--db", mem.rt.store.path, "note", "add-bullet"]
    for t in out["thoughts"]:  # every suggested command is an argv list naming the store the cards came from
        for action in t["suggested_actions"]:
            for argv in [action["command"]] if "command" in action else action["commands"].values():
                assert argv[:3] == ["mnemon", "--db", mem.rt.store.path]
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
    bullet's dates again (its date edges' days: none in a link or URL); the stored days must score exactly as reading
    the text does."""
    from datetime import datetime, timezone
    from mnemon.core.vault.dates import dated_days
    from mnemon.core.vault.parser import blanked_links
    now = datetime(2026, 3, 1, tzinfo=timezone.utc)
    plain = Memory(id="m", content=text, created_at="2026-01-01T00:00:00Z", metadata={"observation_kind": "risk"})
    stored = Memory(id="m", content=text, created_at="2026-01-01T00:00:00Z",
                    metadata={"observation_kind": "risk", "dates": dated_days(blanked_links(text))})
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


SUPPLIERS = Note("Areas/suppliers.md", "Suppliers", "note", [
    Obs("Northwind Batteries — overdue on the May shipment, escalate if no reply", "risk", 5.0),
], [("Suppliers", "- Northwind Batteries — overdue on the May shipment, escalate if no reply\n"
                  "- Gull Electronics — enclosure supplier, contact sales@gull.example.com")])
PROCUREMENT = Note("Areas/procurement.md", "Procurement", "note", [], [(
    "Procurement", "How the team buys hardware for the Northwind batteries. Owner: [[Bram Okafor]].\n\n"
                   "- Every order over 5,000 needs two approvals\n- Invoices are paid within 30 days of delivery\n"
                   "- Supplier list lives in [[Suppliers]]")])


@pytest.mark.parametrize("prompt", ["northwind batteries overdue shipment", "gull electronics enclosure supplier"])
def test_a_section_does_not_take_a_second_slot_for_a_bullet_already_shown(mem: Mnemon, prompt: str) -> None:
    ids = build(mem, [SUPPLIERS, PROCUREMENT])
    section = ids[SUPPLIERS.sections[0][1]]
    store = mem.rt.store
    with store.transaction():  # as ingestion leaves it: a walk does not step from a note into its sections
        for note in (SUPPLIERS, PROCUREMENT):
            edge = store.find_edge(f"note:{note.path}", ids[note.sections[0][1]], "has_section")
            store.set_edge_status(edge.id, "candidate", actor="test", reason="as ingested")
    pack = mem.retrieve(prompt, max_items=10, budget=10_000)
    assert section in [i["id"] for i in pack["items"]]  # retrieval keeps it: it names Gull too
    cards = mem.surface(prompt=prompt, limit=5)["thoughts"]
    shown = [c["surface"]["source_id"] for c in cards]
    said = SUPPLIERS.observations[0].text
    # one card says it, not two: the section's card leaves out the line the bullet's card shows
    assert sum(said in " ".join(map(str, [*c["evidence"], *c["observations"]])) for c in cards) <= 1, cards
    assert section in shown or ids[said] in shown
    titles = [c["title"].split(": ", 1)[-1] for c in cards]
    assert len(titles) == len(set(titles)), titles
    drawn: set[str] = set()
    for card in cards:  # nor does an edge card come back for a link an earlier card drew
        assert card["surface"]["source_id"] not in drawn
        drawn.update(f"edge:{s['edge_id']}" for s in card["path"] if s.get("edge_id") is not None)


def test_a_follow_up_bullet_is_cut_between_clauses_or_words_never_inside_one(mem: Mnemon) -> None:
    # (a section stating open work: the rule "needs two approvals" is no loop to follow up, `reads_open`)
    heading, body = PROCUREMENT.sections[0]
    section = (heading, body.replace("needs two approvals", "still needs two approvals, not yet agreed"))
    note = Note(PROCUREMENT.path, PROCUREMENT.title, PROCUREMENT.note_type, [], [section])
    ids = build(mem, [note])
    cards = mem.surface(prompt="how does the team buy hardware for northwind batteries", limit=3)["thoughts"]
    card = next(c for c in cards if c["surface"]["source_id"] == ids[section[1]])
    bullet = next(a["bullet"] for a in card["suggested_actions"] if a["type"] == "vault_append_bullet")
    text = bullet.removeprefix("Follow up: ")
    readable = card["observations"][0]  # the section as the card reads it: list markers gone
    assert not text.startswith("- ") and "\n" not in text
    assert text.endswith("…") and len(text) <= 125
    kept = text[:-1].rstrip()
    assert readable.startswith(kept) and not readable[len(kept)].isalnum()  # ends where a word (or clause) ends
    assert kept.count("[[") == kept.count("]]")  # never inside a wikilink


@settings(max_examples=200)
@given(st.lists(st.sampled_from(["alpha", "beta;", "gamma.", "[[Bram Okafor]]", "delta—", "x" * 40, "1,000"]),
                max_size=40).map(" ".join))
def test_follow_up_text_keeps_whole_words(text: str) -> None:
    from mnemon.app.suggested_actions import follow_up_text
    out = follow_up_text(text, 60)
    assert len(out) <= 62
    if out == text:
        return
    assert out.endswith("…")
    kept = out[:-1].rstrip()
    assert text.startswith(kept) and (len(kept) == len(text) or not text[len(kept)].isalnum())
    assert kept.count("[[") == kept.count("]]")


def test_path_labels_read_links_as_their_names(mem, tmp_path) -> None:
    """A path step showed "… for [[Lighthouse]]" while the card's title on the same card read "… for Lighthouse"."""
    vault = tmp_path / "v"
    vault.mkdir()
    (vault / "bram.md").write_text("# Bram\n\n- Waiting on legal for the vendor contract for [[Lighthouse|the pilot]]\n",
                                   encoding="utf-8")
    (vault / "lighthouse.md").write_text("# Lighthouse\n\nThe pilot project.\n", encoding="utf-8")
    mem.ingest(str(vault), embed=False)
    rows = mem.candidates(limit=3)["candidates"]
    names = [step["name"] for c in rows for step in c["path"]]
    assert names and not any("[[" in name for name in names)
    assert any("the pilot" in name for name in names)
