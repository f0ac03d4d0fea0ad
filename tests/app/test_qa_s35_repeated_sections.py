"""A section whose text repeats another's in the same note, under another heading (a log's "### Notes" saying
"Vendor called about invoice." on Monday and on Tuesday), is a memory of its own: the repeat was dropped, so
Tuesday's entry had no memory, no heading path and no line a pack could cite."""
from __future__ import annotations

from pathlib import Path

from mnemon.app.memory import Mnemon

WEEK = ("# Weekly\n## Monday\n### Notes\nVendor called about invoice.\n## Tuesday\n### Notes\n"
        "Vendor called about invoice.\n## Tuesday\n### Notes\nVendor called about invoice.\n")


def _sections(mem: Mnemon) -> list[tuple[str, int, tuple[str, ...]]]:
    rows = [n for n in mem.rt.store.iter_nodes(kind="memory") if n.metadata.get("memory_kind") == "section"]
    return sorted((n.id, n.metadata["line"], tuple(n.metadata["heading_path"])) for n in rows)


def test_a_repeated_section_under_another_heading_is_kept(mem: Mnemon, tmp_path: Path) -> None:
    (tmp_path / "vault").mkdir()
    (tmp_path / "vault" / "Weekly.md").write_text(WEEK, encoding="utf-8")
    mem.ingest(str(tmp_path / "vault"))
    first = _sections(mem)
    # one per heading path: the third, under a second "Tuesday > Notes", says what the second says
    assert sorted((line, path) for _id, line, path in first) == [
        (3, ("Weekly", "Monday", "Notes")), (6, ("Weekly", "Tuesday", "Notes"))]
    pack = mem.retrieve("what did the vendor call about on Tuesday?", budget=4000)
    assert [(i["line"], i["heading_path"]) for i in pack["items"] if i["kind"] == "section"][0] == (
        6, ["Weekly", "Tuesday", "Notes"])
    (tmp_path / "vault" / "Weekly.md").write_text("Intro.\n\n" + WEEK, encoding="utf-8")
    mem.ingest(str(tmp_path / "vault"))  # lines move: the ids stay
    assert [row[0] for row in _sections(mem) if row[2][:1] == ("Weekly",)] == [row[0] for row in first]
