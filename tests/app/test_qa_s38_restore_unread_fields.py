"""QA round (session 38): an export row's field that a restore does not read is named, not dropped without a word.

`mnemon import backup.json` of an export whose insight had been hand-edited to `"importanc": 5` restored it at its old
importance, `errors: 0`, nothing said (only an unknown top-level member was warned about). A draft's unread field is a
warning since the last commit; an export's insight, edge and vault edge fields now are too, with the same words."""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mnemon.app import backup
from mnemon.app.memory import Mnemon
from mnemon.core.errors import InvalidInput

from app.test_qa_s32_pack_payload_decisions import FULL, _edge


def _doc(m: Mnemon) -> dict[str, Any]:
    m.remember("The staging database restarts at 02:00", importance=2)
    m.remember("Deploys freeze on the last Friday of the quarter")
    doc = m.export_json()
    assert doc["edges"], "the two memories are linked (a temporal edge)"
    return doc


@pytest.mark.parametrize("dry_run", [True, False])
def test_a_misspelt_insight_or_edge_field_is_named(make_mem: Callable[..., Mnemon], tmp_path: Path,
                                                   dry_run: bool) -> None:
    doc = _doc(make_mem("hash", db=tmp_path / "a.db"))
    doc["insights"][0]["importanc"] = 5
    doc["insights"][1]["importanc"] = 5
    doc["edges"][0]["wieght"] = 0.9
    out = make_mem("hash", db=tmp_path / "b.db").import_json(json.dumps(doc), dry_run=dry_run)
    warnings = out.get("warnings", [])
    assert any(w.startswith("insights 0, 1: 'importanc'") and "'importance'?" in w and "not restored" in w
               for w in warnings), warnings
    assert any(w.startswith("edge 0: 'wieght'") and "'weight'?" in w for w in warnings), warnings


def test_a_restore_refused_whole_names_them_in_its_details(make_mem: Callable[..., Mnemon], tmp_path: Path) -> None:
    doc = _doc(make_mem("hash", db=tmp_path / "a.db"))
    for row in doc["insights"]:
        row["importance"], row["imp"] = 9, 5  # every memory refused: nothing of the file is written
    with pytest.raises(InvalidInput) as caught:
        make_mem("hash", db=tmp_path / "b.db").import_json(json.dumps(doc))
    assert any("'imp'" in w for w in caught.value.details["warnings"])


def test_an_export_of_a_rich_store_restores_without_such_a_warning(make_mem: Callable[..., Mnemon],
                                                                   example_vault: Path, tmp_path: Path) -> None:
    src = make_mem("hash")
    src.ingest(str(example_vault))
    out = src.remember_payload(FULL)
    src.kill_edge(_edge(out, "links_to")["id"], reason="wrong person")
    parsed = [e for e in src.rt.store.iter_edges(statuses=("active",)) if e.origin == "ingest"]
    src.kill_edge(int(parsed[0].id or 0), reason="not so")  # decisions about a vault's edges: `vault_edges`
    src.weaken_edge(int(parsed[1].id or 0), factor=0.5)
    src.remember("The staging database restarts at 02:00")
    src.forget(src.remember("A memory forgotten before the export")["id"])
    doc = src.export_json()
    assert doc["vault_edges"] and any(r.get("kind") == "entity" for r in doc["insights"])
    reply = make_mem("hash", db=tmp_path / "b.db").import_json(json.dumps(doc))
    assert not [w for w in reply.get("warnings", []) if "is not a field of" in w], reply.get("warnings")


def test_rows_past_the_first_five_are_counted(make_mem: Callable[..., Mnemon], tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(backup, "BATCH", 3)  # the rows noted across batches of a streamed restore
    src = make_mem("hash", db=tmp_path / "a.db")
    for i in range(8):
        src.remember(f"Fact number {i} about the harbour", no_diff=True)
    doc = src.export_json()
    for row in doc["insights"]:
        row["tag"] = ["harbour"]
    out = make_mem("hash", db=tmp_path / "b.db").import_json(json.dumps(doc))
    assert any(w.startswith("insights 0, 1, 2, 3, 4 and 3 more: 'tag'") and "'tags'?" in w
               for w in out["warnings"]), out["warnings"]


def test_the_cli_restore_prints_the_warning(cli_run: Callable[..., tuple[int, Any]], tmp_path: Path) -> None:
    assert cli_run(["remember", "The staging database restarts at 02:00"])[0] == 0
    code, doc = cli_run(["export"])
    doc["insights"][0]["importanc"] = 5
    path = tmp_path / "backup.json"
    path.write_text(json.dumps(doc))
    code, out = cli_run(["--db", str(tmp_path / "fresh.db"), "import", str(path)])
    assert code == 0 and any("'importanc'" in w for w in out["warnings"]), out
