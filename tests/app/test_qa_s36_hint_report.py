"""`thought --hints suppliers` gave a "Past due" card about sensor firmware and nothing said what the hint did: a hint
raises the score of an item holding it (it does not filter), and a past-due deadline outscored every supplier item;
a misspelt hint matched nothing and changed no score, without a word. `thought` and `candidates` given hints say
which the cards hold (`hint_report.matched`), which no observation or task holds (`unmatched`), and a note when
the cards hold none."""
from __future__ import annotations

from pathlib import Path

VAULT = {
    "Plan.md": "# Plan\n\n- Risk: the firmware deadline 2026-01-10 is past due, penalty if missed\n",
    "Vendors.md": "# Vendors\n\n- Call the supplier about invoices\n",
}


def _mem(make_mem, tmp_path: Path):
    vault = tmp_path / "v"
    vault.mkdir()
    for name, text in VAULT.items():
        (vault / name).write_text(text, encoding="utf-8")
    mem = make_mem()
    mem.ingest(str(vault))
    return mem


def test_a_thought_says_what_its_hints_did(make_mem, tmp_path: Path) -> None:
    mem = _mem(make_mem, tmp_path)
    out = mem.thought(hints="suppliers,zqxwv", out=str(tmp_path / "cards"))
    report = out["hint_report"]
    assert report["given"] == ["suppliers", "zqxwv"] and report["unmatched"] == ["zqxwv"]  # the words as given
    assert out["title"].startswith("Past due: Risk: the firmware deadline")  # it outscored the supplier's item
    assert report["matched"] == [] and "does not filter" in report["note"]  # said so, not left to guess
    nothing = mem.candidates(hints="zqxwv", limit=3)
    assert nothing["hint_report"]["unmatched"] == ["zqxwv"] and "changed no score" in nothing["hint_report"]["note"]
    assert nothing["count"] == len(nothing["candidates"]) > 0
    held = mem.candidates(hints="supplier", limit=5)["hint_report"]
    assert held == {"given": ["supplier"], "matched": ["supplier"], "unmatched": []}
    assert "hint_report" not in mem.candidates(limit=1)  # the default hints: nothing was asked


def test_proactive_cards_and_debug_candidates_say_it_too(make_mem, tmp_path: Path) -> None:
    mem = _mem(make_mem, tmp_path)
    cards = mem.surface(hints="supplier,zqxwv", limit=5)
    assert cards["hint_report"] == {"given": ["supplier", "zqxwv"], "matched": ["supplier"], "unmatched": ["zqxwv"]}
    debug = mem.debug_candidates(hints="zqxwv", limit=2)
    assert debug["hints"] == ["zqxwv"] and debug["hint_report"]["unmatched"] == ["zqxwv"]
    assert "hint_report" not in mem.surface(limit=1) and "hint_report" not in mem.surface(prompt="supplier", limit=1)
