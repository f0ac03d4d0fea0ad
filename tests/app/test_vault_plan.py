"""Planning a note (`app/vault/plan.py`): its shortcuts give what the plain computations give."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from mnemon.app.vault.plan import _edge, memory_id, normalised_text, plan_links, plan_note

_TEXT = st.lists(st.sampled_from(list("aZ9 ._\t\n\r\x0b\x0c\x1c\x1f\x85") + ["  ", "\u00a0", "\u3000", "Σ", "ß", "İ", "ab"]),
                 max_size=30).map("".join)


@settings(max_examples=400, deadline=None)
@given(_TEXT)
def test_normalised_text_collapses_whitespace_and_case_folds(text: str) -> None:
    assert normalised_text(text) == " ".join(text.split()).casefold()


def test_memory_ids_ignore_spacing_and_case() -> None:
    assert memory_id("a.md", "section", "Waiting  on\tthe\nVendor ") == memory_id("a.md", "section", "waiting on the vendor")


@given(st.floats(allow_nan=False, allow_infinity=False, min_value=-2, max_value=2))
def test_edge_confidence_is_rounded_to_six_digits(confidence: float) -> None:
    for _ in range(2):  # (the second time from the memo)
        rounded = _edge("a", "b", "has_fact", confidence, "e", "r", 1).confidence
        assert rounded == round(confidence, 6) and str(rounded) == str(round(confidence, 6))


def test_planned_rows_have_every_field() -> None:
    from mnemon.app.vault.plan import PlannedEdge, PlannedNode, plan_note

    note = ("---\ntitle: Alpha\ntags: [a]\n---\n# Alpha\n\nIntro.\n\n## Plan\n- waiting on the vendor by 3 Mar 2026\n"
            "- [ ] pay the invoice 2026-03-01\n- see [[Beta#Part|b]] and [c](c.md) and bob@example.org #tag\n")
    plan = plan_note("a.md", note.encode(), 0.0, ("invoice",))
    carried = [n.contained for n in plan.nodes if n.contained is not None]  # (an item's edge from its note)
    kinds = {n.kind for n in plan.nodes} | {e.relation for e in (*plan.edges, *carried)}
    assert {"memory", "heading", "has_section", "has_blocked", "mentions_date", "links_to", "has_tag"} <= kinds
    assert {e.relation for e in carried} == {"has_section", "has_heading", "has_blocked"}
    assert not {(e.src, e.dst, e.relation) for e in carried} & {(e.src, e.dst, e.relation) for e in plan.edges}
    assert all(type(n) is PlannedNode and len(n) == len(PlannedNode._fields) for n in plan.nodes)
    assert all(type(e) is PlannedEdge and len(e) == len(PlannedEdge._fields) for e in (*plan.edges, *carried))


_LINKY_TOKENS = [
    *"ab #[]|!`-*>\n()/", "---\n", "aliases: [Ada]\n", "```\n", "~~~\n", "[[", "]]", "[[Ada]]", "![[Plan]]",
    "[[Plan#Goals|the plan]]", "[[img.png]]", "[[ ]]", "[see](x.md)", "[up](../y.md)", "[web](https://e.org/a.md)",
    "[[X/Meeting]]", "`[[code]]`", "- [ ] ", "# ", "<!-- [[c]] -->", "[[Ada Quill]]", "[[ada]]", "\u00e9", "\r\n",
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_LINKY_TOKENS), max_size=80).map("".join),
       st.sampled_from(["note.md", "Dir/Sub/n.md", "/lead.md", "w\\in.md"]), st.booleans())
def test_the_links_alone_are_the_links_a_whole_plan_makes(text: str, path: str, legacy: bool) -> None:
    # (relinking an unchanged note parses its links alone: it must plan exactly the link edges the full plan did)
    data = text.encode("cp1252", errors="replace") + (b"\xe9" if legacy else b"")
    whole = plan_note(path, data, 0.0, ())
    assert plan_links(path, data) == tuple(e for e in whole.edges if not e.dst)
    assert {e.link_key for e in plan_links(path, data)} - {""} == set(whole.link_keys)
