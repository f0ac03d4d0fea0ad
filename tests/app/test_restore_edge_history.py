"""A person's decisions about edges keep their history through an export and its restore: `explain-edge` of a
restored edge still says who killed, validated or weakened it, when, and why (the reason given, a weakening's
factor). The export carried only the decision's outcome (a kill as the status, a weakening or validation as
"decision"), so a restored kill read as an edge that had always been killed, with no reason, and a weakening or
validation was dated at the import with the reason `restored_from_backup`.

The store restored into is `make_mem()`, so each test runs once per backend (SQLite, PostgreSQL); the source store
is a SQLite file."""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mnemon.app.memory import Mnemon

SCOPE = "mneme://agent/history"
PAYLOAD = {"source_path": SCOPE, "nodes": [{"ref": "agent", "name": "Agent"}, {"ref": "zoe", "name": "Zoe Marsh"},
                                           {"ref": "bob", "name": "Bob Tern"}],
           "edges": [{"src": "agent", "dst": "zoe", "relation": "links_to", "status": "active"},
                     {"src": "agent", "dst": "bob", "relation": "links_to", "status": "active"}],
           "observations": [{"node": "zoe", "kind": "blocked", "text": "Waiting on Zoe for the invoice", "score": 6}]}
DECISIONS = ("killed", "validated", "weakened")


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    root.mkdir()
    (root / "A.md").write_text("# A\nSee [[B]] and [[C]] #topic\n- Risk: the vendor may slip\n", encoding="utf-8")
    (root / "B.md").write_text("# B\nx\n", encoding="utf-8")
    (root / "C.md").write_text("# C\ny\n", encoding="utf-8")
    return root


def _edge(m: Mnemon, src: str, dst: str, relation: str) -> int:
    edge = m.rt.store.find_edge(src, dst, relation)
    assert edge is not None, (src, dst, relation)
    return int(edge.id or 0)


KEYS = [(f"{SCOPE}#agent", f"{SCOPE}#zoe", "links_to"), (f"{SCOPE}#agent", f"{SCOPE}#bob", "links_to"),
        ("note:A.md", "note:B.md", "links_to"), ("note:A.md", "note:C.md", "links_to"),
        ("note:A.md", "tag:topic", "has_tag")]


def _decide(m: Mnemon, vault: Path) -> None:
    m.ingest(str(vault))
    m.remember_payload(PAYLOAD)
    zoe, bob, b, c, tag = (_edge(m, *key) for key in KEYS)
    m.kill_edge(zoe, reason="wrong person")
    m.weaken_edge(bob, factor=0.5, reason="only met once")
    m.weaken_edge(bob, factor=0.5, reason="still unsure")
    m.validate_edge(b, reason="I wrote that link")
    m.weaken_edge(c, factor=0.25, reason="a passing mention")
    m.kill_edge(tag, reason="not a topic")


def _history(m: Mnemon) -> dict[tuple[str, str, str], list[tuple[Any, ...]]]:
    """Each decided edge's decisions as explain-edge tells them: event, actor, what it said, when."""
    out = {}
    for key in KEYS:
        log = m.explain_edge(_edge(m, *key))["debug_log"]
        out[key] = [(e["event"], e["actor"], e["thinking"].get("reason"), e["thinking"].get("factor"),
                     e["created_at"]) for e in log if e["event"] in DECISIONS]
    return out


def test_explain_edge_tells_a_restored_decision_as_it_was_made(make_mem: Callable[..., Mnemon], vault: Path,
                                                                tmp_path: Path) -> None:
    src = make_mem("hash", db=tmp_path / "a.db")
    _decide(src, vault)
    before = _history(src)
    assert [e[:3] for e in before[KEYS[0]]] == [("killed", "kill-edge", "wrong person")]
    assert [e[2:4] for e in before[KEYS[1]]] == [("only met once", 0.5), ("still unsure", 0.5)]
    doc = src.export_json()
    dst = make_mem()
    dst.import_json(json.dumps(doc))
    dst.ingest(str(vault))
    assert _history(dst) == before
    # the restored store's own backup carries the same history on, each decision once
    last = make_mem("hash", db=tmp_path / "c.db")
    last.import_json(json.dumps(dst.export_json()))
    last.import_json(json.dumps(dst.export_json()))  # a second restore of it adds nothing
    last.ingest(str(vault))
    assert _history(last) == before


def test_a_restore_into_the_ingested_vault_tells_the_decisions_too(make_mem: Callable[..., Mnemon], vault: Path,
                                                                   tmp_path: Path) -> None:
    src = make_mem("hash", db=tmp_path / "a.db")
    _decide(src, vault)
    before = _history(src)
    dst = make_mem()
    dst.ingest(str(vault))  # the notes first: each decision lands on an edge this store made
    dst.import_json(json.dumps(src.export_json()))
    assert _history(dst) == before


@pytest.mark.parametrize(("history", "said"), [
    ("killed", "history must be a list of events"),
    ([{"event": "created", "actor": "x", "created_at": "2026-01-01T00:00:00Z"}], "history[0].event must be one of"),
    ([{"event": "killed", "actor": "kill-edge"}], "history[0].created_at is missing"),
    ([{"event": "killed", "actor": "kill\x00edge", "created_at": "2026-01-01T00:00:00Z"}], "control character"),
    ([{"event": "killed", "actor": "kill-edge", "detail": [], "created_at": "2026-01-01T00:00:00Z"}],
     "history[0].detail must be a JSON object"),
])
def test_a_hand_edited_history_is_that_edge_s_error(make_mem: Callable[..., Mnemon], vault: Path, tmp_path: Path,
                                                    history: Any, said: str) -> None:
    src = make_mem("hash", db=tmp_path / "a.db")
    _decide(src, vault)
    doc = src.export_json()
    (row,) = [e for e in doc["edges"] if (e["source_id"], e["target_id"]) == KEYS[0][:2]]
    row["history"] = history
    dst = make_mem()
    out = dst.import_json(json.dumps(doc))
    (error,) = out["edge_results"]
    assert error["action"] == "error" and said in error["error"]["message"]
    assert dst.rt.store.find_edge(*KEYS[0]) is None  # the row is not restored half-right
    assert out["errors"] == 0 and out["edges_inserted"] == len(doc["edges"]) - 1
