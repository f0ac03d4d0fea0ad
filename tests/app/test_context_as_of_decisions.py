"""`retrieve --as-of T` after decisions and forgets made since T: the pack shows what the store held at T.

An edge killed, validated, weakened or promoted after T has the status, strength and truth policy it had at T (its
decisions since are undone from their recorded before-values); a memory forgotten after T is there, with its edges;
a change the store did not record the old values of is flagged `changed_since_as_of` instead of passing today's
values off as T's.
"""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone
from typing import Any

from conftest import FakeClock
from mnemon.app.memory import Mnemon
from mnemon.core.model import Edge, iso

START = datetime(2025, 3, 3, 9, 0, tzinfo=timezone.utc)
PROMPT = "billing migration"


def _pack(mem: Mnemon, as_of: str, prompt: str = PROMPT) -> dict[str, Any]:
    return mem.retrieve(prompt, as_of=as_of, max_items=8, budget=6000, verbose=True)


def _item(pack: dict[str, Any], item_id: str) -> dict[str, Any]:
    found = [i for i in pack["items"] if i["id"] == item_id]
    assert found, f"{item_id} not in {[i['id'] for i in pack['items']]}"
    return found[0]


def _same(then: dict[str, Any], now: dict[str, Any]) -> None:
    assert [i["id"] for i in now["items"]] == [i["id"] for i in then["items"]]
    assert now["items"] == then["items"]
    assert now["skipped"] == then["skipped"]
    assert now["stats"] == then["stats"]


def _two(mem: Mnemon, clock: FakeClock) -> tuple[str, str]:
    a = mem.remember("Ada reviewed the billing migration plan", created_at=iso(clock.now), no_diff=True)["id"]
    clock.advance(hours=1)
    b = mem.remember("Grace drafted the billing migration runbook", created_at=iso(clock.now), no_diff=True)["id"]
    clock.advance(hours=1)
    return a, b


def _linked(make_mem: Callable[..., Mnemon]) -> tuple[Mnemon, FakeClock, str, str, Edge]:
    """A store of two memories joined by a causal link made by hand, at full strength."""
    clock = FakeClock(START)
    mem = make_mem("hash", clock=clock)
    a, b = _two(mem, clock)
    mem.link(a, b, "causal", weight=1.0)
    edge = mem.rt.store.find_edge(a, b, "causal")
    assert edge is not None
    return mem, clock, a, b, edge


def _claim(mem: Mnemon, clock: FakeClock, src: str, dst: str, relation: str, origin: str) -> int:
    """A candidate edge between two memories, as a resolve writeback or an ingest would leave it."""
    store = mem.rt.store
    with store.transaction():
        return store.upsert_edge(Edge(src, dst, relation, weight=0.8, confidence=0.95, status="candidate",
                                      evidence="Ada and Grace share the billing migration", origin=origin,
                                      created_at=iso(clock.now), updated_at=iso(clock.now)))


def test_an_edge_killed_after_the_instant_is_active_in_a_replay(make_mem: Callable[..., Mnemon]) -> None:
    mem, clock, a, b, edge = _linked(make_mem)
    as_of = iso(clock.now)
    before = _pack(mem, as_of)
    assert _item(before, f"edge:{edge.id}")["status"] == "active"
    clock.advance(days=3)
    mem.kill_edge(edge.id, reason="wrong link")
    today = mem.retrieve(PROMPT, max_items=8, budget=6000)
    assert f"edge:{edge.id}" not in [i["id"] for i in today["items"]]
    after = _pack(mem, as_of)
    _same(before, after)
    shown = _item(after, f"edge:{edge.id}")
    assert shown["status"] == "active" and shown["truth_policy"] == "active_evidence" and shown["strength"] == 1.0
    assert after["stats"]["killed_edges_excluded"] == 0 and "changed_since_as_of" not in shown


def test_an_edge_killed_before_the_instant_stays_excluded(make_mem: Callable[..., Mnemon]) -> None:
    """The kill's own event is stamped by the wall clock; the replay reads the decision's time, which is the store's
    clock (the one `--created-at` and every other row use)."""
    mem, clock, a, b, edge = _linked(make_mem)
    clock.advance(hours=1)
    mem.kill_edge(edge.id, reason="wrong link")
    clock.advance(hours=1)
    pack = _pack(mem, iso(clock.now))
    assert f"edge:{edge.id}" not in [i["id"] for i in pack["items"]]
    assert pack["stats"]["killed_edges_excluded"] == 1
    assert pack["items"] == mem.retrieve(PROMPT, max_items=8, budget=6000, verbose=True)["items"]


def test_an_edge_weakened_after_the_instant_has_its_old_strength(make_mem: Callable[..., Mnemon]) -> None:
    mem, clock, a, b, edge = _linked(make_mem)
    as_of = iso(clock.now)
    before = _pack(mem, as_of)
    clock.advance(days=1)
    mem.weaken_edge(edge.id, reason="less sure", factor=0.5)
    clock.advance(days=1)
    mem.weaken_edge(edge.id, reason="doubt", factor=0.1)  # below 0.1: demoted to candidate
    assert mem.rt.store.get_edge(edge.id).status == "candidate"  # type: ignore[union-attr]
    after = _pack(mem, as_of)
    _same(before, after)
    shown = _item(after, f"edge:{edge.id}")
    assert shown["strength"] == 1.0 and shown["status"] == "active" and not shown["candidate_only"]
    # between the two: the first weakening, not the second
    middle = _item(_pack(mem, iso(START.replace(day=4, hour=12))), f"edge:{edge.id}")
    assert middle["strength"] == 0.5 and middle["status"] == "active"


def test_an_edge_validated_after_the_instant_is_a_candidate_in_a_replay(make_mem: Callable[..., Mnemon]) -> None:
    clock = FakeClock(START)
    mem = make_mem("hash", clock=clock)
    a, b = _two(mem, clock)
    edge_id = _claim(mem, clock, a, b, "belongs_to", "resolve")
    clock.advance(hours=1)
    as_of = iso(clock.now)
    before = _pack(mem, as_of)
    assert _item(before, f"edge:{edge_id}")["truth_policy"] == "candidate_only"
    clock.advance(days=2)
    mem.validate_edge(edge_id, reason="Ada confirmed it")
    assert _item(mem.retrieve(PROMPT, max_items=8, budget=6000), f"edge:{edge_id}")["status"] == "active"
    after = _pack(mem, as_of)
    _same(before, after)
    shown = _item(after, f"edge:{edge_id}")
    assert shown["status"] == "candidate" and shown["candidate_only"] and shown["truth_policy"] == "candidate_only"


def test_an_edge_promoted_after_the_instant_is_a_candidate_in_a_replay(make_mem: Callable[..., Mnemon]) -> None:
    clock = FakeClock(START)
    mem = make_mem("hash", clock=clock)
    a, b = _two(mem, clock)
    edge_id = _claim(mem, clock, a, b, "links_to", "ingest")
    clock.advance(hours=1)
    as_of = iso(clock.now)
    before = _pack(mem, as_of)
    clock.advance(days=2)
    assert mem.promote_candidates(mode="all")["activated"] == 1
    assert mem.rt.store.get_edge(edge_id).status == "active"  # type: ignore[union-attr]
    after = _pack(mem, as_of)
    _same(before, after)
    shown = _item(after, f"edge:{edge_id}")
    assert shown["status"] == "candidate" and shown["truth_policy"] == "candidate_only"


def test_a_memory_forgotten_after_the_instant_is_in_a_replay(make_mem: Callable[..., Mnemon]) -> None:
    """It is found as it was (its text is kept: no command edits a memory), and so are its edges."""
    mem, clock, a, b, edge = _linked(make_mem)
    mem.remember("Lunch order: noodles for the team offsite", created_at=iso(clock.now), no_diff=True)
    clock.advance(hours=1)
    as_of = iso(clock.now)
    before = _pack(mem, as_of)
    assert a in [i["id"] for i in before["items"]]
    clock.advance(days=5)
    mem.forget(a)
    assert a not in [i["id"] for i in mem.retrieve(PROMPT)["items"]]
    after = _pack(mem, as_of)
    _same(before, after)
    assert _item(after, a)["text"] == "Ada reviewed the billing migration plan"
    assert _item(after, f"edge:{edge.id}")["status"] == "active"
    assert "changed_since_as_of" not in _item(after, a)
    # forgotten before the instant: not there
    assert a not in str(_pack(mem, iso(clock.now)))


def test_a_weight_rewritten_after_the_instant_is_flagged_not_passed_off(make_mem: Callable[..., Mnemon]) -> None:
    """`link` over an existing edge rewrites its weight and keeps no record of the old one: the replay shows
    today's strength and says so."""
    mem, clock, a, b, edge = _linked(make_mem)
    as_of = iso(clock.now)
    assert "changed_since_as_of" not in _item(_pack(mem, as_of), f"edge:{edge.id}")
    clock.advance(days=1)
    mem.link(a, b, "causal", weight=0.6)
    shown = _item(_pack(mem, as_of), f"edge:{edge.id}")
    assert shown["changed_since_as_of"] is True and shown["strength"] == 0.6
    assert "changed_since_as_of" not in _item(_pack(mem, iso(clock.now)), f"edge:{edge.id}")


# ── a vault's rows and edges ──────────────────────────────────────────────────────────────────────────────────────
BILLS = """# Bills

- Paid the plumber invoice on 2026-01-10
- Waiting on the landlord for the new keys
- Gas contract renewal due 2026-02-01
"""
LATER = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)


def _bills(make_mem: Callable[..., Mnemon], tmp_path: Any, clock: FakeClock) -> Mnemon:
    mem = make_mem("hash", clock=clock)
    (tmp_path / "v").mkdir()
    (tmp_path / "v" / "bills.md").write_text(BILLS, encoding="utf-8")
    mem.ingest(str(tmp_path / "v"))
    return mem


def _observation_edge(mem: Mnemon, text: str) -> Edge:
    store = mem.rt.store
    edges = store.edges_of(["note:bills.md"], statuses=("active", "candidate", "killed"), direction="out")
    nodes = store.get_nodes([e.dst for e in edges])
    return next(e for e in edges if e.dst in nodes and nodes[e.dst].content == text and e.type.startswith("has_")
                and e.type not in ("has_section", "has_heading", "has_tag"))


def test_a_killed_observation_is_packed_as_of_before_the_kill(make_mem: Callable[..., Mnemon], tmp_path: Any) -> None:
    clock = FakeClock(LATER)
    mem = _bills(make_mem, tmp_path, clock)
    edge = _observation_edge(mem, "Waiting on the landlord for the new keys")
    clock.advance(hours=1)
    as_of = iso(clock.now)
    before = _pack(mem, as_of, "landlord keys")
    assert edge.dst in [i["id"] for i in before["items"]]
    clock.advance(days=1)
    mem.kill_edge(edge.id, reason="not an open loop")
    assert edge.dst not in [i["id"] for i in mem.retrieve("landlord keys")["items"]]  # observation_edge_killed
    _same(before, _pack(mem, as_of, "landlord keys"))


def test_an_observation_edge_aged_after_the_instant_is_active_then(make_mem: Callable[..., Mnemon],
                                                                    tmp_path: Any) -> None:
    """`forget --days-threshold` after T made the plumber bullet's edge a candidate of strength 0: it records what it
    replaced, so the replay shows the edge as it was."""
    clock = FakeClock(LATER)
    mem = _bills(make_mem, tmp_path, clock)
    edge = _observation_edge(mem, "Paid the plumber invoice on 2026-01-10")
    clock.advance(hours=1)
    as_of = iso(clock.now)
    before = _pack(mem, as_of, "plumber invoice")
    clock.advance(days=1)
    assert mem.forget_dated(30)["forgotten_count"] == 1
    aged = mem.rt.store.get_edge(int(edge.id or 0))
    assert aged is not None and (aged.status, aged.weight) == ("candidate", 0.0)
    _same(before, _pack(mem, as_of, "plumber invoice"))


def test_a_vault_row_rewritten_in_place_after_the_instant_is_flagged(make_mem: Callable[..., Mnemon],
                                                                      tmp_path: Any) -> None:
    """A line changed only in case keeps its row (its id is of the words), rewritten in place: the store keeps no
    older text, so the replay shows today's and says so."""
    clock = FakeClock(LATER)
    mem = _bills(make_mem, tmp_path, clock)
    bullet = _observation_edge(mem, "Waiting on the landlord for the new keys").dst
    clock.advance(hours=1)
    as_of = iso(clock.now)
    assert "changed_since_as_of" not in _item(_pack(mem, as_of, "landlord keys"), bullet)
    clock.advance(days=1)
    (tmp_path / "v" / "bills.md").write_text(BILLS.replace("the landlord", "the Landlord"), encoding="utf-8")
    mem.ingest(str(tmp_path / "v"), mode="update")
    shown = _item(_pack(mem, as_of, "landlord keys"), bullet)
    assert shown["changed_since_as_of"] is True and "Landlord" in shown["text"]
    assert "changed_since_as_of" not in _item(_pack(mem, iso(clock.now), "landlord keys"), bullet)


def test_a_status_written_without_a_decision_row_is_undone_too(make_mem: Callable[..., Mnemon]) -> None:
    """A store from before the oplog's decision rows has the edge's events only: a status write there is undone
    from what the edge was made as (mnemon's own links are made active)."""
    mem, clock, a, b, edge = _linked(make_mem)
    as_of = iso(clock.now)
    before = _pack(mem, as_of)
    store = mem.rt.store
    with store.transaction():  # (stamped by the wall clock, long after START)
        store.set_edge_status(int(edge.id or 0), "killed", actor="older-mnemon", reason="wrong")
    after = _pack(mem, as_of)
    _same(before, after)
    assert "changed_since_as_of" not in _item(after, f"edge:{edge.id}")


def test_the_decisions_read_are_the_ones_the_lifecycle_logs() -> None:
    from mnemon.app.edge_history import DECISIONS
    from mnemon.app.vault.lifecycle import DECISION_OPS

    assert sorted(DECISIONS) == sorted(DECISION_OPS)
