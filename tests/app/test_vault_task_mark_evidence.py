"""A task's edges keep its source line as evidence (``- [-] Call the vendor by 2026-06-01``) while its memory holds
the text alone; the context pack reads the evidence without the list marker and task box to see that an edge says
no more than its task. ``[-]`` (cancelled, a closed task since PLAN_VERSION 9) was not stripped as ``[ ]`` and
``[x]`` were: the cancelled task's date edge was packed again beside the task, "[-]" and all."""
from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings, strategies as st

from mnemon.app.context import _sentence
from mnemon.app.memory import Mnemon
from mnemon.core.vault import parse_note

_WORDS = st.lists(st.sampled_from(["call", "the", "vendor", "by", "2026-06-01", "[[Bram]]", "x", "-", "[1]"]),
                  min_size=1, max_size=8).map(" ".join)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["-", "*", "+", "1.", "2)"]), st.sampled_from([" ", "x", "X", "-"]), _WORDS,
       st.sampled_from(["", "  ", "\t"]))
def test_a_tasks_evidence_without_its_marker_is_its_text(bullet: str, mark: str, words: str, indent: str) -> None:
    # (under a parent item: an indented line right under the heading is an indented code block, as CommonMark has it;
    # after a blank line: "2)" right under the parent's text, indented into it, is that text)
    note = parse_note("n.md", f"# N\n- parent\n\n{indent}{bullet} [{mark}] {words}\n")
    (task,) = note.tasks
    assert _sentence(task.evidence) == task.text


def test_a_cancelled_task_and_its_date_edge_are_one_sentence_paid_once(mem: Mnemon, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "vendor.md").write_text("# Vendor\n\n- [-] Call the pier vendor about the quote by 2026-06-01\n"
                                     "- [x] Sent the pier vendor the drawings on 2026-05-02\n", encoding="utf-8")
    mem.ingest(str(vault))
    pack = mem.retrieve("pier vendor quote drawings", budget=10000, max_items=20)
    tasks = [i for i in pack["items"] if i["item_type"] == "memory" and "pier vendor" in i["text"]]
    assert {t["text"] for t in tasks} == {"Call the pier vendor about the quote by 2026-06-01",
                                          "Sent the pier vendor the drawings on 2026-05-02"}
    for task in tasks:
        repeats = [i for i in pack["items"] if i["item_type"] == "edge"
                   and task["id"] in (i["src"]["id"], i["dst"]["id"]) and task["text"] in str(i["text"])]
        assert repeats == [], repeats
    assert not any("[-]" in str(i.get("text")) for i in pack["items"])
