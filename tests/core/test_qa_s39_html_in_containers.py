"""An HTML block inside a block quote or a list item is HTML, as at the margin (CommonMark's container blocks):
'> <div>' over '> - [ ] in quoted html' and '> [[QuotedHtml]]', and '- <div>' over '  - [ ] listed html': 'mnemon
ingest --vault V' then 'mnemon show note:Q.md' answered has_blocked open loops for both tasks, where a reader sees
HTML. The block ends where its container does (a line leaving the quote or the item's indent) as well as where it
would at the margin."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from hypothesis import given, settings, strategies as st

from mnemon.core.vault.parser import parse_links, parse_note

NOTE = """# Quote
> <div>
> - [ ] in quoted html
> [[QuotedHtml]]
>
> - [ ] after a blank line in the quote

> <DIV class="x">
left the quote [[Lazy]]

- <div>
  - [ ] listed html
  [[InItem]]
- [ ] the next item

1. <pre>
   - [ ] in pre

   [[InPre]]
   </pre>
- [ ] after the pre

> - <details>
>   - [ ] nested in both
> - [ ] the quote's next item

> <span>
> - [ ] under a lone tag

> A paragraph
> <span>
> - [ ] the paragraph's list

> > <table>
> > [[Deeper]]

-     <div>
- [ ] after code in an item
"""


def test_nothing_in_a_contained_html_block_is_extracted() -> None:
    note = parse_note("Q.md", NOTE)
    assert [task.text for task in note.tasks] == [
        "after a blank line in the quote", "the next item", "after the pre", "the quote's next item",
        "the paragraph's list", "after code in an item"]
    assert [link.target for link in note.wikilinks] == ["Lazy"]
    assert [link.target for link in parse_links("Q.md", NOTE).wikilinks] == ["Lazy"]
    assert note.warnings == ()
    assert "> - [ ] in quoted html" in note.sections[0].body  # still what the section says


def test_a_pre_in_a_quote_ends_with_the_quote() -> None:
    note = parse_note("a.md", "> <pre>\n> - [ ] in pre\n\n- [ ] after the quote\n")
    assert [task.text for task in note.tasks] == ["after the quote"] and note.warnings == ()
    assert [w.code for w in parse_note("a.md", "> <pre>\n> - [ ] in pre\n").warnings] == ["unclosed_html_block"]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([("> ", "> "), ("> > ", "> > "), ("- ", "  "), ("* ", "  "), ("1. ", "   "),
                        ("10) ", "    "), ("> - ", ">   "), ("  - ", "    ")]),
       st.sampled_from(["div", "table", "details", "p", "ul"]), st.integers(min_value=1, max_value=3))
def test_a_container_s_block_runs_to_its_blank_line(prefixes: tuple[str, str], tag: str, count: int) -> None:
    opener, inside = prefixes
    body = "".join(f"{inside}[[Hidden{i}]] - [ ] x #hidden\n" for i in range(count))
    note = parse_note("a.md", f"Intro.\n\n{opener}<{tag}>\n{body}\n- [ ] shown [[Shown]]\n")
    assert [task.text for task in note.tasks] == ["shown [[Shown]]"] and note.tags == ()
    assert [link.target for link in note.wikilinks] == ["Shown"]


def test_ingest_makes_no_open_loop_or_edge_from_it(cli_run: Callable[..., tuple[int, Any]], tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "Q.md").write_text("# Quote\n\n> <div>\n> - [ ] in quoted html\n> [[QuotedHtml]]\n\n- <div>\n"
                                "  - [ ] listed html\n", encoding="utf-8")
    assert cli_run(["ingest", "--vault", vault, "--no-embed"])[0] == 0
    code, shown = cli_run(["show", "note:Q.md"])
    assert code == 0
    assert sorted({edge["edge_type"] for edge in shown["edges"]}) == ["has_section"]
