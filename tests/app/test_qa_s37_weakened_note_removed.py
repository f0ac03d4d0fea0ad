"""A weakening outlives its note's removal, as a kill and a validation do: `weaken-edge` on a bullet's edge and on a
link of `Plan.md`, the note deleted (or its folder unmounted with --allow-empty) and ingested, then put back: the
weakened edges were deleted with the note — `explain-edge` answered not_found while the killed and validated edges
of the same note stayed on it — and the note put back came back at full strength under new ids."""
from __future__ import annotations

from pathlib import Path

NOTE = "# Plan\n\n- Risk: the vendor may slip\n- [ ] Blocked on legal review\n- Risk: budget may overrun\n\nsee [[Other]]\n"


def _edges(mem) -> dict[str, object]:
    return {e.type if e.type == "links_to" else e.evidence: e for e in mem.rt.store.iter_edges()
            if e.src == "note:Plan.md" and e.type in ("has_risk", "has_blocked", "links_to")}


def test_a_weakening_outlives_its_notes_removal_and_return(make_mem, tmp_path: Path) -> None:
    vault = tmp_path / "v"
    vault.mkdir()
    (vault / "Plan.md").write_text(NOTE, encoding="utf-8")
    (vault / "Other.md").write_text("# Other\n", encoding="utf-8")
    mem = make_mem()
    mem.ingest(str(vault), embed=False)
    edges = _edges(mem)
    weakened, link = edges["- Risk: the vendor may slip"], edges["links_to"]
    killed, validated = edges["- [ ] Blocked on legal review"], edges["- Risk: budget may overrun"]
    for edge in (weakened, link):
        mem.weaken_edge(edge.id, factor=0.5, reason="overblown")
    mem.kill_edge(killed.id, reason="signed")
    mem.validate_edge(validated.id, reason="confirmed")
    decided = {e.id: (e.status, e.weight) for e in (mem.rt.store.get_edge(x.id) for x in edges.values())}
    (vault / "Plan.md").unlink()
    mem.ingest(str(vault), embed=False)
    for edge_id, (status, weight) in decided.items():
        shown = mem.explain_edge(edge_id)["edge"]  # (the weakened ones: not_found)
        assert (shown["status"], shown["strength"]) == (status, weight)
    (vault / "Plan.md").write_text(NOTE, encoding="utf-8")
    mem.ingest(str(vault), embed=False)
    back = _edges(mem)
    assert {e.id: (e.status, e.weight) for e in back.values()} == decided  # the same edges, as decided
