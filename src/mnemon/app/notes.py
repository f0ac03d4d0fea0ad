"""The path-safe Markdown note editor: read, write, replace, upsert-section, add-bullet (Mneme's `note …`).

Safety rules, each enforced before any byte is read or written:
* paths are vault-relative and end in `.md`; absolute paths, drive letters, `..` segments, backslashes and NUL
  bytes are refused with `PathRefused`;
* no component of the path (existing directories or the note itself) may be a symlink — a link inside the vault
  can point anywhere, and following it is how an editor ends up writing outside its sandbox;
* the final resolved path must still lie inside the resolved vault (a belt to the braces above);
* a path is taken as written, as ingest names notes: whitespace around it, or a note path ending in '/', is refused
  rather than trimmed; only a name on disk in another Unicode form (NFC against NFD) is taken for the one given.

Sections are found by the parser's rules (no heading in front matter, code, comments or HTML blocks, CommonMark's
closing '#'s and indents), so the editor edits the headings ingest sees, named by their text as written or as
displayed (the first of twins, said: `note_headings`); diffs are ones `git apply` and `patch` take. A note the user
may not write is refused.

Writes are atomic (temp file in the same directory, fsync, `os.replace`; a note with other names, hard links, is
written in place so they stay one file, and the reply warns `hard_linked`), an existing note that changes is first
copied to `<vault>/.mnemon-backups/<path>.<UTC stamp>.bak` (not `.md`, so ingestion never reads backups back in),
and every mutating call takes `dry_run` to return the unified diff without touching the disk. A note keeps its bytes:
its line endings (CRLF stays CRLF; inserted lines take the note's own style; a new note's are LF, whatever the
content's, as Obsidian writes on every system), a leading UTF-8 BOM (ignored when
looking for headings, written back), and the backup is the file's exact bytes. Mneme's `--force`
escape hatch is deliberately absent. The vault-level commands (list, search, daily, move, delete, status) live in
`note_tools` and share these rules, the backups and `note_links.link_sites`.
"""
from __future__ import annotations

import difflib
import functools
import hashlib
import os
import re
import tempfile
import threading
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path, PurePosixPath
from typing import Any, NamedTuple

from ..core.errors import Conflict, InvalidInput, NotFound, PathRefused
from ..core.surface import next_ingest

try:
    import fcntl
except ImportError:  # (Windows: no lock, the check at the write still refuses a lost update)
    fcntl = None  # type: ignore[assignment]
from ..core.vault.frontmatter import split_front_matter
from .note_headings import matching, twins
from .note_lists import cannot_interrupt, is_item, item_key, next_marker
from .note_match import replaced, spans
from .note_hidden import (check_append_seen, check_content_closes, check_edit_hides_nothing, check_not_hidden,
                          blank_line_after, html_gap)
# (atomic_write_text and link_no_clobber: for note_tools, resolve and setup, which reach them here)
from .note_files import atomic_write_bytes, atomic_write_text, hard_links, link_no_clobber  # noqa: F401
from .note_names import backup_name, check_backup_room, check_folders, check_names, check_writable
from .vault.passed_over import SKIP_DIRS, passed_over, passed_over_folders  # noqa: F401 (SKIP_DIRS: note_tools')
# The parser's own definitions of front matter, code, headings and links: the editor must agree with the graph on
# each (a heading the graph never saw must not be edited, a link it never saw not rewritten, and one it resolves
# must be found).
from ..core.vault.parser import (ATX_HEADING, SETEXT_LINE, blank_comments, code_blanked_lines, heading_text_of,
                                 setext_headings, visible_text, without_html_blocks)

BACKUP_DIR = ".mnemon-backups"
MAX_NOTE_BYTES = 5 * 1024 * 1024
WRITE_MODES = ("create", "append", "overwrite")
_DRIVE = re.compile(r"^[A-Za-z]:")


@dataclass(frozen=True)
class Resolved:
    rel: str
    path: Path


def _vault_root(vault: str | Path | None) -> Path:
    if vault is None or not str(vault).strip():
        raise InvalidInput("no vault given: pass --vault DIR or set `vault` in the config (MNEMON_VAULT)")
    root = Path(vault).expanduser()
    if not root.is_dir():
        raise NotFound(f"vault directory {root} does not exist", vault=str(root))
    return root.resolve()


def _clean_parts(raw: str) -> list[str]:
    """The segments of a vault-relative path, or `PathRefused` for anything that could name a place outside it."""
    if "\x00" in raw or "\\" in raw:
        raise PathRefused("note paths may not contain NUL bytes or backslashes", path=raw)
    if raw.startswith(("/", "~")) or _DRIVE.match(raw) or Path(raw).is_absolute():
        raise PathRefused("note paths must be relative to the vault, not absolute", path=raw)
    pure = PurePosixPath(raw)
    if any(part in ("..", "") for part in pure.parts) or raw.startswith("./../"):
        raise PathRefused("note paths may not contain '..' segments", path=raw)
    parts = [p for p in pure.parts if p != "."]
    if parts and parts[0] == BACKUP_DIR:
        raise PathRefused("the backup folder is not editable through the note editor", path=raw)
    check_names(parts, raw)
    return parts


def _inside(root: Path, parts: list[str], raw: str) -> Path:
    """`root/parts`, resolved, when no component is a symlink and the result stays in the vault."""
    current = root
    for part in parts:
        current = current / part
        if current.is_symlink():
            raise PathRefused("note paths may not pass through symlinks", path=raw,
                              symlink=str(current.relative_to(root)))
    final = current.resolve()
    try:
        final.relative_to(root)
    except ValueError:
        raise PathRefused("note path resolves outside the vault", path=raw) from None
    return final


def _as_written(raw: str, what: str) -> str:
    """`raw` itself: a path with spaces around it is refused, not trimmed, for ingest names a note by its file name
    as it is, and ' a.md' trimmed would have been another note than the one on disk under that name."""
    if raw != raw.strip():
        raise InvalidInput(f"{what} {raw!r} starts or ends with whitespace; pass the name exactly as it is", path=raw)
    return raw


def _disk_spelling(root: Path, parts: list[str], raw: str, *, case_twins: bool = False) -> list[str]:
    """`parts` as the vault spells them: a name that is not on disk as given but is under another Unicode form (NFC
    against NFD: é as one code point or as e plus an accent, which macOS and sync tools write) is the one on disk.
    Two notes a reader cannot tell apart must not be created side by side, nor an edit miss the note it names.
    A name that is on disk only in another case (`Projects/Lighthouse.md` for `Projects/lighthouse.md`) is refused
    unless `case_twins`: macOS and Windows open the note there, Linux made a second one beside it (an add-bullet
    went to a new note, not the one meant) that wikilinks cannot tell from the first and that a sync to a
    case-insensitive disk collides with. Nothing is looked up past a symlink (`_inside` refuses it)."""
    spelled: list[str] = []
    current = root
    for index, part in enumerate(parts):
        here = current / part
        if not os.path.lexists(here):
            key = unicodedata.normalize("NFC", part)
            try:
                names = [entry.name for entry in os.scandir(current)]
            except OSError:  # the folder does not exist (yet): the rest is new, spelled as given
                return spelled + parts[index:]
            same = sorted(name for name in names if unicodedata.normalize("NFC", name) == key)
            if len(same) > 1:
                raise InvalidInput(f"{'/'.join(spelled + [part])} matches {len(same)} names that differ only in "
                                   "their Unicode form; give the path exactly as one of them is written",
                                   path=raw, candidates=["/".join(spelled + [name]) for name in same])
            if not same:
                folded = key.casefold()
                twins = sorted(name for name in names if unicodedata.normalize("NFC", name).casefold() == folded)
                if twins and not case_twins:
                    found = ["/".join(spelled + [name]) for name in twins]
                    raise InvalidInput(f"{'/'.join(spelled + [part])} is not in the vault but {' and '.join(found)} "
                                       "is: names that differ only in case are one file on macOS and Windows and one "
                                       "note to wikilinks; give the name as it is written on disk", path=raw,
                                       candidates=found)
                return spelled + parts[index:]
            part = same[0]
            here = current / part
        spelled.append(part)
        if here.is_symlink():
            return spelled + parts[index + 1:]
        current = here
    return spelled


def safe_resolve(vault: str | Path | None, rel_path: str, *, renaming: str | None = None) -> Resolved:
    """The absolute path of a vault note, or `PathRefused` when `rel_path` could reach outside the vault.

    `renaming`: the note a move takes from, whose name `rel_path` may give in another case (a case-only rename)."""
    root = _vault_root(vault)
    if not isinstance(rel_path, str) or not rel_path.strip():
        raise InvalidInput("note path must be a non-empty vault-relative path")
    raw = _as_written(rel_path, "note path")
    if raw.endswith("/"):
        raise InvalidInput("a note path may not end in '/' (that names a folder)", path=raw)
    parts = _clean_parts(raw)
    if not parts:
        raise InvalidInput("note path must name a file", path=raw)
    if not parts[-1].lower().endswith(".md") or parts[-1].lower() == ".md":
        raise PathRefused("only Markdown notes (*.md) can be edited", path=raw)
    fold = lambda path: unicodedata.normalize("NFC", path).casefold()  # noqa: E731
    parts = _disk_spelling(root, parts, raw, case_twins=renaming is not None and fold(renaming) == fold(raw))
    final = _inside(root, parts, raw)
    check_folders(root, parts, raw)
    if final.exists() and not final.is_file():
        raise InvalidInput("note path names a directory, not a file" if final.is_dir() else
                           "note path names something that is not a regular file (a pipe, a device)", path=raw)
    return Resolved("/".join(parts), final)


def safe_folder(vault: str | Path | None, rel_folder: str | None) -> Resolved:
    """An existing vault folder under the same rules as a note path; empty or '.' is the vault itself."""
    root = _vault_root(vault)
    if rel_folder is not None and not isinstance(rel_folder, str):
        raise InvalidInput("folder must be a vault-relative path")
    given = rel_folder or ""
    raw = (_as_written(given, "folder") if given.strip() else "").rstrip("/") or "."
    parts = _disk_spelling(root, _clean_parts(raw), raw)
    final = _inside(root, parts, raw)
    if not final.is_dir():
        raise NotFound(f"folder {raw} does not exist in the vault", folder=raw)
    return Resolved("/".join(parts), final)


@dataclass(frozen=True)
class NoteText:
    """A note as the editor edits it. `text` is the decoded file without a leading BOM and with its line endings as
    they are (no universal-newline translation: that rewrote every line of a CRLF note and made the backup an LF
    copy); `raw` the exact bytes (backups, size and hash are of these); `bom` goes back in front on a write and
    `newline` is the note's dominant line ending, the one inserted lines use."""

    raw: bytes
    text: str
    bom: str
    newline: str


_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+")
# a CR followed by an LF is one CRLF, never a line ending and a blank line
_BLANK_END = re.compile(r"(?:\r\n|\r(?!\n)|\n)(?:\r\n|\r|\n)\Z")


def _lines(text: str) -> list[str]:
    """`text` split after each line ending (CRLF, LF, or a lone CR, as the parser counts lines), ends kept, so
    `"".join` gives `text` back byte for byte. Not `str.splitlines`: it also breaks at form feeds, \\x1c-\\x1e and
    U+2028, which the parser (and every editor) reads as part of a line."""
    return _LINE.findall(text)


def _ends_line(text: str) -> bool:
    return text.endswith(("\n", "\r"))


def _newline_of(text: str) -> str:
    """The line ending most lines of `text` use (LF on a tie, and for a note of one line or none)."""
    crlf = text.count("\r\n")
    counts = {"\n": text.count("\n") - crlf, "\r\n": crlf, "\r": text.count("\r") - crlf}
    best = max(counts.values())
    return "\n" if counts["\n"] == best else ("\r\n" if counts["\r\n"] == best else "\r")


def _styled(text: str, newline: str) -> str:
    """Text going into a note, with its line breaks in the note's style: an LF note too (CRLF text from an argument,
    an MCP or HTTP payload kept its CRs, and an LF note came out with mixed endings; stdin was translated already)."""
    return re.sub(r"\r\n|\r|\n", lambda _m: newline, text)


def decode_note(data: bytes, rel: str) -> NoteText:
    try:
        decoded = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        # where, and the way out: ingest reads such a note as Windows-1252, the editor writes UTF-8 only
        line = data.count(b"\n", 0, exc.start) + 1
        byte = f"0x{data[exc.start]:02x}"
        raise InvalidInput(
            f"{rel} is not UTF-8 text (byte {byte} on line {line}; Latin-1 or Windows-1252?): the editor writes UTF-8 "
            f"only; convert it first, e.g. iconv -f WINDOWS-1252 -t UTF-8 '{rel}' > converted.md, then move that over "
            "it (ingest reads it as it is)", path=rel, line=line, byte=byte) from None
    bom = "\ufeff" if decoded.startswith("\ufeff") else ""
    text = decoded[len(bom):]
    return NoteText(data, text, bom, _newline_of(text))


def _read(target: Resolved) -> NoteText | None:
    if not target.path.exists():
        return None
    size = target.path.stat().st_size
    if size > MAX_NOTE_BYTES:
        raise InvalidInput(f"{target.rel} is {size} bytes, past the {MAX_NOTE_BYTES} the editor takes: edit it with "
                           "another editor or split it into notes (ingest still reads it whole)",
                           path=target.rel, bytes=size, max_bytes=MAX_NOTE_BYTES)
    return decode_note(target.path.read_bytes(), target.rel)


_PATCH_LINE = re.compile(r"[^\n]*\n|[^\n]+")
_NO_NEWLINE = "\n\\ No newline at end of file\n"


def _diff(rel: str, before: str | None, after: str, *, old_rel: str | None = None) -> str:
    """A unified diff `patch` and `git apply` take: lines end at LF only, as they read a file (a CR is part of a
    line to them, so a CR-only note is one long line), and a last line without an LF gets the "\\ No newline at
    end of file" marker (without it the next diff line ran on from it)."""
    hunks = difflib.unified_diff(_PATCH_LINE.findall(before or ""), _PATCH_LINE.findall(after),
                                 fromfile=f"a/{old_rel or rel}" if before is not None else "/dev/null",
                                 tofile=f"b/{rel}")
    return "".join(line if line.endswith("\n") else line + _NO_NEWLINE for line in hunks)


def _stamp(clock: Callable[[], datetime] | None) -> str:
    now = clock() if clock else datetime.now(timezone.utc)
    return now.astimezone(timezone.utc).strftime("%Y%m%dT%H%M%S%fZ")


def backup_bytes(vault: str | Path | None, rel: str, data: bytes, *,
                 clock: Callable[[], datetime] | None = None) -> str:
    """Copy a note's old bytes to `<vault>/.mnemon-backups/<rel>.<stamp>.bak` (a name too long for that cut short,
    `note_names.backup_name`); the vault-relative backup path.

    The backup folder gets the same symlink check as a note: a vault whose `.mnemon-backups` links elsewhere must not
    make the editor write there."""
    root = check_backup_folder(vault, rel)
    stamp = _stamp(clock)
    folder, _, name = f"{BACKUP_DIR}/{rel}".rpartition("/")
    for attempt in range(1, 1000):
        # two backups of one note within one clock tick (a fixed clock, a fast script) must both survive
        target = root / folder / backup_name(name, f".{stamp}{'' if attempt == 1 else f'-{attempt}'}.bak")
        try:
            atomic_write_bytes(target, data, replace=False)
        except Conflict:
            continue
        return str(target.relative_to(root))
    raise Conflict(f"too many backups of {rel} at {stamp}", path=rel)


def check_backup_folder(vault: str | Path | None, rel: str) -> Path:
    """The vault's root, once `rel`'s backup folder is known to be one a backup can go to: refused through a symlink
    or a file in its way, by a dry run as by the write."""
    root = _vault_root(vault)
    parts = list(PurePosixPath(BACKUP_DIR, *PurePosixPath(rel).parts[:-1]).parts)
    _inside(root, parts, f"{BACKUP_DIR}/{rel}")
    check_backup_room(root, parts, rel)
    return root


_writing = threading.local()  # how deep this thread is in editor writes: the lock is taken once, by the outermost


def serialised(edit: Callable[..., dict[str, Any]]) -> Callable[..., dict[str, Any]]:
    """One editor write at a time per vault, across processes: a note is read, changed and written back whole, so
    two writers of one note at once each wrote back what they had read and one change was lost (backups too held
    only what was read). An exclusive lock spans the read and the write, on a file named after the vault's real path
    in the user's runtime folder (not in the vault: a refused or no-op command leaves the vault as it was); a dry
    run takes none. `edit(vault, …)` is any editor command whose first argument is the vault."""
    @functools.wraps(edit)
    def locked(vault: str | Path | None, *args: Any, **kwargs: Any) -> dict[str, Any]:
        if kwargs.get("dry_run") or getattr(_writing, "depth", 0) or fcntl is None:
            return edit(vault, *args, **kwargs)
        fd = os.open(_lock_path(_vault_root(vault)), os.O_RDWR | os.O_CREAT, 0o600)
        _writing.depth = 1
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            return edit(vault, *args, **kwargs)
        finally:
            _writing.depth = 0
            os.close(fd)  # (releases the lock)
    return locked


def _lock_path(root: Path) -> Path:
    """In the user's private runtime folder, the one the resident process uses: each level is made 0700 (a folder
    made with the umask's mode would make the resident process refuse it as not private)."""
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    base = os.path.join(runtime, "mnemon") if runtime else os.path.join(tempfile.gettempdir(), f"mnemon-{os.getuid()}")
    folder = os.path.join(base, "vault-locks")
    for level in (base, folder):
        os.makedirs(level, mode=0o700, exist_ok=True)
    return Path(folder) / f"{hashlib.sha256(str(root).encode('utf-8', 'surrogateescape')).hexdigest()[:32]}.lock"


def _commit(vault: str | Path | None, target: Resolved, before: NoteText | None, after: str, *, dry_run: bool,
            clock: Callable[[], datetime] | None, extra: dict[str, Any]) -> dict[str, Any]:
    """Write `after` (the note's text without its BOM, which goes back in front) over `before`, backing up the exact
    bytes that were there; the diff is of the text as it will be written, line endings included."""
    data = ((before.bom if before is not None else "") + after).encode("utf-8")
    if len(data) > MAX_NOTE_BYTES:
        raise InvalidInput(f"the note would exceed {MAX_NOTE_BYTES} bytes", path=target.rel)
    changed = before is None or data != before.raw
    out: dict[str, Any] = {"ok": True, "path": target.rel, "changed": changed, "dry_run": dry_run,
                           "created": before is None, "bytes": len(data), "backup": None, **extra}
    if changed:  # of the whole text, BOM included: the diff applies to the file as it is on disk
        check_writable(target.path, target.rel)  # (a dry run too: it says what the write would do)
        if before is not None:
            check_backup_folder(vault, target.rel)
        out["diff"] = _diff(target.rel, before.bom + before.text if before is not None else None,
                            (before.bom if before is not None else "") + after)
        if (names := hard_links(target.path)) > 1:
            out.setdefault("warnings", []).append(hard_linked(target.rel, names, dry_run=dry_run))
    if dry_run or not changed:
        return out
    now_there = target.path.read_bytes() if target.path.exists() else None
    if now_there != (before.raw if before is not None else None):  # another program wrote it since it was read
        raise Conflict(f"{target.rel} changed while this edit was being made; nothing was written: run it again",
                       path=target.rel)
    if before is not None:
        out["backup"] = backup_bytes(vault, target.rel, before.raw, clock=clock)
    atomic_write_bytes(target.path, data)
    out["sha256"] = hashlib.sha256(data).hexdigest()
    # written as asked, but no ingest will read it: said, not left to be found out
    if skipped_by_ingest(_vault_root(vault), target.rel):
        out.setdefault("warnings", []).append({"code": "not_ingested", "path": target.rel, "reason": "ingest skips a "
                                               "hidden name or this folder: recall, retrieve and the graph will not see"
                                               " this note"})
    else:
        out["hint"] = f"recall and retrieve find the change after {next_ingest()}"
    return out


def hard_linked(rel: str, names: int, *, dry_run: bool) -> dict[str, Any]:
    """The warning of a write into a note with other names (hard links), made in place to keep them one file."""
    done = "would be" if dry_run else "was"
    return {"code": "hard_linked", "path": rel, "links": names,
            "reason": f"the note has {names} names (hard links): it {done} written in place, so every name shows the "
                      "edit (not atomically: the backup holds the old text)"}


def skipped_by_ingest(root: Path, rel: str) -> bool:
    """Whether `mnemon ingest` passes over the note `rel` of the vault `root` (`vault.passed_over`)."""
    return passed_over(rel, passed_over_folders(str(root)))


def heading_gap(text: str, newline: str = "\n") -> str:
    """What goes between a note's text (ending in a newline) and a heading appended to it: one blank line, none
    when the text is empty or already ends with a blank line."""
    return blank_line_after(text, newline) if text.strip() and not _BLANK_END.search(text) else ""


# ── section structure ──────────────────────────────────────────────────────────────────────────────────────────
def _code_prose(lines: Sequence[str], body_start: int | None = None) -> tuple[list[str], list[str], list[str]]:
    """(lines without endings, those lines with front matter and code emptied and inline code blanked, and the same
    with comments and raw HTML blocks blanked too) — the stages of the parser's reading of a note."""
    plain = [line.rstrip("\r\n") for line in lines]
    if body_start is None:
        body_start = split_front_matter(plain)[1] if plain and plain[0].startswith("---") else 0
    coded = code_blanked_lines(plain, body_start)[0]
    joined = "\n".join(coded)
    shown = blank_comments(joined)
    if "<" in shown:  # (a heading in a '<div>' block is HTML to ingest: none to edit either)
        shown = without_html_blocks(shown, coded)[0]
    return plain, coded, (coded if shown is joined else shown.split("\n"))


def _prose(lines: Sequence[str], body_start: int | None = None) -> list[str]:
    """`lines` (line endings kept or not) as the parser reads them: front matter and fenced code emptied, inline
    code and comments blanked, endings dropped. `body_start`: where the front matter ends, when the caller knows it
    already."""
    return _code_prose(lines, body_start)[2]


class _Head(NamedTuple):
    first: int  # the heading's first line (a setext heading's text can take several)
    last: int  # its last line: an ATX heading's only one, a setext heading's underline
    level: int
    text: str


def _headings(lines: Sequence[str], body_start: int | None = None) -> list[_Head]:
    """The headings `parse_note` sees, found by its rules: ATX ones with 0-3 spaces of indent and a closing run of
    '#' only after a space ('## Learn C#' is about C#), setext ones (text over '===' or '---'), none in front
    matter, code, a comment or an HTML block."""
    plain, coded, shown = _code_prose(lines, body_start)

    def written(index: int) -> str:  # the line as the parser takes a heading's text: inline code kept, comments not
        return plain[index] if coded[index] == shown[index] else visible_text(plain[index], coded[index], shown[index])

    out: list[_Head] = []
    underlines: list[int] = []
    for index, prose in enumerate(shown):
        found = ATX_HEADING.match(prose) if "#" in prose else None
        if found is None:
            if prose[:4].lstrip(" ")[:1] in ("=", "-") and SETEXT_LINE.fullmatch(prose):
                underlines.append(index)
            continue
        # the text as written, inline code included (the prose line has it blanked), as the parser takes it
        line = written(index)
        text = heading_text_of((ATX_HEADING.match(line) or found).group(2))
        if line is not plain[index]:
            text = " ".join(text.split())
        if text:
            out.append(_Head(index, index, len(found.group(1)), text))
    for first, underline, level in setext_headings(shown, underlines) if underlines else ():
        text = " ".join(" ".join(written(index).split()) for index in range(first, underline))
        out.append(_Head(first, underline, level, text))
    return sorted(out) if underlines else out


class _Section(NamedTuple):
    start: int  # the heading's (last) line: the section's own text starts after it
    end: int  # exclusive: the next heading of the same or a higher level, or the end of the note
    level: int
    own_end: int  # exclusive: the heading's own content, up to its first sub-heading
    lines: tuple[int, ...]  # the first line (1-based) of each heading that matched: more than one is said


def _find_section(lines: Sequence[str], heading: str) -> _Section | None:
    """The first heading `heading` names (`note_headings.matching`); how far its section and own content reach."""
    heads = _headings(lines)
    found = matching([head.text for head in heads], _heading_key(heading))
    if not found:
        return None
    n, head = found[0], heads[found[0]]
    own_end = heads[n + 1].first if n + 1 < len(heads) else len(lines)
    end = next((later.first for later in heads[n + 1:] if later.level <= head.level), len(lines))
    return _Section(head.last, end, head.level, own_end, tuple(heads[i].first + 1 for i in found))


# the opening run of an ATX heading: 1-6 '#'s then a space, a tab or nothing ('#1 Priority' and '#tag' are text)
_ATX_OPENER = re.compile(r"#{1,6}(?:[ \t]+|\Z)")


def _heading_key(heading: str) -> str:
    """A heading as given (`Status`, `## Status`, `## Status ##`) as the parser reads its text: without the opening
    and closing runs of '#' (a closing run kept never matched the heading, so each upsert appended another). A '#'
    that opens no heading is the text's own: stripped, `--heading "#1 Priority"` missed '## #1 Priority' and wrote
    a new '## 1 Priority'."""
    text = heading.strip()
    return " ".join(heading_text_of(_ATX_OPENER.sub("", text, count=1) if _ATX_OPENER.match(text) else text).split())


_check_not_in_code = check_not_hidden  # (its name in daily_notes: a fence or a %% comment never closed above)


def _check_heading(heading: str) -> str:
    # a CR is a line ending to the parser as much as an LF: "A\rB" would write a heading and a line of text
    if not isinstance(heading, str) or "\n" in heading or "\r" in heading or not _heading_key(heading):
        raise InvalidInput("--heading must be one non-empty line")
    return _heading_key(heading)


def setext_gap(lines: Sequence[str], at: int, own_end: int, nl: str) -> list[str]:
    """The blank line a bullet inserted at `at` needs after it: when the next heading (at `own_end`) follows at once
    and is a setext one, its text would be the bullet's lazy continuation and its underline a thematic break."""
    return [nl] if at == own_end < len(lines) and not ATX_HEADING.match(lines[at]) else []


def joining_gap(lines: Sequence[str], at: int, added: str, nl: str) -> list[str]:
    """The blank line text `added` at index `at` of `lines` needs to stand apart from the line above (`[]` when it
    needs none): below an HTML block that would take it in (`html_gap`), or below a paragraph line its first line
    would underline ('---' appended as a separator made the note's last paragraph a heading) or a numbered item
    would continue (`note_lists.cannot_interrupt`)."""
    first = _lines(added)[0] if added else ""
    if gap := html_gap(lines, at, first, nl):
        return gap
    above = lines[at - 1] if at else ""
    if above.strip() and SETEXT_LINE.fullmatch(first.rstrip("\r\n")):
        if any(head.first < at == head.last for head in _headings([*lines[:at], first])):
            return [blank_line_after(above, nl)]
    # ('2. b' under a paragraph line is that paragraph's text; under an item, a heading or an indented line, not)
    if above.strip() and above[:1] not in " \t" and cannot_interrupt(first) and not is_item(above) \
            and not ATX_HEADING.match(above):
        return [blank_line_after(above, nl)]
    return []


def _ensure_newline(text: str, newline: str = "\n") -> str:
    return text if not text or _ends_line(text) else text + newline


# ── commands ───────────────────────────────────────────────────────────────────────────────────────────────────
def read_note(vault: str | Path | None, rel_path: str, *, heading: str | None = None) -> dict[str, Any]:
    target = safe_resolve(vault, rel_path)
    note = _read(target)
    if note is None:
        raise NotFound(f"note {target.rel} does not exist", path=target.rel)
    text = note.text
    # the file's own size and hash (what `sha256sum` says), not those of the decoded text
    out: dict[str, Any] = {"ok": True, "path": target.rel, "bytes": len(note.raw),
                           "sha256": hashlib.sha256(note.raw).hexdigest()}
    if heading:
        lines = _lines(text)
        found = _find_section(lines, _check_heading(heading))
        if found is None:
            raise NotFound(f"heading {heading!r} not found in {target.rel}", path=target.rel, heading=heading)
        title = _check_heading(heading)
        out.update({"heading": title, "level": found.level, "content": "".join(lines[found.start + 1:found.end]),
                    **twins(target.rel, title, found.lines)})
    else:
        out["content"] = text
    return out


@serialised
def write_note(vault: str | Path | None, rel_path: str, content: str, *, mode: str = "append", dry_run: bool = False,
               clock: Callable[[], datetime] | None = None) -> dict[str, Any]:
    if mode not in WRITE_MODES:
        raise InvalidInput(f"--mode must be one of {', '.join(WRITE_MODES)}", mode=mode)
    if not isinstance(content, str):
        raise InvalidInput("content must be text")
    target = safe_resolve(vault, rel_path)
    before = _read(target)
    newline = before.newline if before is not None else "\n"
    # what it writes ends with one line break, as upsert-section, add-bullet and daily append end theirs: `--content
    # x` left a file without a final newline, and the next append had to add one before its own text. Blank content
    # (nothing, or spaces and breaks only) is written as given: it is spacing, not a line
    content = content.rstrip("\r\n") + "\n" if content.strip() else content
    if mode == "create":
        if before is not None:
            raise Conflict(f"note {target.rel} already exists; use --mode overwrite or append", path=target.rel)
        # a new note's lines end in LF, as append, overwrite, upsert and add-bullet make one: CRLF content (an
        # argument or payload from Windows) made the one note of the vault with CRs, by this mode only
        after = _styled(content, newline)
    elif mode == "overwrite":
        after = _styled(content, newline)
        if before is not None and before.bom:
            after = after.removeprefix("\ufeff")  # the note's BOM is written back: not a second one
    else:
        base = before.text if before is not None else ""
        base += newline if base and not _ends_line(base) else ""
        added = _styled(content, newline)
        after = base + "".join(joining_gap(_lines(base), len(_lines(base)), added, newline)) + added
        check_append_seen(_lines(after), len(_lines(base)), target.rel)  # (nothing nobody would see)
    return _commit(vault, target, before, after, dry_run=dry_run, clock=clock, extra={"mode": mode})


@serialised
def replace_in_note(vault: str | Path | None, rel_path: str, find: str, replace: str, *, all_matches: bool = False,
                    dry_run: bool = False, clock: Callable[[], datetime] | None = None) -> dict[str, Any]:
    if not isinstance(find, str) or not find:
        raise InvalidInput("--find must be non-empty text")
    target = safe_resolve(vault, rel_path)
    before = _read(target)
    if before is None:
        raise NotFound(f"note {target.rel} does not exist", path=target.rel)
    text = before.text
    # a multi-line --find names lines, whatever their endings: in the note's style first, then as typed (a note
    # whose endings are mixed, or a --find of line endings to change them). A --find within one line names no
    # ending, so the lines a --replace adds are the note's own: as typed they mixed endings into the note.
    # Found whatever the Unicode form of either (`note_match`: a --find typed "Café" is the "Café" macOS wrote).
    styled = _styled(find, before.newline)
    if (styled != find and spans(text, styled)) or not re.search(r"[\r\n]", find):
        find, replace = styled, _styled(replace, before.newline)
    found = spans(text, find)
    count = len(found)
    if count == 0:
        raise NotFound(f"text to replace was not found in {target.rel}", path=target.rel)
    if count > 1 and not all_matches:
        raise Conflict(f"text occurs {count} times in {target.rel}; pass --all to replace every occurrence",
                       path=target.rel, occurrences=count)
    after = replaced(text, found if all_matches else found[:1], replace)
    check_edit_hides_nothing(text, after, target.rel)
    return _commit(vault, target, before, after, dry_run=dry_run, clock=clock,
                   extra={"replacements": count if all_matches else 1})


@serialised
def upsert_section(vault: str | Path | None, rel_path: str, heading: str, content: str, *, level: int = 2,
                   dry_run: bool = False, clock: Callable[[], datetime] | None = None) -> dict[str, Any]:
    """Replace the body under `heading` (any level) or append a new `level` heading with `content`."""
    if isinstance(level, bool) or not isinstance(level, int) or not 1 <= level <= 6:
        raise InvalidInput("--level must be from 1 to 6")
    title = _check_heading(heading)
    target = safe_resolve(vault, rel_path)
    before = _read(target)
    nl = before.newline if before is not None else "\n"
    lines = _lines(before.text if before is not None else "")
    found = _find_section(lines, title)
    said = twins(target.rel, title, found.lines) if found else {}
    content = _section_content(content, title, found.level if found else level, target.rel)
    body = _ensure_newline(_styled(content.strip("\r\n"), nl), nl) if content.strip() else ""
    if found is None:
        _check_not_in_code(lines, len(lines), target.rel)
        base = _ensure_newline("".join(lines), nl)
        after = base + heading_gap(base, nl) + f"{'#' * level} {title}{nl}{nl}" + body
        action = "appended"
    else:
        start, end = found.start, found.end
        tail = lines[end:]
        if tail:  # the sections after this one would become code or hidden, and the edit said it succeeded
            check_content_closes(_lines(body), target.rel)
        block = [nl, body] if body else []
        if tail and body:
            block.append(nl)
        after = "".join(lines[:start + 1] + block + tail)
        action = "replaced"
    return _commit(vault, target, before, after, dry_run=dry_run, clock=clock,
                   extra={"heading": title, "section": action, **said})


def _section_content(content: str, title: str, level: int, rel: str) -> str:
    """`content` without a first heading that repeats the section's own (`--content "## Status…"`: the note had it
    twice, and each upsert found the first and added a copy); any other heading at `level` or above is refused, as
    it would end the section and the next upsert would write it and everything after it again."""
    lines = _lines(content)
    heads = [h for h in _headings(lines, 0) if h.level <= level]
    if heads and matching([heads[0].text], title) and not "".join(lines[:heads[0].first]).strip():
        content, heads = "".join(lines[heads[0].last + 1:]), heads[1:]
    if heads:
        raise InvalidInput(f"line {heads[0].first + 1} of the content is the heading {heads[0].text!r} (level "
                           f"{heads[0].level}), which would end the section {title!r} (level {level}) in {rel}: "
                           "use a lower heading, or upsert that section on its own", path=rel,
                           heading=heads[0].text, line=heads[0].first + 1)
    return content


@serialised
def add_bullet(vault: str | Path | None, rel_path: str, heading: str, bullet: str, *, dry_run: bool = False,
               clock: Callable[[], datetime] | None = None) -> dict[str, Any]:
    """Add `- bullet` at the end of `heading`'s own content, before any sub-heading (creating the section), unless
    its own list has it already."""
    title = _check_heading(heading)
    if not isinstance(bullet, str) or not bullet.strip() or "\n" in bullet.strip() or "\r" in bullet.strip():
        raise InvalidInput("--bullet must be one non-empty line")
    item = bullet.strip()
    marked = is_item(item)
    line = item if marked else f"- {item}"
    target = safe_resolve(vault, rel_path)
    check_content_closes([line], target.rel)  # ('- 100%% sure' hid the rest of its line and of the note)
    before = _read(target)
    nl = before.newline if before is not None else "\n"
    lines = _lines(before.text if before is not None else "")
    found = _find_section(lines, title)
    if found is None:
        _check_not_in_code(lines, len(lines), target.rel)
        base = _ensure_newline("".join(lines), nl)
        after = base + heading_gap(base, nl) + f"## {title}{nl}{nl}{line}{nl}"
        return _commit(vault, target, before, after, dry_run=dry_run, clock=clock,
                       extra={"heading": title, "bullet": line, "duplicate": False})
    # the heading's own list: a sub-heading's bullets are not its own, nor is a line in a code block
    start, own_end = found.start, found.own_end
    key, said = item_key(line), twins(target.rel, title, found.lines)
    own = [existing for existing, prose in zip(lines[start + 1:own_end], _prose(lines)[start + 1:own_end])
           if prose.strip()]  # (a commented-out line is blanks)
    if any(is_item(existing) and item_key(existing) == key for existing in own):
        return _commit(vault, target, before, "".join(lines), dry_run=dry_run, clock=clock,
                       extra={"heading": title, "bullet": line, "duplicate": True, **said})
    # a bullet given without a marker takes the one the list ends with: `- x` after `* a` or `2. b` is another list
    # to CommonMark (a changed bullet character starts a new one), rendered apart from the list it was meant for
    marker = next_marker(own)
    if marker and not marked:
        line = f"{marker} {item}"
    insert_at = own_end
    while insert_at > start + 1 and not lines[insert_at - 1].strip():
        insert_at -= 1  # keep the blank lines that separate this content from the next heading after the bullet
    _check_not_in_code(lines, insert_at, target.rel)
    new_lines = list(lines)
    if insert_at > 0 and not _ends_line(new_lines[insert_at - 1]):
        new_lines[insert_at - 1] += nl
    # a heading directly followed by the first bullet reads better with a blank line between them
    prefix = [nl] if insert_at == start + 1 else joining_gap(new_lines, insert_at, line, nl)
    new_lines[insert_at:insert_at] = prefix + [line + nl] + setext_gap(lines, insert_at, own_end, nl)
    return _commit(vault, target, before, "".join(new_lines), dry_run=dry_run, clock=clock,
                   extra={"heading": title, "bullet": line, "duplicate": False, **said})
