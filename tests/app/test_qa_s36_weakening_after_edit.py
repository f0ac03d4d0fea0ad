"""A weakening survives a typo fix of its line, as a kill and a validation do: `weaken-edge` on the `has_risk` edge
of `- Risk: the vendr may slip`, then the line corrected to `vendor`, and the ingest gave the new line's edge back
at full strength and active, the weakened edge deleted with its line, and `decisions_carried: []`."""
from __future__ import annotations

from pathlib import Path

from .test_qa_s36_kill_after_edit import _edges, _vault


def _live(mem) -> list[object]:
    """The has_risk edges the note's lines hold (the weakened one, retired with its line, is kept beside them)."""
    return [e for e in _edges(mem, "has_risk").values() if e.status != "retired"]


def _weakened_then_edited(make_mem, tmp_path: Path, before: str, after: str):
    mem = make_mem()
    mem.ingest(str(_vault(tmp_path, before)))
    old = _edges(mem, "has_risk")[before]
    weakened = mem.weaken_edge(old.id, factor=0.1, reason="unlikely")
    return mem, old, weakened, mem.ingest(str(_vault(tmp_path, after)))


def test_a_typo_fix_carries_the_weakening_and_says_so(make_mem, tmp_path: Path) -> None:
    mem, old, weakened, out = _weakened_then_edited(make_mem, tmp_path, "- Risk: the vendr may slip",
                                                    "- Risk: the vendor may slip")
    [new] = _live(mem)
    assert (new.weight, new.status) == (weakened["strength"], weakened["status"]) == (0.058333, "candidate")
    assert out["decisions_carried"] == [{"decision": "weakened", "from_edge": old.id, "to_edge": new.id,
                                         "relation": "has_risk", "source_path": "Plan.md",
                                         "was": "- Risk: the vendr may slip", "now": "- Risk: the vendor may slip"}]
    [event] = [e for e in mem.explain_edge(new.id)["debug_log"] if e["event"] == "weakened"]
    assert event["actor"] == "ingest" and event["thinking"]["from_edge"] == old.id


def test_a_changed_number_is_a_new_item_at_full_strength(make_mem, tmp_path: Path) -> None:
    mem, _old, _weakened, out = _weakened_then_edited(make_mem, tmp_path, "- Risk: 3 vendors may slip",
                                                      "- Risk: 4 vendors may slip")
    assert out["decisions_carried"] == []
    [new] = _live(mem)
    assert new.status == "active" and new.weight == new.confidence
