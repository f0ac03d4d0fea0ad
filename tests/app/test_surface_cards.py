"""Packs and cards that do not repeat themselves: a section made only of bullets gives way to its bullets, a card
does not come back for what an earlier card walked through, and sections read as headings and clauses."""
from __future__ import annotations

from pathlib import Path

import pytest

from mnemon.app.context import with_repeats_marked
from mnemon.app.context_budget import REPEATS, pack
from mnemon.app.memory import Mnemon

SUPPLIERS = """# Suppliers

- Northwind Batteries — battery shipment overdue, escalate if no reply
- Harbour Cells — battery order blocked until [[Finance Desk|finance]] pays the invoice
"""
LAB = """# Lab

## Battery bench
The battery bench runs every Tuesday with the harbour crew and logs each battery cell.
- Battery charger overdue for calibration
"""


@pytest.fixture
def vault_mem(mem: Mnemon, tmp_path: Path) -> Mnemon:
    vault = tmp_path / "vault"
    (vault / "Areas").mkdir(parents=True)
    (vault / "Areas" / "suppliers.md").write_text(SUPPLIERS, encoding="utf-8")
    (vault / "Areas" / "lab.md").write_text(LAB, encoding="utf-8")
    mem.ingest(str(vault))
    return mem


def _section_ids(mem: Mnemon) -> dict[str, str]:
    return {n.title or "": n.id for n in mem.rt.store.iter_nodes(kind="memory")
            if (n.metadata or {}).get("memory_kind") == "section"}


def test_a_section_of_bullets_gives_way_to_its_bullet_and_a_section_with_prose_stays(vault_mem: Mnemon) -> None:
    sections = _section_ids(vault_mem)
    # a section of bullets alone is found by its heading only (its bullets have their own vectors and keywords)
    pack = vault_mem.retrieve("suppliers battery overdue", max_items=10, budget=10_000)
    ids = [i["id"] for i in pack["items"]]
    covered = [s for s in pack["skipped"] if s["reason"] == "covered_by_observation"]
    assert [s["id"] for s in covered] == [sections["Suppliers"]]
    assert covered[0]["covered_by"].startswith(("Northwind Batteries", "Harbour Cells"))
    assert sections["Suppliers"] not in ids
    assert any("Northwind Batteries" in i["text"] for i in pack["items"] if i["kind"] == "observation")
    assert sections["Lab > Battery bench"] in ids  # its prose says more than its bullet


def test_the_rule_keeps_a_section_of_bullets_when_none_of_them_is_an_item(vault_mem: Mnemon) -> None:
    store = vault_mem.rt.store
    section = store.get_node(_section_ids(vault_mem)["Suppliers"])
    bullet = next(n for n in store.iter_nodes(kind="memory") if n.content.startswith("Northwind"))
    assert section is not None
    items = [{"id": section.id, "kind": "section", "note": "Areas/suppliers.md", "text": section.content,
              "title": section.title, "score": 0.5}]
    nodes = {section.id: section, bullet.id: bullet}
    assert with_repeats_marked(items, nodes) == items  # alone, it is the evidence
    other_note = {"id": bullet.id, "kind": "observation", "note": "Areas/lab.md", "text": bullet.content,
                  "title": "Lab", "score": 0.4}
    assert with_repeats_marked([*items, other_note], nodes) == [*items, other_note]
    same_note = {**other_note, "note": "Areas/suppliers.md"}
    marked = with_repeats_marked([*items, same_note], nodes)
    assert REPEATS in marked[0] and marked[1] == same_note
    skipped: list[dict] = []
    chosen, _ = pack(marked, 10_000, 5, skipped)  # the pack takes the bullet: the section gives way to it
    assert [i["id"] for i in chosen] == [bullet.id]
    assert [(s["id"], s["reason"]) for s in skipped] == [(section.id, "covered_by_observation")]


@pytest.mark.parametrize("prompt", ["battery overdue blocked invoice", None], ids=["prompt", "proactive"])
def test_no_card_comes_back_for_what_an_earlier_card_walked_through(vault_mem: Mnemon, prompt: str | None) -> None:
    out = vault_mem.surface(prompt=prompt, limit=6)
    assert out["count"] >= 2
    seen: set[str] = set()
    for card in out["thoughts"]:
        assert card["surface"]["source_id"] not in seen
        seen.update(step["id"] for step in card["path"])
    for card in out["thoughts"]:
        for step in card["path"]:
            if step["type"] == "section":
                assert step["name"] in _section_ids(vault_mem)  # a heading path, not the section's text
        for text in card["observations"]:
            assert not text.startswith(("- ", "* ")) and "\n" not in text


def test_cards_show_wikilinks_as_their_names_and_keep_them_in_the_evidence(vault_mem: Mnemon) -> None:
    cards = vault_mem.surface(prompt="harbour cells invoice", limit=6)["thoughts"]
    card = next(c for c in cards if any("Harbour Cells" in e for e in c["evidence"]))
    assert "blocked until finance pays" in card["title"] + card["insight"]
    assert all("[[" not in card[k] for k in ("title", "insight", "action"))
    assert any("[[Finance Desk|finance]]" in e for e in card["evidence"])


def test_why_now_names_the_words_the_prompt_used(vault_mem: Mnemon) -> None:
    cards = vault_mem.surface(prompt="Battery invoices?", limit=3)["thoughts"]
    assert cards and all("batteri" not in c["why_now"] for c in cards)
    assert any("matched battery" in c["why_now"] for c in cards)
    assert any("batteri" in c["surface"]["matched_terms"] for c in cards)  # the machine-readable field keeps stems


def test_matched_terms_read_as_typed_but_a_cjk_run_keeps_its_terms() -> None:
    from mnemon.app.thoughts import _as_typed
    from mnemon.core.text import tokens

    prompt = "Battery suppliers? 电池供应商"
    assert _as_typed(tokens(prompt), prompt) == ["battery", "suppliers", *tokens("电池供应商")]


def test_surface_has_one_json_shape_with_and_without_a_prompt(example_vault_mem: Mnemon) -> None:
    # finding #9: proactive cards had `seed` and `memory`, prompt cards did not; `retrieval.stats` had 2 keys without
    # a prompt and 8 with one, and `items_returned` counted pack items with a prompt but cards without
    proactive = example_vault_mem.surface(limit=3)
    prompted = example_vault_mem.surface(prompt="battery supplier overdue", limit=3)
    assert proactive["thoughts"] and prompted["thoughts"]
    assert set(proactive) == set(prompted)
    assert set(proactive["retrieval"]) == set(prompted["retrieval"])
    assert set(proactive["retrieval"]["stats"]) == set(prompted["retrieval"]["stats"])
    card_keys = {frozenset(c) for c in proactive["thoughts"] + prompted["thoughts"]}
    assert len(card_keys) == 1
    surface_keys = {frozenset(c["surface"]) for c in proactive["thoughts"] + prompted["thoughts"]}
    assert len(surface_keys) == 1
    for out in (proactive, prompted):
        assert out["retrieval"]["stats"]["items_returned"] == out["count"] == len(out["thoughts"])


def test_a_killed_observation_is_neither_packed_nor_carded(example_vault_mem: Mnemon) -> None:
    """`candidates` and `thought` skip an observation whose edge a person killed; a prompt must not bring it back
    through the pack (`retrieve`) or the cards built from it (`surface`, `agent preflight`)."""
    mem = example_vault_mem
    ada = "note:People/ada-quill.md"
    (edge,) = [e for e in mem.rt.store.edges_of([ada], statuses=("active",), types=["has_blocked"])
               if "Bram" in e.evidence]
    prompt = "waiting vendor contract Bram"
    assert any(i["id"] == edge.dst for i in mem.retrieve(prompt)["items"])
    mem.kill_edge(edge.id, reason="not an open loop any more")
    pack = mem.retrieve(prompt, verbose=True)
    assert all(i["id"] != edge.dst for i in pack["items"])
    (gone,) = [s for s in pack["skipped"] if s["id"] == edge.dst]
    assert (gone["reason"], gone["truth_policy"]) == ("observation_edge_killed", "excluded")
    cards = mem.surface(prompt=prompt, limit=3)["thoughts"]
    assert cards and not any("Waiting on" in c["title"] for c in cards)


def test_surface_stats_are_counts_with_and_without_a_prompt(example_vault_mem: Mnemon) -> None:
    # a proactive surface answered null for every count but two, where a prompt's answered integers: a reader
    # summing or comparing them had to special-case one of the two shapes
    proactive = example_vault_mem.surface(limit=3)["retrieval"]["stats"]
    prompted = example_vault_mem.surface(prompt="battery supplier overdue", limit=3)["retrieval"]["stats"]
    for stats in (proactive, prompted):
        assert all(type(value) is int and value >= 0 for value in stats.values()), stats
    # the proactive scorer recalls no memory, weighs no edge item and reads no world row; what it passed over is
    # every candidate it did not make a card of, none of them listed
    assert proactive["memories_recalled"] == proactive["edges_considered"] == proactive["world_items"] == 0
    assert proactive["killed_edges_excluded"] == proactive["skipped_reported"] == 0
    assert proactive["skipped_total"] == proactive["candidate_items_considered"] - proactive["items_returned"]
