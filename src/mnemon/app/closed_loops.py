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
`closed later in <path>` (`debug-candidates --include-skipped`). A context pack (`retrieve`, `surface --prompt`,
`agent preflight`) still holds such an item when the prompt asks for it — it is what the note says — but marked
`closed_later_in` and ranked ×0.25, as a superseded memory is.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
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

_ALL_HOLDERS = 10_000_000  # a lookup's limit that keeps every memory holding the words
_RAREST = 3  # words of a text a lookup of its twins intersects


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
    finds items' closed twins among the memories holding all the words of one of them (`Store.holders_of_all`),
    once per text, which costs a query for the items about to be offered only (one for a batch: `closers`)."""

    def __init__(self, rt: Runtime, rows: Iterable[Memory] | None = None, *, as_of: datetime | None = None) -> None:
        self.rt = rt
        # a replay (`retrieve --as-of`) counts only closings dated by then: the store keeps no older file times
        self._until = as_of.timestamp() if as_of is not None else None
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
        return self.closers([(node.id, meta.get("note"), meta.get("observation_kind"))],
                            {node.id: node.content}).get(node.id)

    def closers(self, items: Sequence[tuple[str, object, object]],
                texts: Mapping[str, str] | None = None) -> dict[str, str]:
        """`closer` of each (memory id, note, observation kind) — as a context pack's item has them — that a later
        note closed; texts not given are read from the store."""
        open_items = [(node_id, str(note), digest) for node_id, note, kind in items
                      if kind != "done" and note and (digest := digest_of(node_id)) is not None]
        self._look_up([(node_id, digest) for node_id, _note, digest in open_items], texts or {})
        found: dict[str, str] = {}
        for node_id, note, digest in open_items:
            later = [n for n in self._twins.get(digest, ())
                     if n != note and self._later(n, note) and self._known_by_then(n)]
            if later:
                found[node_id] = max(later, key=lambda n: (self._when(n), n))
        return found

    def open_only(self, candidates: Iterator[Candidate]) -> Iterator[Candidate]:
        """The candidates, less those closed later (looked up as each comes: the pass stops after a few)."""
        return (c for c in candidates if self.closer(c.memory) is None)

    def mark(self, candidates: Sequence[Candidate]) -> None:
        """Give each kept candidate a later note closed its skip reason."""
        for cand in candidates:
            if not cand.skip_reasons and (by := self.closer(cand.memory)) is not None:
                cand.skip_reasons.append(f"closed later in {by}")

    def _look_up(self, wanted: Sequence[tuple[str, str]], texts: Mapping[str, str]) -> None:
        """Fill `_twins` for the (memory id, digest) pairs whose digest was not looked up yet, in one query."""
        if self._complete:
            return
        pending = {digest: node_id for node_id, digest in wanted if digest not in self._twins}
        if not pending:
            return
        store = self.rt.store
        asked = set(pending.values())
        missing = [node_id for node_id in asked if node_id not in texts]
        read = {i: n.content for i, n in store.get_nodes(missing).items()} if missing else {}
        groups = [words for node_id in pending.values()
                  if (words := list(dict.fromkeys(tokens(texts.get(node_id, read.get(node_id, ""))))))]
        # the three rarest words narrow the intersection to a handful of rows; every further word, the more so one a
        # quarter of all memories hold, costs a posting list to merge for little (the twins are checked by their ids'
        # digests after, so a wider set of holders changes nothing)
        df = store.token_doc_freq([w for group in groups for w in group])
        groups = [sorted((w for w in group if df.get(w)), key=lambda w: (df[w], w))[:_RAREST] or group
                  for group in groups]
        suffixes = {f":task:{digest}": digest for digest in pending}
        ids = [i for i in (store.holders_of_all(groups, _ALL_HOLDERS) if groups else [])
               if i[i.rfind(":task:"):] in suffixes and i not in asked]
        for digest in pending:
            self._twins[digest] = set()
        for node in store.get_nodes(ids).values():
            note = (node.metadata or {}).get("note")
            if note and is_closed_task(node):
                self._twins[suffixes[node.id[node.id.rfind(":task:"):]]].add(str(note))

    def _later(self, closing: str, item: str) -> bool:
        a, b = _name_day(closing), _name_day(item)
        if a is not None and b is not None:
            return a > b
        mtimes = self._file_mtimes()
        return closing in mtimes and item in mtimes and mtimes[closing] > mtimes[item]

    def _known_by_then(self, note: str) -> bool:
        if self._until is None:
            return True
        day = _name_day(note)
        when = day.timestamp() if day is not None else self._file_mtimes().get(note)
        return when is not None and when <= self._until

    def _when(self, note: str) -> tuple[float, float]:
        day = _name_day(note)
        return (day.timestamp() if day else 0.0, self._file_mtimes().get(note, 0.0))

    def _file_mtimes(self) -> dict[str, float]:
        if self._mtimes is None:  # read once, and only when an item has a closed twin
            files = self.rt.store.vault.files()  # type: ignore[attr-defined]
            self._mtimes = {path: row.mtime for path, row in files.items()}
        return self._mtimes


__all__ = ["ClosedLater", "digest_of", "is_closed_task"]
