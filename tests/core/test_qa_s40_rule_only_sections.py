"""A stretch of a note holding nothing but thematic breaks ('---', '***', '___') is no section: a note opening with a
rule over '# Title' ('---', '# Starts with a rule', 'Text here.'), or a heading with only a rule under it, made a
section memory whose whole text was '---' ('mnemon ingest --vault V' then 'mnemon show note:Rule.md' answered two
has_section edges, one to a '---' that recall could hand an agent as a memory)."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from mnemon.core.vault.parser import parse_note


def _sections(text: str) -> list[tuple[tuple[str, ...], str]]:
    return [(section.heading_path, section.body) for section in parse_note("n.md", text).sections]


def test_a_rule_alone_is_no_section() -> None:
    assert _sections("---\n# Title\n\nText here.\n") == [(("Title",), "Text here.")]
    assert _sections("---\nIntro.\n---\nBody.\n") == [(("Intro.",), "Body.")]  # (a setext heading below a rule)
    assert _sections("## A\n\n***\n\n- - -\n\n## B\ntext\n") == [(("B",), "text")]


def test_a_rule_among_text_stays_in_its_section() -> None:
    assert _sections("Text above.\n\n---\n\nText below.\n") == [((), "Text above.\n\n---\n\nText below.")]


def test_ingest_makes_no_section_of_a_rule(cli_run: Callable[..., tuple[int, Any]], tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "Rule.md").write_text("---\n# Starts with a rule\n\nText here.\n", encoding="utf-8")
    assert cli_run(["ingest", "--vault", vault, "--no-embed"])[0] == 0
    code, shown = cli_run(["show", "note:Rule.md"])
    assert code == 0
    sections = [edge["target_id"] for edge in shown["edges"] if edge["edge_type"] == "has_section"]
    assert len(sections) == 1 and cli_run(["show", sections[0]])[1]["content"] == "Text here."
