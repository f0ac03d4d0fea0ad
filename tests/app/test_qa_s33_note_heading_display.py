"""QA round 33: a `--heading` names a heading by the text it displays, and two sections with one heading are said.

`--heading "Bold heading"` did not find `## **Bold** heading` (nor a heading with a wikilink or inline code), so
`add-bullet` and `upsert-section` appended a second section and `read --heading` answered not_found. A heading is now
matched by its text as written or, when none is, by the text it displays (emphasis, code ticks and link brackets
gone, a wikilink shown as its alias or target). Of two sections with the same heading the first is still used, and
the reply says so with a `duplicate_heading` warning naming their lines."""
from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from mnemon.app import notes
from mnemon.core.errors import NotFound
from mnemon.core.vault.parser import parse_note, shown_heading

CLOCK = lambda: datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)  # noqa: E731


def _note(tmp_path: Path, text: str) -> Path:
    (tmp_path / "b.md").write_text(text, encoding="utf-8")
    return tmp_path


def _headings(vault: Path) -> list[str]:
    return [h.text for h in parse_note("b.md", (vault / "b.md").read_text(encoding="utf-8")).headings]


@pytest.mark.parametrize(("heading", "asked"), [
    ("**Bold** heading", "Bold heading"),
    ("__Bold__ heading", "bold heading"),
    ("*Bold* _heading_", "Bold heading"),
    ("~~Old~~ heading", "Old heading"),
    ("[[Link]] heading", "Link heading"),
    ("[[People/ada-quill|Ada]] heading", "Ada heading"),
    ("[[Plans#Q3|Plan]] heading", "Plan heading"),
    ("`code` heading", "code heading"),
    ("`` a`b `` heading", "a`b heading"),
    ("[site](https://example.org) heading", "site heading"),
    ("Use \\*stars\\*", "Use *stars*"),
])
def test_add_bullet_finds_a_heading_by_the_text_it_displays(tmp_path: Path, heading: str, asked: str) -> None:
    vault = _note(tmp_path, f"## {heading}\n- b\n\n## Next\n- n\n")
    out = notes.add_bullet(vault, "b.md", asked, "x", clock=CLOCK)
    assert out["changed"] and not out["duplicate"]
    assert (vault / "b.md").read_text(encoding="utf-8") == f"## {heading}\n- b\n- x\n\n## Next\n- n\n"
    assert _headings(vault) == [shown_heading(heading), "Next"]  # (the parser reads a heading as rendered)


def test_the_reported_repro_adds_to_the_bold_section(tmp_path: Path) -> None:
    vault = _note(tmp_path, "## **Bold** heading\n- b\n")
    notes.add_bullet(vault, "b.md", "Bold heading", "x", clock=CLOCK)
    assert (vault / "b.md").read_text(encoding="utf-8") == "## **Bold** heading\n- b\n- x\n"


def test_read_and_upsert_find_it_too(tmp_path: Path) -> None:
    vault = _note(tmp_path, "# T\n\n## `mnemon` [[Setup|set-up]]\nold\n\n## Next\n- n\n")
    assert notes.read_note(vault, "b.md", heading="mnemon set-up")["content"] == "old\n\n"
    out = notes.upsert_section(vault, "b.md", "mnemon set-up", "new", clock=CLOCK)
    assert out["section"] == "replaced"
    assert (vault / "b.md").read_text(encoding="utf-8") == \
        "# T\n\n## `mnemon` [[Setup|set-up]]\n\nnew\n\n## Next\n- n\n"
    # the content repeating the section's heading as displayed is the section's own heading, dropped as before
    notes.upsert_section(vault, "b.md", "mnemon set-up", "## mnemon set-up\nnewer", clock=CLOCK)
    assert _headings(vault) == ["T", "`mnemon` [[Setup|set-up]]", "Next"]


def test_code_keeps_its_markup_and_a_lone_star_is_text(tmp_path: Path) -> None:
    vault = _note(tmp_path, "## `**x**` and 2 * 3\nbody\n")
    assert notes.read_note(vault, "b.md", heading="**x** and 2 * 3")["content"] == "body\n"
    with pytest.raises(NotFound):
        notes.read_note(vault, "b.md", heading="x and 2 3")
    snake = _note(tmp_path, "## snake_case_name\nbody\n")
    with pytest.raises(NotFound):  # an underscore inside a word is not emphasis
        notes.read_note(snake, "b.md", heading="snakecasename")


TWINS = "# T\n\n## S\n- a\n\n## Other\n- o\n\n## s\n- z\n"


def _warning(out: dict[str, Any]) -> dict[str, Any]:
    (warning,) = out["warnings"]
    return warning


def test_read_says_which_of_two_sections_it_used(tmp_path: Path) -> None:
    vault = _note(tmp_path, TWINS)
    out = notes.read_note(vault, "b.md", heading="S")
    assert out["content"] == "- a\n\n"
    warning = _warning(out)
    assert (warning["code"], warning["lines"], warning["path"]) == ("duplicate_heading", [3, 9], "b.md")
    assert "line 3" in warning["reason"]


@pytest.mark.parametrize("dry_run", [True, False])
def test_upsert_and_add_bullet_use_the_first_and_say_so(tmp_path: Path, dry_run: bool) -> None:
    vault = _note(tmp_path, TWINS)
    out = notes.add_bullet(vault, "b.md", "S", "b", dry_run=dry_run, clock=CLOCK)
    assert _warning(out)["lines"] == [3, 9] and "+- b\n" in out["diff"]
    out = notes.add_bullet(vault, "b.md", "S", "a", dry_run=dry_run, clock=CLOCK)  # already there: still said
    assert out["duplicate"] and _warning(out)["code"] == "duplicate_heading"
    out = notes.upsert_section(vault, "b.md", "S", "new", dry_run=dry_run, clock=CLOCK)
    assert _warning(out)["lines"] == [3, 9 if dry_run else 10] and out["section"] == "replaced"  # (one bullet more)
    if not dry_run:
        assert (vault / "b.md").read_text(encoding="utf-8") == "# T\n\n## S\n\nnew\n\n## Other\n- o\n\n## s\n- z\n"


def test_twins_by_display_are_twins_but_a_match_as_written_wins(tmp_path: Path) -> None:
    vault = _note(tmp_path, "## **S** x\n- a\n\n## `S` x\n- z\n")
    out = notes.read_note(vault, "b.md", heading="S x")
    assert out["content"] == "- a\n\n" and _warning(out)["lines"] == [1, 4]
    out = notes.read_note(vault, "b.md", heading="`S` x")
    assert out["content"] == "- z\n" and "warnings" not in out
    vault = _note(tmp_path, "## S x\n- plain\n\n## **S** x\n- bold\n")
    assert notes.read_note(vault, "b.md", heading="**S** x")["content"] == "- bold\n"
    out = notes.read_note(vault, "b.md", heading="S x")
    assert out["content"] == "- plain\n\n" and "warnings" not in out


def test_one_section_has_no_warning_and_a_hidden_note_keeps_its_own(tmp_path: Path) -> None:
    vault = _note(tmp_path, "## S\n- a\n")
    assert "warnings" not in notes.add_bullet(vault, "b.md", "S", "b", clock=CLOCK)
    (tmp_path / ".hidden.md").write_text("## S\n\n## S\n", encoding="utf-8")
    out = notes.add_bullet(vault, ".hidden.md", "S", "b", clock=CLOCK)
    assert [w["code"] for w in out["warnings"]] == ["duplicate_heading", "not_ingested"]


def test_the_cli_reply_carries_the_warning(tmp_path: Path, cli_run) -> None:
    vault = _note(tmp_path, TWINS)
    code, out = cli_run(["note", "add-bullet", "b.md", "--vault", str(vault), "--heading", "S", "--bullet", "b"])
    assert code == 0 and out["warnings"][0]["code"] == "duplicate_heading"
