"""The vault parser and link resolver: what a user's Markdown turns into, line by line."""
from __future__ import annotations

import base64
import json
import time
from textwrap import dedent

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mnemon.core.errors import InvalidInput
from mnemon.core.vault import (
    LinkIndex,
    NoteIdentity,
    normalise_link_key,
    note_keys,
    parse_note,
    placeholder_key,
    resolve_link,
    score_text,
)


def md(text: str) -> str:
    return dedent(text).lstrip("\n")


# -- front matter, title, type --------------------------------------------------------------------------------


def test_front_matter_fields_title_aliases_tags_type_and_raw() -> None:
    note = parse_note("inbox/lease.md", md("""
        ---
        title: Flat lease
        aliases: [The lease, Tenancy]
        tags: [home, "#Finance/Rent"]
        type: Project
        renewal: 2026-07-01
        ---
        # Some other heading
        Body.
    """))
    front = note.front_matter
    assert front is not None
    assert note.title == "Flat lease"
    assert note.aliases == ("The lease", "Tenancy")
    assert note.tag_names == ("home", "finance/rent")
    assert note.note_type == "project"
    assert front.raw["renewal"] == "2026-07-01"  # YAML dates become JSON-safe strings
    assert (front.line_start, front.line_end) == (1, 7)
    assert note.warnings == ()
    # The body starts after the block: the H1 is on line 8 and is not the title here.
    assert [(h.text, h.line, h.is_title) for h in note.headings] == [("Some other heading", 8, False)]


def test_front_matter_string_tags_and_single_alias() -> None:
    note = parse_note("a.md", md("""
        ---
        tags: alpha, beta gamma
        alias: Solo
        ---
        text
    """))
    assert note.tag_names == ("alpha", "beta", "gamma")
    assert note.aliases == ("Solo",)


def test_malformed_front_matter_is_a_warning_not_an_error() -> None:
    note = parse_note("people/ann.md", md("""
        ---
        title: [unclosed
        tags: : :
        ---
        # Ann
        - Waiting on the contract from Ann
    """))
    assert [w.code for w in note.warnings] == ["front_matter_invalid"]
    assert note.front_matter is not None and note.front_matter.raw == {}
    assert note.title == "Ann"  # falls back to the H1
    assert note.note_type == "person"  # folder mapping still applies
    assert note.observations[0].line == 6  # line numbers still count the front-matter lines


def test_front_matter_that_is_not_a_mapping_is_reported() -> None:
    note = parse_note("a.md", "---\n- just\n- a list\n---\nbody\n")
    assert [w.code for w in note.warnings] == ["front_matter_not_mapping"]
    # no properties: the lines are the note's, as rendered (see test_qa_s40_front_matter_not_mapping.py)
    assert [item.text for item in note.list_items] == ["just", "a list"] and note.front_matter is None


def test_unterminated_front_matter_is_treated_as_text() -> None:
    note = parse_note("a.md", "---\ntitle: x\n- Waiting on the reply from legal\n")
    assert [w.code for w in note.warnings] == ["front_matter_unterminated"]
    assert note.front_matter is None
    assert [item.text for item in note.list_items] == ["Waiting on the reply from legal"]


def test_title_precedence_front_matter_then_h1_then_stem() -> None:
    assert parse_note("x/plain-note.md", "no heading here\n").title == "plain-note"
    h2_only = parse_note("x/plain.md", "## Not a title\n")
    assert h2_only.title == "plain"
    with_h1 = parse_note("x/plain.md", "## Intro\n# Real [[Title|Name]]\n")
    assert with_h1.title == "Real Name"
    assert [h.is_title for h in with_h1.headings] == [False, True]


def test_note_type_from_nearest_folder_and_front_matter_override() -> None:
    assert parse_note("Projects/alpha/plan.md", "x").note_type == "project"
    assert parse_note("archive/events/party.md", "x").note_type == "event"
    assert parse_note("misc/n.md", "x").note_type == "note"
    assert parse_note("people/n.md", "---\ntype: vendor\n---\n").note_type == "vendor"


# -- headings and sections -------------------------------------------------------------------------------------


def test_headings_and_sections_with_paths_and_line_ranges() -> None:
    note = parse_note("n.md", md("""
        Preamble line.

        # Title
        Intro paragraph.
        ## Status ##
        All good.

        ### Detail
        Deep text.
        ## Empty
        #not-a-heading tag line
    """))
    assert [(h.level, h.text, h.line) for h in note.headings] == [
        (1, "Title", 3), (2, "Status", 5), (3, "Detail", 8), (2, "Empty", 10),
    ]
    assert [(s.heading_path, s.body, s.line_start, s.line_end) for s in note.sections] == [
        ((), "Preamble line.", 1, 1),
        (("Title",), "Intro paragraph.", 3, 4),
        (("Title", "Status"), "All good.", 5, 6),
        (("Title", "Status", "Detail"), "Deep text.", 8, 9),
        (("Title", "Empty"), "#not-a-heading tag line", 10, 11),
    ]
    assert note.tag_names == ("not-a-heading",)


def test_heading_without_text_is_not_a_heading() -> None:
    note = parse_note("n.md", "#\n##   \n# ok\n")
    assert [h.text for h in note.headings] == ["ok"]


# -- code exclusion --------------------------------------------------------------------------------------------


def test_nothing_is_parsed_inside_fenced_code_blocks() -> None:
    note = parse_note("n.md", md("""
        ```python
        # not a heading
        - [ ] not a task, waiting forever
        [[Not A Link]] #nottag nobody@example.com 2026-01-01
        ```
        ~~~~
        ```
        - still code inside the tilde fence
        ~~~~
        > ```
        > - [ ] quoted code
        > ```
        - [ ] real task after the fences
    """))
    assert note.headings == ()
    assert note.wikilinks == () and note.tags == () and note.emails == () and note.dates == ()
    assert [(t.text, t.line) for t in note.tasks] == [("real task after the fences", 13)]
    # Code still belongs to the section text (it is content), it just yields no graph items.
    assert "not a heading" in note.sections[0].body


def test_inline_code_spans_are_not_parsed() -> None:
    note = parse_note("n.md", "Use `[[Fake]] #fake a@b.co 2026-01-01` or ``x ` [[Also Fake]]`` but [[Real]]\n")
    assert [link.target for link in note.wikilinks] == ["Real"]
    assert note.tags == () and note.emails == () and note.dates == ()


def test_unclosed_fence_swallows_the_rest_and_warns() -> None:
    note = parse_note("n.md", "text [[A]]\n```\n[[B]]\n")
    assert [link.target for link in note.wikilinks] == ["A"]
    assert [(w.code, w.line) for w in note.warnings] == [("unclosed_code_fence", 2)]


# -- links -----------------------------------------------------------------------------------------------------


def test_wikilink_forms_section_alias_embed_folder_and_block_ref() -> None:
    note = parse_note("n.md", md("""
        See [[Alpha]], [[Beta#Plan|the plan]] and [[dir/Gamma]].
        ![[Diagram.png]] ![[Delta#Summary]]
        [[Epsilon#^block123]] [[#Local heading]]
        | col | [[Zeta\\|alias in table]] |
    """))
    got = [(l.target, l.section, l.alias, l.is_embed, l.line) for l in note.wikilinks]
    assert got == [
        ("Alpha", None, None, False, 1),
        ("Beta", "Plan", "the plan", False, 1),
        ("dir/Gamma", None, None, False, 1),
        ("Diagram.png", None, None, True, 2),
        ("Delta", "Summary", None, True, 2),
        ("Epsilon", None, None, False, 3),
        ("Zeta", None, "alias in table", False, 4),
    ]
    assert [l.is_attachment for l in note.wikilinks[3:5]] == [True, False]
    assert note.wikilinks[1].evidence == "See [[Alpha]], [[Beta#Plan|the plan]] and [[dir/Gamma]]."


def test_markdown_links_to_local_notes_only() -> None:
    note = parse_note("projects/alpha/plan.md", md("""
        [spec](spec.md) [up](../shared/Team%20Notes.md#roles) [root](/index.md)
        [web](https://example.com/x.md) [mail](mailto:a@b.com) [img](pic.png) [anchor](#top)
        [angle](<My Note.md>) [escape](../../../outside.md)
    """))
    got = [(l.target, l.section, l.text, l.line) for l in note.markdown_links]
    assert got == [  # a destination neither relative (./, ../) nor rooted (/) is looked up as a wikilink is
        ("spec.md", None, "spec", 1),
        ("projects/shared/Team Notes.md", "roles", "up", 1),
        ("index.md", None, "root", 1),
        ("My Note.md", None, "angle", 3),
    ]
    assert [w.code for w in note.warnings] == ["link_outside_vault"]


# -- tags, dates, emails ---------------------------------------------------------------------------------------


def test_tags_skip_urls_fragments_headings_numbers_and_entities() -> None:
    note = parse_note("n.md", md("""
        # Heading
        ## Plan #q3
        #todo at line start, nested #area/sub-topic, issue #123 is not a tag
        https://example.com/page#frag and [link](other.md#section) and [[Note#Section]]
        C# and x&#39;s and mid#word are not tags either; (#paren) is
    """))
    assert [(t.name, t.line) for t in note.tags] == [
        ("q3", 2), ("todo", 3), ("area/sub-topic", 3), ("paren", 5),
    ]


def test_dates_iso_day_month_year_month_day_and_invalid() -> None:
    note = parse_note("n.md", md("""
        Due 2026-07-01, signed 3 Aug 2026 and 21st September 2025.
        Call on Sept 5 and Mar 3, 2027; daily 2026-01-05-standup.
        Not dates: 2026-02-30, 1234-56-78, you may 3x it, v2026-01-01, 12026-01-01.
    """))
    got = [(d.text, d.iso, d.year, d.month, d.day, d.line) for d in note.dates]
    assert got == [
        ("2026-07-01", "2026-07-01", 2026, 7, 1, 1),
        ("3 Aug 2026", "2026-08-03", 2026, 8, 3, 1),
        ("21st September 2025", "2025-09-21", 2025, 9, 21, 1),
        ("Sept 5", None, None, 9, 5, 2),  # no year in the text: none is invented
        ("Mar 3, 2027", "2027-03-03", 2027, 3, 3, 2),
        ("2026-01-05", "2026-01-05", 2026, 1, 5, 2),
    ]


def test_emails_are_lowercased_and_not_taken_from_links_or_attachments() -> None:
    # (a mailto: link names its address, as the reader sees it: test_qa_s39_mailto_links)
    note = parse_note("n.md", md("""
        Write to Ann.Lee+work@Example.co.uk or [mail](mailto:bob@example.com).
        ![[logo@2x.png]] see https://user@host.example.com/path [x](other@host.md)
    """))
    assert [(e.address, e.line) for e in note.emails] == [("ann.lee+work@example.co.uk", 1), ("bob@example.com", 1)]


# -- tasks, lists, observations -------------------------------------------------------------------------------


def test_tasks_open_and_done_with_observation_scores() -> None:
    note = parse_note("n.md", md("""
        - [ ] Send the signed form
        * [x] Book the venue
        1. [X] Numbered task done
        - [ ]
        - [/] not a task marker we know
    """))
    assert [(t.done, t.text, t.line) for t in note.tasks] == [
        (False, "Send the signed form", 1), (True, "Book the venue", 2), (True, "Numbered task done", 3),
    ]
    assert [(o.kind, o.score, o.source) for o in note.observations] == [
        ("blocked", 3.0, "task"), ("done", 1.5, "task"), ("done", 1.5, "task"),
    ]
    assert [item.text for item in note.list_items] == ["[/] not a task marker we know"]


@pytest.mark.parametrize(
    ("text", "kind", "score"),
    [
        ("Waiting on the landlord for keys", "blocked", 4.0),
        ("Need to renew the passport soon", "blocked", 4.0),
        ("Follow-up with the bank next week", "blocked", 4.0),
        ("Electricity bill is paid in full", "done", 2.5),
        ("Parking fine must be settled", "risk", 3.5),
        ("Appeal window is short this time", "risk", 3.5),
        ("Correction: the meeting moved rooms", "correction", 9.0),
        ("Nothing special about this line", "fact", 1.0),
    ],
)
def test_status_families_and_scores(text: str, kind: str, score: float) -> None:
    scored = score_text(text, hints=())
    assert (scored.kind, scored.score) == (kind, score)


def test_hint_and_date_bonuses_add_up() -> None:
    assert score_text("The lease is paid", hints=("lease",)).score == 1.0 + 1.5 + 2.0
    assert score_text("The lease is paid", hints=("lease",), has_date=True).score == 1.0 + 1.5 + 2.0 + 1.0
    assert score_text("Leases everywhere", hints=("lease",)).hint_hits == ("lease",)


def test_words_match_whole_words_not_substrings() -> None:
    # Mneme matched substrings: "residue" was `due`, "define" was `fine`, "undone" was `done`.
    for text in ("Chemical residue in the sample", "Define the interface shape", "Left it undone overnight"):
        assert score_text(text, hints=()).kind == "fact"
    assert score_text("Two deadlines this month", hints=()).kind == "risk"  # plurals still count


@pytest.mark.parametrize("text", [
    "The backup works fine again", "All fine with the landlord", "It's fine to leave the boiler on",
    "Signal looked fine after the reboot", "Fine-tuned the heating schedule", "Read the fine print twice",
    "Everything is fine, fine-grained logs on",
])
def test_fine_meaning_all_right_or_delicate_is_no_risk(text: str) -> None:
    assert score_text(text, hints=()).kind == "fact"


@pytest.mark.parametrize("text", [
    "Parking fine must be settled", "Got a fine for the late return", "Library fines are piling up",
    "The fine is due in May, all fine otherwise", "Fine-tuned the model; overdue invoice too",
])
def test_fine_as_a_penalty_is_still_a_risk(text: str) -> None:
    assert score_text(text, hints=()).kind == "risk"


def test_strongest_family_names_the_kind_without_summing() -> None:
    scored = score_text("Invoice paid, waiting on the receipt", hints=())
    assert scored.kind == "blocked"  # Mneme let the last family checked (done) win
    assert scored.families == ("blocked", "done")
    assert scored.score == 1.0 + 3.0  # not 1 + 3 + 1.5


def test_bullets_and_numbered_items_become_observations_when_they_score() -> None:
    note = parse_note("n.md", md("""
        - Deadline for the tax return is 2026-01-31
        - A plain fact about the garden shed
        + Waiting on quotes from three builders
        2) Stuck behind the council permit
        10. short
        - - -
        ***
    """))
    assert [(i.marker, i.number, i.line) for i in note.list_items] == [
        ("bullet", None, 1), ("bullet", None, 2), ("bullet", None, 3), ("numbered", 2, 4), ("numbered", 10, 5),
    ]
    kept = [(o.kind, o.score, o.source, o.line) for o in note.observations]
    assert kept == [
        ("risk", 1.0 + 2.5 + 2.0 + 1.0, "bullet", 1),  # risk + hint(deadline, tax) + date
        ("blocked", 4.0, "bullet", 3),
        ("blocked", 4.0, "numbered", 4),
    ]
    assert note.observations[0].dates[0].iso == "2026-01-31"
    assert note.observations[0].hint_hits == ("deadline", "tax")
    assert note.observations[0].confidence == 1.0


def test_list_items_in_block_quotes_and_callouts_are_parsed() -> None:
    note = parse_note("n.md", "> [!note]\n> - [ ] Chase the supplier invoice\n")
    assert [(t.text, t.line) for t in note.tasks] == [("Chase the supplier invoice", 2)]


def test_observations_capped_at_forty_with_tasks_first() -> None:
    bullets = "\n".join(f"- Waiting on item number {i} from the vendor" for i in range(45))
    note = parse_note("n.md", bullets + "\n- [ ] the one task\n")
    assert len(note.observations) == 40
    assert note.observations[0].source == "task"
    assert [w.code for w in note.warnings] == ["observations_capped"]


def test_inline_code_does_not_score_but_stays_in_text() -> None:
    note = parse_note("n.md", "- Run `make deadline-check` before lunch today\n")
    assert note.list_items[0].text == "Run `make deadline-check` before lunch today"
    assert note.observations == ()  # the risk word was only inside code


def test_research_resolution_payload_is_decoded() -> None:
    payload = {"slug": "clubs", "claims": [{"subject": "A", "predicate": "attends_activity", "object": "B"}]}
    encoded = base64.urlsafe_b64encode(json.dumps(payload).encode()).decode().rstrip("=")
    note = parse_note("Sources/x.md", f"# X\n<!-- mneme-research-resolution-b64: {encoded} -->\n"
                      "<!-- mneme-research-resolution-b64: !!!notbase64 -->\n")
    assert [(p.payload, p.line) for p in note.payloads] == [(payload, 2)]


def test_crlf_and_bom_are_normalised() -> None:
    note = parse_note("n.md", "\ufeff---\r\ntitle: T\r\n---\r\n- [ ] task one here\r\n")
    assert note.title == "T"
    assert [(t.text, t.line) for t in note.tasks] == [("task one here", 4)]


def test_bad_arguments_are_invalid_input() -> None:
    with pytest.raises(InvalidInput):
        parse_note("", "text")
    with pytest.raises(InvalidInput):
        parse_note("a.md", b"bytes")  # type: ignore[arg-type]


_MARKDOWN_TOKENS = [
    *"ab #[]|!`~-*+>1.:@x_\n\t()/\r", "---\n", "```\n", "~~~\n", "2026-01-05", "[[", "]]", "- [ ] ", "# ", "](",
    "x.md", "Aug 3", "<!-- mneme-research-resolution-b64: e30 -->", "title: [", "\u2028", "\ufeff",
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_MARKDOWN_TOKENS), max_size=120).map("".join) | st.text(max_size=300))
def test_parse_never_raises_and_every_line_is_within_the_text(text: str) -> None:
    note = parse_note("dir/note.md", text)
    items = [
        *note.headings, *note.wikilinks, *note.markdown_links, *note.tasks, *note.list_items, *note.dates,
        *note.emails, *note.observations, *note.payloads,
    ]
    lines = [item.line for item in items] + [t.line for t in note.tags if t.line is not None]
    lines += [w.line for w in note.warnings if w.line is not None]
    lines += [n for s in note.sections for n in (s.line_start, s.line_end)]
    assert all(1 <= line <= note.line_count for line in lines)
    assert all(s.line_start <= s.line_end for s in note.sections)


@pytest.mark.parametrize(
    "hostile",
    [
        "# a" + " " * 20000 + "b\n",  # took 13 s before the heading pattern was made linear
        "\n" + " " * 20000 + "x\n",  # same for list items
        " ".join("`" * (i + 1) for i in range(700)) + "\n",  # unmatched backtick runs
        "- waiting on the deadline 2026-01-01 x@y.com #t [[L]]\n" * 3000,  # overlapping-date bookkeeping
        "x@" + "ab." * 20000 + "1\n",
    ],
)
def test_hostile_notes_parse_in_linear_time(hostile: str) -> None:
    started = time.process_time()
    note = parse_note("n.md", hostile)
    assert note.line_count >= 1
    # A loose guard against catastrophic backtracking, not a benchmark: each case is ~0.1 s or less.
    assert time.process_time() - started < 2.0


# -- link resolution -------------------------------------------------------------------------------------------


_IDENTITIES = [
    NoteIdentity("Projects/School Search.md", "School search 2026", ("Schools",)),
    NoteIdentity("areas/sub/Note.md", "Note"),
    NoteIdentity("Note.md", "Root note"),
    NoteIdentity("people/ann-lee.md", "Ann Lee", ("Annie",)),
    NoteIdentity("b/Title Clash.md", "Shared"),
    NoteIdentity("a/Other.md", "Shared"),
    NoteIdentity("z/alias-owner.md", "Owner", ("Root note",)),
]


def _index() -> LinkIndex:
    return LinkIndex.build(_IDENTITIES)


def test_normalise_link_key_is_spelling_insensitive() -> None:
    assert normalise_link_key("./Projects\\School_Search.MD") == "projects/school search"
    assert normalise_link_key("  Ann   Lee ") == normalise_link_key("ann-lee") == "ann lee"
    assert normalise_link_key("ﬁle") == "file"  # NFKC


def test_resolution_precedence_path_suffix_title_alias_stem() -> None:
    index = _index()
    assert resolve_link("Projects/School Search", index) == "Projects/School Search.md"  # exact path
    assert resolve_link("projects/school-search.md", index) == "Projects/School Search.md"
    assert resolve_link("sub/Note", index) == "areas/sub/Note.md"  # trailing path with a folder
    assert resolve_link("School Search 2026", index) == "Projects/School Search.md"  # title
    assert resolve_link("Schools", index) == "Projects/School Search.md"  # alias
    assert resolve_link("school search", index) == "Projects/School Search.md"  # stem
    assert resolve_link("Ann Lee#Contact|Ann", index) == "people/ann-lee.md"  # section and alias stripped
    # "Note" is a path (Note.md) and a title (areas/sub/Note.md): the exact path wins.
    assert resolve_link("Note", index) == "Note.md"
    # "Root note" is a title of Note.md and an alias of z/alias-owner.md: title beats alias.
    assert resolve_link("Root note", index) == "Note.md"
    assert resolve_link("Nobody", index) is None
    assert resolve_link("", index) is None


def test_ambiguity_is_deterministic_and_visible() -> None:
    index = _index()
    assert resolve_link("Shared", index) == "a/Other.md"  # same depth → smallest path
    assert index.candidates("Shared") == {"title": ("a/Other.md", "b/Title Clash.md")}
    reversed_index = LinkIndex.build(reversed([
        NoteIdentity("b/Title Clash.md", "Shared"), NoteIdentity("a/Other.md", "Shared"),
    ]))
    assert resolve_link("Shared", reversed_index) == "a/Other.md"  # insertion order does not matter
    deep_vs_shallow = LinkIndex.build([NoteIdentity("a/b/X.md", "X"), NoteIdentity("z/X.md", "X")])
    assert resolve_link("X", deep_vs_shallow) == "z/X.md"
    assert deep_vs_shallow.explain_key("x") == ("z/X.md", "title")


def test_placeholder_joins_the_note_when_it_appears() -> None:
    index = _index()
    target = "[[Budget Plan#Q3|budget]]"[2:-2]
    assert resolve_link(target, index) is None
    key = placeholder_key(target)
    assert key == "budget plan"
    newcomer = NoteIdentity("finance/budget-plan.md", "Budget 2026")
    assert key in set().union(*note_keys(newcomer).values())
    grown = LinkIndex.build([*_IDENTITIES, newcomer])
    assert grown.resolve_key(key) == resolve_link(target, grown) == "finance/budget-plan.md"


@settings(max_examples=200, deadline=None)
@given(
    st.text(alphabet="abAB -_/.", min_size=1, max_size=20),
    st.text(alphabet="abAB -_/", min_size=1, max_size=12),
    st.text(alphabet="abAB -_", max_size=12),
)
def test_placeholder_key_is_a_key_of_the_note_it_resolves_to(target: str, folder_and_stem: str, title: str) -> None:
    note = NoteIdentity(f"{folder_and_stem}.md", title or "untitled")
    index = LinkIndex.build([note])
    if resolve_link(target, index) == note.path:
        assert placeholder_key(target) in set().union(*note_keys(note).values())


# -- speed -----------------------------------------------------------------------------------------------------


def _synthetic_note(seed: int) -> str:
    words = "alpha beta gamma project invoice review lease school meeting plan draft agent budget".split()

    def sentence(n: int, shift: int) -> str:
        return " ".join(words[(seed + shift + i * 7) % len(words)] for i in range(n))

    parts = [f"---\ntitle: Note {seed}\ntags: [a, b]\naliases: [N{seed}]\n---", f"# Note {seed}",
             sentence(40, 1) + f" [[Note {seed + 1}]] and [x](other-{seed}.md).", "## Tasks"]
    parts += [f"- [ ] {sentence(8, k)} due 2026-07-{k + 1:02d}" for k in range(4)]
    parts += [f"- {sentence(10, k)} waiting #tag{k} person{k}@example.com" for k in range(8)]
    parts += ["## Details", sentence(90, 3), "```", "code " + sentence(12, 4), "```"]
    parts += [f"{k}. {sentence(12, k)}" for k in range(1, 5)]
    parts += ["## More", sentence(120, 5), "- waiting on 3 Aug 2026 for the signed copy"]
    return "\n".join(parts) + "\n"


def test_parse_speed_on_a_4kb_note_is_reported() -> None:
    text = _synthetic_note(1) + _synthetic_note(2).split("---\n", 2)[2]
    text = text[: text.rfind("\n", 0, 4096) + 1]  # ~4 KB, cut at a line end
    kilobytes = len(text.encode()) / 1024
    parse_note("bench/n.md", text)  # warm caches
    rounds = 50
    started = time.process_time()
    for _ in range(rounds):
        parse_note("bench/n.md", text)
    per_note = (time.process_time() - started) / rounds
    print(f"\nparse: {kilobytes:.1f} KB note, {per_note * 1e3:.3f} ms/note, {1 / per_note:.0f} notes/s, "
          f"{per_note * 1e3 / kilobytes:.3f} ms/KB")
    # Not a timing assertion (benchmarks own speed); only a guard against a pathological regression.
    assert per_note < 0.25
