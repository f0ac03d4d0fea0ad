"""Build a small vault-shaped graph straight through the Store (the shared vault contract's ids and shapes), so the
context, thought and surface tests do not depend on ingestion. Content is fictional."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from mnemon.app.memory import Mnemon
from mnemon.core.model import Edge, Memory


@dataclass
class Obs:
    text: str
    kind: str = "fact"  # fact | blocked | risk | done | correction
    score: float = 3.0
    task: bool = False


@dataclass
class Note:
    path: str
    title: str
    note_type: str = "note"
    observations: list[Obs] = field(default_factory=list)
    sections: list[tuple[str, str]] = field(default_factory=list)  # (heading, body)


def memory_id(path: str, kind: str, text: str) -> str:
    return f"vault:{path}:{kind}:{hashlib.sha1(' '.join(text.lower().split()).encode()).hexdigest()[:16]}"


def build(mem: Mnemon, notes: list[Note], *, links: list[tuple[str, str, str]] = (),
          when: str = "2026-02-20T09:00:00.000000Z") -> dict[str, str]:
    """Insert notes, observation/section memories and edges. `links` = (src path, dst path, status).
    Returns {observation text: memory id}."""
    store = mem.rt.store
    ids: dict[str, str] = {}
    with store.transaction():
        for note in notes:
            nid = f"note:{note.path}"
            store.insert_node(Memory(id=nid, content="", kind="note", title=note.title, source=f"vault:{note.path}",
                                     created_at=when, updated_at=when, inserted_at=when,
                                     metadata={"type": note.note_type}))
            for line, obs in enumerate(note.observations, start=3):
                kind = "task" if obs.task else "observation"
                mid = memory_id(note.path, kind, obs.text)
                ids[obs.text] = mid
                meta: dict[str, Any] = {"memory_kind": kind, "note": note.path, "line": line,
                                        "observation_kind": obs.kind, "score": obs.score, "heading_path": [note.title]}
                store.insert_node(Memory(id=mid, content=obs.text, category="fact",
                                         importance=max(1, min(5, round(obs.score))), source=f"vault:{note.path}",
                                         created_at=when, updated_at=when, inserted_at=when, title=note.title,
                                         metadata=meta))
                store.upsert_edge(Edge(src=nid, dst=mid, type=f"has_{obs.kind}", weight=min(1.0, obs.score / 6),
                                       confidence=min(1.0, obs.score / 6), status="active", evidence=f"- {obs.text}",
                                       origin="ingest", rule="observation:bullet", source_path=note.path,
                                       created_at=when, updated_at=when))
            for line, (heading, body) in enumerate(note.sections, start=20):
                mid = memory_id(note.path, "section", body)
                ids[body] = mid
                title = f"{note.title} > {heading}"
                store.insert_node(Memory(id=mid, content=body, category="context", importance=2,
                                         source=f"vault:{note.path}", created_at=when, updated_at=when,
                                         inserted_at=when, title=title,
                                         metadata={"memory_kind": "section", "note": note.path, "line": line,
                                                   "heading_path": [note.title, heading]}))
                store.upsert_edge(Edge(src=nid, dst=mid, type="has_section", weight=0.7, confidence=0.7,
                                       status="active", evidence=body.split("\n")[0], origin="ingest", rule="section",
                                       source_path=note.path, created_at=when, updated_at=when))
        for src, dst, status in links:
            store.upsert_edge(Edge(src=f"note:{src}", dst=f"note:{dst}", type="links_to", weight=0.9, confidence=0.9,
                                   status=status, evidence=f"[[{dst[:-3]}]]", origin="ingest", rule="wikilink",
                                   source_path=src, created_at=when, updated_at=when))
    return ids


def example_notes() -> list[Note]:
    return [
        Note("Projects/move.md", "Example Move Project", "project", [
            Obs("Waiting for school confirmation before choosing an apartment", "blocked", 5.0),
            Obs("Book the removal van for the move", "blocked", 3.0, task=True),
            Obs("Deposit for the old flat paid on 2026-01-10", "done", 2.5),
        ], [("Budget", "The move budget covers the van, cleaning and two weeks of overlap rent.")]),
        Note("Projects/school-search.md", "School Search", "project", [
            Obs("Application deadline due 2026-03-20 for the primary school", "risk", 5.5),
        ]),
        Note("People/alex.md", "Alex", "person", [
            Obs("Alex signed the lease renewal for the garden flat", "fact", 3.0),
        ]),
        Note("Archive/old-notes.md", "Old notes", "note", [
            Obs("Supplier invoice for the garden tools needs a follow up", "blocked", 4.0),
        ]),
    ]
