"""A note linking one note under several names makes one edge, and `explain-edge` said only the first name:
`[[Spec|one]]` and `[[Spec|two]]` gave `metadata.alias` "one" and no word of "two", where the blocks and headings
of such links are all listed. The edge keeps every alias its links show (`aliases`, in the note's order), the first
still `alias`."""
from __future__ import annotations

from pathlib import Path

from mnemon.app.vault.plan import plan_links, plan_note

from .test_qa_s36_several_blocks import _links_to_spec


def _plan(tmp_path: Path, plan: str) -> Path:
    vault = tmp_path / "v"
    vault.mkdir(exist_ok=True)
    for name, text in (("Spec.md", "# Spec\n\n## Intro\n\nText.\n"), ("Plan.md", f"# Plan\n\n{plan}\n")):
        (vault / name).write_text(text, encoding="utf-8")
    return vault


def test_every_alias_a_note_links_by_is_said(make_mem, tmp_path: Path) -> None:
    mem = make_mem()
    links = "See [[Spec|one]], then [[Spec|two]] and [[Spec#Intro|three]].\n\nAgain [[Spec|one]] and [[Spec]]."
    meta = _links_to_spec(mem, _plan(tmp_path, links + "\n\n![[Spec|pic]]"))
    assert meta["links_to"]["alias"] == "one" and meta["links_to"]["aliases"] == ["one", "two", "three"]
    assert meta["embeds"]["alias"] == "pic" and "aliases" not in meta["embeds"]  # one alias: `alias` says it all
    meta = _links_to_spec(mem, _plan(tmp_path, "See [[Spec]] and [[Spec|two]]."))
    assert "alias" not in meta["links_to"] and meta["links_to"]["aliases"] == ["two"]  # the first link names none
    meta = _links_to_spec(mem, _plan(tmp_path, "See [[Spec|two]] and [[Spec|two]]."))
    assert meta["links_to"]["alias"] == "two" and "aliases" not in meta["links_to"]


def test_relinking_plans_the_aliases_a_parse_plans() -> None:
    data = b"# Plan\n\n[[Spec|a]] [[Spec|b]] [[Spec#H1|c]]\n"
    [edge] = plan_links("Plan.md", data)
    assert '"aliases":["a","b","c"]' in edge.metadata
    assert (edge,) == tuple(e for e in plan_note("Plan.md", data, 0.0, ()).edges if e.relation == "links_to")
