"""A decided edge's history stays explainable after its decision was carried to a typo-fixed line.

`- Risk: the vendr may slip` validated, fixed to `vendor`: the ingest validates the new line's edge and retires the
old one, the new edge's `decision_carried` event naming it. The next change to the note deleted the retired edge
(a rebuild owns an undecided parsed edge), so `explain-edge <old id>` answered not_found while the successor still
pointed at it. And a retired edge whose line came back, taken up again undecided, kept saying `source_now
in_note: false` from when its line was gone."""
from __future__ import annotations

from pathlib import Path

from .test_qa_s36_kill_after_edit import _edges, _vault

OLD, NEW, OTHER = "- Risk: the vendr may slip", "- Risk: the vendor may slip", "- Risk: the budget may overrun"


def _carried(make_mem, tmp_path: Path):
    mem = make_mem()
    mem.ingest(str(_vault(tmp_path, OLD, OTHER)))
    old = _edges(mem, "has_risk")[OLD]
    mem.validate_edge(old.id, reason="confirmed by Ana")
    [carried] = mem.ingest(str(_vault(tmp_path, NEW, OTHER)))["decisions_carried"]
    return mem, old, carried["to_edge"]


def test_the_retired_edge_outlives_the_next_change_of_its_note(make_mem, tmp_path: Path) -> None:
    mem, old, new_id = _carried(make_mem, tmp_path)
    for more in ("- more", "- more and more"):
        mem.ingest(str(_vault(tmp_path, NEW, OTHER, more)))
        shown = mem.explain_edge(old.id)  # (was not_found after the first of these)
        assert shown["edge"]["status"] == "retired"
        assert shown["edge"]["evidence_text"] == OLD
        assert any(e["event"] == "decision_carried" and e["thinking"]["to_edge"] == new_id
                   for e in shown["debug_log"])
    assert mem.rt.store.get_edge(new_id).metadata.get("validated") is True
    statuses = sorted(e.status for e in _edges(mem, "has_risk").values())
    assert statuses == ["active", "active", "retired"]  # (no second edge of the old line)


def test_the_retired_edge_outlives_its_notes_removal(make_mem, tmp_path: Path) -> None:
    mem, old, new_id = _carried(make_mem, tmp_path)
    mem.ingest(str(_vault(tmp_path, NEW, OTHER, "- more")))
    (tmp_path / "v" / "Plan.md").unlink()
    (tmp_path / "v" / "Other.md").write_text("# Other\n", encoding="utf-8")
    mem.ingest(str(tmp_path / "v"))
    assert mem.explain_edge(old.id)["edge"]["status"] == "retired"  # as a killed edge, kept with its soft-deleted note


def test_a_retired_edge_whose_line_comes_back_reads_as_in_its_note(make_mem, tmp_path: Path) -> None:
    mem, old, new_id = _carried(make_mem, tmp_path)
    mem.ingest(str(_vault(tmp_path, OLD, NEW, OTHER)))  # both lines: nothing to carry back
    shown = mem.explain_edge(old.id)["edge"]
    assert shown["status"] == "active"
    assert "source_now" not in shown  # (said in_note: false from when its line was gone)
    assert shown["evidence_text"] == OLD
