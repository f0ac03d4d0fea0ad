"""A date in a note's YAML front matter (``due: 2026-03-14``, ``date: 5 Jan 2026``) is a date the note mentions, as
the same date in its body is: the same `date:` node and a `mentions_date` edge from the note, whose evidence is the
front-matter line. It used to make no edge at all. The names a note goes by (title, aliases) and its tags and type
are not dates it mentions."""
from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from hypothesis import given, settings, strategies as st

from mnemon.app.memory import Mnemon
from mnemon.app.vault.plan import plan_note
from mnemon.core.vault import parse_note

NOTE = """---
title: 2026-02-02 Kickoff
aliases: [2026-02-03]
tags: [lease]
type: project
due: 2026-03-14
date: "2026-01-05"
review: 7 April 2026
deadlines:
  - 2026-05-01
---
# Lease

We met on 2026-01-05 to sign it.
"""


def _note_dates(plan_edges) -> dict[str, tuple[str, int]]:
    return {e.dst: (e.evidence, json.loads(e.metadata)["line"]) for e in plan_edges
            if e.relation == "mentions_date" and e.src == "note:lease.md"}


def test_front_matter_dates_are_mentions_with_their_line_as_evidence() -> None:
    note = parse_note("lease.md", NOTE)
    found = [(d.iso, d.line, d.evidence) for d in note.dates]
    assert found == [
        ("2026-03-14", 6, "due: 2026-03-14"),
        ("2026-01-05", 7, 'date: "2026-01-05"'),
        ("2026-04-07", 8, "review: 7 April 2026"),
        ("2026-05-01", 10, "- 2026-05-01"),
        ("2026-01-05", 14, "We met on 2026-01-05 to sign it."),
    ]


def test_the_planner_makes_one_edge_per_date_from_the_front_matter_first() -> None:
    plan = plan_note("lease.md", NOTE.encode(), 0.0, ())
    assert _note_dates(plan.edges) == {
        "date:2026-03-14": ("due: 2026-03-14", 6),
        "date:2026-01-05": ('date: "2026-01-05"', 7),  # the body's mention of the same day is the same edge
        "date:2026-04-07": ("review: 7 April 2026", 8),
        "date:2026-05-01": ("- 2026-05-01", 10),
    }
    # the title, aliases, tags and type name the note: their digits are no mention
    assert not {"date:2026-02-02", "date:2026-02-03"} & {e.dst for e in plan.edges}


def test_ingest_stores_the_front_matter_date_node_and_edge(mem: Mnemon, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "lease.md").write_text(NOTE, encoding="utf-8")
    mem.ingest(str(vault))
    store = mem.rt.store
    assert store.get_node("date:2026-03-14") is not None
    edges = [e for e in store.iter_edges() if e.type == "mentions_date" and e.src == "note:lease.md"]
    by_day = {e.dst: e for e in edges}
    assert len(edges) == len(by_day) == 4
    assert by_day["date:2026-03-14"].evidence == "due: 2026-03-14"
    assert by_day["date:2026-03-14"].metadata["line"] == 6
    assert store.get_node("date:2026-02-02") is None


_KEYS = st.sampled_from(["due", "date", "created", "Updated", "start_date", "review-on", "when"])
_DAYS = st.dates(min_value=dt.date(1000, 1, 1), max_value=dt.date(9999, 12, 31))
_SPELLINGS = st.sampled_from(["{d:%Y-%m-%d}", "'{d:%Y-%m-%d}'", "{d.day} {d:%B %Y}", "{d:%b} {d.day}, {d:%Y}",
                              "{d:%Y-%m-%d}T09:30:00Z"])


@settings(max_examples=150, deadline=None)
@given(_KEYS, _DAYS, _SPELLINGS)
def test_a_front_matter_date_is_the_day_the_same_text_names_in_the_body(key: str, day: dt.date, spelling: str) -> None:
    value = spelling.format(d=day)
    in_front = parse_note("n.md", f"---\n{key}: {value}\n---\nBody.\n")
    in_body = parse_note("n.md", f"Body {value.strip(chr(39))}.\n")
    assert [d.iso for d in in_front.dates] == [d.iso for d in in_body.dates] == [day.isoformat()]
    assert (in_front.dates[0].line, in_front.dates[0].evidence) == (2, f"{key}: {value}")


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["title", "Title", "aliases", "alias", "tags", "tag", "type"]), _DAYS)
def test_the_names_tags_and_type_of_a_note_are_never_dates(key: str, day: dt.date) -> None:
    note = parse_note("n.md", f"---\n{key}: {day.isoformat()} notes\n---\nBody.\n")
    assert note.dates == ()


def test_a_vault_stored_by_the_last_plan_version_gains_its_front_matter_dates(mem: Mnemon, tmp_path: Path,
                                                                             monkeypatch) -> None:
    from mnemon.app.vault import ingest
    from mnemon.core.vault import parser

    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "lease.md").write_text(NOTE, encoding="utf-8")
    with monkeypatch.context() as before:  # the planner as it was: no front-matter dates, plan version 9
        before.setattr(parser, "_front_matter_dates", lambda lines, front: [])
        before.setattr(ingest, "PLAN_VERSION", "9")
        mem.ingest(str(vault))
    assert mem.rt.store.get_node("date:2026-03-14") is None
    out = mem.ingest(str(vault))  # the same bytes: planned again only because the plan version moved on
    assert out["notes_read"] == 1
    assert mem.rt.store.get_node("date:2026-03-14") is not None


def test_a_link_or_url_in_the_front_matter_names_no_date() -> None:
    note = parse_note("n.md", '---\nrelated: "[[2026-03-04 Kickoff]]"\nsource: https://x.org/2026-03-05/a\n'
                              "# due: 2026-03-06 (a comment)\n---\nBody.\n")
    assert note.dates == ()
