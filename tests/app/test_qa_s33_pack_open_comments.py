"""A pack pays once for an item whose line opens a comment that closes on a later line of its note."""
from __future__ import annotations

import pytest

from mnemon.app.memory import Mnemon


@pytest.mark.parametrize("opener, closer", [("<!--", "-->"), ("%%", "%%")])
def test_an_item_whose_comment_closes_on_a_later_line_is_packed_once(mem: Mnemon, tmp_path, opener: str,
                                                                     closer: str) -> None:
    """The date edge's evidence is the line alone, where the opener has no closer and stays text; in the note the
    rest of the line is comment, so the item reads without it: the two differed and both were packed."""
    vault = tmp_path / "plans"
    vault.mkdir()
    (vault / "beta.md").write_text(f"# Beta\n\nThe beta plan.\n\n"
                                   f"- The beta launch is due on 2026-03-02 {opener} moved\n  later {closer}\n"
                                   f"- [ ] ship the beta build by 2026-03-04 ^ship {opener} ask\n  Ana {closer}\n"
                                   f"- [ ] run the `{opener}` beta check by 2026-03-06 {opener} why\n  not {closer}\n",
                                   encoding="utf-8")
    mem.ingest(str(vault))
    pack = mem.retrieve("beta launch due ship build check", max_items=12, budget=10000)
    items = {i["text"]: i["id"] for i in pack["items"] if i["item_type"] == "memory"}
    said = ["The beta launch is due on 2026-03-02", "ship the beta build by 2026-03-04",
            f"run the `{opener}` beta check by 2026-03-06"]  # (an opener in inline code is no comment)
    assert all(text in items for text in said)
    edges = [i for i in pack["items"] if i["item_type"] == "edge" and i["relation"] == "mentions_date"]
    assert edges == []  # each date edge says its item's sentence again
    repeated = {s.get("duplicate_of") for s in pack["skipped"] if s["reason"] == "duplicate_of_item"}
    assert {items[text] for text in said} <= repeated
