"""`related` cuts a neighbourhood at its limit by what the edges join, never by edge id, so both backends keep the
same memories.

A memory linked to two sprint notes of 30 open tasks each: `related ID --depth 2` reaches both notes, then their
60 tasks, and stops at 50 nodes. It took each note's tasks in edge-id order, and SQLite numbers a note's edges to
its own items below zero from its last item up (m055) where PostgreSQL numbers them as written: of the second
sprint the laptop answered its last tasks, the team's server its first ones, each saying `truncated`."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from mnemon.app.memory import Mnemon

TASKS = 30
SPRINTS = ("Sprint A", "Sprint B")


def test_a_cut_neighbourhood_keeps_the_tasks_that_sort_first(make_mem: Callable[..., Mnemon], tmp_path: Path) -> None:
    vault = tmp_path / "notes"
    vault.mkdir()
    for sprint in SPRINTS:
        body = "\n".join(f"- [ ] {sprint} task {k}: check crane {k} before the audit" for k in range(TASKS))
        (vault / f"{sprint}.md").write_text(f"# {sprint}\n\n{body}\n", encoding="utf-8")
    m = make_mem("none")
    m.ingest(str(vault))
    plan = m.remember("The crane audit plan covers both sprints", source="agent")["id"]
    for sprint in SPRINTS:
        m.link(plan, f"note:{sprint}.md", "semantic")
    reply = m.related(plan, depth=2)
    assert reply["truncated"] is True
    listed = [r["id"] for r in reply["related"]]
    for sprint in SPRINTS:
        tasks = sorted(e["target_id"] for e in m.show(f"note:{sprint}.md")["edges"] if ":task:" in e["target_id"])
        kept = [i for i in listed if i in tasks]
        assert len(tasks) == TASKS and kept, sprint
        assert kept == tasks[:len(kept)], sprint
