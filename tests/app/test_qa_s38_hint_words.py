"""`hint_report` speaks the user's words. `mnemon thought --hints suppliers,Acme` answered
`hint_report.given ["supplier", "acm"]` — the stemmed terms the scorer compares, one of them no word at all. Given,
matched and unmatched are now the words as given (one each); the stemmed form is only what they match by, so
'suppliers' still matches an item about a supplier, and a word with no term to match ('the') is said to match
nothing instead of vanishing from the report."""
from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

VAULT = {
    "Vendors.md": "# Vendors\n\n- [ ] Call the battery supplier about the late shipment due 2026-12-20\n"
                  "- Risk: Acme Parts, our main supplier, may miss the deadline\n",
}


def _mem(make_mem, tmp_path: Path):
    vault = tmp_path / "v"
    vault.mkdir()
    for name, text in VAULT.items():
        (vault / name).write_text(text, encoding="utf-8")
    mem = make_mem()
    mem.ingest(str(vault))
    return mem


def test_the_report_echoes_the_words_given_not_their_stems(make_mem, tmp_path: Path) -> None:
    mem = _mem(make_mem, tmp_path)
    report = mem.thought(hints="suppliers,Acme,the,zqxwv,suppliers", out=str(tmp_path / "cards"))["hint_report"]
    assert report == {"given": ["suppliers", "Acme", "the", "zqxwv"], "matched": ["suppliers", "Acme"],
                      "unmatched": ["the", "zqxwv"]}
    listed = mem.candidates(hints=["late shipments", "Suppliers"], limit=5)["hint_report"]
    assert listed == {"given": ["late shipments", "Suppliers"], "matched": ["late shipments", "Suppliers"],
                      "unmatched": []}


def test_every_word_given_is_echoed_once_as_given_and_said_matched_or_not(make_mem, tmp_path: Path) -> None:
    mem = _mem(make_mem, tmp_path)

    @settings(max_examples=25, deadline=None)
    @given(st.lists(st.text(alphabet="abcxyzABCÉé -", min_size=1, max_size=12).filter(str.strip), min_size=1,
                    max_size=4))
    def check(words: list[str]) -> None:
        report = mem.candidates(hints=words, limit=3)["hint_report"]
        given_words = list(dict.fromkeys(w.strip() for w in words))
        assert report["given"] == given_words
        assert set(report["matched"]) <= set(given_words) and set(report["unmatched"]) <= set(given_words)
        assert not set(report["matched"]) & set(report["unmatched"])

    check()


def test_a_hint_with_no_term_to_match_is_said_to_change_nothing(make_mem, tmp_path: Path) -> None:
    report = _mem(make_mem, tmp_path).candidates(hints="the", limit=3)["hint_report"]
    assert report["unmatched"] == ["the"] and "changed no score" in report["note"]
