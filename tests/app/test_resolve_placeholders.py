"""`resolve` claims and the notes they name: a placeholder a claim parked on joins its note whichever ingest writes
that note; a claim on a note that is deleted is retired (and back when the note is); a claim may not take over an
edge the ingest owns (both backends)."""
from __future__ import annotations

import copy
import shutil
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from mnemon.app.memory import Mnemon
from mnemon.app.vault import writer

from conftest import FakeClock

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=timezone.utc)
CLAIM = {"subject": "Ana Quill", "predicate": "attends_activity", "object": "Chess Club", "confidence": 0.95,
         "certainty": "confirmed", "source_type": "payment", "evidence": "Club receipt (fictional)."}
PAYLOAD = {"slug": "ana-clubs", "title": "Ana's clubs", "date": "2026-05-01", "claims": [CLAIM]}


@pytest.fixture
def mem(make_mem: Callable[..., Mnemon]) -> Mnemon:
    return make_mem("hash", clock=FakeClock(T0))


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    target = tmp_path / "vault"
    target.mkdir()
    (target / "Notes.md").write_text("# Notes\n\n- nothing about clubs yet\n", encoding="utf-8")
    return target


def write(vault: Path, rel: str, text: str) -> None:
    path = vault / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def edge_of(mem: Mnemon, edge_id: int) -> Any:
    edge = mem.rt.store.get_edge(edge_id)
    assert edge is not None
    return edge


def belief(mem: Mnemon) -> str:
    [row] = mem.state_list(predicate="attends_activity")["assertions"]
    return str(row["validity"])


@pytest.mark.parametrize("by_name_max", [50, 0], ids=["looked-up-by-name", "placeholders-listed"])
def test_a_claim_naming_notes_on_disk_but_not_yet_ingested_joins_them_at_the_next_ingest(
        mem: Mnemon, vault: Path, make_mem: Callable[..., Mnemon], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        by_name_max: int) -> None:
    # a run of more notes than JOIN_BY_NAME_MAX lists the placeholders instead: both ways join the same
    monkeypatch.setattr(writer, "JOIN_BY_NAME_MAX", by_name_max, raising=False)
    mem.ingest(str(vault))
    # on disk, not ingested: resolve knows only the ingested notes' names, so the claim waits on placeholders
    write(vault, "People/Ana Quill.md", "# Ana Quill\n\n- plays chess\n")
    write(vault, "Clubs/Chess Club.md", "# Chess Club\n\n- meets on Tuesdays\n")
    [claim] = mem.resolve(str(vault), PAYLOAD)["edges"]
    assert (claim["src"], claim["dst"]) == ("placeholder:ana quill", "placeholder:chess club")
    # one run writes the pack and both notes: the pack's own links find the notes at once, nothing is relinked
    out = mem.ingest(str(vault))
    assert out["placeholders_joined"] == 2
    joined = edge_of(mem, claim["id"])
    assert (joined.src, joined.dst, joined.status) == ("note:People/Ana Quill.md", "note:Clubs/Chess Club.md",
                                                       "active")
    assert mem.rt.store.get_node("placeholder:ana quill") is None  # nothing waits on it: collected
    fresh = make_mem("hash", db=tmp_path / "fresh.db")  # the same graph a fresh ingest of the vault builds
    fresh.ingest(str(vault))
    again = fresh.rt.store.find_edge(joined.src, joined.dst, joined.type)
    assert again is not None and again.status == "active"


def test_a_claim_on_a_deleted_note_is_retired_and_comes_back_with_the_note(mem: Mnemon, vault: Path,
                                                                          tmp_path: Path) -> None:
    write(vault, "People/Ana Quill.md", "# Ana Quill\n\n- plays chess\n")
    mem.ingest(str(vault))
    [claim] = mem.resolve(str(vault), PAYLOAD)["edges"]
    mem.ingest(str(vault))  # the pack is a note now; the claim's object joins the club's note when it appears
    write(vault, "Clubs/Chess Club.md", "# Chess Club\n\n- meets on Tuesdays\n")
    mem.ingest(str(vault))
    assert edge_of(mem, claim["id"]).dst == "note:Clubs/Chess Club.md" and belief(mem) == "current"

    kept = tmp_path / "club.md"
    shutil.move(vault / "Clubs" / "Chess Club.md", kept)
    out = mem.ingest(str(vault))
    assert out["notes_removed"] == 1 and out["claims_retired"] == 1
    assert edge_of(mem, claim["id"]).status == "retired"  # not active on a deleted note
    assert belief(mem) == "unbacked"  # its evidence edge is no longer active: not served as current
    assert [e["event"] for e in mem.rt.store.edge_events(claim["id"])][-1] == "retired"

    shutil.move(kept, vault / "Clubs" / "Chess Club.md")
    out = mem.ingest(str(vault))
    assert out["claims_restored"] == 1
    assert edge_of(mem, claim["id"]).status == "active" and belief(mem) == "current"


def test_a_claim_on_a_moved_note_moves_with_it_and_stays_active(mem: Mnemon, vault: Path) -> None:
    write(vault, "People/Ana Quill.md", "# Ana Quill\n\n- plays chess\n")
    write(vault, "Clubs/Chess Club.md", "# Chess Club\n\n- meets on Tuesdays\n")
    mem.ingest(str(vault))
    [claim] = mem.resolve(str(vault), PAYLOAD)["edges"]
    (vault / "Archive").mkdir()
    shutil.move(vault / "Clubs" / "Chess Club.md", vault / "Archive" / "Chess Club.md")
    out = mem.ingest(str(vault))
    assert out["notes_moved"] == 1 and "claims_retired" not in out
    moved = edge_of(mem, claim["id"])
    assert (moved.dst, moved.status) == ("note:Archive/Chess Club.md", "active")


def test_a_claim_with_a_relation_the_ingest_writes_is_refused_and_the_ingest_edge_kept(mem: Mnemon,
                                                                                        vault: Path) -> None:
    write(vault, "People/Ana Quill.md", "# Ana Quill\n\nSee [[Chess Club]].\n")
    write(vault, "Clubs/Chess Club.md", "# Chess Club\n\n- meets on Tuesdays\n")
    mem.ingest(str(vault))
    link = mem.rt.store.find_edge("note:People/Ana Quill.md", "note:Clubs/Chess Club.md", "links_to")
    assert link is not None and link.origin == "ingest"
    payload = copy.deepcopy(PAYLOAD)
    payload["claims"] = [{**CLAIM, "predicate": "links to"}, CLAIM]

    dry = mem.resolve(str(vault), payload, dry_run=True)
    # (neither claim asked for a status: `requested_status` is null, the gate's verdict is `status`)
    assert [(c["requested_status"], c["status"]) for c in dry["claims"]] == [(None, "refused"), (None, "active")]
    assert dry["claims"][0]["error"]["code"] == "invalid_input"

    out = mem.resolve(str(vault), payload)
    refused, written = out["edges"]
    assert refused["status"] == "refused" and refused["id"] is None
    assert refused["error"]["code"] == "invalid_input" and "links_to" in refused["error"]["message"]
    assert written["status"] == "active" and out["claims_written"] == 1 and out["claims_refused"] == 1
    assert edge_of(mem, int(link.id or 0)) == link  # the ingest's own link: not touched
    assert [a["predicate"] for a in out["assertions"]] == ["attends_activity"]

    mem.ingest(str(vault))  # the pack replays its claims on ingest: the same refusal, the link stays the ingest's
    after = mem.rt.store.find_edge("note:People/Ana Quill.md", "note:Clubs/Chess Club.md", "links_to")
    assert after is not None and (after.id, after.origin, after.rule) == (link.id, "ingest", link.rule)
    pack = (vault / out["note_path"]).read_text(encoding="utf-8")
    assert "links to" in pack  # the refused claim is still in the evidence pack: nothing is lost
