"""A wikilink whose bracket is escaped (``\\[[Phantom]]``) renders as the text "[[Phantom]]", which is why a writer
escapes it: 'mnemon ingest' then 'mnemon show note:Hub.md' answered a links_to edge to placeholder:phantom. An
escaped backslash (``\\\\[[Real]]``) escapes only itself, so the link after it is still one."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from hypothesis import given, strategies as st

from mnemon.core.vault.parser import parse_note


def test_an_escaped_wikilink_is_text() -> None:
    note = parse_note("Hub.md", "# Hub\nEscaped \\[[Phantom]] here, [[Real]] there.\n")
    assert [link.target for link in note.wikilinks] == ["Real"]


@given(st.integers(min_value=0, max_value=6))
def test_only_an_odd_run_of_backslashes_escapes_the_link(run: int) -> None:
    note = parse_note("a.md", "x " + "\\" * run + "[[Target]]\n")
    assert [link.target for link in note.wikilinks] == ([] if run % 2 else ["Target"])


def test_ingest_makes_no_edge_for_an_escaped_link(cli_run: Callable[..., tuple[int, Any]], tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "Hub.md").write_text("# Hub\nHow to write a link: \\[[Phantom]] in your note.\n", encoding="utf-8")
    assert cli_run(["ingest", "--vault", vault, "--no-embed"])[0] == 0
    code, shown = cli_run(["show", "note:Hub.md"])
    assert code == 0 and [e for e in shown["edges"] if e["edge_type"] == "links_to"] == []
