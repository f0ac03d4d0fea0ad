"""A Logseq graph's notes read as Logseq shows them. Ingested as plain Markdown, a graph lost most of what it says:
`alias:: Falcon, PF` was a line of text, so `[[Falcon]]` parked on a placeholder instead of reaching the page;
`tags::` and `type::` filed nothing; `- TODO Draft the contract` and `- DONE Set up the repo` were bullets (the done
one an open loop, both with the marker in their text); `journals/2026_03_04.md` was titled "2026_03_04", so
`[[Mar 4th, 2026]]` reached no note and the page had no day; `Projects___Falcon.md` was "Projects___Falcon", not
the "Projects/Falcon" its links name; `#[[Vendor Management]]` was no tag and `[#A]` was the tag "a".

A folder that is no Logseq graph reads as before: "- TODO call Bram" a bullet, "alias:: x" text."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from mnemon.app.vault.plan import plan_links, plan_note
from mnemon.core.vault import parse_note
from mnemon.core.vault.logseq import LogseqGraph, format_day, graph_settings

GRAPH = LogseqGraph()

PAGE = """title:: Project Falcon
alias:: Falcon, [[PF]]
tags:: project, [[Q2 Goals]]
type:: [[Project]]
owner:: [[Ada Quill]]
due:: 2026-04-01

- Kickoff with [[Ada Quill]] #budget
	- Budget approved
	  id:: 64a1c2d3-1111-4222-8333-444455556666
- TODO Draft the vendor contract #[[Vendor Management]]
  SCHEDULED: <2026-03-10 Tue>
- DOING [#A] Review the API spec
- LATER Ask Bram about the migration
- NOW Fix the login bug
- WAITING Legal review of the NDA
- DONE Set up the repository
- CANCELED Hire a contractor
- TODOS are not a marker
"""


def test_page_properties_name_file_and_type_the_page() -> None:
    note = parse_note("pages/Project Falcon.md", PAGE, logseq=GRAPH)
    assert note.title == "Project Falcon"
    assert note.aliases == ("Falcon", "PF")
    assert note.note_type == "project"
    assert note.tag_names[:2] == ("project", "q2 goals")
    # the properties are the page's, not its first section's text; a property's day is a day it mentions
    assert not any("alias::" in section.body for section in note.sections)
    assert ("2026-04-01", 6) in [(date.iso, date.line) for date in note.dates]
    # a property's link links (tags, type, owner) but the page's other names are no links to itself
    assert {link.target for link in note.wikilinks if link.line <= 6} == {"Q2 Goals", "Project", "Ada Quill"}


def test_tasks_are_read_by_their_marker_with_their_status() -> None:
    note = parse_note("pages/Project Falcon.md", PAGE, logseq=GRAPH)
    assert [(task.status, task.done, task.text) for task in note.tasks] == [
        ("todo", False, "Draft the vendor contract #[[Vendor Management]]"),
        ("doing", False, "Review the API spec"),
        ("later", False, "Ask Bram about the migration"),
        ("now", False, "Fix the login bug"),
        ("waiting", False, "Legal review of the NDA"),
        ("done", True, "Set up the repository"),
        ("canceled", True, "Hire a contractor"),
    ]
    kinds = {obs.text: obs.kind for obs in note.observations if obs.source == "task"}
    assert kinds["Set up the repository"] == kinds["Hire a contractor"] == "done"
    assert kinds["Fix the login bug"] == "blocked"  # (an open loop)
    assert "TODOS are not a marker" in [item.text for item in note.list_items]
    scheduled = next(obs for obs in note.observations if obs.text.startswith("Draft"))
    assert [date.iso for date in scheduled.dates] == ["2026-03-10"]


def test_tags_in_brackets_are_tags_and_a_priority_is_none() -> None:
    note = parse_note("pages/Project Falcon.md", PAGE, logseq=GRAPH)
    assert {"budget", "vendor management"} <= set(note.tag_names)
    assert "a" not in note.tag_names
    assert "Vendor Management" in {link.target for link in note.wikilinks}


def test_a_journal_page_is_its_day_titled_as_its_links_name_it() -> None:
    note = parse_note("journals/2026_03_04.md", "- Met [[Ada]]\n", logseq=GRAPH)
    assert (note.title, note.day) == ("Mar 4th, 2026", "2026-03-04")
    configured = graph_settings('{:meta/version 1\n ;; :journal/page-title-format "EEE do, MMM yyyy"\n'
                                ' :journal/page-title-format "yyyy-MM-dd"\n :journal/file-name-format "yyyyMMdd"}')
    note = parse_note("journals/20260304.md", "- x\n", logseq=configured)
    assert (note.title, note.day) == ("2026-03-04", "2026-03-04")
    # a page in another folder, or a name that is no day, is no journal
    assert parse_note("pages/2026_03_04.md", "- x\n", logseq=GRAPH).day is None
    assert parse_note("journals/2026_13_04.md", "- x\n", logseq=GRAPH).day is None


def test_day_formats() -> None:
    import datetime as dt

    day = dt.date(2026, 3, 22)
    assert format_day(day, "MMM do, yyyy") == "Mar 22nd, 2026"
    assert format_day(day, "EEEE, MMMM d'th' yy") == "Sunday, March 22th 26"
    assert format_day(dt.date(2026, 3, 11), "do") == "11th"


def test_a_namespaced_file_name_is_the_page_it_names() -> None:
    assert parse_note("pages/Projects___Falcon___Notes.md", "- x\n", logseq=GRAPH).title == "Projects/Falcon/Notes"
    assert parse_note("pages/What%3F.md", "- x\n", logseq=GRAPH).title == "What?"
    assert parse_note("pages/Renamed.md", "title:: Real Name\n\n- x\n", logseq=GRAPH).title == "Real Name"


def test_a_folder_that_is_no_graph_reads_as_plain_markdown() -> None:
    note = parse_note("pages/Project Falcon.md", PAGE)
    assert not note.tasks and not note.aliases and note.front_matter is None
    assert "DONE Set up the repository" in [item.text for item in note.list_items]
    assert note.day is None and note.title == "Project Falcon"


_PIECES = st.sampled_from(["- ", "\t", "  ", "TODO ", "DONE ", "alias:: ", "tags:: ", "title:: ", "x:: ",
                           "[[A]]", "[[B b]]", "#[[C]]", "#d", "[#A] ", "SCHEDULED: <2026-03-10 Tue>", "2026-03-04",
                           ", ", "\n", "\n\n", "```", "word "])


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, max_size=25).map("".join), st.sampled_from(["pages/a.md", "journals/2026_03_04.md"]))
def test_a_graphs_links_alone_are_the_links_its_whole_plan_makes(text: str, path: str) -> None:
    # (relinking an unchanged note parses its links alone: it must plan exactly the link edges the full plan did)
    data = text.encode()
    whole = plan_note(path, data, 0.0, (), GRAPH)
    assert plan_links(path, data, GRAPH) == tuple(e for e in whole.edges if not e.dst)
    tasks = parse_note(path, text, logseq=GRAPH).tasks
    assert all(task.text and task.status for task in tasks)


FIRST_BLOCK = """- alias:: Falcon, PF
  type:: project
  owner:: [[Ada Quill]]
- TODO Draft the vendor contract
"""


def test_page_properties_written_as_the_first_block_are_the_pages() -> None:
    # (as Logseq writes them when they are typed into the page's first block)
    note = parse_note("pages/Project Falcon.md", FIRST_BLOCK, logseq=GRAPH)
    assert note.aliases == ("Falcon", "PF") and note.note_type == "project"
    assert not note.list_items and [task.text for task in note.tasks] == ["Draft the vendor contract"]
    assert [(link.target, link.line) for link in note.wikilinks] == [("Ada Quill", 3)]
    # a first block of text that carries properties is a block, its properties its own
    block = parse_note("pages/Kickoff.md", "- Kickoff with Ada\n  collapsed:: true\n- Next\n", logseq=GRAPH)
    assert block.aliases == () and [item.text for item in block.list_items] == ["Kickoff with Ada", "Next"]
    # so is a first block of properties that goes on with text
    texty = parse_note("pages/Texty.md", "- alias:: Hawk\n  and some words\n", logseq=GRAPH)
    assert texty.aliases == ()
