"""Math (``$…$`` inline, ``$$…$$`` on a line or as a block) is a formula to Obsidian and every renderer, as code is:
nothing inside it is a link, tag, date, task or heading. A display block's lines were read as Markdown — ``- [ ] y``
an open task, a lone ``=`` under a formula's line a setext heading ("$$ a"), ``[[x]]`` in a subscript a link to a
placeholder. Dollar amounts (``$5 and $10``) are not math: a closing ``$`` follows a non-space and no digit follows it
(Pandoc's rule, which Obsidian's renderer follows)."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from mnemon.core.vault import parse_note


def test_inline_math_holds_no_link_tag_or_date_and_the_bullet_keeps_its_text() -> None:
    note = parse_note("m.md", "# M\n\n- Risk: $x_{[[NotALink]]} + 2026-05-05$ and $a^{#b}$ may slip [[Real]]\n")
    assert [w.target for w in note.wikilinks] == ["Real"]
    assert not note.tags and not note.dates
    assert note.list_items[0].text == "Risk: $x_{[[NotALink]]} + 2026-05-05$ and $a^{#b}$ may slip [[Real]]"


def test_a_display_block_is_opaque_and_what_follows_is_read() -> None:
    note = parse_note("m.md", "# M\n\n$$\n\\begin{aligned}\nx &= 2026-01-02 \\\\\n- [ ] y &= z [[Inner]]\n"
                              "\\end{aligned}\n$$\n\n$$\na\n=\nb\n$$\n\n> $$\n> # not a heading\n> $$\n\n"
                              "## After\n- [ ] real task [[Outer]] 2026-02-03\n")
    assert [(h.level, h.text) for h in note.headings] == [(1, "M"), (2, "After")]
    assert [t.text for t in note.tasks] == ["real task [[Outer]] 2026-02-03"]
    assert [w.target for w in note.wikilinks] == ["Outer"]
    assert [d.text for d in note.dates] == ["2026-02-03"]


def test_display_math_on_one_line_and_an_unclosed_opener() -> None:
    note = parse_note("m.md", "Sum $$\\sum_{[[i]]} x$$ then [[After]].\n\n$$ never closed\n- [ ] still a task [[Kept]]\n")
    assert [w.target for w in note.wikilinks] == ["After", "Kept"]
    assert [t.text for t in note.tasks] == ["still a task [[Kept]]"]


def test_math_inside_code_and_code_inside_math_spans() -> None:
    note = parse_note("m.md", "`$[[Code]]` then $[[Math]]$ then \\$5 [[Escaped]] and 3\\$ [[Too]]\n")
    assert [w.target for w in note.wikilinks] == ["Escaped", "Too"]


_AMOUNT = st.from_regex(r"[0-9]{1,5}(\.[0-9]{2})?", fullmatch=True)


@settings(max_examples=150, deadline=None)
@given(_AMOUNT, _AMOUNT, st.sampled_from(["", ",", "/month", " each", "-"]))
def test_dollar_amounts_are_not_math(first: str, second: str, after: str) -> None:
    note = parse_note("m.md", f"- Paid ${first}{after} and ${second} for [[Budget]] on 2026-03-01 #money\n")
    assert [w.target for w in note.wikilinks] == ["Budget"]
    assert [d.text for d in note.dates] == ["2026-03-01"]
    assert [t.name for t in note.tags] == ["money"]
