"""A later closed task that rewords an open one closes it: "- [x] Sent the Q3 report to Dana" closes
"- [ ] Send Q3 report to Dana" (only the same normalised text used to); a done task sharing a few words does not.

The rule (`app.closed_loops`): besides a twin of the same normalised text, a closed task in a later note closes an
open item when their words — stemmed, small words dropped, a common irregular past read as its verb ("sent" as
"send", "paid" as "pay") — share at least two and at least 4/5 of the longer text's words.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from mnemon.app.memory import Mnemon

DAY = 86400.0
BASE = 1_767_225_600.0  # 2026-01-01
OTHER = "Ask the landlord about the parking permit"


def _note(vault: Path, rel: str, body: str, mtime: float) -> None:
    path = vault / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(body, encoding="utf-8")
    os.utime(path, (mtime, mtime))


def _ingest(mem: Mnemon, tmp_path: Path, open_task: str, done_task: str, *, done_later: bool = True) -> str:
    vault = tmp_path / "vault"
    _note(vault, "Inbox/plan.md", f"# Plan\n- [ ] {open_task}\n- [ ] {OTHER}\n", BASE + (0 if done_later else 9 * DAY))
    _note(vault, "Inbox/update.md", f"# Update\n- [x] {done_task}\n", BASE + 4 * DAY)
    mem.ingest(str(vault), embed=False)
    return next(n.id for n in mem.rt.store.vault.derived_memories(observations_only=True)
                if n.content == open_task and (n.metadata or {}).get("note") == "Inbox/plan.md")


def _offered(mem: Mnemon) -> list[str]:
    return [c["observation"]["id"] for c in mem.candidates(limit=10)["candidates"]]


def _closed_in_pack(mem: Mnemon, prompt: str, item_id: str) -> str | None:
    item = next(i for i in mem.retrieve(prompt)["items"] if i["id"] == item_id)
    return item.get("closed_later_in")


@pytest.mark.parametrize(("open_task", "done_task"), [
    ("Send Q3 report to Dana", "Sent the Q3 report to Dana"),
    ("Pay the March rent", "Paid March rent"),
    ("Ask Bram to review the supplier contract", "Asked Bram to review the supplier contract today"),
])
def test_a_reworded_closed_task_in_a_later_note_closes_the_loop(mem: Mnemon, tmp_path: Path, open_task: str,
                                                                done_task: str) -> None:
    open_id = _ingest(mem, tmp_path, open_task, done_task)
    assert open_id not in _offered(mem)
    assert mem.thought()["title"] == f"Open loop: {OTHER}"
    skipped = next(c for c in mem.debug_candidates(include_skipped=True, limit=20)["skipped"]
                   if c["observation"]["id"] == open_id)
    assert skipped["skip_reasons"] == ["closed later in Inbox/update.md"]
    assert _closed_in_pack(mem, open_task, open_id) == "Inbox/update.md"


@pytest.mark.parametrize("done_task", [
    "Sent the Q3 report to Marco",  # three of four words, another person
    "Sent the Q3 budget to Marco",
    "Reviewed the Q3 report draft with Dana's team",
])
def test_a_done_task_sharing_a_few_words_closes_nothing(mem: Mnemon, tmp_path: Path, done_task: str) -> None:
    open_id = _ingest(mem, tmp_path, "Send Q3 report to Dana", done_task)
    assert open_id in _offered(mem)
    assert _closed_in_pack(mem, "Send Q3 report to Dana", open_id) is None


def test_a_reworded_close_in_an_earlier_note_closes_nothing(mem: Mnemon, tmp_path: Path) -> None:
    open_id = _ingest(mem, tmp_path, "Send Q3 report to Dana", "Sent the Q3 report to Dana", done_later=False)
    assert open_id in _offered(mem)
    assert _closed_in_pack(mem, "Send Q3 report to Dana", open_id) is None
