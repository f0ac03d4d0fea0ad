"""The note editor reads a note's structure as ingest does (no heading in front matter or fenced code, `## Learn C#`
is about C#, 1-3 spaces of indent still make a heading), puts a bullet in its heading's own list, emits diffs that
`git apply` and `patch` take, and names a note exactly as the vault does."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import unicodedata
from datetime import datetime, timezone
from pathlib import Path

import pytest
from hypothesis import assume, given, settings, strategies as st

from mnemon.app import daily_notes, note_tools, notes
from mnemon.app.vault.ingest import walk_vault
from mnemon.core.errors import Conflict, InvalidInput, NotFound
from mnemon.core.vault.parser import parse_note

CLOCK = lambda: datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)  # noqa: E731
BOM = "\ufeff"

TRAPS = (
    "---\n"
    "title: Deploy\n"
    "# Status\n"  # a YAML comment, not a heading
    "---\n"
    "# Deploy\n"
    "\n"
    "````markdown\n"
    "```\n"
    "# shell comment\n"  # a ```` block holds ``` lines: still code
    "```\n"
    "````\n"
    "\n"
    "```\n"
    "~~~\n"
    "## Steps\n"  # ~~~ does not close a ``` block
    "~~~\n"
    "```\n"
    "\n"
    "## Status\n"
    "- real\n"
)


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    root.mkdir()
    (root / "traps.md").write_text(TRAPS, encoding="utf-8")
    return root


def _text(vault: Path, rel: str = "traps.md") -> str:
    return (vault / rel).read_bytes().decode("utf-8")


# ── 1. front matter and code are not headings ──────────────────────────────────────────────────────────────────
def test_a_heading_in_front_matter_or_in_a_code_block_is_not_one(vault: Path) -> None:
    assert notes.read_note(vault, "traps.md", heading="Status")["content"] == "- real\n"
    for inside_code in ("shell comment", "Steps"):
        with pytest.raises(NotFound):
            notes.read_note(vault, "traps.md", heading=inside_code)
    notes.add_bullet(vault, "traps.md", "Status", "second", clock=CLOCK)
    assert _text(vault) == TRAPS + "- second\n"
    out = notes.upsert_section(vault, "traps.md", "Steps", "1. deploy", clock=CLOCK)
    assert out["section"] == "appended"
    assert _text(vault) == TRAPS + "- second\n\n## Steps\n\n1. deploy\n"


def test_a_listing_takes_the_title_ingest_takes(vault: Path) -> None:
    (vault / "code.md").write_text("````\n```\n# not the title\n```\n````\n\n# Real Title\n", encoding="utf-8")
    listed = {n["path"]: n["title"] for n in note_tools.list_notes(vault)["notes"]}
    for rel, title in listed.items():
        assert title == parse_note(rel, _text(vault, rel)).title
    assert listed["code.md"] == "Real Title"


# ── 3. CommonMark's heading rules, as the parser has them ──────────────────────────────────────────────────────
def test_a_trailing_hash_without_a_space_is_text_and_an_indent_under_four_still_makes_a_heading(vault: Path) -> None:
    text = "# Langs\n\n## Learn C#\n- pointers\n\n   ## Indented\nthree spaces\n\n    ## Code\n\n## Closed ##\nx\n"
    (vault / "h.md").write_text(text, encoding="utf-8")
    assert notes.read_note(vault, "h.md", heading="Learn C#")["content"] == "- pointers\n\n"
    with pytest.raises(NotFound):
        notes.read_note(vault, "h.md", heading="Learn C")
    assert notes.read_note(vault, "h.md", heading="Indented")["content"] == "three spaces\n\n    ## Code\n\n"
    with pytest.raises(NotFound):
        notes.read_note(vault, "h.md", heading="Code")  # four spaces: an indented code line
    assert notes.read_note(vault, "h.md", heading="Closed")["content"] == "x\n"
    notes.upsert_section(vault, "h.md", "Learn C", "other", clock=CLOCK)  # not C#'s section
    assert _text(vault, "h.md") == text + "\n## Learn C\n\nother\n"


# ── the invariant: the editor sees the headings the parser sees, and edits nothing outside the section ───────────
_PIECES = ["# Title", "## Status", "### Sub", "  ## Status", "    ## Status", "## Status ##", "## Learn C#",
           "# Status", "#Status", "```", "````", "~~~", "```sh", "- one", "- two", "", "text", "---", "title: x"]
_WANTED = ["Status", "Sub", "Learn C#", "Title"]


@st.composite
def _note(draw: st.DrawFn) -> str:
    """A note of traps: optional front matter (with '#' lines), fences of every kind, near-headings; any endings."""
    body = draw(st.lists(st.sampled_from(_PIECES), max_size=14))
    lines = (["---", *draw(st.lists(st.sampled_from(["# Status", "title: x", "## Sub"]), max_size=3)), "---"]
             if draw(st.booleans()) else []) + body
    endings = draw(st.lists(st.sampled_from(["\n", "\r\n", "\r"]), min_size=len(lines), max_size=len(lines)))
    text = "".join(line + end for line, end in zip(lines, endings))
    if lines and draw(st.booleans()):
        text = text[:-len(endings[-1])]
    return text


def _section_lines(text: str, wanted: str) -> tuple[int, int, int] | None:
    """(heading line, section end, own end), 0-based line indexes, as ingest's headings give them."""
    heads = parse_note("n.md", text).headings
    for n, head in enumerate(heads):
        if " ".join(head.text.split()).casefold() == wanted.casefold():
            count = len(notes._lines(text))
            end = next((h.line - 1 for h in heads[n + 1:] if h.level <= head.level), count)
            own = heads[n + 1].line - 1 if n + 1 < len(heads) else count
            return head.line - 1, end, own
    return None


@settings(max_examples=200, deadline=None)
@given(_note(), st.sampled_from(_WANTED))
def test_read_finds_a_section_exactly_when_ingest_sees_its_heading(tmp_path_factory: pytest.TempPathFactory,
                                                                   text: str, wanted: str) -> None:
    root = tmp_path_factory.mktemp("v")
    (root / "n.md").write_bytes(text.encode("utf-8"))
    found = _section_lines(text, wanted)
    if found is None:
        with pytest.raises(NotFound):
            notes.read_note(root, "n.md", heading=wanted)
        return
    start, end, _ = found
    assert notes.read_note(root, "n.md", heading=wanted)["content"] == "".join(notes._lines(text)[start + 1:end])


@settings(max_examples=200, deadline=None)
@given(_note(), st.sampled_from(_WANTED), st.booleans())
def test_an_edit_leaves_every_byte_outside_its_section_as_it_was(tmp_path_factory: pytest.TempPathFactory,
                                                                 text: str, wanted: str, bullet: bool) -> None:
    root = tmp_path_factory.mktemp("v")
    (root / "n.md").write_bytes(text.encode("utf-8"))
    found = _section_lines(text, wanted)
    try:
        if bullet:
            notes.add_bullet(root, "n.md", wanted, "added item", clock=CLOCK)
        else:
            notes.upsert_section(root, "n.md", wanted, "new body", clock=CLOCK)
    except InvalidInput:  # it would have landed in a code fence that is never closed: refused, nothing written
        assert any(w.code == "unclosed_code_fence" for w in parse_note("n.md", text).warnings)
        assert (root / "n.md").read_bytes().decode("utf-8") == text
        return
    new = (root / "n.md").read_bytes().decode("utf-8")
    lines = notes._lines(text)
    if found is None:  # a new section at the end, the note before it untouched
        assert new.startswith(text) and new.rstrip("\r\n").endswith("added item" if bullet else "new body")
        return
    start, end, own = found
    head = "".join(lines[:start + 1])
    tail = "".join(lines[end:] if not bullet else lines[own:])
    assert new.startswith(head) and new.endswith(tail)
    if bullet:
        assume(not any(w.code == "unclosed_code_fence" for w in parse_note("n.md", text).warnings))
        # the bullet is a list item of the heading's own content: before its first sub-heading
        after = parse_note("n.md", new)
        item = next(i for i in after.list_items if i.text == "added item")
        heading_line = start + 1
        next_heading = min((h.line for h in after.headings if h.line > heading_line), default=10**9)
        assert heading_line < item.line < next_heading


# ── 2. a bullet goes in its heading's own list ──────────────────────────────────────────────────────────────────
def test_a_bullet_goes_in_the_headings_own_list_not_under_its_last_sub_heading(vault: Path) -> None:
    text = "# Plan\n\n## Tasks\n- pack\n\n### Done\n- old task\n\n### Later\n- paint\n\n## Notes\nx\n"
    (vault / "p.md").write_text(text, encoding="utf-8")
    out = notes.add_bullet(vault, "p.md", "Tasks", "old task", clock=CLOCK)  # only a sub-heading has it
    assert not out["duplicate"]
    assert _text(vault, "p.md") == text.replace("- pack\n", "- pack\n- old task\n")
    assert notes.add_bullet(vault, "p.md", "Tasks", "pack", clock=CLOCK)["duplicate"]
    (vault / "q.md").write_text("## Tasks\n### Sub\n- a\n", encoding="utf-8")  # no own content yet
    notes.add_bullet(vault, "q.md", "Tasks", "first", clock=CLOCK)
    assert _text(vault, "q.md") == "## Tasks\n\n- first\n### Sub\n- a\n"


def test_a_bullet_takes_the_marker_its_list_ends_with(vault: Path) -> None:
    # `- b` after `* a` starts a second list (CommonMark: a changed bullet character does), rendered apart
    (vault / "s.md").write_text("## Tasks\n* a\n  - nested\n\n## Next\n", encoding="utf-8")
    notes.add_bullet(vault, "s.md", "Tasks", "b", clock=CLOCK)
    notes.add_bullet(vault, "s.md", "Tasks", "+ c", clock=CLOCK)  # a marker given is kept
    assert _text(vault, "s.md") == "## Tasks\n* a\n  - nested\n* b\n+ c\n\n## Next\n"


def test_a_bullet_inside_a_code_block_is_not_the_same_bullet(vault: Path) -> None:
    text = "## Tasks\n```\n- call\n```\n"
    (vault / "c.md").write_text(text, encoding="utf-8")
    out = notes.add_bullet(vault, "c.md", "Tasks", "call", clock=CLOCK)
    assert not out["duplicate"] and _text(vault, "c.md") == text + "- call\n"


@pytest.mark.parametrize("edit", [
    lambda v: notes.add_bullet(v, "u.md", "Tasks", "call"),  # its own content runs into the fence
    lambda v: notes.add_bullet(v, "u.md", "Later", "call"),  # a new section after it
    lambda v: notes.upsert_section(v, "u.md", "Later", "call"),
    lambda v: daily_notes.daily_note(v, "append", content="- call", heading="Later", pattern="u-YYYY-MM-DD",
                                    day="2026-03-01"),
], ids=["own-bullet", "new-bullet", "new-section", "daily"])
def test_nothing_is_added_inside_a_code_fence_that_is_never_closed(vault: Path, edit) -> None:
    # after an unclosed fence the rest of the note is code: a section or bullet written there was reported added,
    # never reached the graph, and the next upsert appended the same section again
    text = "## Tasks\n- pack\n```sh\nmake all\n"
    for name in ("u.md", "u-2026-03-01.md"):
        (vault / name).write_text(text, encoding="utf-8")
    with pytest.raises(InvalidInput) as refused:
        edit(vault)
    assert refused.value.details["fence_line"] == 3
    assert _text(vault, "u.md") == text and _text(vault, "u-2026-03-01.md") == text
    (vault / "u.md").write_text("## Tasks\n- pack\n\n## Code\n```sh\nmake all\n", encoding="utf-8")
    notes.add_bullet(vault, "u.md", "Tasks", "call")  # before the fence: a bullet like any other
    assert _text(vault, "u.md") == "## Tasks\n- pack\n- call\n\n## Code\n```sh\nmake all\n"


def test_a_section_body_that_never_closes_its_fence_does_not_swallow_the_sections_after_it(vault: Path) -> None:
    text = "## Tasks\n- a\n\n## Notes\n- keep\n"
    (vault / "f.md").write_text(text, encoding="utf-8")
    with pytest.raises(InvalidInput) as refused:
        notes.upsert_section(vault, "f.md", "Tasks", "```sh\nmake all", clock=CLOCK)
    assert refused.value.details["fence_line"] == 1 and _text(vault, "f.md") == text
    notes.upsert_section(vault, "f.md", "Notes", "```sh\nmake all", clock=CLOCK)  # the last section: nothing after
    notes.upsert_section(vault, "f.md", "Tasks", "```sh\nmake all\n```", clock=CLOCK)
    assert _text(vault, "f.md") == "## Tasks\n\n```sh\nmake all\n```\n\n## Notes\n\n```sh\nmake all\n"


@pytest.mark.parametrize("given", ["Status ##", "## Status ##", "  Status  #  "])
def test_a_heading_given_with_its_closing_hashes_is_the_heading(vault: Path, given: str) -> None:
    # `## Status ##` is the heading "Status" to the parser; the editor looked for "Status ##", never found it, and
    # every upsert or bullet appended one more "## Status ##" section
    notes.upsert_section(vault, "traps.md", given, "- new", clock=CLOCK)
    notes.upsert_section(vault, "traps.md", given, "- new", clock=CLOCK)
    notes.add_bullet(vault, "traps.md", given, "more", clock=CLOCK)
    assert _text(vault).endswith("\n## Status\n\n- new\n- more\n")
    assert _text(vault).count("Status") == 2  # the front matter's and the heading's
    assert notes.read_note(vault, "traps.md", heading=given)["content"] == "\n- new\n- more\n"
    notes.upsert_section(vault, "traps.md", "Learn C#", "x", clock=CLOCK)  # no space: the '#' is text
    assert _text(vault).endswith("## Learn C#\n\nx\n")


# ── 4. diffs that apply ────────────────────────────────────────────────────────────────────────────────────────
def _apply(tmp: Path, rel: str, before: bytes | None, diff: str, tool: str = "git") -> bytes:
    work = tmp / "apply"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir()
    if before is not None:
        (work / rel).write_bytes(before)
    (work / "change.diff").write_bytes(diff.encode("utf-8"))
    if tool == "git":
        commands = [["git", "apply", "--check", "change.diff"], ["git", "apply", "change.diff"]]
    else:
        commands = [["patch", "-p1", "--binary", "--dry-run", "-i", "change.diff"],
                    ["patch", "-p1", "--binary", "-i", "change.diff"]]
    for command in commands:
        done = subprocess.run(command, cwd=work, capture_output=True, text=True)
        assert done.returncode == 0, (command, done.stdout, done.stderr, diff)
    return (work / rel).read_bytes()


@pytest.mark.parametrize("tool", ["git", "patch"])
def test_the_diff_of_a_note_without_a_final_newline_applies(tmp_path: Path, tool: str) -> None:
    root = tmp_path / "v"
    root.mkdir()
    before = (BOM + "# Note\n\n## Log\n- one").encode("utf-8")
    (root / "n.md").write_bytes(before)
    out = notes.write_note(root, "n.md", "tail without newline", mode="append", dry_run=True)
    # (the note's old last line has none; what the write adds ends with one, as every note editor write does)
    assert out["diff"].count("\\ No newline at end of file\n") == 1
    notes.write_note(root, "n.md", "tail without newline", mode="append", clock=CLOCK)
    assert _apply(tmp_path, "n.md", before, out["diff"], tool) == (root / "n.md").read_bytes()
    created = notes.write_note(root, "new.md", "no newline", mode="create", dry_run=True)
    assert _apply(tmp_path, "new.md", None, created["diff"], tool) == b"no newline\n"


_OPS = {
    "append": lambda root, **kw: notes.write_note(root, "n.md", "added\nno end", mode="append", **kw),
    "overwrite": lambda root, **kw: notes.write_note(root, "n.md", "# New\nbody", mode="overwrite", **kw),
    "section": lambda root, **kw: notes.upsert_section(root, "n.md", "Status", "fresh", **kw),
    "bullet": lambda root, **kw: notes.add_bullet(root, "n.md", "Sub", "item", **kw),
}


@settings(max_examples=80, deadline=None)
@given(_note(), st.booleans(), st.sampled_from(sorted(_OPS)))
def test_every_dry_run_diff_applies_and_gives_what_the_edit_writes(tmp_path_factory: pytest.TempPathFactory,
                                                                   text: str, bom: bool, op: str) -> None:
    root = tmp_path_factory.mktemp("v")
    old = ((BOM if bom else "") + text).encode("utf-8")
    (root / "n.md").write_bytes(old)
    try:
        dry = _OPS[op](root, dry_run=True)
    except InvalidInput:  # a heading or bullet that would be code (an unclosed fence): the edit refuses it too
        with pytest.raises(InvalidInput):
            _OPS[op](root, clock=CLOCK)
        assert (root / "n.md").read_bytes() == old
        return
    _OPS[op](root, clock=CLOCK)
    new = (root / "n.md").read_bytes()
    if dry["changed"]:
        assert _apply(tmp_path_factory.mktemp("a"), "n.md", old, dry["diff"]) == new
    else:
        assert new == old and "diff" not in dry


# ── 5. a note is named as it is on disk ─────────────────────────────────────────────────────────────────────────
@pytest.mark.parametrize("path", [" traps.md", "traps.md ", "traps.md\n", "traps.md/"])
def test_a_path_is_not_trimmed_into_another_note(vault: Path, path: str) -> None:
    with pytest.raises(InvalidInput):
        notes.write_note(vault, path, "lost?", mode="append", clock=CLOCK)
    assert _text(vault) == TRAPS and sorted(p.name for p in vault.iterdir()) == ["traps.md"]
    with pytest.raises(InvalidInput):
        note_tools.list_notes(vault, " " + path.strip())
    assert note_tools.list_notes(vault, "./")["total"] == 1  # a folder's trailing '/' is no other folder


def test_a_name_in_another_unicode_form_is_the_note_on_disk(vault: Path) -> None:
    nfc, nfd = "Études/Café.md", unicodedata.normalize("NFD", "Études/Café.md")
    assert nfc != nfd
    (vault / "Études").mkdir()  # the folder NFC, the note NFD (as a Mac copy can leave them)
    (vault / "Études" / unicodedata.normalize("NFD", "Café.md")).write_text("# Café\n", encoding="utf-8")
    out = notes.write_note(vault, nfd, "- more\n", mode="append", clock=CLOCK)
    assert out["path"] == "Études/" + unicodedata.normalize("NFD", "Café.md")
    assert notes.read_note(vault, nfc)["content"] == "# Café\n- more\n"
    with pytest.raises(Conflict):
        notes.write_note(vault, nfc, "# Twin\n", mode="create")
    notes.write_note(vault, unicodedata.normalize("NFD", "Études/Thé.md"), "# Thé\n", mode="create")
    assert sorted(p.name for p in vault.iterdir() if p.name != notes.BACKUP_DIR) == ["traps.md", "Études"]
    assert [n["path"] for n in note_tools.list_notes(vault, nfd.split("/")[0])["notes"]] == [
        "Études/" + unicodedata.normalize("NFD", "Café.md"), "Études/" + unicodedata.normalize("NFD", "Thé.md")]
    listed = sorted(n["path"] for n in note_tools.list_notes(vault)["notes"])
    assert sorted(e.rel for e in walk_vault(vault)[1]) == listed  # the names ingest gives the notes


def test_a_name_two_notes_share_in_another_form_is_refused(vault: Path) -> None:
    composed, decomposed = "\u1ec7.md", "e\u0323\u0302.md"  # ệ, and e with its two marks in canonical order
    (vault / composed).write_text("one\n", encoding="utf-8")
    (vault / decomposed).write_text("two\n", encoding="utf-8")
    with pytest.raises(InvalidInput) as refused:
        notes.write_note(vault, "\u00ea\u0323.md", "x", mode="append")  # ê plus the dot below: neither spelling
    assert sorted(refused.value.details["candidates"]) == sorted([composed, decomposed])
    assert notes.read_note(vault, decomposed)["content"] == "two\n"  # an exact spelling is that note


def test_a_name_on_disk_only_in_another_case_is_refused_not_made_a_second_note(vault: Path) -> None:
    # on Linux `Traps.md` was a new note beside traps.md (the bullet meant for traps.md went there), one that
    # wikilinks cannot tell from it and that collides with it on a macOS or Windows disk
    (vault / "Projects").mkdir()
    for call in (lambda: notes.add_bullet(vault, "Traps.md", "Status", "x", clock=CLOCK),
                 lambda: notes.write_note(vault, "projects/new.md", "# New\n", mode="create"),
                 lambda: notes.read_note(vault, "TRAPS.md")):
        with pytest.raises(InvalidInput) as refused:
            call()
        assert refused.value.details["candidates"] in (["traps.md"], ["Projects"])
    assert sorted(p.name for p in vault.iterdir()) == ["Projects", "traps.md"] and _text(vault) == TRAPS
    with pytest.raises(InvalidInput):  # a move onto another note's case twin
        note_tools.move_note(vault, "traps.md", "projects/traps.md", clock=CLOCK)
    out = note_tools.move_note(vault, "traps.md", "Traps.md", clock=CLOCK)  # a case-only rename is a rename
    assert out["moved"] and sorted(p.name for p in vault.iterdir() if p.name != notes.BACKUP_DIR) == [
        "Projects", "Traps.md"]


def test_a_temp_file_left_by_a_crash_mid_write_is_never_a_note(vault: Path) -> None:
    crash = ("import os, sys\nfrom mnemon.app import notes\n"
             "os.replace = lambda *a: os._exit(3)\n"  # the process dies between the temp file and the rename
             f"notes.write_note({str(vault)!r}, 'traps.md', 'never written', mode='overwrite')\n")
    done = subprocess.run([sys.executable, "-c", crash], capture_output=True, text=True, env=dict(os.environ))
    assert done.returncode == 3, done.stderr
    stale = [p.name for p in vault.iterdir() if p.name.endswith(".tmp")]
    assert len(stale) == 1 and (vault / stale[0]).read_text(encoding="utf-8") == "never written\n"
    assert _text(vault) == TRAPS
    assert [n["path"] for n in note_tools.list_notes(vault)["notes"]] == ["traps.md"]
    assert [e.rel for e in walk_vault(vault)[1]] == ["traps.md"]
    notes.write_note(vault, "traps.md", "- after\n", mode="append", clock=CLOCK)
    assert _text(vault) == TRAPS + "- after\n"
