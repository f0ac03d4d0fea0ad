"""A raw HTML block is HTML, not Markdown, as CommonMark and Obsidian render it: '<div>' over '- [ ] in html block'
and '[[InHtml]]' and '</div>' made an open loop and a links_to edge to placeholder:inhtml ('mnemon show
note:Html.md' listed both). A blank line ends a block-level tag's block, so what follows inside the '<div>' is
Markdown again; '<pre>' (and script, style, textarea) runs to its closing tag; a lone tag opens a block only where
no paragraph is open. Comments are read as before, and the block's text is still what its section says."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from hypothesis import given, settings, strategies as st

from mnemon.core.vault.parser import parse_links, parse_note

NOTE = """# Html
<div>
- [ ] in html block
[[InHtml]]
</div>

<details><summary>More</summary>

- [ ] after a blank line inside it [[After]]

</details>

<PRE class="x">
- [ ] in pre

[[InPre]]
</pre>
- [ ] after the pre

<span class="note">
- [ ] under a lone tag #hidden

A paragraph
<span>
- [ ] the paragraph goes on [[Kept]]

<!--
<div>
-->
- [ ] after a commented-out div
"""


def test_nothing_in_an_html_block_is_extracted() -> None:
    note = parse_note("Html.md", NOTE)
    assert [task.text for task in note.tasks] == ["after a blank line inside it [[After]]", "after the pre",
                                                   "the paragraph goes on [[Kept]]", "after a commented-out div"]
    assert [link.target for link in note.wikilinks] == ["After", "Kept"]
    assert [link.target for link in parse_links("Html.md", NOTE).wikilinks] == ["After", "Kept"]
    assert note.tags == ()
    assert "- [ ] in html block" in note.sections[0].body  # still what the section says


def test_inline_html_and_autolinks_are_markdown() -> None:
    note = parse_note("a.md", "<span>Call</span> [[Ada]] about it\n<https://x.example> - [ ] no task\n\n"
                              "<mailto:fay@example.com>\n- [ ] a task [[Bram]]\n\n    <div>\n\n- [ ] after code\n")
    assert [link.target for link in note.wikilinks] == ["Ada", "Bram"]
    assert [task.text for task in note.tasks] == ["a task [[Bram]]", "after code"]
    assert [email.address for email in note.emails] == ["fay@example.com"]


def test_a_tag_in_a_code_fence_opens_nothing() -> None:
    note = parse_note("a.md", "```html\n<div>\n```\n- [ ] after the fence [[Seen]]\n")
    assert [task.text for task in note.tasks] == ["after the fence [[Seen]]"]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["div", "DIV", "table", "details", "p", "ul", "center", "section"]),
       st.lists(st.text(alphabet="-[] x#@.ab", min_size=1, max_size=12), min_size=1, max_size=4))
def test_nothing_up_to_the_blank_line_is_extracted(tag: str, lines: list[str]) -> None:
    block = "".join(f"- [ ] {line} [[Hidden]] #hidden\n" for line in lines)
    note = parse_note("a.md", f"Intro.\n<{tag} class=\"a\">\n{block}</{tag}>\n\n- [ ] shown [[Shown]]\n")
    assert [task.text for task in note.tasks] == ["shown [[Shown]]"] and note.tags == ()
    assert [link.target for link in note.wikilinks] == ["Shown"]


def test_ingest_makes_no_open_loop_or_edge_from_it(cli_run: Callable[..., tuple[int, Any]], tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "Html.md").write_text("# Html\n<div>\n- [ ] in html block\n[[InHtml]]\n</div>\n", encoding="utf-8")
    assert cli_run(["ingest", "--vault", vault, "--no-embed"])[0] == 0
    code, shown = cli_run(["show", "note:Html.md"])
    assert code == 0
    assert sorted({edge["edge_type"] for edge in shown["edges"]}) == ["has_section"]
