"""A thought card reads a note's text as a sentence: list markers and task boxes were already dropped from a
section's text, but a callout's `> [!note] Title` and its `> ` lines went into the title and insight as written
("Open loop: Ship the quasar beta to Bob soon > [!note] Callout > Quasar…"), and a link's card quoted its evidence
line raw ("Plan holds “- [ ] Ship the quasar beta to Bob soon”", "Unconfirmed: > Quasar review …")."""
from __future__ import annotations

from pathlib import Path

from mnemon.app.memory import Mnemon

PLAN = ("# Plan\n\n- [ ] Ship the quasar beta to [[Bob]] soon\n> [!note] Callout\n"
        "> Quasar review with [[Carol]] pending\n>> - nested quasar aside\n")


def test_cards_show_no_quote_callout_or_list_markup(mem: Mnemon, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "Plan.md").write_text(PLAN, encoding="utf-8")
    (vault / "Bob.md").write_text("# Bob\nhi\n", encoding="utf-8")
    (vault / "Carol.md").write_text("# Carol\nhi\n", encoding="utf-8")
    mem.ingest(str(vault), embed=False)
    cards = mem.surface(prompt="quasar Bob Carol", limit=8)["thoughts"]
    said = [(card["title"], card["insight"]) for card in cards]
    assert any("Quasar review with Carol pending" in insight for _title, insight in said)
    for title, insight in said:
        for text in (title, insight):
            assert "[!note]" not in text and "- [ ]" not in text and "“>" not in text and "“-" not in text, text
            assert ": >" not in text and " > " not in text, text


def test_a_properties_card_reads_each_property_as_a_clause(mem: Mnemon, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "Harbour.md").write_text("---\nowner: Ana Lima\nstatus: waiting on legal\nbudget: 40k\n---\n"
                                      "# Harbour plan\n\nThe plan text.\n", encoding="utf-8")
    mem.ingest(str(vault), embed=False)
    cards = mem.surface(prompt="harbour owner Ana status budget", limit=3)["thoughts"]
    [insight] = [c["insight"] for c in cards if "owner" in c["insight"]]
    assert "owner: Ana Lima; status: waiting on legal; budget: 40k" in insight  # it ran on: "Lima status: …"
