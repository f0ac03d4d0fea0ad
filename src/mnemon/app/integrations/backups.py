"""What an eject does with the `.mnemon-backup` copies setup left: a copy of the user's own file as it was before
mnemon first touched it holds nothing of mnemon's, and stays (their settings as they were, byte for byte); a copy
holding mnemon's own parts — of a file setup created, or one it had already edited when it edited it again — is
clutter once mnemon is out, and goes. An eject writes no copy of a file it edits (what it takes out is mnemon's
alone, the rest stays in the file), only of a file it removes that someone edited (a skill with their lines). So
that copy is the user's file as it was, a setup that edits a file holding mnemon's parts again (another store, a
newer mnemon) leaves a copy of the user's own beside it as it is, and writes none over it."""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

from . import edits, hosts
from .edits import FileChange
from .guide import is_skill_as_written


def holds_mnemons(change: FileChange, text: str) -> bool:
    """Whether `text` (a backup of `change.path`) holds anything setup writes there."""
    if change.what == "skill":
        return is_skill_as_written(text)
    plain = edits.plain(text)
    if change.path.suffix != ".json":
        return any(m.pattern().search(plain) for m in (edits.MARKDOWN_MARKERS, edits.TOML_MARKERS))
    try:
        data = edits.json_object(change.path, text)
    except edits.InvalidInput:  # not a JSON object: no settings of mnemon's in it
        return False
    servers = data.get("mcpServers")
    if isinstance(servers, dict) and hosts._looks_like_mnemon(servers.get(hosts.SERVER_NAME)):
        return True
    table = data.get("hooks")
    groups = [g for v in table.values() if isinstance(v, list) for g in v] if isinstance(table, dict) else []
    return any(hosts._is_ours(h) for g in groups if isinstance(g, dict) and isinstance(g.get("hooks"), list)
               for h in g["hooks"])


def eject_changes(changes: list[FileChange]) -> tuple[list[FileChange], dict[str, dict[str, Any]]]:
    """The eject's changes without a copy of a file it edits, and, by path, what becomes of each backup beside
    them: `backup` (the user's file as it was, kept) or `backup_removed` (mnemon's, clutter)."""
    out, said = [], {}
    for change in changes:
        if change.after is not None:
            change = dataclasses.replace(change, backup=False)
        copy = edits.backup_path(change.path)
        try:
            text = edits.read_text(copy) if copy.is_file() and not copy.is_symlink() else None
        except edits.InvalidInput:
            text = None  # unreadable: not ours to judge
        if text is not None and not change.keeps_backup:
            users = not holds_mnemons(change, text)
            said[str(change.path)] = {"backup": str(copy)} if users else {"backup_removed": str(copy)}
            if users and (_same(change, change.after, text) if change.after is not None else
                          _given_back(change, text)):
                change = dataclasses.replace(change, after=text, backup=False)
                said[str(change.path)]["restored"] = str(copy)
        out.append(change)
    return out, said


def _given_back(change: FileChange, users: str) -> bool:
    """Whether a file the eject would remove is the user's own copy again: one that held nothing but empty settings
    (`{}`, `{"hooks": {}}`, blank lines) before setup filled it — setup's parts taken out, it says what the copy
    does, and the file they had stays — or their own skill of the name, which setup's as written replaced."""
    if change.what == "skill":
        return change.owned
    if change.path.suffix != ".json":
        return not edits.plain(users).strip()
    try:
        return _holds_no_value(edits.json_object(change.path, users))
    except edits.InvalidInput:
        return False


def _holds_no_value(data: Any) -> bool:
    if isinstance(data, dict):
        return all(_holds_no_value(v) for v in data.values())
    return isinstance(data, list) and all(_holds_no_value(v) for v in data)


def _same(change: FileChange, ejected: str, users: str) -> bool:
    """Whether the file as the eject leaves it says what the user's own copy does: the same JSON object (setup
    re-serialised it), the same text but for its final line ends (a block appended after a blank line). Then the
    copy's bytes are written back — the user's spacing, not a diff of every line in a file their team commits."""
    if change.path.suffix != ".json":
        return edits.plain(ejected).rstrip("\n") == edits.plain(users).rstrip("\n")
    try:
        return _canonical(edits.json_object(change.path, ejected)) == _canonical(edits.json_object(change.path, users))
    except edits.InvalidInput:
        return False


def _canonical(data: dict[str, Any]) -> str:
    return json.dumps(data, sort_keys=True)  # (Python's == holds 1 == true == 1.0; JSON does not)


def install_changes(changes: list[FileChange]) -> tuple[list[FileChange], dict[str, dict[str, Any]]]:
    """An install's changes without a copy over the user's own: a file holding mnemon's parts already (an earlier
    setup's) whose backup holds nothing of mnemon's keeps that backup, reported as the change's `backup`."""
    out, said = [], {}
    for change in changes:
        copy = edits.backup_path(change.path)
        if change.keeps_backup and change.before is not None and holds_mnemons(change, change.before):
            try:
                text = edits.read_text(copy) if copy.is_file() and not copy.is_symlink() else None
            except edits.InvalidInput:
                text = None
            if text is not None and not holds_mnemons(change, text):
                change = dataclasses.replace(change, backup=False)
                said[str(change.path)] = {"backup": str(copy)}
        out.append(change)
    return out, said


def tidy(said: dict[str, dict[str, Any]], root: Path) -> None:
    for report in said.values():
        if "backup_removed" in report:
            copy = Path(report["backup_removed"])
            try:
                copy.unlink(missing_ok=True)
            except OSError as exc:
                raise edits.InvalidInput(f"cannot remove {copy}: {exc.strerror or exc}", path=str(copy)) from None
            edits._remove_empty_parents(copy.parent, root)
