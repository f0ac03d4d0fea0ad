"""Every entry of a context pack's `skipped` list carries its `truth_policy`, as every item does.

A vault section made only of bullets, skipped as `covered_by_observation` because one of its bullets was an item,
was the one skipped entry without a truth policy (`mnemon retrieve --prompt "Harbor risks crane"`).
"""
from __future__ import annotations

from pathlib import Path

from mnemon.app.memory import Mnemon

NOTE = ("# Harbor\n\n## Risks\n\n- Blocked: the crane vendor contract is not signed\n"
        "- Risk: the crane permit expires soon\n- crane crane harbor risks\n")


def test_a_section_covered_by_its_bullets_is_skipped_with_its_truth_policy(mem: Mnemon, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    (vault / "Projects").mkdir(parents=True)
    (vault / "Projects" / "harbor.md").write_text(NOTE, encoding="utf-8")
    mem.ingest(str(vault))
    pack = mem.retrieve("Harbor risks crane", max_items=20)
    reasons = {s["reason"] for s in pack["skipped"]}
    assert "covered_by_observation" in reasons
    assert all(s.get("truth_policy") for s in pack["skipped"]), pack["skipped"]
    covered = next(s for s in pack["skipped"] if s["reason"] == "covered_by_observation")
    assert covered["truth_policy"] == "source_contained_observation"  # a vault section: text in its source
