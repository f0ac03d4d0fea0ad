"""What an eject does with the `.mnemon-backup` copies setup left: a copy of the user's own file as it was before
mnemon first touched it holds nothing of mnemon's, and stays (their settings as they were, byte for byte); a copy
holding mnemon's own parts — of a file setup created, or one it had already edited when it edited it again — is
clutter once mnemon is out, and goes. An eject writes no copy of a file it edits (what it takes out is mnemon's
alone, the rest stays in the file), only of a file it removes that someone edited (a skill with their lines). So
that copy is the user's file as it was, a setup that edits a file holding mnemon's parts again (another store, a
newer mnemon) leaves a copy of the user's own beside it as it is, and writes none over it: a file of another kind
(mnemon's skill the user edited) is copied to a name of its own beside it (`.mnemon-backup.2`), said in the answer."""
from __future__ import annotations

import dataclasses
import itertools
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
        elif text is not None and not holds_mnemons(change, text):
            # a file removed that someone edited (mnemon's skill with their lines), its backup the user's own file:
            # that comes back, and the edited one goes to a copy of its own, not over the user's
            said[str(change.path)] = {"backup": str(copy)}
            if change.before == text:  # the user's own again (an earlier eject gave it back): not mnemon's to remove
                change = dataclasses.replace(change, after=text)
            else:
                spare, written = _spare_copy(change)
                change = dataclasses.replace(change, after=text, backup=not written, backup_to=spare)
                said[str(change.path)] |= {"restored": str(copy), "edited_copy": str(spare)}
        out.append(change)
    return out, said


def _spare_copy(change: FileChange) -> tuple[Path, bool]:
    """Where a second copy of `change.before` goes beside `.mnemon-backup` (`.mnemon-backup.2`, `.3`, ...), and
    whether one there holds it already (a run again writes no copy of the same file)."""
    copy = edits.backup_path(change.path)
    for n in itertools.count(2):
        spare = copy.with_name(f"{copy.name}.{n}")
        if not spare.exists() and not spare.is_symlink():
            return spare, False
        try:
            if spare.is_file() and not spare.is_symlink() and edits.read_text(spare) == change.before:
                return spare, True
        except edits.InvalidInput:
            pass  # unreadable: someone's, and not this copy
    raise AssertionError("unreachable")


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
    setup's), or the same bytes as the backup, whose backup holds nothing of mnemon's keeps that backup, reported as
    the change's `backup`; any other file (mnemon's skill with the user's lines) is copied beside it
    (`.mnemon-backup.2`), and the user's own copy is reported as `first_backup`."""
    out, said = [], {}
    for change in changes:
        copy = edits.backup_path(change.path)
        if change.keeps_backup and change.before is not None:
            try:
                text = edits.read_text(copy) if copy.is_file() and not copy.is_symlink() else None
            except edits.InvalidInput:
                text = None
            if text is None or holds_mnemons(change, text):
                pass  # no copy of the user's own there: written (over mnemon's clutter)
            elif holds_mnemons(change, change.before) or change.before == text:
                change = dataclasses.replace(change, backup=False)
                said[str(change.path)] = {"backup": str(copy)}
            else:
                spare, written = _spare_copy(change)
                change = dataclasses.replace(change, backup=not written, backup_to=spare)
                said[str(change.path)] = {"backup": str(spare), "first_backup": str(copy)}
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
