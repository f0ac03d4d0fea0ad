"""The journal of `note move`: which note went where, so the next ingest keeps a moved note's decisions.

Ingest pairs a removed note with a new one by their bytes, else by their file name (`ingest._moved_notes`). A note
renamed by `note move` whose relative links the move rebased matches neither, and was a new note: the kills and
weakenings a person made on its edges stayed with the old path and went with it. The editor knows the move, so it
writes it down in `<vault>/.mnemon-backups/moves.jsonl` (a folder ingest never reads notes from), and ingest pairs
the notes the journal names before any other rule. The journal lives in the vault, not in a store: a move runs
without one, and every store that ingests the vault (a laptop's SQLite, a team's PostgreSQL) reads the same moves.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from .. import notes
from ..note_files import make_folders, owned

MOVES_FILE = "moves.jsonl"
# a journal past this is cut to its newer half: a move is read by the next ingest of each store, so old ones only
# matter to a store that has not ingested for thousands of moves
MAX_JOURNAL_BYTES = 256 * 1024


# vault_state: old path → the path its note has now, for every move an ingest made (the journal's, or paired by bytes
# or file name): `show note:a.md` after a.md became A.md said only not_found. The newest `MAX_REMEMBERED` are kept.
MOVED_STATE = "notes_moved"
MAX_REMEMBERED = 2000


def remember_moves(vault_store: Any, moves: Sequence[tuple[str, str]]) -> None:
    """Add an ingest's (old path, new path) moves to `MOVED_STATE`, earlier moves following them (a → b, then b → c:
    a is at c now) and a note moved back to a path no longer listed as moved from it."""
    if not moves:
        return
    raw = vault_store.get_state(MOVED_STATE)
    now = dict(moves)
    known = {old: now.get(new, new) for old, new in (json.loads(raw) if raw else {}).items() if old not in now}
    known.update(now)
    kept = [(old, new) for old, new in known.items() if old != new][-MAX_REMEMBERED:]
    vault_store.set_state(MOVED_STATE, json.dumps(dict(kept), ensure_ascii=False))


def moved_to(vault_store: Any, rel: str) -> str | None:
    """The path the note last ingested at `rel` was moved to, by the ingests that moved it; None when none did."""
    raw = vault_store.get_state(MOVED_STATE)
    return json.loads(raw).get(rel) if raw else None


def record_move(vault: str | Path | None, src_rel: str, dst_rel: str, from_sha256: str, to_sha256: str, *,
                clock: Callable[[], datetime] | None = None) -> None:
    """Append one move (`from` → `to`, the note's bytes' hashes before and after) to the vault's journal."""
    root = notes.safe_folder(vault, None).path
    path = notes._inside(root, [notes.BACKUP_DIR, MOVES_FILE], f"{notes.BACKUP_DIR}/{MOVES_FILE}")
    at = (clock or (lambda: datetime.now(timezone.utc)))()
    line = json.dumps({"from": src_rel, "to": dst_rel, "from_sha256": from_sha256, "to_sha256": to_sha256,
                       "at": at.isoformat()}, ensure_ascii=False) + "\n"
    make_folders(path.parent)
    size = path.stat().st_size if path.exists() else 0
    if size + len(line) > MAX_JOURNAL_BYTES:
        kept = [f"{row}\n" for row in path.read_text("utf-8", errors="replace").splitlines()]
        notes.atomic_write_bytes(path, "".join([*kept[len(kept) // 2:], line]).encode("utf-8"))
        return
    with open(path, "a+b") as journal:  # (editor writes are serialised per vault: one writer)
        if size:  # a last line cut short (a process killed while appending) must not swallow this one
            journal.seek(size - 1)
            if journal.read(1) != b"\n":
                line = "\n" + line
        journal.write(line.encode("utf-8"))
    if not size:
        owned(path)  # (a journal root started in a user's vault)


def read_moves(root: str | Path) -> list[dict[str, str]]:
    """The journal's moves, oldest first; none when there is no journal, it is not a plain file (a symlink is not
    followed, as no note path is), or a line is not a move (skipped: a hand-edited journal loses only that line)."""
    path = Path(root, notes.BACKUP_DIR, MOVES_FILE)
    if Path(root, notes.BACKUP_DIR).is_symlink() or path.is_symlink() or not path.is_file():
        return []
    moves: list[dict[str, str]] = []
    for line in path.read_text("utf-8", errors="replace").splitlines():
        try:
            move: Any = json.loads(line)
        except ValueError:
            continue
        if isinstance(move, dict) and all(isinstance(move.get(k), str) for k in ("from", "to", "from_sha256")):
            moves.append(move)
    return moves


def editor_moves(root: str | Path, known_hashes: Mapping[str, str], removed: Sequence[str],
                 new: set[str]) -> list[tuple[str, str]]:
    """(old path, new path) of the removed notes the journal says `note move` took to a note new in this run.

    A chain starts at a move of the note the store knows (its path and the hash of its bytes then, so a stale move
    of an earlier note under that path starts nothing) and follows every later move of wherever it went (A → B,
    then B → C pairs A with C); the newest start that ends at a new note wins. Edits after the move do not matter: the
    journal, not the bytes, says where the note went."""
    moves = read_moves(root) if removed and new else []
    if not moves:
        return []
    pairs: list[tuple[str, str]] = []
    taken: set[str] = set()
    for old in removed:
        starts = [i for i, m in enumerate(moves) if m["from"] == old and m["from_sha256"] == known_hashes.get(old)]
        for start in reversed(starts):
            where = moves[start]["to"]
            for move in moves[start + 1:]:
                if move["from"] == where:
                    where = move["to"]
            if where in new and where not in taken:
                pairs.append((old, where))
                taken.add(where)
                break
    return pairs


def moved_pack(vault: str | Path, rel: str, slug: str) -> notes.Resolved | None:
    """Where `note move` took the evidence pack of research `slug` that belongs at `rel` (the journal's latest chain
    from `rel`), when the note there still is that pack; else None. Resolving the research again wrote a second
    pack at `rel` and left the moved one stale."""
    from ...core.errors import MnemonError
    from .resolve import pack_path, pack_payloads

    where: str | None = None
    for move in read_moves(notes.safe_folder(vault, None).path):
        if move["from"] == rel or (where is not None and move["from"] == where):
            where = move["to"]
    if where is None:
        return None
    try:
        target = notes.safe_resolve(vault, where)
        text = target.path.read_text(encoding="utf-8", errors="replace") if target.path.is_file() else ""
    except (OSError, MnemonError):
        return None
    held = any(p["slug"] == slug and pack_path(p, vault) == rel for p in pack_payloads(text))
    return target if held else None


__all__ = ["MOVES_FILE", "editor_moves", "moved_pack", "read_moves", "record_move"]
