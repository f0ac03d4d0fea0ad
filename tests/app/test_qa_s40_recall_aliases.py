"""QA session 40: a note's front-matter aliases were not searchable. Every row of a note carries its title, so
"what is Lighthouse" finds the Lighthouse note, but "what is LH" — `aliases: [Project Lighthouse, LH]` — found
nothing of it (recall returned one unrelated bullet, by its vector), though a `[[LH]]` link resolves to the note.
A question naming a note by an alias now searches by the note's title too, as if it had named the note by it: read
from the notes' aliases at query time, so nothing is added to the index (its size is a tracked target) and ingest
writes what it wrote."""
from __future__ import annotations

from pathlib import Path

import pytest

from mnemon.app.memory import Mnemon

DECISION = """---
title: Move the ledger to Postgres
aliases: [ADR-7, the Postgres switch]
type: decision
---
# Move the ledger to Postgres

Decided on 2026-03-02 by [[Priya Nair]]: SQLite locks under the nightly import.

## Consequences
- Backups move to pg_dump, owned by the platform team
"""
PERSON = """---
aliases: [PN]
---
# Priya Nair

Runs the platform team; prefers async reviews.
"""
DAILY = """# 2026-03-09

- Ran the first nightly import against the new cluster, no lock errors
"""


@pytest.fixture
def vault_mem(mem: Mnemon, example_vault: Path) -> Mnemon:
    for folder, name, text in (("Decisions", "adr-7-postgres.md", DECISION), ("People", "priya-nair.md", PERSON),
                               ("Daily", "2026-03-09.md", DAILY)):
        (example_vault / folder).mkdir(exist_ok=True)
        (example_vault / folder / name).write_text(text, encoding="utf-8")
    mem.ingest(str(example_vault))
    return mem


def _sources(mem: Mnemon, query: str, limit: int = 3) -> list[str]:
    return [r["insight"]["source"] for r in mem.recall(query, limit=limit)["results"]]


@pytest.mark.parametrize(("query", "note"), [
    ("what is LH", "vault:Projects/lighthouse.md"),
    ("status of project lighthouse", "vault:Projects/lighthouse.md"),
    ("what does AQ own", "vault:People/ada-quill.md"),
    ("why ADR-7?", "vault:Decisions/adr-7-postgres.md"),
    ("what changed with the postgres switch", "vault:Decisions/adr-7-postgres.md"),
    ("who is PN", "vault:People/priya-nair.md"),
])
def test_a_question_naming_a_note_by_an_alias_finds_the_note(vault_mem: Mnemon, query: str, note: str) -> None:
    assert note in _sources(vault_mem, query)  # (as the title would: "who is Priya Nair" finds the ADR too)


def test_a_pack_asked_by_an_alias_holds_the_note(vault_mem: Mnemon) -> None:
    pack = vault_mem.retrieve("what is LH", max_items=4)
    assert pack["items"][0]["source_path"] == "Projects/lighthouse.md"


def test_an_alias_is_named_by_its_words_in_order() -> None:
    from mnemon.core.recall.aliases import titles_named

    notes = [("Lighthouse", ("Project Lighthouse", "LH")), ("Ada Quill", ("Ada", "AQ")), ("Untitled", ("IT",))]
    assert titles_named(["lh"], notes) == {"LH": "Lighthouse"}
    assert titles_named(["status", "project", "lighthous"], notes) == {"Project Lighthouse": "Lighthouse"}
    assert titles_named(["lighthous", "project"], notes) == {}  # not the alias's words in its order
    assert titles_named(["ada"], notes) == {"Ada": "Ada Quill"}
    assert titles_named(["it"], notes) == {}  # an alias of stop words alone names nothing
    assert titles_named([], notes) == {}


def test_an_alias_given_after_a_recall_is_found_by_the_next_one(vault_mem: Mnemon, example_vault: Path) -> None:
    assert "vault:People/priya-nair.md" not in _sources(vault_mem, "who is PNX")  # the aliases read are kept
    note = example_vault / "People" / "priya-nair.md"
    note.write_text(PERSON.replace("[PN]", "[PN, PNX]"), encoding="utf-8")
    vault_mem.ingest(str(example_vault))
    assert "vault:People/priya-nair.md" in _sources(vault_mem, "who is PNX")  # …only until the store changes
