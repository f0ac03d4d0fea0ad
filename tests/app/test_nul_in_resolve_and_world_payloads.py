"""A NUL in any string of a `resolve` payload or a world-model payload (`state assert`, `predict add`, `sense add`,
`action record`, a scoped payload's `assertions[]`) is refused as `invalid_input` naming the field, on SQLite and
PostgreSQL alike (PostgreSQL text cannot hold one, SQLite can), before anything is written: a refused resolve
leaves no evidence pack and no edge, a refused world payload no row."""
from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from mnemon.app.memory import Mnemon
from mnemon.app.world.tables import world_of
from mnemon.core.errors import InvalidInput

from conftest import FakeClock

from .conftest import WORLD_T0

Where = tuple[str | int, ...]

CLAIM = {"subject": "Example Child", "subject_type": "person", "predicate": "attends_activity",
         "object": "Handwriting Club", "object_type": "activity", "confidence": 0.94, "certainty": "confirmed",
         "source_type": "payment", "evidence": "Payment receipt and brochure confirm the club (fictional)."}
PREDICTION = {"title": "Club invoice arrives", "match_json": {"sense_type": "gws", "observation_terms_all": ["club"]},
              "check_after": "2026-06-02T00:00:00Z", "expires_at": "2026-06-05T00:00:00Z",
              "metadata": {"note": "from the brochure"}}
ASSERTION = {"subject": "Example School", "predicate": "term_starts", "object": "September", "evidence": "Letter",
             "confidence": 0.95, "source_type": "letter",
             "certainty": "confirmed", "metadata": {"note": "school letter"}}
RESOLVE = {"slug": "school-clubs", "title": "School clubs resolved", "date": "2026-04-26", "claims": [CLAIM],
           "unresolved": ["which day the club meets"], "sources_checked": ["brochure"],
           "assertions": [ASSERTION], "predictions": [PREDICTION]}
SENSE = {"sense_type": "gws", "observed_at": "2026-06-01T08:00:00Z", "source_id": "msg-1", "title": "Invoice",
         "text": "Club invoice attached", "event_type": "email", "source_uri": "gws://msg-1",
         "metadata": {"labels": ["school"]}}
ACTION = {"action_type": "send_email", "title": "Paid the club", "actor": "agent", "tool_name": "gmail",
          "tool_call_id": "call-1", "side_effect_level": "external", "source_path": "mneme://agent/clubs",
          "metadata": {"note": "paid online"},
          "verify": {"sense_type": "gws", "terms": ["receipt"], "check_after": "1h", "expires": "2d"}}
STATE = {**ASSERTION, "subject": "Example Library", "source_path": "mneme://agent/library",
         "subject_type": "organisation"}
SCOPED = {"source_path": "mneme://agent/clubs", "nodes": [{"ref": "school", "name": "Example School"}],
          "observations": [{"node": "school", "text": "Term starts in September"}],
          "assertions": [{**ASSERTION, "subject": "Example Pool"}]}


def string_paths(value: Any, path: Where = ()) -> Iterator[Where]:
    """Every place in `value` that holds a non-empty string."""
    if isinstance(value, str) and value:
        yield path
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from string_paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from string_paths(item, (*path, index))


def field_name(path: Where) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")


def with_nul(document: dict[str, Any], path: Where, at: int = 1) -> dict[str, Any]:
    out = copy.deepcopy(document)
    parent = out
    for step in path[:-1]:
        parent = parent[step]
    text = parent[path[-1]]
    at = min(at, len(text))
    parent[path[-1]] = text[:at] + "\x00" + text[at:]
    return out


def written(mem: Mnemon) -> dict[str, Any]:
    """What a refused command must leave as it was: graph nodes and edges, the oplog, and every world table."""
    stats = mem.rt.store.stats()
    world = world_of(mem.rt)
    return {"nodes": stats["nodes_by_kind"], "edges": stats["edges_by_status"], "oplog": stats["oplog_count"],
            "assertions": len(world.assertions()), "predictions": len(world.predictions()),
            "senses": world.sense_event_count(), "actions": len(world.actions())}


@pytest.fixture
def mem(make_mem: Callable[..., Mnemon]) -> Mnemon:
    return make_mem("hash", clock=FakeClock(WORLD_T0))


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    target = tmp_path / "vault"
    target.mkdir()
    return target


def test_the_valid_payloads_are_accepted_on_both_backends(mem: Mnemon, vault: Path) -> None:
    """The baseline the refusals below differ from by one NUL."""
    out = mem.resolve(str(vault), json.dumps(RESOLVE))
    assert out["claims_written"] == 1 and out["predictions_written"] == 1 and (vault / out["note_path"]).is_file()
    assert mem.state_assert(json.dumps(STATE))["written"]
    assert mem.predict_add(json.dumps({**PREDICTION, "title": "Another invoice"}))["created"]
    assert mem.sense_add(json.dumps(SENSE))["added"] == 1
    assert mem.action_record(json.dumps(ACTION))["created"]
    assert mem.remember_payload(json.dumps(SCOPED))["assertions"][0]["written"]


def _refused(call: Callable[[str], Any], document: dict[str, Any]) -> InvalidInput:
    with pytest.raises(InvalidInput) as refused:
        call(json.dumps(document))  # JSON spells the NUL `\u0000`, as a payload file would
    assert "NUL" in refused.value.message
    return refused.value


@pytest.mark.parametrize("path", list(string_paths(RESOLVE)), ids=field_name)
def test_resolve_refuses_a_nul_in_any_string_and_writes_no_pack_and_no_edge(mem: Mnemon, vault: Path,
                                                                           path: Where) -> None:
    before = written(mem)
    refused = _refused(lambda doc: mem.resolve(str(vault), doc), with_nul(RESOLVE, path))
    assert refused.details["field"] == field_name(path)
    assert list(vault.iterdir()) == [] and written(mem) == before


def test_resolve_refuses_a_nul_in_an_object_key(mem: Mnemon, vault: Path) -> None:
    document = copy.deepcopy(RESOLVE)
    document["assertions"][0]["metadata"] = {"no\x00te": "x"}
    refused = _refused(lambda doc: mem.resolve(str(vault), doc), document)
    assert refused.details["field"] == 'assertions[0].metadata."no\\u0000te"'
    assert list(vault.iterdir()) == []


def test_resolve_from_the_cli_answers_invalid_input_naming_the_field(cli_run: Callable[..., tuple[int, Any]],
                                                                    tmp_path: Path, vault: Path) -> None:
    code, out = cli_run(["--db", tmp_path / "cli.db", "resolve", "--vault", vault, "--file", "-"],
                        input=json.dumps(with_nul(RESOLVE, ("claims", 0, "evidence"))))
    assert code != 0 and out["error"]["code"] == "invalid_input"
    assert out["error"]["details"]["field"] == "claims[0].evidence" and list(vault.iterdir()) == []


@pytest.mark.parametrize("path", list(string_paths(STATE)), ids=field_name)
def test_state_assert_refuses_a_nul_in_any_string(mem: Mnemon, path: Where) -> None:
    before = written(mem)
    assert _refused(mem.state_assert, with_nul(STATE, path)).details["field"] == field_name(path)
    assert written(mem) == before


@pytest.mark.parametrize("path", list(string_paths(PREDICTION)), ids=field_name)
def test_predict_add_refuses_a_nul_in_any_string(mem: Mnemon, path: Where) -> None:
    before = written(mem)
    assert _refused(mem.predict_add, with_nul(PREDICTION, path)).details["field"] == field_name(path)
    assert written(mem) == before


@pytest.mark.parametrize("path", list(string_paths(SENSE)), ids=field_name)
def test_sense_add_refuses_a_nul_in_any_string(mem: Mnemon, path: Where) -> None:
    before = written(mem)
    refused = _refused(mem.sense_add, {"events": [SENSE, with_nul(SENSE, path)]})
    assert refused.details["field"] == field_name(path) and "events[1]" in refused.message
    assert written(mem) == before  # the good first event is not stored either


@pytest.mark.parametrize("path", list(string_paths(ACTION)), ids=field_name)
def test_action_record_refuses_a_nul_in_any_string(mem: Mnemon, path: Where) -> None:
    before = written(mem)
    assert _refused(mem.action_record, with_nul(ACTION, path)).details["field"] == field_name(path)
    assert written(mem) == before


@pytest.mark.parametrize("path", list(string_paths(ASSERTION)), ids=field_name)
def test_a_scoped_payloads_assertion_with_a_nul_is_refused_whole(mem: Mnemon, path: Where) -> None:
    before = written(mem)
    refused = _refused(mem.remember_payload, {**SCOPED, "assertions": [with_nul(ASSERTION, path)]})
    assert refused.details["field"] == field_name(path) and "assertions[0]" in refused.message
    assert written(mem) == before  # the payload's node and observation are not stored either


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_nul_anywhere_in_a_resolve_payload_is_refused_and_writes_nothing(mem: Mnemon, vault: Path,
                                                                           data: st.DataObject) -> None:
    path = data.draw(st.sampled_from(list(string_paths(RESOLVE))), label="field")
    document = copy.deepcopy(RESOLVE)
    parent: Any = document
    for step in path[:-1]:
        parent = parent[step]
    # any text in that field: the NUL at a random position of it (a blank or odd value included)
    text = data.draw(st.text(max_size=12), label="text")
    at = data.draw(st.integers(0, len(text)), label="at")
    parent[path[-1]] = text[:at] + "\x00" + text[at:]
    before = written(mem)
    refused = _refused(lambda doc: mem.resolve(str(vault), doc), document)
    assert refused.code == "invalid_input" and refused.details["field"] == field_name(path)
    assert list(vault.iterdir()) == [] and written(mem) == before
