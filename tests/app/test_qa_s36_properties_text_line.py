"""A note's front-matter properties section was the one pack item with no `text_line` (every other section says
where its text starts), and its `line` was the first top-level key other than a title, aliases or tags — a
`date:` key the section leaves out cited line 2 for "owner: Ana" on line 4. It now cites the first property it says,
as `text_line` too, and, when its lines are apart in the note (a tag, a day or a list's items between them), the
line of each (`property_lines`), so a pack item cut to its matched words cites the line it shows."""
from __future__ import annotations

from pathlib import Path

from mnemon.app.memory import Mnemon

NOTE = ("---\ndate: 2026-03-01\ntags: [plan]\nowner: Ana Lima\nreviewers:\n  - Bob\n  - Carol\n"
        "status: draft\n---\n# Harbour plan\n\nThe plan text.\n")
LONG = "---\nowner: Ana Lima\n" + "".join(f"note{i}: ordinary filler value number {i}\n" for i in range(60)) \
    + "tags: [x]\nsponsor: Quentin Zephyrquartz\n---\n# Big\n\nBody.\n"


def _ingest(mem: Mnemon, tmp_path: Path, text: str) -> None:
    (tmp_path / "vault").mkdir()
    (tmp_path / "vault" / "Harbour.md").write_text(text, encoding="utf-8")
    mem.ingest(str(tmp_path / "vault"), embed=False)


def _properties_item(pack: dict) -> dict:
    [item] = [i for i in pack["items"] if i.get("kind") == "section" and "owner: Ana Lima" in i["text"]
              or i.get("kind") == "section" and "sponsor:" in i["text"]]
    return item


def test_the_properties_item_says_where_its_text_starts(mem: Mnemon, tmp_path: Path) -> None:
    _ingest(mem, tmp_path, NOTE)
    item = _properties_item(mem.retrieve("who owns the harbour plan? Ana Lima", budget=4000))
    lines = NOTE.splitlines()
    assert item["text"].startswith("owner: Ana Lima")
    assert item["line"] == item["text_line"] == 4 and lines[3] == "owner: Ana Lima"
    assert [lines[n - 1].split(":")[0] for n in item["property_lines"]] == ["owner", "reviewers", "status"]


def test_a_cut_properties_item_cites_the_property_it_shows(mem: Mnemon, tmp_path: Path) -> None:
    _ingest(mem, tmp_path, LONG)
    item = _properties_item(mem.retrieve("sponsor Zephyrquartz", budget=400))
    assert item["truncated"] is True and item["text"].startswith("…")
    first_shown = item["text"].lstrip("…").splitlines()[0]
    written = LONG.splitlines()[item["text_line"] - 1]
    assert written.split(":")[0] == first_shown.split(":")[0]


def test_a_key_holding_a_colon_cites_its_own_line() -> None:
    from mnemon.core.vault.frontmatter import split_front_matter

    front, _body, _warnings = split_front_matter("---\nx: 1\nrole:: engineer\n---".split("\n"))
    assert front is not None and front.raw == {"x": 1, "role:": "engineer"}
    assert front.property_lines == (2, 3)  # "role:" was looked for as "role" and cited the opening '---'
