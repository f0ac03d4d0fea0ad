"""Planned changes to a host's files, and their application: every change of a `setup` run is computed first (a file
that cannot be read or parsed fails the run before anything is written), then written whole (temporary file, rename),
a changed file first copied to `<name>.mnemon-backup`.

Only what mnemon owns is ever touched: its own entries in a settings object, its own marked block in a TOML or
Markdown file, its own skill file. Whatever else a file holds is kept as it was (a JSON file is re-serialised, so its
spacing may change; its keys, values and their order do not). A file's byte-order mark and CRLF line ends, which
the hosts read, are kept (`plain`, `styled_like`), and a backup is the file's bytes as they were. A file that is a
link (a dotfiles repository's) stays one: its target is written.
"""
from __future__ import annotations

import json
import os
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...core.errors import Conflict, InvalidInput, write_refused

BACKUP_SUFFIX = ".mnemon-backup"
MAX_FILE_BYTES = 4 * 1024 * 1024  # a host's settings file is a few KB; anything this large is not one


@dataclass(frozen=True)
class FileChange:
    """One file as it is (`before`, None: absent) and as the run leaves it (`after`, None: removed)."""

    path: Path
    what: str
    before: str | None
    after: str | None
    owned: bool = False  # a file removed that held only what setup writes: no backup of it is kept
    scope: str | None = None  # in a project: "personal" (this machine's, git-ignored) or "shared" (committed)
    backup: bool = True  # an eject's edit keeps none: what it takes out is mnemon's alone (`backups`)
    # where the copy goes when `.mnemon-backup` holds the user's own file, which is never written over (`backups`)
    backup_to: Path | None = None

    @property
    def action(self) -> str:
        if self.before == self.after:
            return "unchanged"
        if self.before is None:
            return "create"
        return "remove" if self.after is None else "update"

    def report(self, applied: bool) -> dict[str, Any]:
        out: dict[str, Any] = {"path": str(self.path), "what": self.what, "action": self.action}
        if self.scope:
            out["scope"] = self.scope
        if self.keeps_backup:
            out["backup"] = str(self.backup_file) if applied else None
        return out

    @property
    def backup_file(self) -> Path:
        return self.backup_to or backup_path(self.path)

    @property
    def keeps_backup(self) -> bool:
        return (self.backup and self.before is not None and self.action != "unchanged"
                and not (self.owned and self.after is None))


def backup_path(path: Path) -> Path:
    return path.with_name(path.name + BACKUP_SUFFIX)


def read_text(path: Path) -> str | None:
    """The file's text, or None when there is none; a file mnemon could not rewrite faithfully is refused."""
    try:
        if not path.exists():
            return None
        if not path.is_file():
            raise InvalidInput(f"{path} is not a file", path=str(path))
        if path.stat().st_size > MAX_FILE_BYTES:
            raise InvalidInput(f"{path} is larger than {MAX_FILE_BYTES // (1024 * 1024)} MB: not a settings file "
                               "mnemon will rewrite", path=str(path))
        return path.read_bytes().decode("utf-8")  # as it is: no line ends translated (the backup is the file)
    except UnicodeDecodeError:
        raise InvalidInput(f"{path} is not UTF-8 text: left as it is, nothing was written", path=str(path)) from None
    except OSError as exc:
        raise InvalidInput(f"cannot read {path}: {exc.strerror or exc}", path=str(path)) from None


BOM = "\ufeff"


def _crlf(text: str) -> bool:
    """Whether every line of `text` ends in CRLF (a file of mixed line ends is edited as it is)."""
    return "\r\n" in text and text.count("\r\n") == text.count("\n")


def plain(text: str | None) -> str:
    """`text` as it is edited and parsed: no byte-order mark, LF line ends when all of them were CRLF."""
    text = (text or "").removeprefix(BOM)
    return text.replace("\r\n", "\n") if _crlf(text) else text


def styled_like(before: str | None, text: str) -> str:
    """`text` (edited from `plain(before)`) written as `before` was: its byte-order mark, its CRLF line ends."""
    if before and _crlf(before.removeprefix(BOM)):
        text = text.replace("\n", "\r\n")
    return BOM + text if before and before.startswith(BOM) else text


def apply(changes: list[FileChange], root: Path) -> None:
    """Write every change; each changed file that existed is first copied beside itself (`backup_path`). A folder
    left empty by a removed file goes too, up to `root` (the project, or the home folder), never `root` itself."""
    from ..notes import atomic_write_text  # (the note editor's module: loaded only when something is written)

    for change in changes:  # a file its owner made read-only is not replaced (a rename would, without asking)
        target = _written_path(change.path)
        if change.action != "unchanged" and target.exists() and not target.stat().st_mode & 0o222:
            raise InvalidInput(f"{change.path} is read-only: make it writable to let setup change it; nothing was "
                               "written", path=str(change.path))
    for change in changes:
        if change.action == "unchanged":
            continue
        try:
            if change.keeps_backup:
                atomic_write_text(change.backup_file, change.before or "")
            if change.after is None:
                change.path.unlink(missing_ok=True)
                _remove_empty_parents(change.path.parent, root)
            else:
                atomic_write_text(_written_path(change.path), change.after)
        except OSError as exc:
            raise write_refused(str(change.path), exc) from None  # (a full disk: store_error, as export's)


def _written_path(path: Path) -> Path:
    """Where `path`'s text goes: a link's target (a file kept in a dotfiles repository stays there, linked)."""
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def _emptied(path: Path, what: str, before: str | None, empty: str) -> FileChange:
    """The change of a file that held only what setup wrote: removed, or, linked, its target left `empty`."""
    if path.is_symlink():
        return FileChange(path, what, before, styled_like(before, empty))
    return FileChange(path, what, before, None, owned=True)


def _remove_empty_parents(folder: Path, root: Path) -> None:
    """The folders setup made for a file it removed (`.claude/skills/mnemon/`, `.codex/`) go when nothing else is in
    them, from the file's own up to `root`; a folder holding anything else stops the climb."""
    try:
        inside = folder.resolve().relative_to(root.resolve())
    except (OSError, ValueError):
        return  # not under the root (a host folder set by an environment variable elsewhere): left alone
    for _ in inside.parts:
        try:
            folder.rmdir()
        except OSError:
            return  # not empty: something else lives there
        folder = folder.parent


# ── JSON settings objects ────────────────────────────────────────────────────


def json_object(path: Path, text: str | None) -> dict[str, Any]:
    text = plain(text)
    if not text.strip():
        return {}
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidInput(f"{path} is not valid JSON ({exc.msg}, line {exc.lineno}): fix it or move it aside; "
                           "nothing was written", path=str(path)) from None
    if not isinstance(data, dict):
        raise InvalidInput(f"{path} must hold a JSON object: nothing was written", path=str(path))
    return data


def json_change(path: Path, what: str, edit: Callable[[dict[str, Any]], dict[str, Any]]) -> FileChange:
    """The change `edit` makes to the JSON object in `path`; the file is not rewritten when the object is equal."""
    before = read_text(path)
    current = json_object(path, before)
    try:
        edited = edit(json.loads(json.dumps(current)))
    except Conflict as exc:  # (an edit refusing what it found there: said with the file, a project has two)
        if "path" in exc.details:
            raise
        raise Conflict(f"{path}: {exc.message}", **exc.details, path=str(path)) from None
    if edited == current:
        return FileChange(path, what, before, before)
    if not edited:  # what setup put there was all it held
        return _emptied(path, what, before, "{}\n")
    return FileChange(path, what, before, styled_like(before, json.dumps(edited, indent=2, ensure_ascii=False) + "\n"))


# ── Marked blocks in TOML and Markdown files ─────────────────────────────────

BLOCK_NOTE = "written by `mnemon setup`; `mnemon setup --eject` removes it"
# a block in the user's own Codex home (read in every project): a project's eject leaves it, for the other projects
USER_CODEX_NOTE = "written by `mnemon setup`; `mnemon setup --global --target codex --eject` removes it"


@dataclass(frozen=True)
class Markers:
    begin: str
    end: str

    def pattern(self) -> re.Pattern[str]:
        # the block, and the one blank line `with_block` puts before it
        return re.compile(r"\n?" + re.escape(self.begin) + r"[^\n]*\n.*?" + re.escape(self.end) + r"[^\n]*(\n|$)",
                          re.DOTALL)


TOML_MARKERS = Markers("# >>> mnemon", "# <<< mnemon")
MARKDOWN_MARKERS = Markers("<!-- mnemon:begin", "<!-- mnemon:end")


def without_block(text: str, markers: Markers) -> str:
    return markers.pattern().sub("", text)


def with_block(text: str, markers: Markers, body: str, close: str = "", note: str = BLOCK_NOTE) -> str:
    """`text` with mnemon's block (replaced where it was, else appended after a blank line)."""
    block = f"{markers.begin} ({note}){close}\n{body.rstrip()}\n{markers.end}{close}\n"
    found = markers.pattern().search(text)
    if found:
        lead = "\n" if found.group(0).startswith("\n") else ""
        return text[: found.start()] + lead + block + text[found.end():]
    if not text.strip():
        return block
    return text.rstrip("\n") + "\n\n" + block


def block_change(path: Path, what: str, markers: Markers, body: str | None, close: str = "",
                 note: str = BLOCK_NOTE) -> FileChange:
    """Install (`body`) or remove (None) mnemon's block; a file left with nothing else in it is removed."""
    before = read_text(path)
    text = plain(before)
    if body is None:
        if not markers.pattern().search(text):  # (an empty file of the user's is theirs, not an emptied one)
            return FileChange(path, what, before, before)
        after = without_block(text, markers)
        if not after.strip():  # the block was all it held
            return _emptied(path, what, before, "")
        return FileChange(path, what, before, styled_like(before, after))
    return FileChange(path, what, before, styled_like(before, with_block(text, markers, body, close, note)))


def toml_table(path: Path, text: str | None) -> dict[str, Any]:
    try:
        return tomllib.loads(plain(text))
    except tomllib.TOMLDecodeError as exc:
        raise InvalidInput(f"{path} is not valid TOML ({exc}): fix it or move it aside; nothing was written",
                           path=str(path)) from None


def toml_string(value: str) -> str:
    """A TOML basic string: JSON's escapes are TOML's (checked by parsing the result, `toml_table`)."""
    return json.dumps(value, ensure_ascii=False)
