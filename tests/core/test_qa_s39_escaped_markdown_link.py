"""An escaped Markdown link is text: 'How to link: \\[Spec](Spec.md) in your note.' renders as the text
'[Spec](Spec.md)', yet 'mnemon ingest --vault V' then 'mnemon show note:Howto.md' answered a links_to edge to
note:Spec.md. An escaped wikilink was already text; an even run of backslashes escapes only itself."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from hypothesis import given, settings, strategies as st

from mnemon.core.vault.parser import parse_links, parse_note


def test_an_escaped_bracket_makes_no_link() -> None:
    text = "Write \\[Spec](Spec.md) for a link; \\\\[Real](Real.md) is one, and ![pic](Pic.md) too.\n"
    assert [link.target for link in parse_note("a.md", text).markdown_links] == ["Real.md", "Pic.md"]
    assert [link.target for link in parse_links("a.md", text).markdown_links] == ["Real.md", "Pic.md"]


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=5))
def test_a_link_is_escaped_by_an_odd_run_of_backslashes(run: int) -> None:
    note = parse_note("a.md", "See " + "\\" * run + "[Spec](Spec.md).\n")
    assert len(note.markdown_links) == (run + 1) % 2


def test_ingest_makes_no_edge(cli_run: Callable[..., tuple[int, Any]], tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "Howto.md").write_text("# Howto\nHow to link: \\[Spec](Spec.md) in your note.\n", encoding="utf-8")
    (vault / "Spec.md").write_text("# Spec\n", encoding="utf-8")
    assert cli_run(["ingest", "--vault", vault, "--no-embed"])[0] == 0
    code, shown = cli_run(["show", "note:Howto.md"])
    assert code == 0
    assert [edge for edge in shown["edges"] if edge["edge_type"] == "links_to"] == []
