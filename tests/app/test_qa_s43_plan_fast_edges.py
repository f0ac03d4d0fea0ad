"""Edges the planner encodes directly give exactly the rows the general `_edge` encoding gives."""
from __future__ import annotations

import json

from hypothesis import given, settings, strategies as st

from mnemon.app.vault.plan import (DATE_CONFIDENCE, HEADING_CONFIDENCE, _edge, date_edge, heading_edge,
                                   plan_note)
from mnemon.core.vault.model import Heading

_TEXT = st.text(alphabet=st.sampled_from('ab Z."\\/_-é1\u2028\x00'), max_size=12)


@settings(max_examples=300, deadline=None)
@given(_TEXT, _TEXT, st.sampled_from(["date", "journal_day", "date_in_observation"]),
       st.none() | st.integers(0, 10_000), _TEXT)
def test_a_date_edge_is_the_general_edge(dst: str, evidence: str, rule: str, line: int | None, text: str) -> None:
    assert date_edge("note:a.md", dst, evidence, rule, line, text) == _edge(
        "note:a.md", dst, "mentions_date", DATE_CONFIDENCE, evidence, rule, line, text=text)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 9), _TEXT, st.integers(0, 10_000), _TEXT)
def test_a_heading_edge_is_the_general_edge(level: int, text: str, line: int, evidence: str) -> None:
    heading = Heading(level, text, line, evidence)
    assert heading_edge("note:a.md", "heading:a.md#x", heading) == _edge(
        "note:a.md", "heading:a.md#x", "has_heading", HEADING_CONFIDENCE, evidence, "heading", line, level=level)


def test_a_note_s_date_and_heading_edges_keep_their_metadata() -> None:
    plan = plan_note("a.md", b"# Day\n\n## Plan\n\nShip on 2026-03-05.\n\n- [ ] pay by 2026-03-04\n", 1.0, ())
    metadata = {(e.relation, e.dst): e.metadata for e in plan.edges}
    metadata |= {(n.contained.relation, n.contained.dst): n.contained.metadata
                 for n in plan.nodes if n.contained is not None}
    assert metadata[("mentions_date", "date:2026-03-05")] == '{"text":"2026-03-05","line":5}'
    assert metadata[("has_heading", "heading:a.md#plan")] == '{"level":2,"line":3}'
    task_dates = [e.metadata for e in plan.edges if e.rule == "date_in_observation"]
    assert task_dates == ['{"text":"2026-03-04","line":7}']


def test_a_bullet_without_dates_says_so_and_one_with_dates_lists_each_day_once() -> None:
    plan = plan_note("a.md", b"# A\n\n- [ ] pay the rent\n- [ ] pay by 2026-03-05 or 2026-03-04 or 2026-03-05\n",
                     1.0, ())
    dates = {n.content: json.loads(n.metadata)["dates"] for n in plan.nodes if n.memory_kind == "task"}
    assert dates == {"pay the rent": [], "pay by 2026-03-05 or 2026-03-04 or 2026-03-05": ["2026-03-04", "2026-03-05"]}
