"""`retrieve --as-of T` sees the store as it stood at T: rows written after T change nothing in the pack, and
decisions and forgets made after T are undone (kills, validations, weakenings, promotions; forgotten memories are
back with their edges).

The invariant: a pack replayed at T after later writes and decisions equals the pack taken at T, before them, of
the same store (same items, order, scores, signals, skipped entries, stats). Taking both packs from one store keeps
ids and edge ids equal without faking them, and runs on every backend.

What may differ: `empty_reason` says `all_matches_written_after_as_of` where nothing existed yet but later rows match
(it names no row), and `retrieval.query_seed_nodes`, the first keyword anchors in BM25 order — the keyword index
ranks with statistics of every row it holds (FTS5 keeps no per-time counts), so later rows may reorder the earlier
rows it returns; which rows it returns can change only past its anchor count (20), which these histories stay under.
"""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import FakeClock
from mnemon.app.config import load_config
from mnemon.app.memory import Mnemon
from mnemon.core.model import Edge, iso

START = datetime(2025, 1, 6, 9, 0, tzinfo=timezone.utc)
PROMPTS = ("Ada billing migration status", "why is the Stripe webhook blocked?")
NAMES = ("Ada", "Grace", "Linus")
TOPICS = ("billing migration", "Stripe webhook", "invoice export", "door code")
TAILS = ("is blocked", "was finished", "because the deploy failed", "so we paused it", "needs a review?", "")


def _pack(mem: Mnemon, prompt: str, as_of: str) -> dict[str, Any]:
    return mem.retrieve(prompt, as_of=as_of, max_items=6, budget=4000, verbose=True)


def _comparable(pack: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in pack.items() if k != "retrieval"}
    out["retrieval"] = {k: v for k, v in pack["retrieval"].items() if k != "query_seed_nodes"}
    if out["empty_reason"] == "all_matches_written_after_as_of":
        out["empty_reason"] = "no_matching_memories"
    return out


def _assert_same(then: dict[str, Any], now: dict[str, Any]) -> None:
    """Items and skipped entries first, one by one: a failure names the row that moved."""
    assert [i["id"] for i in now["items"]] == [i["id"] for i in then["items"]]
    assert now["items"] == then["items"]
    assert now["skipped"] == then["skipped"]
    assert _comparable(now) == _comparable(then)


# ── a hand-made history: the later memory is the strongest anchor the prompt could have ────────────────────────────
def test_a_later_memory_changes_nothing_in_a_replay_before_it(make_mem: Callable[..., Mnemon]) -> None:
    clock = FakeClock(START)
    mem = make_mem("hash", clock=clock)
    ids = []
    for text in ("Ada reviewed the billing migration plan", "The billing migration is blocked on the Stripe webhook",
                 "Grace owns the invoice export job", "Lunch order: noodles for the team offsite"):
        ids.append(mem.remember(text, created_at=iso(clock.now), no_diff=True)["id"])
        clock.advance(days=30)
    as_of = iso(clock.now)
    before = {p: _pack(mem, p, as_of) for p in PROMPTS}
    clock.advance(days=60)
    later = mem.remember("Ada finished the billing migration; the Stripe webhook is fixed, billing migration done",
                         created_at=iso(clock.now), no_diff=True)["id"]
    clock.advance(hours=1)
    mem.link(ids[2], ids[1], "causal", weight=1.0)  # a link between two old memories, made after the replayed instant
    mem.link(later, ids[1], "supersedes")
    for prompt in PROMPTS:
        after = _pack(mem, prompt, as_of)
        _assert_same(before[prompt], after)
        assert later not in str(after)  # not an item, not a skipped entry, not an anchor, not an edge's end
    assert later in [i["id"] for i in mem.retrieve(PROMPTS[0], as_of=iso(clock.now))["items"]]  # it matches today


def test_a_replay_before_any_match_names_no_later_row(make_mem: Callable[..., Mnemon]) -> None:
    clock = FakeClock(START)
    mem = make_mem("hash", clock=clock)
    mem.remember("Lunch order: noodles for the team offsite", created_at=iso(clock.now), no_diff=True)
    clock.advance(days=10)
    later = mem.remember("Ada billing migration retro", created_at=iso(clock.now), no_diff=True)["id"]
    pack = mem.retrieve("Ada billing migration", as_of=iso(START))
    assert pack["items"] == [] and pack["skipped"] == []
    assert pack["empty_reason"] == "all_matches_written_after_as_of" and later not in str(pack)


def test_a_name_only_a_later_memory_holds_is_no_entity_of_the_replay(make_mem: Callable[..., Mnemon]) -> None:
    # "zed" became a known name (Zed) only later: then it was a plain word, and Ada's memory held every name asked
    clock = FakeClock(START)
    mem = make_mem("hash", clock=clock)
    ada = mem.remember("Ada reviewed the billing migration plan", entities=["Ada"], created_at=iso(clock.now),
                       no_diff=True)["id"]
    prompt = "what did ada and zed decide about billing"
    before = _pack(mem, prompt, iso(clock.now))
    clock.advance(days=3)
    mem.remember("Zed joined the team", entities=["Zed"], created_at=iso(clock.now), no_diff=True)
    after = _pack(mem, prompt, iso(START))
    _assert_same(before, after)
    assert after["items"][0]["id"] == ada and after["items"][0]["signals"]["entity"] == 1.0
    today = next(i for i in mem.retrieve(prompt, verbose=True)["items"] if i["id"] == ada)
    assert today["signals"]["entity"] == 0.5  # today both are names


def test_a_link_made_later_does_not_lead_the_replay_anywhere(make_mem: Callable[..., Mnemon]) -> None:
    """A link made after the instant between two memories of before it: the beam does not walk it, no memory
    takes support over it (today the runbook does), and a killed one is not counted."""
    clock = FakeClock(START)
    mem = make_mem("hash", clock=clock)
    plan = mem.remember("Ada reviewed the billing migration plan", created_at=iso(clock.now), no_diff=True)["id"]
    clock.advance(days=2)
    runbook = mem.remember("Grace drafted a runbook for the migration", source="agent", created_at=iso(clock.now),
                           no_diff=True)["id"]
    clock.advance(days=2)
    invoice = mem.remember("Linus owns the invoice export job", source="bot", created_at=iso(clock.now),
                           no_diff=True)["id"]
    as_of = iso(clock.now)
    before = _pack(mem, "billing migration", as_of)
    clock.advance(days=1)
    mem.link(plan, runbook, "causal", weight=1.0)
    mem.link(plan, invoice, "semantic", weight=1.0)
    store = mem.rt.store
    with store.transaction():
        store.set_edge_status(store.find_edge(plan, invoice, "semantic").id, "killed", actor="test", reason="wrong")
    today = {i["id"]: i for i in mem.retrieve("billing migration", verbose=True)["items"]}
    then = {i["id"]: i for i in before["items"]}
    assert today[runbook]["signals"]["graph"] != then[runbook]["signals"]["graph"]
    after = _pack(mem, "billing migration", as_of)
    _assert_same(before, after)
    assert after["stats"]["killed_edges_excluded"] == 0


def test_a_memory_dated_after_the_instant_is_not_there_whatever_its_edges_say(make_mem: Callable[..., Mnemon]) -> None:
    # a row written ahead of its date (`--created-at` hours past the clock, as far as `remember` takes one; a
    # restored backup may hold more): its edges were made at once, before the instant
    clock = FakeClock(START)
    mem = make_mem("hash", clock=clock)
    mem.remember("Ada reviewed the billing migration plan", entities=["Ada"], created_at=iso(clock.now), no_diff=True)
    mem.remember("Grace drafted a runbook for the migration", created_at=iso(clock.now), no_diff=True)
    as_of = iso(START + timedelta(hours=1))
    before = _pack(mem, "Ada billing migration", as_of)
    ahead = mem.remember("Ada will finish the billing migration", entities=["Ada"], no_diff=True,
                         created_at=iso(START + timedelta(hours=20)))["id"]
    after = _pack(mem, "Ada billing migration", as_of)
    _assert_same(before, after)
    assert ahead not in str(after)


# ── generated histories ───────────────────────────────────────────────────────────────────────────────────────────
_memory = st.tuples(st.just("remember"), st.sampled_from(NAMES), st.sampled_from(TOPICS), st.sampled_from(TAILS),
                    st.sampled_from(("user", "agent")))
_link = st.tuples(st.just("link"), st.integers(0, 20), st.integers(0, 20),
                  st.sampled_from(("causal", "semantic", "supersedes", "entity")), st.just(""))
# a claim between two memories, as an ingest leaves one: a candidate (links_to: promote-candidates --mode all
# activates it; belongs_to: only a person's validation does)
_claim = st.tuples(st.just("claim"), st.integers(0, 20), st.integers(0, 20),
                   st.sampled_from(("links_to", "belongs_to")), st.just(""))
# a decision about the k-th edge (or memory, for forget), made at the step's minute
_decide = st.tuples(st.just("decide"), st.integers(0, 40), st.integers(0, 1),
                    st.sampled_from(("kill", "weaken", "validate", "promote", "forget")), st.just(""))
_step = st.tuples(st.one_of(_memory, _memory, _link, _claim, _decide, _decide), st.integers(1, 72 * 60), st.booleans())


def _new_edge(mem: Mnemon, src: str, dst: str, type_: str) -> bool:
    """Whether linking would write new rows only: a link over an existing edge rewrites its weight and keeps no
    record of the old one, which a replay can only flag (test_context_as_of_decisions.py), not undo."""
    store = mem.rt.store
    return src != dst and store.find_edge(src, dst, type_) is None and store.find_edge(dst, src, type_) is None


def _open(db: Path, clock: FakeClock) -> Mnemon:
    cfg = load_config({"MNEMON_EMBED_PROVIDER": "hash", "MNEMON_DAEMON": "off"}, db=str(db))
    m = Mnemon.open(cfg)
    m.rt.clock = clock
    return m


def _decide_on(mem: Mnemon, live: list[str], k: int, strong: int, what: str) -> None:
    """Kill, weaken or validate the k-th edge between live memories that may take it, promote every candidate, or
    forget the k-th live memory (its edges are retired)."""
    store = mem.rt.store
    if what == "forget":
        if live:
            mem.forget(live.pop(k % len(live)))
        return
    if what == "promote":
        mem.promote_candidates(mode="all")
        return
    statuses = ("candidate",) if what == "validate" else ("active", "candidate")
    edges = sorted((e for e in store.edges_of(live, statuses=statuses, direction="out") if e.dst in live),
                   key=lambda e: int(e.id or 0))
    if not edges:
        return
    edge_id = edges[k % len(edges)].id
    if what == "kill":
        mem.kill_edge(edge_id, reason="generated")
    elif what == "weaken":
        mem.weaken_edge(edge_id, reason="generated", factor=0.5 if strong else 0.05)  # 0.05: demoted to candidate
    else:
        mem.validate_edge(edge_id, reason="generated")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(_step, min_size=2, max_size=12))
def test_a_replay_equals_the_pack_taken_at_that_instant(tmp_path: Path, steps: list[Any]) -> None:
    """Each step, at a later minute, is a remember, a link, a claim or a decision — a kill, a weakening, a
    validation, a promotion, a forget — and maybe a checkpoint: packs at that instant. After the whole history, every
    checkpoint replayed gives the pack it gave then: the decisions made since are undone, the memories forgotten
    since are back with their edges."""
    clock = FakeClock(START)
    db = tmp_path / f"h{len(list(tmp_path.iterdir()))}.db"
    mem = _open(db, clock)
    try:
        live: list[str] = []
        taken: list[tuple[str, str, dict[str, Any]]] = []
        for (op, a, b, c, d), minutes, checkpoint in steps:
            clock.advance(minutes=minutes)
            if op == "remember":
                text = f"{a} {c} the {b}".replace("  ", " ") if c else f"{a} noted the {b}"
                live.append(mem.remember(text, created_at=iso(clock.now), source=d, no_diff=True)["id"])
            elif op == "decide":
                _decide_on(mem, live, a, b, c)
            elif len(live) >= 2 and _new_edge(mem, live[a % len(live)], live[b % len(live)], c):
                if op == "link":
                    mem.link(live[a % len(live)], live[b % len(live)], c, weight=0.9)
                else:
                    store = mem.rt.store
                    with store.transaction():
                        store.upsert_edge(Edge(live[a % len(live)], live[b % len(live)], c, weight=0.8,
                                               confidence=0.95, status="candidate", origin="ingest",
                                               evidence=f"{c} the billing migration", created_at=iso(clock.now)))
            if checkpoint:
                taken += [(iso(clock.now), p, _pack(mem, p, iso(clock.now))) for p in PROMPTS]
        clock.advance(minutes=1)
        for as_of, prompt, then in taken:
            _assert_same(then, _pack(mem, prompt, as_of))
    finally:
        mem.close()


def test_a_replay_reads_edges_of_its_own_time_in_the_pack(make_mem: Callable[..., Mnemon]) -> None:
    """An edge the pack could show, made after the instant between two memories of before it, is not shown nor
    listed as skipped; one made by then is shown."""
    clock = FakeClock(START)
    mem = make_mem("hash", clock=clock)
    a = mem.remember("Ada reviewed the billing migration plan", created_at=iso(clock.now), no_diff=True)["id"]
    clock.advance(hours=1)
    b = mem.remember("Grace drafted the billing migration runbook", created_at=iso(clock.now), no_diff=True)["id"]
    clock.advance(hours=1)
    mem.link(a, b, "causal", weight=1.0)
    as_of = iso(clock.now)
    before = _pack(mem, "billing migration", as_of)
    clock.advance(days=2)
    mem.link(b, a, "semantic", weight=1.0)
    c = mem.remember("Linus reviewed the billing migration runbook", created_at=iso(clock.now), no_diff=True)["id"]
    after = _pack(mem, "billing migration", as_of)
    _assert_same(before, after)
    assert c not in str(after)
    shown = [i for i in after["items"] if i["item_type"] == "edge"]
    assert shown and all(i["relation"] == "causal" or i["relation"] == "temporal" for i in shown)


def test_as_of_later_than_everything_is_the_pack_of_today(mem: Mnemon) -> None:
    mem.remember("Ada reviewed the billing migration plan", no_diff=True)
    today = mem.retrieve("billing migration", verbose=True)
    future = mem.retrieve("billing migration", verbose=True, as_of=iso(mem.rt.now() + timedelta(days=1)))
    assert future["items"] == today["items"] and future["skipped"] == today["skipped"]
