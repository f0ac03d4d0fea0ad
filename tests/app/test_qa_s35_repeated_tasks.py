"""A task or observation whose text repeats another's in the same note under another heading ("- [ ] Call Bob
about the lease renewal" under Monday, again under Tuesday, and "- [x]" of it under Wednesday) is an item of its own:
the repeats collapsed into the first one, which took every line's edge — open (`has_blocked`) and done (`has_done`)
at once — and only the first line and heading to cite. The same text twice under one heading stays one item."""
from __future__ import annotations

from pathlib import Path

from mnemon.app.memory import Mnemon

LOG = ("# Lease log\n## Monday\n- [ ] Call Bob about the lease renewal\n## Tuesday\n"
       "- [ ] Call Bob about the lease renewal\n## Wednesday\n- [x] Call Bob about the lease renewal\n"
       "- [x] Call Bob about the lease renewal\n")


def _tasks(mem: Mnemon) -> list[tuple[int, tuple[str, ...], tuple[str, ...]]]:
    rows = [n for n in mem.rt.store.iter_nodes(kind="memory") if n.metadata.get("memory_kind") == "task"]
    out = []
    for n in rows:
        edges = mem.rt.store.edges_of([n.id], statuses=("active", "candidate"), direction="in")
        relations = tuple(sorted(e.type for e in edges if e.type.startswith("has_")))
        out.append((n.metadata["line"], tuple(n.metadata["heading_path"]), relations))
    return sorted(out)


def test_a_repeated_task_under_another_heading_is_an_item_of_its_own(mem: Mnemon, tmp_path: Path) -> None:
    (tmp_path / "vault").mkdir()
    (tmp_path / "vault" / "Lease.md").write_text(LOG, encoding="utf-8")
    mem.ingest(str(tmp_path / "vault"))
    assert _tasks(mem) == [(3, ("Lease log", "Monday"), ("has_blocked",)),
                           (5, ("Lease log", "Tuesday"), ("has_blocked",)),
                           (7, ("Lease log", "Wednesday"), ("has_done",))]
