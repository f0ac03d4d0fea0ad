"""An evidence pack ends with its payload comment (`<!-- mneme-research-resolution-b64: … -->`), ingested as part of
the pack's last section: `retrieve` cuts it from a memory's text, but `recall` and `search` returned it — kilobytes
of base64 in the result an agent reads, up to the 8,000 characters a result keeps. Their results now show the
section without it (`show` still prints the memory as stored)."""
from __future__ import annotations

from pathlib import Path

from mnemon.app.memory import Mnemon

RESEARCH = {"slug": "badges", "title": "Site badges", "date": "2026-05-02", "sources_checked": ["email"],
            "claims": [{"subject": "Cleo Marsh", "predicate": "requested", "object": "Site badges",
                        "confidence": 0.95, "certainty": "confirmed", "source_type": "email",
                        "evidence": "Cleo asked the harbour office. " * 40}],
            "unresolved": ["Whether the harbour office issues the badges before the pilot."]}


def test_recall_and_search_results_leave_the_pack_payload_comment_out(mem: Mnemon, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    mem.resolve(str(vault), RESEARCH)
    mem.ingest(str(vault))
    query = "harbour office issues the badges before the pilot"
    results = [r["insight"] for r in mem.recall(query)["results"]] + mem.search(query)["results"]
    hits = [r for r in results if "issues the badges" in r["content"]]
    assert len(hits) == 2
    assert all("mneme-research-resolution" not in r["content"] and "-->" not in r["content"] for r in hits)
    # (since the 36th session a section leaves every comment out: the payload stays in the pack's file only)
    assert "mneme-research-resolution" not in mem.show(hits[0]["id"])["content"]
    assert any("mneme-research-resolution" in p.read_text(encoding="utf-8") for p in vault.rglob("*.md"))
