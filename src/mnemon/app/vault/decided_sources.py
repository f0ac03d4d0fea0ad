"""Where the line an edge a person decided on stands in its note now.

A killed, validated or promoted edge survives rebuilds with the evidence it was decided on: its row is never
rewritten by a re-parse. When its note changes, the line may be edited, moved, or gone, and `explain-edge` went on
showing the old text as if the note still said it. An ingest that plans such an edge again says where it is parsed
from now when that differs (a killed edge's `blocked_recreation` event carries `line` and `evidence`; any other
decided edge gets a `source_changed` event when its state changes, `{"as_decided": true}` once back), and one
whose note no longer holds it gets a `source_gone` event (once). `source_now` reads them back for `explain-edge`;
a `reparsed` event ends what they said: the re-parse wrote the edge anew from its line as it reads now (a retired
edge whose line came back, taken up again).
"""
from __future__ import annotations

import json
from typing import Any, Mapping, Sequence

Key = tuple[str, str, str]
SOURCE_EVENTS = ("blocked_recreation", "source_changed", "source_gone", "reparsed")


def _line(metadata: Any) -> Any:
    if isinstance(metadata, str):
        try:
            metadata = json.loads(metadata) if metadata else {}
        except ValueError:
            return None
    return metadata.get("line") if isinstance(metadata, Mapping) else None


def moved_source(evidence: str, metadata: Any, decided_evidence: Any, decided_metadata: Any) -> dict[str, Any] | None:
    """{"line", "evidence"} the re-parse found the edge at, when its text or line is not what it was decided on."""
    line = _line(metadata)
    if evidence == decided_evidence and line == _line(decided_metadata):
        return None
    return {"line": line, "evidence": evidence}


def source_now(events: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """What the last ingest that read the edge's note said of its line (`explain-edge`): None when it is the line the
    edge was decided on (or no ingest read the note since)."""
    state: dict[str, Any] | None = None
    for event in events:
        if event.get("actor") != "ingest" or event.get("event") not in SOURCE_EVENTS:
            continue
        detail = event.get("detail") or {}
        if event["event"] == "reparsed":
            state = None
        elif event["event"] == "source_gone":
            state = {"in_note": False, "seen_at": event.get("created_at")}
        elif "evidence" in detail:
            state = {"in_note": True, "changed": True, "line": detail.get("line"), "evidence_text": detail["evidence"],
                     "seen_at": event.get("created_at")}
        else:
            state = None
    return state


def pack_view(store: Any, edge: Any) -> dict[str, Any]:
    """What a pack item of a validated or promoted ingested edge says instead of its decided evidence: the line its
    note holds now (`text`, `line`, and `decided_on` the evidence it was decided on), or `in_note: false`."""
    now = source_now(store.edge_events(int(edge.id or 0)))
    if now is None:
        return {}
    if not now["in_note"]:
        return {"in_note": False}
    return {"text": now["evidence_text"], **({"line": now["line"]} if isinstance(now["line"], int) else {}),
            "decided_on": {"text": edge.evidence, "line": edge.metadata.get("line")}}


class DecidedSources:
    """The decided ingest edges one ingest cleared (`VaultWriter._release`), and what its re-parse found of each."""

    def __init__(self) -> None:
        self.unseen: dict[Key, int] = {}  # cleared, not planned again (yet)
        self.seen: dict[int, dict[str, Any] | None] = {}  # planned again (not killed): where, when it moved
        # the rows this run wrote anew from those edges' sources, by key → (evidence, metadata): a decided edge the
        # run moves onto one of them (a placeholder joined, a moved note's decisions carried) is still in its note
        self.srcs: set[str] = set()
        self.written: dict[Key, tuple[str, str]] = {}

    def cleared(self, key: Key, edge_id: int) -> None:
        self.unseen[key] = edge_id
        self.srcs.add(key[0])

    def planned(self, key: Key, edge_id: int, moved: dict[str, Any] | None, *, killed: bool) -> None:
        """A decided edge the re-parse planned again (a killed one's `blocked_recreation` says where itself)."""
        self.unseen.pop(key, None)
        if not killed:
            self.seen[edge_id] = moved

    def inserted(self, rows: Sequence[Sequence[Any]]) -> None:
        """Edge rows written anew: one from a decided edge's source may be where the run moves that edge."""
        if self.srcs:
            self.written.update({tuple(row[:3]): (row[6], row[10]) for row in rows if row[0] in self.srcs})

    def events(self, store: Any, now: str) -> list[tuple[int, str, str, dict[str, Any], str]]:
        """The events to log once the run has moved every edge it moves: each a change of what `source_now`
        says."""
        for edge in store.get_edges(sorted(self.unseen.values())) if self.written else ():
            planned = self.written.get((edge.src, edge.dst, edge.type))
            if planned is not None:  # moved where its line leads now
                self.seen[int(edge.id or 0)] = moved_source(*planned, edge.evidence, edge.metadata)
        out: list[tuple[int, str, str, dict[str, Any], str]] = []
        for edge_id in sorted({*self.unseen.values(), *self.seen}):
            was = source_now(store.edge_events(edge_id))
            if edge_id not in self.seen:
                if was is None or was.get("in_note"):
                    out.append((edge_id, "source_gone", "ingest", {"reason": "not_in_note"}, now))
                continue
            moved = self.seen[edge_id]
            if moved is None:
                if was is not None:
                    out.append((edge_id, "source_changed", "ingest", {"as_decided": True}, now))
            elif was is None or (was.get("line"), was.get("evidence_text")) != (moved["line"], moved["evidence"]):
                out.append((edge_id, "source_changed", "ingest", moved, now))
        self.unseen, self.seen, self.srcs, self.written = {}, {}, set(), {}
        return out
