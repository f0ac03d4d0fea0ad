"""An indented code block (four spaces or a tab, after a blank line, outside any list) is code, as CommonMark and
Obsidian show it: a note explaining Markdown (``    - [ ] buy milk tomorrow``) had that example read as an open loop,
its ``[[Example Link]]`` as an edge and its ``#example`` as a tag. A list's content, indented the same way, is still
read."""
from __future__ import annotations

from typing import Any, Callable

from hypothesis import given, settings, strategies as st

from mnemon.core.vault.parser import parse_note

EXAMPLE = """# How to write tasks

Here is how a task looks in Markdown:

    - [ ] buy milk tomorrow 2026-03-04
    [[Example Link]] #example bob@example.com

\tA tab-indented line [[Tabbed]] counts too.

Back to text with [[Real]] and #real.
"""


def test_an_indented_code_block_yields_nothing() -> None:
    note = parse_note("Howto.md", EXAMPLE)
    assert note.tasks == () and note.observations == ()
    assert [link.target for link in note.wikilinks] == ["Real"]
    assert [tag.name for tag in note.tags] == ["real"]
    assert note.emails == () and note.dates == ()


def test_an_indented_fence_opener_is_code_not_a_fence() -> None:
    note = parse_note("a.md", "Intro.\n\n    ```\n\n- [ ] a task after the indented block\n")
    assert [task.text for task in note.tasks] == ["a task after the indented block"]
    assert not note.warnings  # it opened no fence, so nothing was "never closed"


def test_list_content_indented_four_spaces_is_still_read() -> None:
    text = ("- parent item\n\n    - [ ] nested task after a blank line\n\n    continued [[Kept]]\n"
            "1. numbered\n\n    - [x] done under a number\n"
            "- loose item\n\n  its paragraph\n\n    - [ ] deeper task\n")
    note = parse_note("a.md", text)
    assert [task.text for task in note.tasks] == ["nested task after a blank line", "done under a number",
                                                   "deeper task"]
    assert [link.target for link in note.wikilinks] == ["Kept"]


def test_a_paragraph_after_a_list_ends_it_so_the_block_below_is_code() -> None:
    note = parse_note("a.md", "- [ ] real task in the list\n\nA paragraph.\n\n    - [ ] example only\n")
    assert [task.text for task in note.tasks] == ["real task in the list"]


def test_code_at_the_start_of_the_body_after_front_matter() -> None:
    note = parse_note("a.md", "---\ntitle: T\n---\n\n    - [ ] example only\n\n- [ ] the real one\n")
    assert [task.text for task in note.tasks] == ["the real one"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(alphabet="-[] x#@.ab1`~$>*", max_size=30), min_size=1, max_size=5))
def test_nothing_inside_an_indented_block_is_extracted(lines: list[str]) -> None:
    block = "".join(f"    - [ ] {line} [[Hidden]] #hidden\n" for line in lines)
    note = parse_note("a.md", f"# Title\n\nExample:\n\n{block}\nAfter the block [[Shown]].\n")
    assert note.tasks == () and [tag.name for tag in note.tags] == []
    assert [link.target for link in note.wikilinks] == ["Shown"]


def test_ingest_makes_no_open_loop_or_placeholder_from_the_example(cli_run: Callable[..., tuple[int, Any]],
                                                                   tmp_path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "Howto.md").write_text(EXAMPLE, encoding="utf-8")
    code, _ = cli_run(["ingest", "--vault", vault, "--no-embed"])
    assert code == 0
    code, shown = cli_run(["show", "note:Howto.md"])
    assert code == 0
    kinds = sorted({edge["edge_type"] for edge in shown["edges"]})
    assert "has_blocked" not in kinds
    assert sorted(edge["target_id"] for edge in shown["edges"] if edge["edge_type"] == "links_to") == \
        ["placeholder:real"]


def test_a_vault_planned_before_reads_its_indented_code_again(mem, tmp_path, monkeypatch) -> None:
    from mnemon.app.vault import ingest
    from mnemon.core.vault import code

    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "Howto.md").write_text(EXAMPLE, encoding="utf-8")
    with monkeypatch.context() as before:  # the parser as it was: no indented code, plan version 19
        before.setattr(code, "indented_code", lambda *_: frozenset())
        before.setattr(ingest, "PLAN_VERSION", "19")
        mem.ingest(str(vault), embed=False)
    assert "has_blocked" in {edge["edge_type"] for edge in mem.show("note:Howto.md")["edges"]}
    mem.ingest(str(vault), embed=False)  # the same bytes, planned again because the plan version moved on
    assert "has_blocked" not in {edge["edge_type"] for edge in mem.show("note:Howto.md")["edges"]}
