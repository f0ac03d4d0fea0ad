"""A heading reads as it is rendered, as the title taken from an H1 already did: '## See [Spec](Spec.md)' was the
heading node 'See [Spec](Spec.md)' (id heading:Head.md#see-spec-spec-md) and the section path 'Top > See
[Spec](Spec.md)', and '## Title\\#' read 'Title\\#' ('mnemon show note:Head.md' listed both). Its id is now the one
'[[Head#See Spec]]' names; a wikilink in a heading keeps the id it had, and inline code keeps what it holds."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from hypothesis import given, settings, strategies as st

from mnemon.core.vault.parser import parse_note

NOTE = "# Top\n## See [Spec](Spec.md)\ntext\n## Title\\#\nmore\n## Run `a\\#[x](y)` \\[not](link)\nbody\n\n" \
       "Setext [Spec](Spec.md) \\*\n---\nunder it\n### See [[Spec|the spec]]\nlast\n"


def test_headings_read_as_rendered() -> None:
    note = parse_note("Head.md", NOTE)
    assert [heading.text for heading in note.headings] == [
        "Top", "See Spec", "Title#", "Run `a\\#[x](y)` [not](link)", "Setext Spec *", "See [[Spec|the spec]]"]
    assert [section.heading_path[-1] for section in note.sections] == [
        "See Spec", "Title#", "Run `a\\#[x](y)` [not](link)", "Setext Spec *", "See [[Spec|the spec]]"]
    assert [link.line for link in note.markdown_links if link.target == "Spec.md"] == [2, 9]  # still links


def test_a_title_with_an_escape_reads_as_rendered() -> None:
    assert parse_note("a.md", "# C\\# in [depth](Depth.md) #\n").title == "C# in depth"


@settings(max_examples=60, deadline=None)
@given(st.from_regex(r"[A-Za-z][A-Za-z ]{0,15}[A-Za-z]", fullmatch=True), st.sampled_from("#*_[]!\\`"))
def test_an_escaped_character_reads_as_itself(words: str, mark: str) -> None:
    note = parse_note("a.md", f"# T\n## {words} \\{mark}\nbody\n")
    assert note.headings[1].text == f"{words} {mark}"


def test_ingest_names_the_heading_as_its_links_do(cli_run: Callable[..., tuple[int, Any]], tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "Head.md").write_text("# Top\n## See [Spec](Spec.md)\ntext\n## Title\\#\nmore\n## See [[Spec]] too\nx\n",
                                   encoding="utf-8")
    (vault / "Spec.md").write_text("# Spec\n", encoding="utf-8")
    (vault / "Other.md").write_text("# Other\nRead [[Head#See Spec]].\n", encoding="utf-8")
    assert cli_run(["ingest", "--vault", vault, "--no-embed"])[0] == 0
    code, shown = cli_run(["show", "note:Head.md"])
    assert code == 0
    headings = sorted(edge["target_id"] for edge in shown["edges"] if edge["edge_type"] == "has_heading")
    assert headings == ["heading:Head.md#see-spec", "heading:Head.md#see-spec-too", "heading:Head.md#title"]
    titles = {cli_run(["show", heading])[1]["title"] for heading in headings}
    assert titles == {"See Spec", "Title#", "See Spec too"}
    [link] = [edge for edge in shown["edges"]
              if edge["edge_type"] == "links_to" and edge["source_id"] == "note:Other.md"]
    assert link["target_id"] == "note:Head.md" and link["metadata"]["section"] == "See Spec"
    sections = [cli_run(["show", edge["target_id"]])[1]["title"] for edge in shown["edges"]
                if edge["edge_type"] == "has_section"]
    assert sorted(sections) == ["Top > See Spec", "Top > See Spec too", "Top > Title#"]
