"""Open items a later note closed, which the proactive pass (`app.thoughts`) no longer offers.

Notes carry a loop forward: note A says `- [ ] Call the vendor`, and a later note B says `- [x] Call the vendor`.
A is still unchecked, but the loop is closed. The rule: an item of a vault note that is not done is *closed later*
when a closed task (`- [x]`, `- [-]`: kind `done`) of the same normalised text — case and whitespace folded, which
is what the digest at the end of a vault memory's id hashes (`vault:<path>:<kind>:<digest>`) — sits in another note
that is later than the item's own. Later means: by the dates in both notes' file names when both have one (daily
notes keep the day they are for in their name, and copying or syncing a vault resets modification times), else by
the files' modification times as last ingested; strictly, so notes of the same day or time close nothing. A task
done last month and open again in today's note is a new loop, and stays.

A closed task that rewords the item closes it too ("- [x] Sent the Q3 report to Dana" closes "- [ ] Send Q3 report
to Dana"): their words — `core.text.tokens` (stemmed, small words dropped), a common irregular past read as its verb
("sent" as "send") — share at least two, and at least 4/5 of the longer text's words. Four words of five is a
rewording with a word added or dropped; three of four ("Sent the Q3 report to Marco") is another loop. An item's
rewordings count only when at most 32 memories hold its rarest words (a rewording holds one of them: `_cover`), in a
pass that holds every task as in one that looks them up; past that, as in a vault of templated tasks, only its exact
twin closes it.

A blocked item (`observation_kind` blocked: a status line, an open task) is closed too by a line of a later note —
section text as well as a bullet — that says it is unblocked: it holds a cue (`_UNBLOCK_CUES`: "unblocked", "no
longer blocked", "resolved", "is/was/has been signed"), nothing that keeps it blocked, denies or hedges it (`_HEDGES`:
"still", "blocked", "not", "once", "will" …, a question mark, an open box), and rewords the item as a closed task must,
their status words (`_STATUS`: "blocked", "unblocked", "resolved" …) set aside. "Vendor contract signed; the pilot is
unblocked" closes "Pilot blocked until the vendor contract is signed"; "the pilot is still blocked though the vendor
contract is signed" closes nothing: a loop wrongly closed is lost from view, one left open costs a look.

Mneme has no such rule (its staleness multipliers only fade old open loops); its feedback `already_done` marks one
item resolved by hand. Nothing is written: the item is skipped where it would have been offered, with the reason
`closed later in <path>` (`debug-candidates --include-skipped`). A context pack (`retrieve`, `surface --prompt`,
`agent preflight`) still holds such an item when the prompt asks for it — it is what the note says — but marked
`closed_later_in` and ranked ×0.25, as a superseded memory is.
"""
from __future__ import annotations

import re
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
# a rewording closes a loop when the texts share ≥ _SHARED_MIN words and ≥ _SHARE_NUM/_SHARE_DEN of the longer one's
_SHARED_MIN, _SHARE_NUM, _SHARE_DEN = 2, 4, 5
_REWORD_DF_MAX = 32  # memories an item's rarest words may be in for its rewordings to be looked up
_REWORD_MAX_WORDS = 20  # a longer item (a paragraph, not a task) is closed by its exact twin only
# A done task is often written in the past tense, which the stemmer leaves apart from the verb for irregular verbs.
# Words that are also common names or nouns ("left", "drew", "won", "fed") are left out: each one folded wrongly
# could close a loop.
_IRREGULAR = {
    "send": "sent", "pay": "paid", "make": "made", "meet": "met", "tell": "told", "give": "gave given",
    "take": "took taken", "write": "wrote written", "speak": "spoke spoken", "sell": "sold", "buy": "bought",
    "bring": "brought", "build": "built", "keep": "kept", "hold": "held", "lose": "lost", "find": "found",
    "choose": "chose chosen", "drive": "drove driven", "fly": "flew flown", "catch": "caught", "teach": "taught",
    "seek": "sought", "hear": "heard", "begin": "began begun", "forget": "forgot forgotten", "lend": "lent",
    "spend": "spent", "show": "shown", "understand": "understood", "ring": "rang rung", "draw": "drawn",
    "run": "ran",
}
# a line that says a blocked item is unblocked holds one of these …
_NO_LONGER_BLOCKED = r"no\s+longer\s+blocked"
_UNBLOCK_CUES = re.compile(
    rf"(?<!\w)(?:unblocked|{_NO_LONGER_BLOCKED}|resolved|(?:is|was|ha(?:s|ve)\s+been)\s+signed)(?!\w)")
# … and none of these words, which keep it blocked, deny or hedge it
_HEDGES = frozenset((
    "blocked", "still", "stuck", "waiting", "awaiting", "pending", "until", "unless", "unresolved", "not", "no",
    "never", "nor", "none", "nothing", "without", "cannot", "yet", "if", "once", "when", "whenever", "will", "would",
    "should", "could", "may", "might", "must", "be", "expect", "expected", "expects", "hope", "hopefully", "maybe",
    "probably", "likely", "soon", "almost", "nearly", "partly", "partially",
))
_LINE_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
_OPEN_BOX = re.compile(r"\s*(?:[-*+]|\d+[.)])\s+\[ \]")
_VERB_OF = {tokens(past)[0]: tokens(verb)[0] for verb, pasts in _IRREGULAR.items() for past in pasts.split()}
_FORMS_OF: dict[str, set[str]] = {}  # a word as `loop_words` reads it → the tokens a text holding it may hold
for _past, _verb in _VERB_OF.items():
    _FORMS_OF.setdefault(_verb, {_verb}).add(_past)
# the words of a status, set aside when an unblocking line is matched to the blocked item it rewords
_STATUS = frozenset(tokens("blocked unblocked blocker blockers resolved longer stuck waiting awaiting"))


def digest_of(node_id: str) -> str | None:
    """The normalised-text digest a vault memory's id ends with, or None for any other id."""
    if not node_id.startswith(VAULT_SOURCE_PREFIX):
        return None
    head, _sep, digest = node_id.rpartition(":")
    return digest if head.rpartition(":")[2] in ("observation", "task") and digest else None


def is_closed_task(node: Memory) -> bool:
    meta = node.metadata or {}
    return meta.get("memory_kind") == "task" and meta.get("observation_kind") == "done"


def loop_words(text: str) -> frozenset[str]:
    """The words a rewording of `text` is matched by: its tokens, an irregular past read as its verb."""
    return frozenset(_VERB_OF.get(t, t) for t in tokens(text))


def rewords(item: frozenset[str], closing: frozenset[str]) -> bool:
    """Whether a closed task of words `closing` rewords an item of words `item` (the rule: module docstring)."""
    shared = len(item & closing)
    return shared >= _SHARED_MIN and shared * _SHARE_DEN >= _SHARE_NUM * max(len(item), len(closing))


def unblocks(line: str) -> bool:
    """Whether a line of a note says, without a hedge, that what it names is unblocked (the module docstring)."""
    lowered = line.lower()
    if "?" in lowered or _OPEN_BOX.match(lowered) or not _UNBLOCK_CUES.search(lowered):
        return False
    said = _LINE_WORD.findall(re.sub(_NO_LONGER_BLOCKED, " ", lowered))
    return not any(w in _HEDGES or w.endswith(("n't", "n\u2019t")) for w in said)


def _may_lack(n: int) -> int:
    """How many of an item's `n` words a rewording of it may lack."""
    return n - -(-_SHARE_NUM * n // _SHARE_DEN)


def _name_day(path: str) -> datetime | None:
    """The day a note's file name names (`Daily/2026-03-05.md`), if it names one with its year."""
    days = text_dates(PurePosixPath(path).stem)
    return days[0] if days else None


class ClosedLater:
    """Answers `closer(item)` for one pass. Built on every observation (`rows`) it looks nothing up; otherwise it
    finds items' closed twins among the memories holding all the words of one of them (`Store.holders_of_all`), and
    their rewordings among those holding a pair of their rarest words, once per item, which costs a query for the
    items about to be offered only (one for a batch: `closers`)."""

    def __init__(self, rt: Runtime, rows: Iterable[Memory] | None = None, *, as_of: datetime | None = None) -> None:
        self.rt = rt
        # a replay (`retrieve --as-of`) counts only closings dated by then: the store keeps no older file times
        self._until = as_of.timestamp() if as_of is not None else None
        self._twins: dict[str, set[str]] = {}  # digest → notes holding it as a closed task (of those known)
        self._twins_asked: set[str] = set()  # digests whose twins were all looked up
        self._closed: dict[str, tuple[frozenset[str], str]] = {}  # closed task id → (its words, its note)
        self._by_word: dict[str, set[str]] = {}  # word → the closed tasks (of `_closed`) holding it
        self._words: dict[str, frozenset[str]] = {}  # open item id → its words, once its closers were looked up
        self._reworded: dict[str, list[str]] = {}  # open item id → its cover words, when its rewordings count
        self._unblocked: dict[str, set[str]] = {}  # blocked item id → the notes of the lines that unblock it
        self._complete = rows is not None
        for node in rows or ():
            if digest_of(node.id) is not None and is_closed_task(node):
                self._add_closed(node)
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
        blocked = {node_id for node_id, _note, kind in items if kind == "blocked"}
        self._look_up([(node_id, digest) for node_id, _note, digest in open_items], texts or {}, blocked)
        found: dict[str, str] = {}
        for node_id, note, digest in open_items:
            closing = self._twins.get(digest, set()) | self._rewordings(node_id) | self._unblocked.get(node_id, set())
            later = [n for n in closing
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

    def _look_up(self, wanted: Sequence[tuple[str, str]], texts: Mapping[str, str], blocked: set[str]) -> None:
        """Read the words of the (memory id, digest) items not seen yet; find the lines unblocking the `blocked` ones
        (`_find_unblocking`); unless every closed task is known, fetch in one query the closed tasks that may close
        them: twins of their digests, and rewordings."""
        new = {node_id: digest for node_id, digest in wanted if node_id not in self._words}
        if not new:
            return
        store = self.rt.store
        missing = [node_id for node_id in new if node_id not in texts]
        read = {i: n.content for i, n in store.get_nodes(missing).items()} if missing else {}
        said = {node_id: list(dict.fromkeys(tokens(texts.get(node_id, read.get(node_id, ""))))) for node_id in new}
        for node_id, toks in said.items():
            self._words[node_id] = frozenset(_VERB_OF.get(t, t) for t in toks)
        pending = {} if self._complete else {d: node_id for node_id, d in new.items() if d not in self._twins_asked}
        twin_groups = [toks for node_id in pending.values() if (toks := said[node_id])]
        reworded = [node_id for node_id in new if _SHARED_MIN <= len(self._words[node_id]) <= _REWORD_MAX_WORDS]
        df = store.token_doc_freq([t for toks in twin_groups for t in toks]
                                  + [f for i in reworded for w in self._words[i] for f in _FORMS_OF.get(w, (w,))])
        covers = {node_id: cover for node_id in reworded if (cover := _cover(self._words[node_id], df)) is not None}
        self._reworded.update(covers)
        self._find_unblocking([i for i in reworded if i in blocked], df)
        if self._complete:
            return
        # the three rarest words narrow the intersection to a handful of rows; every further word, the more so one a
        # quarter of all memories hold, costs a posting list to merge for little (the twins are checked by their ids'
        # digests after, so a wider set of holders changes nothing)
        groups = [sorted((w for w in toks if df.get(w)), key=lambda w: (df[w], w))[:_RAREST] or toks
                  for toks in twin_groups]
        suffixes = {f":task:{digest}" for digest in pending}
        ids = [i for i in (store.holders_of_all(groups, _ALL_HOLDERS) if groups else [])
               if i[i.rfind(":task:"):] in suffixes and i not in new and i not in self._closed]
        self._twins_asked.update(pending)
        # the rewordings: every memory holding one of an item's cover words (`_cover`), in one lookup
        words = [[f] for cover in covers.values() for f in cover if df.get(f)]
        taken = set(ids)
        ids += [i for i in (store.holders_of_all(words, _ALL_HOLDERS) if words else [])
                if ":task:" in i and i not in new and i not in self._closed and i not in taken]
        for node in store.get_nodes(ids).values():
            if is_closed_task(node):
                self._add_closed(node)

    def _find_unblocking(self, items: Sequence[str], df: Mapping[str, int]) -> None:
        """The notes whose lines unblock each blocked item (`unblocks`, a rewording of it), read from every memory —
        section text, a bullet — holding one of its cover words (the same lookup in both kinds of pass: the section
        text an unblocking line usually sits in is no observation)."""
        said = {i: words for i in items if len(words := self._words[i] - _STATUS) >= _SHARED_MIN}
        covers = {i: cover for i, words in said.items() if (cover := _cover(words, df)) is not None}
        wanted = [[f] for cover in covers.values() for f in cover if df.get(f)]
        ids = [i for i in (self.rt.store.holders_of_all(wanted, _ALL_HOLDERS) if wanted else [])
               if digest_of(i) is not None or ":section:" in i]
        lines: list[tuple[str, frozenset[str]]] = []  # (note, words less their status) of each unblocking line
        for node in (self.rt.store.get_nodes(ids) if ids else {}).values():
            meta = node.metadata or {}
            if meta.get("note") and meta.get("observation_kind") != "blocked":
                lines += [(str(meta["note"]), loop_words(line) - _STATUS)
                          for line in node.content.splitlines() if unblocks(line)]
        for item, words in said.items():
            if item in covers:
                self._unblocked[item] = {note for note, line in lines if rewords(words, line)}

    def _add_closed(self, node: Memory) -> None:
        note, digest = (node.metadata or {}).get("note"), digest_of(node.id)
        if not note or digest is None:
            return
        self._twins.setdefault(digest, set()).add(str(note))
        words = loop_words(node.content)
        self._closed[node.id] = (words, str(note))
        for word in words:
            self._by_word.setdefault(word, set()).add(node.id)

    def _rewordings(self, node_id: str) -> set[str]:
        """The notes of the known closed tasks that reword the item (one `_cover` admits: the same in a pass that
        holds every task and in one that looks them up, as the proactive pass's two ways must agree)."""
        words = self._words.get(node_id, frozenset())
        if node_id not in self._reworded:
            return set()
        # a rewording lacks at most `_may_lack` of the item's words, so it holds one of any one more than that
        rarest = sorted(words, key=lambda w: (len(self._by_word.get(w, ())), w))[:_may_lack(len(words)) + 1]
        holders = {i for w in rarest for i in self._by_word.get(w, ())}
        return {self._closed[i][1] for i in holders if rewords(words, self._closed[i][0])}

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


def _cover(words: frozenset[str], df: Mapping[str, int]) -> list[str] | None:
    """The words (in every form a text may hold them) one of which every rewording of an item of `words` holds: its
    `_may_lack + 1` rarest, as it lacks at most `_may_lack`. None when more than `_REWORD_DF_MAX` memories hold them:
    such an item, made of common words, is closed by its exact twin alone. Reading every task the words of an item
    of the benchmark vault's templated tasks matched took `retrieve`'s p50 from 14 to ≈ 100 ms (intersecting triples
    of the rarest words: ≈ 23 ms); an item whose rarest words are this rare costs a handful of rows."""
    rarity = {w: sum(df.get(f, 0) for f in _FORMS_OF.get(w, (w,))) for w in words}
    rarest = sorted(words, key=lambda w: (rarity[w], w))[:_may_lack(len(words)) + 1]
    if sum(rarity[w] for w in rarest) > _REWORD_DF_MAX:
        return None
    return [f for w in rarest for f in _FORMS_OF.get(w, (w,))]


__all__ = ["ClosedLater", "digest_of", "is_closed_task", "loop_words", "rewords", "unblocks"]
