"""A weakened edge keeps its id when its ends change, as a killed or validated one does: weaken '- Risk: the vendor
may slip' and the link of Plan.md, move the file by hand to Sub/Plan.md and ingest — the weakenings went to new edges
and `explain-edge <old id>` answered not_found, while the kill on the same note kept its id (and `decisions_moved`
counted only the kill). The same held for a weakened link parked on a placeholder when its note appeared, and for one
`note move` rewrote to the renamed note's new name."""
from __future__ import annotations

from pathlib import Path

import pytest

from mnemon.app.memory import Mnemon
from mnemon.app.note_tools import move_note

NOTE = "# Plan\n\n- Risk: the vendor may slip\n- [ ] Blocked on legal review\n\nSee [[Other]] and [[Budget]]\n"


def _edge(mem: Mnemon, src: str, type_: str, dst_part: str = ""):
    return next(e for e in mem.rt.store.iter_edges() if e.src == src and e.type == type_ and dst_part in e.dst)


def _vault(mem: Mnemon, tmp_path: Path) -> Path:
    vault = tmp_path / "v"
    vault.mkdir()
    for name, text in (("Plan.md", NOTE), ("Other.md", "# Other\n")):
        (vault / name).write_text(text, encoding="utf-8")
    mem.ingest(str(vault), embed=False)
    return vault


def test_a_moved_notes_weakened_edges_keep_their_ids(mem: Mnemon, tmp_path: Path) -> None:
    vault = _vault(mem, tmp_path)
    risk, link = _edge(mem, "note:Plan.md", "has_risk"), _edge(mem, "note:Plan.md", "links_to", "Other")
    killed = _edge(mem, "note:Plan.md", "has_blocked")
    strengths = {e.id: mem.weaken_edge(e.id, reason="overblown")["strength"] for e in (risk, link)}
    mem.kill_edge(killed.id, reason="signed")
    (vault / "Sub").mkdir()
    (vault / "Plan.md").rename(vault / "Sub" / "Plan.md")
    reply = mem.ingest(str(vault), embed=False)
    assert reply["notes_moved"] == 1 and reply["decisions_moved"] == 3
    for edge_id, strength in strengths.items():
        shown = mem.explain_edge(edge_id)["edge"]  # (was not_found)
        assert shown["strength"] == pytest.approx(strength)
        assert shown["src"]["id"] == "note:Sub/Plan.md"
    assert mem.explain_edge(killed.id)["edge"]["status"] == "killed"
    new = "note:Sub/Plan.md"
    assert _edge(mem, new, "has_risk").id == risk.id and _edge(mem, new, "links_to", "Other").id == link.id
    # one edge each, not the weakened one beside a fresh copy
    assert len([e for e in mem.rt.store.iter_edges() if e.src == new and e.type in ("has_risk", "links_to")]) == 3
    assert mem.ingest(str(vault), embed=False)["notes_read"] == 0


@pytest.mark.parametrize("how", ["placeholder joined", "linked note renamed"])
def test_a_weakened_link_whose_target_changes_keeps_its_id(mem: Mnemon, tmp_path: Path, how: str) -> None:
    vault = _vault(mem, tmp_path)
    target = "Budget" if how == "placeholder joined" else "Other"
    link = _edge(mem, "note:Plan.md", "links_to", target.lower() if how == "placeholder joined" else target)
    strength = mem.weaken_edge(link.id, reason="overblown")["strength"]
    if how == "placeholder joined":
        (vault / "Budget.md").write_text("# Budget\n", encoding="utf-8")
        dst = "note:Budget.md"
    else:
        assert move_note(str(vault), "Other.md", "Sub/Renamed.md")["links_rewritten"] == 1
        dst = "note:Sub/Renamed.md"
    mem.ingest(str(vault), embed=False)
    shown = mem.explain_edge(link.id)["edge"]  # (was not_found: the weakening went to a new edge)
    assert (shown["dst"]["id"], shown["strength"]) == (dst, pytest.approx(strength))
    assert [e.id for e in mem.rt.store.iter_edges() if e.src == "note:Plan.md" and e.dst == dst] == [link.id]
    events = [ev["event"] for ev in mem.rt.store.edge_events(int(link.id or 0))]
    assert events.index("weakened") < events.index("repointed")
