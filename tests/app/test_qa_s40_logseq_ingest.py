"""`mnemon ingest --vault` of a Logseq graph (a folder with `logseq/config.edn`): links by a page's alias reach the
page, a journal page is its day and the page its `[[Mar 4th, 2026]]` links name, a task is an open loop or a closed
one with its status and its SCHEDULED day. Before, `[[Falcon]]` (an `alias::` of `pages/Project Falcon.md`) parked on
a placeholder, `[[Mar 4th, 2026]]` too, `- DONE Set up the repository` was an open loop and no note said the day
of `journals/2026_03_04.md`."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from mnemon.app.memory import Mnemon

from app.test_vault_incremental import _write

FILES = {
    "pages/Project Falcon.md": "alias:: Falcon\ntype:: project\n\n- TODO Draft the vendor contract\n"
                               "  SCHEDULED: <2026-03-10 Tue>\n- DOING Review the API spec\n"
                               "- DONE Set up the repository\n",
    "pages/Ada Quill.md": "- Works on [[Falcon]]\n",
    "journals/2026_03_04.md": "- Kickoff of [[Falcon]]\n",
    "journals/2026_03_05.md": "- Follow-up of [[Mar 4th, 2026]]\n",
}


def _edges(mem: Mnemon) -> list[Any]:
    return list(mem.rt.store.iter_edges(statuses=("active", "candidate")))


def _graph(root: Path) -> Path:
    _write(root, {**FILES, "logseq/config.edn": "{:meta/version 1}\n"})
    return root


def test_links_by_alias_and_by_day_reach_their_pages(mem: Mnemon, tmp_path: Path) -> None:
    mem.ingest(str(_graph(tmp_path / "graph")), embed=False)
    links = {(e.src, e.dst) for e in _edges(mem) if e.type == "links_to"}
    assert ("note:pages/Ada Quill.md", "note:pages/Project Falcon.md") in links
    assert ("note:journals/2026_03_04.md", "note:pages/Project Falcon.md") in links
    assert ("note:journals/2026_03_05.md", "note:journals/2026_03_04.md") in links
    assert not [e for e in _edges(mem) if e.dst.startswith("placeholder:")]


def test_a_journal_page_is_its_day(mem: Mnemon, tmp_path: Path) -> None:
    mem.ingest(str(_graph(tmp_path / "graph")), embed=False)
    [day] = [e for e in _edges(mem) if e.src == "note:journals/2026_03_04.md" and e.type == "mentions_date"]
    assert (day.dst, day.rule) == ("date:2026-03-04", "journal_day")
    assert mem.rt.store.get_node("note:journals/2026_03_04.md").title == "Mar 4th, 2026"


def test_tasks_say_their_status_and_their_scheduled_day(mem: Mnemon, tmp_path: Path) -> None:
    mem.ingest(str(_graph(tmp_path / "graph")), embed=False)
    tasks = {m.content: m.metadata for m in mem.rt.store.iter_nodes(kind="memory")
             if m.metadata.get("memory_kind") == "task"}
    assert {text: (meta["status"], meta["observation_kind"]) for text, meta in tasks.items()} == {
        "Draft the vendor contract": ("todo", "blocked"), "Review the API spec": ("doing", "blocked"),
        "Set up the repository": ("done", "done")}
    assert tasks["Draft the vendor contract"]["dates"] == ["2026-03-10"]
    scheduled = [e for e in _edges(mem) if e.dst == "date:2026-03-10"]
    assert [(e.src.split(":")[-2], e.evidence) for e in scheduled] == [("task", "SCHEDULED: <2026-03-10 Tue>")]


def test_a_folder_becoming_a_graph_is_read_again(mem: Mnemon, tmp_path: Path) -> None:
    root = tmp_path / "graph"
    _write(root, FILES)
    mem.ingest(str(root), embed=False)
    assert [e for e in _edges(mem) if e.dst == "placeholder:falcon"]  # (plain Markdown: no alias)
    (root / "logseq").mkdir()
    (root / "logseq" / "config.edn").write_text("{}\n", encoding="utf-8")
    out = mem.ingest(str(root), embed=False)
    assert out["notes_read"] == len(FILES)
    assert not [e for e in _edges(mem) if e.dst.startswith("placeholder:")]
