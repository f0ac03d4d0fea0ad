"""The proactive pass reads a vault's bullets best-first by their stored static score and stops early: it must give
exactly what scoring every bullet gives — same candidates, order, scores, breakdowns and reasons — whatever the
clock, the hints, the cooldown, killed edges, payload observations and changed notes."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from mnemon.app import thoughts
from mnemon.app.context import parse_hints
from mnemon.app.thoughts import kept_candidates, scored_candidates
from mnemon.core.vault.proactive import PROACTIVE_STATE, proactive_key

STATUS = ("waiting on the vendor reply", "blocked by missing approval", "deadline is close", "paid in full",
          "resolved after the call", "needs a second review", "overdue by a week", "urgent: lease expires",
          "correction: the count was wrong", "follow up with finance", "the school confirmed")
WORDS = ("sensor", "battery", "lease", "school", "gateway", "budget", "harbour", "invoice", "tide", "crew")


def _write_vault(root: Path, notes: int, seed: int = 3) -> None:
    rng = random.Random(seed)
    for i in range(notes):
        folder = ("Projects", "People", "Archive", "Areas", "runs")[i % 5]
        kind = ("project", "person", "note", "finance", "")[i % 5]
        lines = ["---", f"title: Note {i}"] + ([f"type: {kind}"] if kind else []) + ["---", f"# Note {i}", ""]
        for _ in range(rng.randint(2, 9)):
            words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 6)))
            day = f" by 2026-{rng.randint(2, 5):02d}-{rng.randint(1, 28):02d}" if rng.random() < 0.4 else ""
            box = rng.choice(("- ", "- [ ] ", "- [x] "))
            lines.append(f"{box}{words.capitalize()} {rng.choice(STATUS)}{day}")
        (root / folder).mkdir(parents=True, exist_ok=True)
        (root / folder / f"note-{i}.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


def _scoring_every_bullet(*_args, **_kwargs):  # type: ignore[no-untyped-def]
    raise AssertionError("the best-first pass fell back to scoring every bullet")


def _same(mem, hints: tuple[str, ...], *, best_first: bool = True) -> list:  # type: ignore[no-untyped-def]
    with pytest.MonkeyPatch.context() as patch:
        if best_first:
            patch.setattr(thoughts, "scored_candidates", _scoring_every_bullet)
        stream, considered = kept_candidates(mem.rt, hints)
        fast = list(stream)
    kept, suppressed = scored_candidates(mem.rt, hints=hints)
    assert considered == len(kept) + len(suppressed)
    assert [(c.memory.id, c.score, c.breakdown, c.reasons, c.seed_id) for c in fast] == \
        [(c.memory.id, c.score, c.breakdown, c.reasons, c.seed_id) for c in kept]
    return fast


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    _write_vault(root, 40)
    return root


def test_best_first_equals_scoring_every_bullet(mem, vault: Path, clock, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(thoughts, "PAGE_ROWS", 7)  # many pages, so the early stops are exercised
    mem.rt.clock = clock
    mem.ingest(str(vault))
    hints = parse_hints(None)
    assert mem.rt.store.vault.get_state(PROACTIVE_STATE) == proactive_key(hints)
    fast = _same(mem, hints)
    assert len(fast) > 100
    for days in (20, 45, 90, 200):  # dates come due, pass and age
        clock.advance(days=days)
        _same(mem, hints)
    mem.thought()  # the cooldown lowers a surfaced note's bullets
    mem.thought()
    _same(mem, hints)
    store = mem.rt.store
    best = fast[0]
    edge = next(e for e in store.edges_of([best.memory.id], statuses=("active", "candidate"), direction="in")
                if e.type.startswith("has_"))
    with store.transaction():
        store.set_edge_status(edge.id, "killed", actor="test", reason="not useful")
    assert best.memory.id not in [c.memory.id for c in _same(mem, hints)]
    # a dismissal demotes: the stored static score overstates the weakened bullet, so the bound still holds
    second = _same(mem, hints)[0]
    edge = next(e for e in store.edges_of([second.memory.id], statuses=("active", "candidate"), direction="in")
                if e.type.startswith("has_"))
    mem.weaken_edge(edge.id, reason="dismissed", factor=0.2)
    demoted = next(c for c in _same(mem, hints) if c.memory.id == second.memory.id)
    assert demoted.score < second.score and "weakened" in demoted.breakdown


def test_payload_observations_and_changed_notes_keep_it_exact(mem, vault: Path, clock,
                                                              monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(thoughts, "PAGE_ROWS", 5)
    mem.rt.clock = clock
    mem.ingest(str(vault))
    mem.remember_payload(json.dumps({
        "source_path": "mneme://agent/notes", "nodes": [{"ref": "lease", "type": "task", "name": "Lease"}],
        "observations": [{"node": "lease", "kind": "risk", "score": 6,
                          "text": "Urgent: the lease expires 2026-03-10, waiting on the school"}]}))
    note = vault / "Projects" / "note-0.md"
    note.write_text(note.read_text(encoding="utf-8") + "- [ ] Urgent deadline for the lease by 2026-03-05\n",
                    encoding="utf-8")
    mem.ingest(str(vault))
    hints = parse_hints(None)
    assert mem.rt.store.vault.get_state(PROACTIVE_STATE) == proactive_key(hints)
    texts = [c.memory.content for c in _same(mem, hints)]
    assert "Urgent deadline for the lease by 2026-03-05" in texts
    assert any(t.startswith("Urgent: the lease expires") for t in texts)


def test_hints_the_ingest_did_not_score_with_stay_exact(mem, vault: Path, clock, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(thoughts, "PAGE_ROWS", 6)
    mem.rt.clock = clock
    mem.ingest(str(vault), hints="lease,school")
    assert mem.rt.store.vault.get_state(PROACTIVE_STATE) == proactive_key(parse_hints("lease,school"))
    _same(mem, parse_hints("lease,school"))
    _same(mem, parse_hints(None))  # other hints: their holders are scored up front, the rest read best-first
    _same(mem, parse_hints("battery,harbour,lease"))
    hinted = _same(mem, parse_hints("gateway"))
    assert any("matched hint: gateway" in c.reasons for c in hinted)
    assert mem.candidates(limit=3, hints="crew")["candidates"]


def test_a_store_not_scored_under_one_set_of_hints_scores_every_bullet(mem, vault: Path, clock) -> None:  # type: ignore[no-untyped-def]
    mem.rt.clock = clock
    mem.ingest(str(vault), mode="append", max_notes=20, hints="lease")
    mem.ingest(str(vault), mode="append", max_notes=10, hints="school")  # ten notes keep their old scores
    assert mem.rt.store.vault.get_state(PROACTIVE_STATE) == ""
    _same(mem, parse_hints("school"), best_first=False)


def test_debug_candidates_without_skipped_reads_best_first_and_says_the_same(  # type: ignore[no-untyped-def]
        mem, vault: Path, clock, monkeypatch) -> None:
    monkeypatch.setattr(thoughts, "PAGE_ROWS", 6)
    mem.rt.clock = clock
    mem.ingest(str(vault))
    clock.advance(days=30)
    for hints in (None, "lease,gateway"):
        full = mem.debug_candidates(hints=hints, limit=12, include_skipped=True)
        assert full["skipped"] and full["count"] == 12
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(thoughts, "scored_candidates", _scoring_every_bullet)
            fast = mem.debug_candidates(hints=hints, limit=12)
        del full["skipped"]
        full["include_skipped"] = False
        assert fast == full
