"""The note editor keeps a note's bytes: CRLF stays CRLF (inserted lines take the note's style), a UTF-8 BOM is
ignored when looking for headings and written back, backups are the exact original bytes, `read` reports the file's
own size and hash, and a dry run's diff shows what will be written."""
from __future__ import annotations

import hashlib
from datetime import datetime, timezone
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from mnemon.app import daily_notes, note_tools, notes
from mnemon.core.errors import InvalidInput

CLOCK = lambda: datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)  # noqa: E731
CRLF = b"# Crlf Note\r\n\r\n## Status\r\n- one\r\n\r\n## Other\r\ntext\r\n"
BOM = "\ufeff".encode("utf-8")


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    root.mkdir()
    (root / "crlf.md").write_bytes(CRLF)
    return root


def _backup(vault: Path, out: dict) -> bytes:
    return (vault / out["backup"]).read_bytes()


def test_add_bullet_to_a_crlf_note_keeps_every_line_ending_and_backs_up_the_exact_bytes(vault: Path) -> None:
    dry = notes.add_bullet(vault, "crlf.md", "Status", "two", dry_run=True)
    assert "+- two\r\n" in dry["diff"] and " - one\r\n" in dry["diff"]  # the diff is of what will be written
    assert (vault / "crlf.md").read_bytes() == CRLF
    out = notes.add_bullet(vault, "crlf.md", "Status", "two", clock=CLOCK)
    expected = CRLF.replace(b"- one\r\n", b"- one\r\n- two\r\n")
    assert (vault / "crlf.md").read_bytes() == expected
    assert out["bytes"] == len(expected) and out["sha256"] == hashlib.sha256(expected).hexdigest()
    assert _backup(vault, out) == CRLF
    assert dry["bytes"] == len(expected)


def test_read_reports_the_files_own_size_and_hash(vault: Path) -> None:
    out = notes.read_note(vault, "crlf.md")
    assert out["bytes"] == len(CRLF) and out["sha256"] == hashlib.sha256(CRLF).hexdigest()
    assert out["content"] == CRLF.decode("utf-8")
    assert notes.read_note(vault, "crlf.md", heading="Status")["content"] == "- one\r\n\r\n"


@pytest.mark.parametrize("edit, expected", [
    (lambda v: notes.write_note(v, "crlf.md", "more\nlines\n", mode="append", clock=CLOCK),
     CRLF + b"more\r\nlines\r\n"),
    (lambda v: notes.write_note(v, "crlf.md", "# New\n\nbody\n", mode="overwrite", clock=CLOCK),
     b"# New\r\n\r\nbody\r\n"),
    (lambda v: notes.replace_in_note(v, "crlf.md", "## Other\ntext", "## Other\nnew\ntext", clock=CLOCK),
     CRLF.replace(b"## Other\r\ntext", b"## Other\r\nnew\r\ntext")),
    (lambda v: notes.upsert_section(v, "crlf.md", "Status", "- fresh\n- list", clock=CLOCK),
     CRLF.replace(b"## Status\r\n- one\r\n", b"## Status\r\n\r\n- fresh\r\n- list\r\n")),
    (lambda v: notes.upsert_section(v, "crlf.md", "Risks", "none", clock=CLOCK),
     CRLF + b"\r\n## Risks\r\n\r\nnone\r\n"),
    (lambda v: notes.add_bullet(v, "crlf.md", "Next", "call", clock=CLOCK),
     CRLF + b"\r\n## Next\r\n\r\n- call\r\n"),
    (lambda v: daily_notes.daily_note(v, "append", content="- log\n", heading="Other", pattern="crlf-YYYY-MM-DD",
                                     day="2026-03-01", clock=CLOCK),
     None),
])
def test_every_edit_of_a_crlf_note_writes_crlf(vault: Path, edit, expected: bytes | None) -> None:
    if expected is None:  # the daily note: a CRLF note at that day's path
        (vault / "crlf-2026-03-01.md").write_bytes(CRLF)
        out = edit(vault)
        assert (vault / "crlf-2026-03-01.md").read_bytes() == CRLF.replace(b"text\r\n", b"text\r\n- log\r\n")
    else:
        out = edit(vault)
        assert (vault / "crlf.md").read_bytes() == expected
    assert _backup(vault, out) == CRLF


def test_a_bom_note_finds_its_first_heading_and_keeps_the_bom(vault: Path) -> None:
    text = "# Bom\n\nintro\n\n## Status\n- one\n"
    (vault / "bom.md").write_bytes(BOM + text.encode("utf-8"))
    assert notes.read_note(vault, "bom.md", heading="Bom")["content"] == "\nintro\n\n## Status\n- one\n"
    out = notes.upsert_section(vault, "bom.md", "Bom", "replaced", level=1, clock=CLOCK)
    assert out["section"] == "replaced"
    assert (vault / "bom.md").read_bytes() == BOM + b"# Bom\n\nreplaced\n"
    assert _backup(vault, out) == BOM + text.encode("utf-8")
    notes.add_bullet(vault, "bom.md", "bom", "two", clock=CLOCK)
    assert (vault / "bom.md").read_bytes() == BOM + b"# Bom\n\nreplaced\n- two\n"
    # an overwrite keeps the note's BOM, and never doubles it
    notes.write_note(vault, "bom.md", "\ufeff# Again\n", mode="overwrite", clock=CLOCK)
    assert (vault / "bom.md").read_bytes() == BOM + b"# Again\n"
    assert notes.read_note(vault, "bom.md")["bytes"] == len(BOM + b"# Again\n")


def test_a_form_feed_inside_a_line_does_not_split_it(vault: Path) -> None:
    # str.splitlines breaks at \x0c; the parser (and the heading search) must not
    (vault / "ff.md").write_text("# F\n\n## Status\x0c note\n- one\n", encoding="utf-8")
    notes.add_bullet(vault, "ff.md", "Status note", "two")
    assert (vault / "ff.md").read_text(encoding="utf-8") == "# F\n\n## Status\x0c note\n- one\n- two\n"


# ── the invariant: an edit inserts its text and changes no other byte ──────────────────────────────────────────
_LINES = ["# Title", "## Status", "- one", "", "text", "```", "## Other", "- two", "  indented"]


@st.composite
def _note(draw: st.DrawFn) -> bytes:
    lines = draw(st.lists(st.sampled_from(_LINES), max_size=10))
    endings = draw(st.lists(st.sampled_from(["\n", "\r\n"]), min_size=len(lines), max_size=len(lines)))
    text = "".join(line + end for line, end in zip(lines, endings))
    if lines and draw(st.booleans()):
        text = text[:-len(endings[-1])]  # no line ending after the last line
    return (BOM if draw(st.booleans()) else b"") + text.encode("utf-8")


def _counts(data: bytes) -> tuple[int, int]:
    crlf = data.count(b"\r\n")
    return crlf, data.count(b"\n") - crlf


@settings(max_examples=150, deadline=None)
@given(_note(), st.sampled_from(["bullet", "append", "section"]))
def test_an_edit_only_inserts_and_inserts_in_the_notes_style(tmp_path_factory: pytest.TempPathFactory, old: bytes,
                                                             op: str) -> None:
    root = tmp_path_factory.mktemp("v")
    (root / "n.md").write_bytes(old)
    try:
        if op == "bullet":
            out = notes.add_bullet(root, "n.md", "Status", "added item", clock=CLOCK)
        elif op == "append":
            out = notes.write_note(root, "n.md", "added\nlines\n", mode="append", clock=CLOCK)
        else:
            out = notes.upsert_section(root, "n.md", "Fresh", "added\nbody", clock=CLOCK)
    except InvalidInput as refused:  # an edit (an append too) that would land in an unclosed code fence
        assert refused.details["fence_line"] and (root / "n.md").read_bytes() == old
        return
    new = (root / "n.md").read_bytes()
    # one insertion: the longest common prefix, then the rest of the old bytes at the very end
    p = 0
    while p < min(len(old), len(new)) and old[p] == new[p]:
        p += 1
    assert new.endswith(old[p:]) and len(new) >= len(old)
    assert new.startswith(BOM) == old.startswith(BOM) and not new[len(BOM):].startswith(BOM)
    # the inserted line endings are all of the note's dominant style (LF on a tie or with none)
    (crlf_old, lf_old), (crlf_new, lf_new) = _counts(old), _counts(new)
    if crlf_old > lf_old:
        assert lf_new == lf_old and crlf_new > crlf_old
    else:
        assert crlf_new == crlf_old and (lf_new > lf_old or not out["changed"])
    if out["changed"]:
        assert _backup(root, out) == old


LF = b"# Lf Note\n\n## Status\n- one\n\n## Other\ntext\n"


@pytest.mark.parametrize("edit, expected", [
    (lambda v: notes.write_note(v, "lf.md", "more\r\nlines\r\n", mode="append", clock=CLOCK),
     LF + b"more\nlines\n"),
    (lambda v: notes.write_note(v, "lf.md", "# New\r\n\r\nbody\r\n", mode="overwrite", clock=CLOCK),
     b"# New\n\nbody\n"),
    (lambda v: notes.upsert_section(v, "lf.md", "Status", "- fresh\r\n- list\r\n", clock=CLOCK),
     LF.replace(b"## Status\n- one\n", b"## Status\n\n- fresh\n- list\n")),
    (lambda v: notes.upsert_section(v, "lf.md", "Risks", "a\r\nb", clock=CLOCK), LF + b"\n## Risks\n\na\nb\n"),
    (lambda v: notes.replace_in_note(v, "lf.md", "text", "text\r\nmore", clock=CLOCK), LF + b"more\n"),
    (lambda v: daily_notes.daily_note(v, "append", content="- a\r\n- b\r\n", heading="Other", pattern="lf-YYYY-MM-DD",
                                     day="2026-03-01", clock=CLOCK), None),
], ids=["append", "overwrite", "upsert", "new-section", "replace", "daily"])
def test_crlf_text_going_into_an_lf_note_takes_the_notes_lf(vault: Path, edit, expected: bytes | None) -> None:
    # CRLF text reaches the editor through --content, MCP and HTTP untranslated: inserted as given, it left an LF
    # note with mixed line endings
    (vault / "lf.md").write_bytes(LF)
    if expected is None:
        (vault / "lf-2026-03-01.md").write_bytes(LF)
        edit(vault)
        assert (vault / "lf-2026-03-01.md").read_bytes() == LF + b"- a\n- b\n"
    else:
        edit(vault)
        assert (vault / "lf.md").read_bytes() == expected


def test_a_replace_of_line_endings_themselves_still_converts_them(vault: Path) -> None:
    notes.replace_in_note(vault, "crlf.md", "\r\n", "\n", all_matches=True, clock=CLOCK)
    assert (vault / "crlf.md").read_bytes() == CRLF.replace(b"\r\n", b"\n")


@pytest.mark.parametrize("edit", [
    lambda v: notes.add_bullet(v, "crlf.md", "Status", "two\rthree"),
    lambda v: notes.upsert_section(v, "crlf.md", "New\rHeading", "x"),
], ids=["bullet", "heading"])
def test_a_bullet_or_heading_holding_a_carriage_return_is_refused(vault: Path, edit) -> None:
    # a lone CR ends a line for the parser: "two\rthree" wrote a bullet and a stray line of text
    with pytest.raises(InvalidInput):
        edit(vault)
    assert (vault / "crlf.md").read_bytes() == CRLF
