"""`mnemon debug-candidates --hints suppliers` answered `"hints": ["supplier"]`, the scorer's stem, while its own
`hint_report.given` said "suppliers" and `retrieve --hints` echoes the words given: every reply echoes the words,
with the stemmed terms beside them as `hint_terms`."""
from __future__ import annotations

from pathlib import Path


def test_debug_candidates_echoes_the_hint_words_given(make_mem, tmp_path: Path) -> None:
    vault = tmp_path / "v"
    vault.mkdir()
    (vault / "Vendors.md").write_text("# Vendors\n\n- Call the supplier about running invoices\n", encoding="utf-8")
    mem = make_mem()
    mem.ingest(str(vault))
    out = mem.debug_candidates(hints="suppliers,running,suppliers", limit=3)
    assert out["hints"] == ["suppliers", "running"]  # as typed, once each, in order
    assert out["hint_terms"] == ["run", "supplier"]
    assert out["hint_report"]["given"] == ["suppliers", "running"]
    assert out["count"] == 1 and out["hint_report"]["matched"] == ["suppliers", "running"]
