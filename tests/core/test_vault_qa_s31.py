"""QA round 31 on the Markdown parser: what a messy Obsidian vault holds that the graph must read as the reader sees
it — comments hide what they hold, setext headings are headings, an item that starts with inline code keeps it."""
from __future__ import annotations

import base64
import json

from hypothesis import given, settings, strategies as st

from mnemon.core.vault import parse_links, parse_note
from mnemon.core.vault.parser import blank_comments

COMMENTED = """# Links
See [[Alpha]] and <!-- [[Hidden]] --> and %%[[ObsHidden]] #secret%% #shown.
<!--
## Old plan
- [ ] hidden task due 2026-05-05
[[HiddenMulti]] mira@example.org
-->
%%
- [ ] obsidian comment task 2026-06-06
%%
- pay the rent <!-- waiting on Ann --> soon
## Status <!-- draft --> now
"""


def test_nothing_inside_an_html_or_obsidian_comment_is_extracted() -> None:
    note = parse_note("Index.md", COMMENTED)
    assert [link.target for link in note.wikilinks] == ["Alpha"]
    assert note.tasks == ()
    assert note.dates == ()
    assert note.emails == ()
    assert note.tag_names == ("shown",)
    assert [heading.text for heading in note.headings] == ["Links", "Status now"]
    # the bullet is what the reader sees: its comment's words neither show nor make it an open loop
    assert [item.text for item in note.list_items] == ["pay the rent soon"]
    assert note.observations == ()


def test_an_unclosed_html_comment_opener_is_text() -> None:
    note = parse_note("a.md", "unclosed <!-- [[Still]]\n[[Also]]\n- [ ] a task left open here\n")
    assert [link.target for link in note.wikilinks] == ["Still", "Also"]
    assert [task.text for task in note.tasks] == ["a task left open here"]
    assert note.warnings == ()


def test_a_research_payload_in_its_html_comment_is_still_read() -> None:
    encoded = base64.urlsafe_b64encode(json.dumps({"claims": []}).encode()).decode().rstrip("=")
    note = parse_note("Sources/x.md", f"# Pack\n<!-- mneme-research-resolution-b64: {encoded} -->\n")
    assert [payload.payload for payload in note.payloads] == [{"claims": []}]


def test_parse_links_agrees_with_parse_note_about_comments() -> None:
    assert parse_links("Index.md", COMMENTED).wikilinks == parse_note("Index.md", COMMENTED).wikilinks


def test_blank_comments_keeps_length_and_lines() -> None:
    text = "a <!-- b\nc --> d %% e %% f <!--> g"
    blanked = blank_comments(text)
    assert len(blanked) == len(text) and blanked.count("\n") == text.count("\n")
    assert blanked.split() == ["a", "d", "f", "g"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["<!--", "-->", "%%", "\n", "a", " ", "<", "-", "%"]), max_size=40).map("".join))
def test_blank_comments_only_ever_blanks(text: str) -> None:
    blanked = blank_comments(text)
    assert len(blanked) == len(text)
    assert all(after == before or (after == " " and before != "\n") for before, after in zip(text, blanked))


SETEXT = """Project Kestrel
===============

Intro with [[Alpha]].

Next steps
----------
- waiting on the vendor quote
- item
---
a paragraph after the rule
---
its body

two line
heading
===
the end
"""


def test_setext_headings_are_headings_and_the_first_h1_is_the_title() -> None:
    note = parse_note("Projects/kestrel.md", SETEXT)
    assert note.title == "Project Kestrel"
    assert [(h.level, h.text, h.line) for h in note.headings] == [
        (1, "Project Kestrel", 1), (2, "Next steps", 6), (2, "a paragraph after the rule", 11),
        (1, "two line heading", 15)]
    assert [section.heading_path for section in note.sections] == [
        ("Project Kestrel",), ("Project Kestrel", "Next steps"), ("Project Kestrel", "a paragraph after the rule"),
        ("two line heading",)]
    # a section's text starts after its heading's underline
    assert [section.body for section in note.sections][2:] == ["its body", "the end"]


def test_a_dash_line_under_a_list_item_or_quote_is_a_thematic_break() -> None:
    for text in ("- an item\n---\n", "> a quote\n---\n", "| a | b |\n---\n", "\n---\n", "# Title\n---\n"):
        assert [h.level for h in parse_note("a.md", text).headings if h.level == 2] == [], text


def test_an_item_starting_with_inline_code_keeps_it() -> None:
    note = parse_note("a.md", "- `npm ci` fails, waiting on the registry\n- [ ] `make release` by 2026-01-09\n"
                              "1. `uv sync` first step of setup\n")
    assert [item.text for item in note.list_items] == ["`npm ci` fails, waiting on the registry",
                                                        "`uv sync` first step of setup"]
    assert [task.text for task in note.tasks] == ["`make release` by 2026-01-09"]
    # what is scored is still the text without its code
    assert note.observations[1].text == "`npm ci` fails, waiting on the registry"


def test_a_block_identifier_ending_an_item_is_not_its_text() -> None:
    note = parse_note("a.md", "- [ ] pay the invoice by 2026-03-01 ^inv-1\n- a caret^inside stays\n"
                              "- `make` waiting on CI ^b2\n")
    assert [task.text for task in note.tasks] == ["pay the invoice by 2026-03-01"]
    assert [item.text for item in note.list_items] == ["a caret^inside stays", "`make` waiting on CI"]


FRONT_LINKS = """---
title: Kestrel
up: "[[Projects]]"
related:
  - "[[People/Zoë|Zoë]]"
  # - "[[Commented Out]]"
---
# Kestrel
Body links [[Alpha]].
"""


def test_a_wikilink_in_a_property_is_a_link() -> None:
    note = parse_note("Projects/Kestrel.md", FRONT_LINKS)
    assert [(link.target, link.alias, link.line) for link in note.wikilinks] == [
        ("Projects", None, 3), ("People/Zoë", "Zoë", 5), ("Alpha", None, 9)]
    assert parse_links("Projects/Kestrel.md", FRONT_LINKS).wikilinks == note.wikilinks
