"""A note linking two blocks (or two headings) of one note makes one edge, and `explain-edge` said only the first:
`[[Spec#^a]]` and `[[Spec#^b]]` gave `metadata.block` "a" and no word of "b". The edge keeps every block and
heading its links point at (`blocks`, `sections`, in the note's order), the first still `block` / `section`."""
from __future__ import annotations

from pathlib import Path

from mnemon.app.vault.plan import plan_links, plan_note


def _links_to_spec(mem, vault: Path) -> dict[str, dict[str, object]]:
    mem.ingest(str(vault))
    return {e.type: mem.explain_edge(e.id)["edge"]["metadata"] for e in mem.rt.store.iter_edges()
            if e.src == "note:Plan.md" and e.dst == "note:Spec.md"}


def test_every_block_a_note_links_is_said(make_mem, tmp_path: Path) -> None:
    vault = tmp_path / "v"
    vault.mkdir()
    (vault / "Spec.md").write_text("# Spec\n\n## Scope\n\nOne. ^a\n\nTwo. ^b\n\n## Risks\n\nThree.\n", encoding="utf-8")
    (vault / "Plan.md").write_text("# Plan\n\nSee [[Spec#^a]], then [[Spec#^b]] and [x](Spec.md#^a).\n\n"
                                   "Read [[Spec#Scope]] and [[Spec#Risks]].\n\n![[Spec#^b]]\n", encoding="utf-8")
    mem = make_mem()
    meta = _links_to_spec(mem, vault)
    assert meta["links_to"]["block"] == "a" and meta["links_to"]["blocks"] == ["a", "b"]
    assert meta["links_to"]["sections"] == ["Scope", "Risks"]
    assert meta["embeds"]["block"] == "b" and "blocks" not in meta["embeds"]  # one block: `block` says it all
    (vault / "Plan.md").write_text("# Plan\n\nSee [[Spec]] and [[Spec#^b]].\n", encoding="utf-8")
    meta = _links_to_spec(mem, vault)
    assert "block" not in meta["links_to"] and meta["links_to"]["blocks"] == ["b"]  # the first link names none


def test_relinking_plans_the_edges_a_parse_plans() -> None:
    data = b"# Plan\n\n[[Spec#^a]] [[Spec#^b]] [[Spec#H1]] [[Spec#H2]]\n"
    assert plan_links("Plan.md", data) == tuple(e for e in plan_note("Plan.md", data, 0.0, ()).edges
                                                if e.relation == "links_to")
