"""A placeholder is titled with a link's spelling, not its lower-cased key: `[[Budget]]` showed as "budget" in `show`
and `related`. The spelling is the most common of the links to it (ties: the first in path order), so an incremental
ingest and a fresh one of the same vault agree."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from mnemon.app.memory import Mnemon

PLACEHOLDER = "placeholder:budget"


def _write(root: Path, notes: dict[str, str]) -> None:
    root.mkdir(exist_ok=True)
    for name, text in notes.items():
        (root / name).write_text(text, encoding="utf-8")


def _title(m: Mnemon) -> str:
    return str(m.show(PLACEHOLDER)["title"])


def test_a_placeholder_keeps_the_spelling_written(make_mem: Callable[..., Mnemon], tmp_path: Path) -> None:
    root = tmp_path / "vault"
    _write(root, {"a.md": "# A\n\nSee [[Budget]].\n", "b.md": "# B\n\n- the [[Budget|budget sheet]] is late\n"})
    m = make_mem()
    m.ingest(str(root), embed=False)
    assert _title(m) == "Budget"


def test_the_most_common_spelling_wins_and_a_fresh_ingest_agrees(make_mem: Callable[..., Mnemon],
                                                                 tmp_path: Path) -> None:
    root = tmp_path / "vault"
    _write(root, {"a.md": "[[budget]]\n", "b.md": "[[BUDGET]]\n", "c.md": "[[Budget]]\n"})
    m = make_mem()
    m.ingest(str(root), embed=False)
    assert _title(m) == "budget"  # a tie: the first in path order
    _write(root, {"d.md": "[[Budget]]\n"})  # now "Budget" is written twice
    m.ingest(str(root), embed=False)
    assert _title(m) == "Budget"
    fresh = make_mem(db=tmp_path / "fresh.db")
    fresh.ingest(str(root), embed=False)
    assert _title(fresh) == "Budget"
    (root / "c.md").write_text("nothing now\n", encoding="utf-8")
    (root / "d.md").unlink()
    m.ingest(str(root), embed=False)
    assert _title(m) == "budget"
