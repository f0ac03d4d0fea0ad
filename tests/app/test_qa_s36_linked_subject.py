"""A belief's subject or object given as one wikilink is the note it names, as a `resolve` claim's is: `state assert`
of "[[Acme]] ceo Bo" kept the brackets, a subject of its own beside the research's "Acme ceo Ana", and the
single-valued pair had two values in force. Rows stored so before are respelled once (m065), on both backends."""
from __future__ import annotations

import json
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

from mnemon.app.memory import Mnemon
from mnemon.core.world.values import iso

from conftest import FakeClock

from .conftest import WORLD_T0 as T0


def _belief(subject: str, obj: str, **over: Any) -> dict[str, Any]:
    return {"subject": subject, "predicate": "ceo", "object": obj, "confidence": 0.95, "certainty": "confirmed",
            "source_type": "tool_output", "evidence": "the filing", **over}


def _current(mem: Mnemon) -> list[str]:
    return sorted(f"{r['subject_name']} {r['predicate']} {r['object']}"
                  for r in mem.state_list(status="current")["assertions"])


def test_a_wikilinked_subject_is_the_note_it_names(world: tuple[Mnemon, FakeClock], tmp_path: Path) -> None:
    mem, clock = world
    mem.resolve(str(tmp_path), {"slug": "acme", "title": "Acme", "date": "2026-06-01",
                                "assertions": [_belief("Acme", "Ana")]})
    clock.advance(days=1)
    out = mem.state_assert(_belief("[[Acme]]", "[[Bo Lind|Bo]]", source_path="notes/acme.md",
                                   valid_from="2026-06-02"))
    assert (out["subject"], out["object"]) == ("Acme", "Bo Lind")
    assert len(out["superseded_ids"]) == 1
    assert _current(mem) == ["Acme ceo Bo Lind"]
    assert mem.state_list(subject="[[Acme]]", status="current")["count"] == 1
    [scoped] = mem.remember_payload({"source_path": "mneme://agent/a", "nodes": [{"ref": "acme"}],
                                     "assertions": [_belief("[[Acme#Board]]", "Bo Lind")]})["assertions"]
    assert scoped["subject"] == "Acme"


def test_rows_stored_with_a_wikilinked_subject_are_respelled(make_mem: Callable[..., Mnemon]) -> None:
    clock = FakeClock(T0 + timedelta(days=30))
    old = make_mem("hash", clock=clock)
    conn = old.rt.store.world.conn  # type: ignore[attr-defined]  # (qmark SQL on both backends)
    for row_id, subject, obj, days in (("ana", "Acme", "Ana", 0), ("bo", "[[Acme]]", "Bo", 1)):
        at = iso(T0 + timedelta(days=days))
        data = {**_belief(subject, obj), "id": row_id, "subject_name": subject, "object_name": obj,
                "status": "current", "state_type": "belief", "evidence_text": "the filing",
                "source_path": f"mneme://r/{row_id}", "valid_from": at, "metadata": {}, "created_at": at,
                "updated_at": at}
        conn.execute("INSERT INTO world_state_assertions(id, subject_norm, predicate, status, state_type,"
                     " source_path, data, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?)",
                     (row_id, subject.casefold(), "ceo", "current", "belief", data["source_path"], json.dumps(data),
                      at, at))
    conn.execute("DELETE FROM migrations WHERE name = 'm065_world_predicate_names'")
    old.close()
    mem = make_mem("hash", clock=clock)
    rows = {a["id"]: (a["subject_name"], a["validity"]) for a in mem.state_list()["assertions"]}
    assert rows == {"ana": ("Acme", "superseded"), "bo": ("Acme", "current")}
