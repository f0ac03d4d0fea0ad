"""A heading holding a wikilink kept its markup in what a pack showed: under `# Review of [[Budget|the budget]]`, a
retrieve item's title read "Review of the budget > Review of [[Budget|the budget]]" (the note's title, shown as a
reader sees it, then the same heading again as written) and its `heading_path` ["Review of [[Budget|the
budget]]"]. A vault row's title, heading path and heading node now show a link as its name, as the note's title
always did; the heading's id and the edges' evidence keep the text as written."""
from __future__ import annotations

from pathlib import Path

from mnemon.app.memory import Mnemon

NOTE = """# Review of [[Budget|the budget]]

The spend on lanterns is over plan.

## Next for [[Budget]]

- Lantern spend is blocked until finance approves.
"""


def _ingest(mem: Mnemon, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "Review.md").write_text(NOTE, encoding="utf-8")
    (vault / "Budget.md").write_text("# Budget\nMoney.\n", encoding="utf-8")
    mem.ingest(str(vault), embed=False)


def test_a_pack_shows_heading_links_as_their_names(mem: Mnemon, tmp_path: Path) -> None:
    _ingest(mem, tmp_path)
    items = {i["text"]: i for i in mem.retrieve("lantern spend", budget=4000)["items"]}
    first = items["The spend on lanterns is over plan."]
    assert first["title"] == "Review of the budget"
    assert first["heading_path"] == ["Review of the budget"]
    bullet = items["Lantern spend is blocked until finance approves."]
    assert bullet["kind"] == "observation" and bullet["title"] == "Review of the budget"
    assert bullet["heading_path"] == ["Review of the budget", "Next for Budget"]
    [heading] = [i for i in items.values() if i["item_type"] == "edge" and "has_heading" in i["title"]]
    assert heading["title"] == "Review of the budget —has_heading→ Next for Budget"
    assert heading["text"] == "## Next for [[Budget]]"  # the evidence: the line as written


def test_the_heading_keeps_its_id(mem: Mnemon, tmp_path: Path) -> None:
    _ingest(mem, tmp_path)
    assert mem.show("heading:Review.md#next-for-budget")["title"] == "Next for Budget"
