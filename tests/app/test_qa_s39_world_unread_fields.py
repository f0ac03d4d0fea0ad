"""QA round (session 39): an export's world row field that a restore does not read is named, as a memory's is.

`mnemon import backup.json` of an export whose assertion had been hand-edited to `"confidance": 0.1` (or a
prediction's `"titel"`, an audit entry's `"detials"`) restored the row without the field and said nothing, while the
same slip in an insight or an edge is a warning naming the closest field (test_qa_s38_restore_unread_fields.py)."""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mnemon.app.backup_world import WORLD_MEMBERS
from mnemon.app.memory import Mnemon

_ASSERTION = {"subject": "Ana", "predicate": "lives_in", "object": "Lisbon", "confidence": 0.95,
              "certainty": "confirmed", "evidence": "lease", "source_path": "mneme://r/ana"}
_PREDICTION = {"title": "Parcel should arrive",
               "match_json": {"sense_type": "gws", "observation_terms_all": ["parcel"]},
               "check_after": "2026-06-02T00:00:00+00:00", "expires_at": "2026-06-09T00:00:00+00:00"}
_ACTION = {"actor": "agent", "action_type": "email", "title": "Asked the courier", "side_effect_level": "external",
           "external_ref": "mail-1", "created_at": "2026-06-01T08:00:00+00:00"}


def _doc(m: Mnemon) -> dict[str, Any]:
    """An export with a row in every world member."""
    m.remember("The parcel goes to Ana in Lisbon")
    assert m.state_assert(_ASSERTION)["written"]
    m.predict_add(_PREDICTION)
    m.action_record(_ACTION)
    m.sense_add({"sense_type": "gws", "observed_at": "2026-06-01T07:00:00+00:00", "text": "parcel shipped"})
    m.alias_add("the tenant", "Ana")
    doc = m.export_json()
    assert all(doc[member] for member in WORLD_MEMBERS), {member: len(doc[member]) for member in WORLD_MEMBERS}
    return doc


@pytest.mark.parametrize("dry_run", [True, False])
def test_a_misspelt_world_field_is_named_with_the_closest_one(make_mem: Callable[..., Mnemon], tmp_path: Path,
                                                              dry_run: bool) -> None:
    doc = _doc(make_mem("hash", db=tmp_path / "a.db"))
    doc["world_assertions"][0]["confidance"] = 0.1
    doc["world_predictions"][0]["titel"] = "Parcel"
    doc["world_actions"][0]["actr"] = "someone"
    doc["world_sense_events"][0]["txt"] = "x"
    doc["world_aliases"][0]["sourse"] = "manual"
    for row in doc["world_events"][:2]:
        row["detials"] = {}
    out = make_mem("hash", db=tmp_path / "b.db").import_json(json.dumps(doc), dry_run=dry_run)
    warnings = out.get("warnings", [])
    expected = [("world_assertions row 0: 'confidance'", "'confidence'?"),
                ("world_predictions row 0: 'titel'", "'title'?"),
                ("world_actions row 0: 'actr'", "'actor'?"),
                ("world_sense_events row 0: 'txt'", "'text'?"),
                ("world_aliases row 0: 'sourse'", "'source'?"),
                ("world_events rows 0, 1: 'detials'", "'detail'?")]
    for start, close in expected:
        assert any(w.startswith(start) and close in w and "not restored" in w for w in warnings), (start, warnings)


def test_an_export_with_every_world_member_restores_without_such_a_warning(make_mem: Callable[..., Mnemon],
                                                                             tmp_path: Path) -> None:
    doc = _doc(make_mem("hash", db=tmp_path / "a.db"))
    out = make_mem("hash", db=tmp_path / "b.db").import_json(json.dumps(doc))
    assert not [w for w in out.get("warnings", []) if "is not a field of" in w], out.get("warnings")
    assert out["world"]["assertions"]["restored"] == 1 and out["world"]["actions"]["restored"] == 1


def test_mnemes_spellings_a_restore_reads_are_not_warned_about(make_mem: Callable[..., Mnemon],
                                                               tmp_path: Path) -> None:
    doc = _doc(make_mem("hash", db=tmp_path / "a.db"))
    prediction = doc["world_predictions"][0]
    prediction["match"] = prediction.pop("match_json")  # Mneme's spelling, read as match_json
    out = make_mem("hash", db=tmp_path / "b.db").import_json(json.dumps(doc))
    assert out["world"]["predictions"]["restored"] == 1, out["world"]
    assert not [w for w in out.get("warnings", []) if "is not a field of" in w], out.get("warnings")


def test_the_cli_restore_prints_the_world_warning(cli_run: Callable[..., tuple[int, Any]], tmp_path: Path) -> None:
    assert cli_run(["remember", "The staging database restarts at 02:00"])[0] == 0
    code, doc = cli_run(["export"])
    assert code == 0 and doc["world_sense_events"], doc.keys()
    doc["world_sense_events"][0]["observed"] = "2026-01-01T00:00:00Z"
    path = tmp_path / "backup.json"
    path.write_text(json.dumps(doc))
    code, out = cli_run(["--db", str(tmp_path / "fresh.db"), "import", str(path)])
    assert code == 0 and any(w.startswith("world_sense_events row 0: 'observed'") and "'observed_at'?" in w
                             for w in out["warnings"]), out
