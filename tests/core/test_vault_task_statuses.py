"""``- [-]`` is a cancelled task (Obsidian renders it as a task; the Tasks plugin's "cancelled"): a closed task like
``- [x]``. It used to be a plain bullet keeping "[-]" in its text, so a cancelled "pay the invoice by 2024-06-01"
stayed a dated bullet and a cancelled "follow up …" an open loop the proactive pass could surface."""
from __future__ import annotations

from mnemon.core.vault import parse_note

NOTE = """# Lease
- [-] pay the landlord invoice by 2024-06-01
- [-] follow up with Bram about the lease
- [ ] open one
- [x] closed one
- [/] in progress stays a bullet
- [1] Smith 2020, a reference list entry
"""


def test_a_cancelled_mark_is_a_closed_task_without_the_mark_in_its_text() -> None:
    note = parse_note("lease.md", NOTE)
    assert [(t.done, t.text, t.line) for t in note.tasks] == [
        (True, "pay the landlord invoice by 2024-06-01", 2),
        (True, "follow up with Bram about the lease", 3),
        (False, "open one", 4),
        (True, "closed one", 5),
    ]
    assert [i.text for i in note.list_items] == [
        "[/] in progress stays a bullet", "[1] Smith 2020, a reference list entry",
    ]


def test_a_cancelled_task_is_a_done_observation_not_an_open_loop() -> None:
    note = parse_note("lease.md", NOTE)
    by_text = {o.text: o for o in note.observations}
    for text in ("pay the landlord invoice by 2024-06-01", "follow up with Bram about the lease"):
        assert (by_text[text].source, by_text[text].kind) == ("task", "done")
    assert not any(text.startswith("[-]") for text in by_text)


def test_a_cancelled_task_is_stored_as_a_task_memory(mem, tmp_path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "lease.md").write_text(NOTE, encoding="utf-8")
    mem.ingest(str(vault))
    tasks = {m.content: m for m in mem.rt.store.iter_nodes(kind="memory") if m.metadata.get("memory_kind") == "task"}
    assert tasks["pay the landlord invoice by 2024-06-01"].metadata["observation_kind"] == "done"
    assert not any(m.content.startswith("[-]") for m in mem.rt.store.iter_nodes(kind="memory"))
