"""Reference-style Markdown links (``[text][label]``, ``[label][]``, ``[label]`` with ``[label]: note.md`` on a line of
its own) are links, as every CommonMark reader follows them: 'mnemon ingest' then 'mnemon show note:Hub.md' showed
no links_to edge for '[the spec][spec]' or '[Other Note]', and a note move left their definitions pointing at the
old path."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from hypothesis import given, settings, strategies as st

from mnemon.core.vault.parser import parse_note

HUB = """# Hub
See [the spec][spec], [Other Note] and [Spec][] again; ![a picture][spec] is an image.

- [ ] a task box is no reference [ ] and [[spec]] is a wikilink
Footnote[^1] and an undefined [label] and `[spec]` in code.

[spec]: Projects/Spec-2026-03-04.md "The spec"
[SPEC]: Ignored.md
[other note]: <Other Note.md>
[^1]: a footnote
"""


def test_a_reference_link_is_a_link_to_its_definitions_note() -> None:
    note = parse_note("Hub.md", HUB)
    links = [(link.target, link.text, link.line) for link in note.markdown_links]
    assert links == [("Projects/Spec-2026-03-04.md", "the spec", 2), ("Other Note.md", "Other Note", 2),
                     ("Projects/Spec-2026-03-04.md", "Spec", 2)]
    assert [link.target for link in note.wikilinks] == ["spec"]
    assert note.dates == ()  # the day in a definition's file name is the linked note's, as in an inline link's


def test_a_definition_inside_code_defines_nothing() -> None:
    note = parse_note("a.md", "See [x].\n\n```\n[x]: Secret.md\n```\n")
    assert note.markdown_links == ()


@settings(max_examples=50, deadline=None)
@given(st.text(alphabet="ab []()!^:\\", max_size=40))
def test_only_a_defined_label_makes_a_link(prose: str) -> None:
    note = parse_note("a.md", f"{prose}\n\n[defined]: Target.md\n")
    assert {link.target for link in note.markdown_links} <= {"Target.md"}
    assert parse_note("a.md", prose.replace(":", "")).markdown_links == ()


def _vault(tmp_path: Path) -> Path:
    vault = tmp_path / "vault"
    (vault / "Projects").mkdir(parents=True)
    (vault / "Projects/Spec.md").write_text("# Spec\n", encoding="utf-8")
    (vault / "Other Note.md").write_text("# Other Note\n", encoding="utf-8")
    (vault / "Hub.md").write_text("# Hub\nSee [the spec][spec] and [Other Note].\n\n"
                                  "[spec]: Projects/Spec.md \"The spec\"\n[other note]: <Other Note.md>\n",
                                  encoding="utf-8")
    return vault


def test_ingest_draws_the_edges_and_a_move_rewrites_the_definition(cli_run: Callable[..., tuple[int, Any]],
                                                                   tmp_path: Path) -> None:
    vault = _vault(tmp_path)
    assert cli_run(["ingest", "--vault", vault, "--no-embed"])[0] == 0
    code, shown = cli_run(["show", "note:Hub.md"])
    assert code == 0
    assert sorted(e["target_id"] for e in shown["edges"] if e["edge_type"] == "links_to") == \
        ["note:Other Note.md", "note:Projects/Spec.md"]
    code, moved = cli_run(["note", "move", "--vault", vault, "Projects/Spec.md", "--to", "Archive/Spec Final.md"])
    assert code == 0 and moved["links_rewritten"] == 1
    assert "[spec]: Archive/Spec%20Final.md \"The spec\"\n" in (vault / "Hub.md").read_text(encoding="utf-8")
    assert cli_run(["ingest", "--vault", vault, "--no-embed"])[0] == 0
    code, shown = cli_run(["show", "note:Hub.md"])
    assert "note:Archive/Spec Final.md" in {e["target_id"] for e in shown["edges"] if e["edge_type"] == "links_to"}
