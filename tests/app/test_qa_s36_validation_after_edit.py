"""A validation survives a typo fix of its line, as a kill does: `- Risk: the vendr may slip` validated, corrected to
`vendor` and ingested again left two active `has_risk` edges — the new line's undecided, and the validated one on a
line the note no longer holds — and the ingest said nothing (`decisions_carried: []`). The new line's edge is
validated by the ingest, the old one retired (its decision lives on the new edge), and the reply says so."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from .test_qa_s36_kill_after_edit import _edges, _vault


def _validated_then_edited(make_mem, tmp_path: Path, before: str, after: str) -> tuple[Any, Any, dict[str, Any]]:
    """(store, the edge of `before` validated, the reply of the ingest after `before` was edited into `after`)."""
    mem = make_mem()
    mem.ingest(str(_vault(tmp_path, before, "- Risk: the budget may overrun")))
    old = _edges(mem, "has_risk")[before]
    mem.validate_edge(old.id, reason="confirmed by Ana")
    return mem, old, mem.ingest(str(_vault(tmp_path, after, "- Risk: the budget may overrun")))


def test_a_typo_fix_carries_the_validation_and_says_so(make_mem, tmp_path: Path) -> None:
    mem, old, out = _validated_then_edited(make_mem, tmp_path, "- Risk: the vendr may slip",
                                           "- Risk: the vendor may slip")
    vault = tmp_path / "v"
    edges = _edges(mem, "has_risk")
    new = edges["- Risk: the vendor may slip"]
    assert out["decisions_carried"] == [{"decision": "validated", "from_edge": old.id, "to_edge": new.id,
                                         "relation": "has_risk", "source_path": "Plan.md",
                                         "was": "- Risk: the vendr may slip", "now": "- Risk: the vendor may slip"}]
    assert new.status == "active" and new.metadata.get("validated") is True
    assert new.metadata.get("validated_reason") == "confirmed by Ana"
    assert mem.rt.store.get_edge(old.id).status == "retired"  # not a second active edge on a line gone
    assert sorted(e.status for e in edges.values()) == ["active", "active", "retired"]
    shown = mem.explain_edge(new.id)
    assert shown["edge"]["validated"] is True
    events = shown["debug_log"]
    assert ("validated", "ingest") in [(e["event"], e["actor"]) for e in events]
    assert any(e["event"] == "decision_carried" and e["thinking"]["from_edge"] == old.id for e in events)
    old_events = mem.explain_edge(old.id)["debug_log"]
    assert any(e["event"] == "decision_carried" and e["thinking"]["to_edge"] == new.id for e in old_events)
    assert mem.validate_edge(new.id)["already_validated"] is True
    (vault / "Plan.md").write_text((vault / "Plan.md").read_text(encoding="utf-8") + "- more\n", encoding="utf-8")
    assert mem.ingest(str(vault))["decisions_carried"] == []
    again = mem.rt.store.get_edge(new.id)
    assert again.status == "active" and again.metadata.get("validated") is True  # survives the next rebuild
    assert [e.status for e in _edges(mem, "has_risk").values()].count("active") == 2


def test_an_edit_that_changes_what_the_line_says_keeps_the_validation_where_it_was(make_mem, tmp_path: Path) -> None:
    mem, old, out = _validated_then_edited(make_mem, tmp_path, "- Risk: the vendor may slip on the contract",
                                           "- Risk: the vendor may not slip on the contract")
    assert out["decisions_carried"] == []
    assert mem.rt.store.get_edge(old.id).status == "active"  # kept as before: a decision on a line now gone
    assert not _edges(mem, "has_risk")["- Risk: the vendor may not slip on the contract"].metadata.get("validated")


def test_a_typo_put_back_takes_the_validation_back_and_reads_as_in_its_note(make_mem, tmp_path: Path) -> None:
    mem, old, out = _validated_then_edited(make_mem, tmp_path, "- Risk: the vendr may slip",
                                           "- Risk: the vendor may slip")
    [carried] = out["decisions_carried"]
    back = mem.ingest(str(_vault(tmp_path, "- Risk: the vendr may slip", "- Risk: the budget may overrun")))
    assert [(d["from_edge"], d["to_edge"]) for d in back["decisions_carried"]] == [(carried["to_edge"], old.id)]
    shown = mem.explain_edge(old.id)["edge"]
    assert (shown["status"], shown["validated"]) == ("active", True)
    assert "source_now" not in shown  # its line is in the note again, as it was validated
