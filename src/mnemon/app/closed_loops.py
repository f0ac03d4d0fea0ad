"""Open items a later note closed, which the proactive pass (`app.thoughts`) no longer offers.

Notes carry a loop forward: note A says `- [ ] Call the vendor`, and a later note B says `- [x] Call the vendor`.
A is still unchecked, but the loop is closed. The rule: an item of a vault note that is not done is *closed later*
when a closed task (`- [x]`, `- [-]`: kind `done`) of the same normalised text — case and whitespace folded, which
is what the digest at the end of a vault memory's id hashes (`vault:<path>:<kind>:<digest>`) — sits in another note
that is later than the item's own. Later means: by the dates in both notes' file names when both have one (daily
notes keep the day they are for in their name, and copying or syncing a vault resets modification times), else by
the files' modification times as last ingested; strictly, so notes of the same day or time close nothing. A task
done last month and open again in today's note is a new loop, and stays.

Mneme has no such rule (its staleness multipliers only fade old open loops); its feedback `already_done` marks one
item resolved by hand. Nothing is written: the item is skipped where it would have been offered, with the reason
`closed later in <path>` (`debug-candidates --include-skipped`).
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from ..core.keywords import VAULT_SOURCE_PREFIX
from ..core.model import Memory
from ..core.text import tokens
from .runtime import Runtime
from .thought_scores import text_dates

if TYPE_CHECKING:
    from .thoughts import Candidate

_ALL_HOLDERS = 10_000_000  # a keyword search's limit that keeps every memory holding the word


def digest_of(node_id: str) -> str | None:
    """The normalised-text digest a vault memory's id ends with, or None for any other id."""
    if not node_id.startswith(VAULT_SOURCE_PREFIX):
        return None
    head, _sep, digest = node_id.rpartition(":")
    return digest if head.rpartition(":")[2] in ("observation", "task") and digest else None


def is_closed_task(node: Memory) -> bool:
    meta = node.metadata or {}
    return meta.get("memory_kind") == "task" and meta.get("observation_kind") == "done"


def _name_day(path: str) -> datetime | None:
    """The day a note's file name names (`Daily/2026-03-05.md`), if it names one with its year."""
    days = text_dates(PurePosixPath(path).stem)
    return days[0] if days else None


class ClosedLater:
    """Answers `closer(item)` for one pass. Built on every observation (`rows`) it looks nothing up; otherwise it
    finds an item's closed twins by a keyword search for its rarest word, once per text, which costs a query for
    each item about to be offered only."""

    def __init__(self, rt: Runtime, rows: Iterable[Memory] | None = None) -> None:
        self.rt = rt
        self._twins: dict[str, set[str]] = {}  # digest → notes holding it as a closed task
        self._complete = rows is not None
        for node in rows or ():
            digest, note = digest_of(node.id), (node.metadata or {}).get("note")
            if digest is not None and note and is_closed_task(node):
                self._twins.setdefault(digest, set()).add(str(note))
        self._mtimes: dict[str, float] | None = None

    def closer(self, node: Memory) -> str | None:
        """The latest note that closed this open item later, or None when none did."""
        meta = node.metadata or {}
        note, digest = meta.get("note"), digest_of(node.id)
        if meta.get("observation_kind") == "done" or not note or digest is None:
            return None
        later = [n for n in self._closed_in(node, digest) if n != note and self._later(n, str(note))]
        return max(later, key=lambda n: (self._when(n), n)) if later else None

    def open_only(self, candidates: Iterator[Candidate]) -> Iterator[Candidate]:
        """The candidates, less those closed later (looked up as each comes: the pass stops after a few)."""
        return (c for c in candidates if self.closer(c.memory) is None)

    def mark(self, candidates: Sequence[Candidate]) -> None:
        """Give each kept candidate a later note closed its skip reason."""
        for cand in candidates:
            if not cand.skip_reasons and (by := self.closer(cand.memory)) is not None:
                cand.skip_reasons.append(f"closed later in {by}")

    def _closed_in(self, node: Memory, digest: str) -> set[str]:
        if self._complete or digest in self._twins:
            return self._twins.get(digest, set())
        store = self.rt.store
        words = list(dict.fromkeys(tokens(node.content)))
        found: set[str] = set()
        if words:
            df = store.token_doc_freq(words)
            rarest = min(words, key=lambda w: (df.get(w, 0) or _ALL_HOLDERS, w))
            suffix = f":task:{digest}"
            ids = [i for i, _score in store.keyword_search([rarest], _ALL_HOLDERS)
                   if i.endswith(suffix) and i != node.id]
            found = {str((n.metadata or {}).get("note")) for n in store.get_nodes(ids).values()
                     if is_closed_task(n) and (n.metadata or {}).get("note")}
        self._twins[digest] = found
        return found

    def _later(self, closing: str, item: str) -> bool:
        a, b = _name_day(closing), _name_day(item)
        if a is not None and b is not None:
            return a > b
        mtimes = self._file_mtimes()
        return closing in mtimes and item in mtimes and mtimes[closing] > mtimes[item]

    def _when(self, note: str) -> tuple[float, float]:
        day = _name_day(note)
        return (day.timestamp() if day else 0.0, self._file_mtimes().get(note, 0.0))

    def _file_mtimes(self) -> dict[str, float]:
        if self._mtimes is None:  # read once, and only when an item has a closed twin
            files = self.rt.store.vault.files()  # type: ignore[attr-defined]
            self._mtimes = {path: row.mtime for path, row in files.items()}
        return self._mtimes


__all__ = ["ClosedLater", "digest_of", "is_closed_task"]
