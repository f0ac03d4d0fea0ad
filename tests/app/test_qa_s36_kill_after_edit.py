"""A kill survives a typo fix of its line: `- [ ] Blocked on vendr contract` killed, corrected to `vendor` and
ingested again was a new task with a new active `has_blocked` edge (an item's identity is its text), the person's
decision left on a line the note no longer holds. A line edited so it stays nearly the same carries the kill, and
the ingest says so; a changed number, an added negation, another sentence or a line two killed lines resemble are
new items, as before."""
from __future__ import annotations

from pathlib import Path

import pytest


def _vault(tmp_path: Path, *lines: str) -> Path:
    vault = tmp_path / "v"
    vault.mkdir(exist_ok=True)
    (vault / "Plan.md").write_text("# Plan\n\n" + "".join(line + "\n" for line in lines), encoding="utf-8")
    return vault


def _edges(mem, relation: str) -> dict[str, object]:
    """Line as written → edge, of the relation's edges from Plan.md."""
    return {e.evidence: e for e in mem.rt.store.iter_edges() if e.src == "note:Plan.md" and e.type == relation}


def test_a_typo_fix_carries_the_kill_and_says_so(make_mem, tmp_path: Path) -> None:
    vault = _vault(tmp_path, "- [ ] Blocked on vendr contract", "- [ ] Blocked on the legal review")
    mem = make_mem()
    mem.ingest(str(vault))
    old = _edges(mem, "has_blocked")["- [ ] Blocked on vendr contract"]
    mem.kill_edge(old.id, reason="not blocked: signed yesterday")
    _vault(tmp_path, "- [ ] Blocked on vendor contract", "- [ ] Blocked on the legal review")
    out = mem.ingest(str(vault))
    new = _edges(mem, "has_blocked")["- [ ] Blocked on vendor contract"]
    assert new.status == "killed" and new.id != old.id
    assert out["decisions_carried"] == [{"decision": "killed", "from_edge": old.id, "to_edge": new.id,
                                         "relation": "has_blocked", "source_path": "Plan.md",
                                         "was": "- [ ] Blocked on vendr contract",
                                         "now": "- [ ] Blocked on vendor contract"}]
    assert _edges(mem, "has_blocked")["- [ ] Blocked on the legal review"].status == "active"
    events = mem.explain_edge(new.id)["debug_log"]
    assert ("killed", "ingest") in [(e["event"], e["actor"]) for e in events]
    assert any(e["event"] == "decision_carried" and e["thinking"]["from_edge"] == old.id for e in events)
    assert any(e["event"] == "decision_carried" and e["thinking"]["to_edge"] == new.id
               for e in mem.explain_edge(old.id)["debug_log"])
    assert all(i.get("id") != new.id for i in mem.retrieve("blocked vendor contract")["items"])
    (vault / "Plan.md").write_text((vault / "Plan.md").read_text(encoding="utf-8") + "- more\n", encoding="utf-8")
    assert mem.ingest(str(vault))["decisions_carried"] == []  # kept as a tombstone of its own, not carried again
    assert mem.rt.store.get_edge(new.id).status == "killed"
    assert mem.kill_edge(new.id)["already_killed"] is True


@pytest.mark.parametrize("before, after", [
    ("- [ ] Blocked on legal sign-off by 2026-12-01", "- [ ] Blocked on legal sign-off by 2026-12-08"),  # a date
    ("- Risk: the vendor may slip on the contract", "- Risk: the vendor may not slip on the contract"),  # negated
    ("- [ ] Blocked on vendr contract", "- [ ] Blocked on the data centre move"),  # another sentence
])
def test_an_edit_that_changes_what_the_line_says_is_a_new_item(make_mem, tmp_path: Path, before: str,
                                                               after: str) -> None:
    relation = "has_risk" if "Risk" in before else "has_blocked"
    vault = _vault(tmp_path, before)
    mem = make_mem()
    mem.ingest(str(vault))
    mem.kill_edge(_edges(mem, relation)[before].id)
    _vault(tmp_path, after)
    assert mem.ingest(str(vault))["decisions_carried"] == []
    assert _edges(mem, relation)[after].status == "active"


def test_a_line_two_killed_lines_resemble_inherits_neither(make_mem, tmp_path: Path) -> None:
    vault = _vault(tmp_path, "- [ ] Blocked on vendr contract", "- [ ] Blocked on vendor contrat")
    mem = make_mem()
    mem.ingest(str(vault))
    for edge in _edges(mem, "has_blocked").values():
        mem.kill_edge(edge.id)
    _vault(tmp_path, "- [ ] Blocked on vendor contract")
    assert mem.ingest(str(vault))["decisions_carried"] == []
    assert _edges(mem, "has_blocked")["- [ ] Blocked on vendor contract"].status == "active"


def test_a_killed_section_is_not_carried_by_its_first_line(make_mem, tmp_path: Path) -> None:
    """A section's edge quotes only its first line: a section that keeps it may say anything else."""
    vault = _vault(tmp_path, "The vendor plan.", "It ships in May.")
    mem = make_mem()
    mem.ingest(str(vault))
    [section] = _edges(mem, "has_section").values()
    mem.kill_edge(section.id)
    _vault(tmp_path, "The vendor plan.", "It was cancelled; we build it ourselves.")
    assert mem.ingest(str(vault))["decisions_carried"] == []
    statuses = sorted(e.status for e in mem.rt.store.iter_edges() if e.type == "has_section")
    assert statuses == ["candidate", "killed"]  # the old tombstone, and the new section's own edge
