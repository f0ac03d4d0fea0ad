"""Planning a note (`app/vault/plan.py`): its shortcuts give what the plain computations give."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from mnemon.app.vault.plan import _edge, memory_id, normalised_text

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
