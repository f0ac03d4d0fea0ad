"""Markdown links in the forms Obsidian writes them (Settings → Files and links → New link format, with
"Use [[Wikilinks]]" off): "shortest path when possible" writes ``[Beta Spec](Beta%20Spec.md)`` for a note in another
folder, "absolute path in vault" writes ``[Ada](People/Ada%20Quill.md)`` without a leading slash. Both were read as
relative to the linking note's folder (``Projects/Alpha/Beta Spec``, ``Projects/Alpha/People/Ada Quill``), which no
note is, so the links parked on placeholders; Obsidian resolves them as it does ``[[Beta Spec]]`` and
``[[People/Ada Quill]]``."""
from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from mnemon.app import note_tools
from mnemon.app.memory import Mnemon
from mnemon.core.vault import LinkIndex, parse_note, placeholder_key


def _vault(tmp_path: Path, notes: dict[str, str]) -> Path:
    vault = tmp_path / "vault"
    for rel, text in notes.items():
        (vault / rel).parent.mkdir(parents=True, exist_ok=True)
        (vault / rel).write_text(text, encoding="utf-8")
    return vault


def _links_of(mem: Mnemon, note: str) -> list[str]:
    return sorted(e.dst for e in mem.rt.store.iter_edges() if e.type == "links_to" and e.src == f"note:{note}")


def test_shortest_and_vault_path_markdown_links_reach_their_notes(mem: Mnemon, tmp_path: Path) -> None:
    vault = _vault(tmp_path, {
        "Projects/Beta/Beta Spec.md": "# Beta Spec\n",
        "People/Ada Quill.md": "# Ada Quill\n",
        "Café/Café Notes.md": "# Café Notes\n",
        "Projects/Alpha/Plan.md": "# Plan\n\nShortest: [Beta Spec](Beta%20Spec.md)\n"
                                  "In vault: [Ada](People/Ada%20Quill.md#Bio)\n"
                                  "Relative: [c](../../Caf%C3%A9/Caf%C3%A9%20Notes.md)\n",
    })
    mem.ingest(str(vault))
    assert _links_of(mem, "Projects/Alpha/Plan.md") == [
        "note:Café/Café Notes.md", "note:People/Ada Quill.md", "note:Projects/Beta/Beta Spec.md"]
    assert not [n.id for n in mem.rt.store.iter_nodes(kind="placeholder")]


def test_a_relative_link_to_a_sibling_or_subfolder_keeps_its_note(mem: Mnemon, tmp_path: Path) -> None:
    """Obsidian's "relative path" form of a note in the same folder or below carries no ``./``: the note there still
    wins over a note of the same name elsewhere (shallower included)."""
    vault = _vault(tmp_path, {
        "Meeting.md": "# Meeting (root)\n",
        "Other/sub/Item.md": "# Item (other)\n",
        "Projects/Alpha/Meeting.md": "# Meeting (alpha)\n",
        "Projects/Alpha/sub/Item.md": "# Item (alpha)\n",
        "Projects/Alpha/Log.md": "# Log\n\n[m](./Meeting.md) [i](sub/Item.md)\n",
    })
    mem.ingest(str(vault))
    assert _links_of(mem, "Projects/Alpha/Log.md") == [
        "note:Projects/Alpha/Meeting.md", "note:Projects/Alpha/sub/Item.md"]


def test_a_markdown_link_written_before_its_note_joins_it_when_the_note_is_written(mem: Mnemon,
                                                                                  tmp_path: Path) -> None:
    vault = _vault(tmp_path, {"Projects/Alpha/Plan.md": "# Plan\n\n[Beta Spec](Beta%20Spec.md)\n"})
    mem.ingest(str(vault))
    assert _links_of(mem, "Projects/Alpha/Plan.md") == ["placeholder:beta spec"]
    _vault(tmp_path, {"Projects/Beta/Beta Spec.md": "# Beta Spec\n"})
    mem.ingest(str(vault))
    assert _links_of(mem, "Projects/Alpha/Plan.md") == ["note:Projects/Beta/Beta Spec.md"]


def test_the_parser_reads_a_bare_destination_as_written() -> None:
    note = parse_note("Projects/Alpha/Plan.md", "[a](People/Ada%20Quill.md) [b](../Beta/B.md) [c](/Top.md)\n")
    assert [m.target for m in note.markdown_links] == ["People/Ada Quill.md", "Projects/Beta/B.md", "Top.md"]
    index = LinkIndex.build([parse_note("People/Ada Quill.md", "").identity])
    assert index.resolve_key(placeholder_key(note.markdown_links[0].target), "Projects/Alpha/Plan.md") == \
        "People/Ada Quill.md"


def test_note_move_keeps_a_markdown_link_in_its_own_form(tmp_path: Path) -> None:
    vault = _vault(tmp_path, {
        "Projects/Beta/Beta Spec.md": "# Beta Spec\n",
        "People/Ada Quill.md": "# Ada Quill\n",
        "Projects/Alpha/Plan.md": "[s](Beta%20Spec.md) [v](People/Ada%20Quill.md) [r](../Beta/Beta%20Spec.md)\n",
    })
    when = lambda: datetime(2026, 3, 1, tzinfo=timezone.utc)  # noqa: E731
    note_tools.move_note(vault, "Projects/Beta/Beta Spec.md", "Archive/Beta Specification.md", clock=when)
    note_tools.move_note(vault, "People/Ada Quill.md", "Team/Ada Quill.md", clock=when)
    assert (vault / "Projects/Alpha/Plan.md").read_text(encoding="utf-8") == (
        "[s](Beta%20Specification.md) [v](Team/Ada%20Quill.md) [r](../../Archive/Beta%20Specification.md)\n")


def test_a_vault_planned_before_reads_its_markdown_links_again(mem: Mnemon, tmp_path: Path, monkeypatch) -> None:
    from mnemon.app.vault import ingest
    from mnemon.core.vault import parser

    vault = _vault(tmp_path, {"Projects/Beta/Beta Spec.md": "# Beta Spec\n",
                              "Projects/Alpha/Plan.md": "# Plan\n\n[Beta Spec](Beta%20Spec.md)\n"})
    with monkeypatch.context() as before:  # the planner as it was: relative to the linking note, plan version 12
        before.setattr(parser, "resolve_markdown_target", lambda rel, dest: "Projects/Alpha/Beta Spec.md")
        before.setattr(ingest, "PLAN_VERSION", "12")
        mem.ingest(str(vault))
    assert _links_of(mem, "Projects/Alpha/Plan.md") == ["placeholder:projects/alpha/beta spec"]
    mem.ingest(str(vault))  # the same bytes, planned again because the plan version moved on
    assert _links_of(mem, "Projects/Alpha/Plan.md") == ["note:Projects/Beta/Beta Spec.md"]


def test_explain_edge_says_how_a_markdown_link_chose_among_notes_of_its_name(mem: Mnemon, tmp_path: Path) -> None:
    vault = _vault(tmp_path, {"A/Meeting.md": "# Meeting A\n", "B/Meeting.md": "# Meeting B\n",
                              "Log.md": "# Log\n\n[the meeting](Meeting.md)\n"})
    mem.ingest(str(vault))
    edge = next(e for e in mem.rt.store.iter_edges() if e.type == "links_to" and e.src == "note:Log.md")
    assert mem.explain_edge(edge.id)["edge"]["link_resolution"] == {
        "key": "meeting", "tier": "stem", "resolves_to": "A/Meeting.md", "also_matching": ["B/Meeting.md"],
        "rule": "several notes hold the name: one in the linking note's folder wins, else the shallowest path, then "
                "the first by path"}


def test_a_markdown_link_without_its_extension_is_a_link_to_the_note(mem: Mnemon, tmp_path: Path) -> None:
    """Obsidian reads ``[Overview](../Overview)`` and ``[Beta](Beta%20Spec)`` as it reads them with ``.md``; a name
    with another extension is an attachment, a folder is no note."""
    vault = _vault(tmp_path, {"Overview.md": "# Overview\n", "Projects/Beta/Beta Spec.md": "# Beta Spec\n",
                              "Projects/Alpha/Plan.md": "# Plan\n[o](../../Overview) [b](Beta%20Spec) "
                                                        "[img](diagram.png) [dir](../Beta/) [web](www.example.com)\n"})
    mem.ingest(str(vault))
    assert _links_of(mem, "Projects/Alpha/Plan.md") == ["note:Overview.md", "note:Projects/Beta/Beta Spec.md"]


def test_note_move_keeps_a_markdown_link_without_its_extension_so(tmp_path: Path) -> None:
    vault = _vault(tmp_path, {"Overview.md": "# Overview\n", "Projects/Alpha/Plan.md": "[o](../../Overview)\n"})
    note_tools.move_note(vault, "Overview.md", "Archive/Overview Old.md",
                         clock=lambda: datetime(2026, 3, 1, tzinfo=timezone.utc))
    assert (vault / "Projects/Alpha/Plan.md").read_text(encoding="utf-8") == "[o](../../Archive/Overview%20Old)\n"
