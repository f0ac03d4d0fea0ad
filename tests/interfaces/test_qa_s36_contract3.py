"""QA session 36, the interfaces' contract, third round: `forget --days-threshold` over MCP and HTTP, the
cross-field rules of action_record, sense_add and predict_add stated in their schemas, instants the schema and the
library read alike, and `run-once` reading the config's follow_symlinks as `ingest` does."""
from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from mnemon.app.memory import Mnemon
from mnemon.interfaces import operations
from mnemon.interfaces.mcp import handle

from conftest import FakeClock

CliRun = Callable[..., tuple[int, Any]]


def _mcp(mem: Any, method: str, params: dict[str, Any], *, read_only: bool = False) -> dict[str, Any]:
    reply = handle(lambda: mem, {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}, read_only=read_only)
    assert reply is not None
    return dict(reply["result"])


def _http(mem: Any, name: str, args: dict[str, Any], **options: Any) -> tuple[int, dict[str, Any]]:
    from mnemon.interfaces.http.server import Api

    reply = Api(lambda: mem, **options).handle("POST", f"/api/{name}", {"host": "localhost",
                                                                       "content-type": "application/json"},
                                               json.dumps(args).encode())
    return reply.status, json.loads(reply.body)


# ── 1. forget --days-threshold over the servers ────────────────────────────────────────────────────────────────
def _bills(make_mem: Callable[..., Mnemon], tmp_path: Path) -> Mnemon:
    mem = make_mem("hash", clock=FakeClock(datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)))
    (tmp_path / "v").mkdir()
    (tmp_path / "v" / "bills.md").write_text("# Bills\n\n- Paid the plumber invoice on 2026-01-10\n"
                                             "- Gas contract renewal due 2026-03-20\n", encoding="utf-8")
    mem.ingest(str(tmp_path / "v"))
    return mem


def test_forget_dated_is_a_tool_and_a_route_with_its_dry_run(make_mem: Callable[..., Mnemon], tmp_path: Path) -> None:
    """`mnemon forget --days-threshold 30 [--dry-run]` ages past-dated bullets; an agent over MCP or HTTP had no
    way to do it (no tool, no route): forget_dated, one facade call, its dry run changing nothing."""
    mem = _bills(make_mem, tmp_path)
    tools = {t["name"]: t for t in _mcp(mem, "tools/list", {})["tools"]}
    assert "forget_dated" in tools and tools["forget_dated"]["annotations"]["destructiveHint"] is True
    dry = _mcp(mem, "tools/call", {"name": "forget_dated", "arguments": {"days_threshold": 30, "dry_run": True}})
    dry = dry["structuredContent"]
    assert (dry["dry_run"], dry["forgotten_count"], dry["cutoff_date"]) == (True, 1, "2026-01-30")
    assert [e["text"] for e in dry["forgotten_edges"]] == ["Paid the plumber invoice on 2026-01-10"]
    assert mem.rt.store.get_edge(dry["forgotten_edges"][0]["id"]).status == "active"  # the dry run changed nothing
    status, done = _http(mem, "forget_dated", {"days_threshold": 30}, allow_writes=True)
    assert status == 200 and done["dry_run"] is False and done["forgotten_count"] == 1
    assert mem.rt.store.get_edge(done["forgotten_edges"][0]["id"]).status == "candidate"
    # a write: not on a read-only server; a threshold out of range is the schema's refusal, as the CLI's
    assert "forget_dated" not in {t["name"] for t in _mcp(mem, "tools/list", {}, read_only=True)["tools"]}
    assert _http(mem, "forget_dated", {"days_threshold": 30})[0] == 403
    status, refused = _http(mem, "forget_dated", {"days_threshold": -1}, allow_writes=True)
    assert status == 400 and refused["error"]["code"] == "invalid_input"
    assert not Draft202012Validator(operations.BY_NAME["forget_dated"].schema()).is_valid({"days_threshold": -1})


def test_forget_dateds_limit_is_the_librarys() -> None:
    from mnemon.app.vault import lifecycle

    assert operations.MAX_FORGET_DAYS == lifecycle.MAX_FORGET_DAYS


# ── 2. the rules between fields, stated in the schema ─────────────────────────────────────────────────────────
def _agree(mem: Any, name: str, args: dict[str, Any]) -> bool:
    """Whether a client checking tools/list's schema, check_args and the library all say the same of `args`."""
    from mnemon.core.errors import InvalidInput

    op = operations.BY_NAME[name]
    valid = Draft202012Validator(op.schema()).is_valid(args)
    verdicts = []
    for call in (lambda: operations.check_args(op, args), lambda: op.call(mem, json.loads(json.dumps(args)))):
        try:
            call()
            verdicts.append(True)
        except InvalidInput:
            verdicts.append(False)
    assert verdicts == [valid, valid], (name, args, valid, verdicts)
    return valid


_HANDLES = st.one_of(st.none(), st.sampled_from(["", " ", "\ufeff", "call-1", " ref "]))
_LEVELS = st.one_of(st.none(), st.sampled_from(["", " ", "none", " NONE ", "None", "nonE\t", "external", "n0ne",
                                                "read", "nones"]))
_TAGS = iter(range(10**9))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(level=_LEVELS, call_id=_HANDLES, ref=_HANDLES)
def test_a_side_effect_needs_a_handle_in_the_schema_too(mem: Any, level: Any, call_id: Any, ref: Any) -> None:
    """An action with side_effect_level 'external' and neither tool_call_id nor external_ref passed the schema an
    agent checks (tools/list) and was refused by the library: the rule is the schema's (anyOf inside the action)."""
    action = {"action_type": "email", "title": f"Sent invoice {next(_TAGS)}"}
    for key, value in (("side_effect_level", level), ("tool_call_id", call_id), ("external_ref", ref)):
        if value is not None:
            action[key] = value
    handled = any(v is not None and v.strip() for v in (call_id, ref))
    no_effect = level is None or level.strip().casefold() in ("", "none")
    known = no_effect or level.strip().casefold() in ("local", "external", "financial")  # (read, n0ne: refused)
    assert _agree(mem, "action_record", {"action": action}) == (known and (no_effect or handled))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(source_id=_HANDLES, title=_HANDLES, text=_HANDLES)
def test_a_sense_event_needs_something_to_match_in_the_schema_too(mem: Any, source_id: Any, title: Any,
                                                                  text: Any) -> None:
    """A sense event with none of source_id, title or text passed the schema and was refused by the library."""
    event = {"sense_type": "gws", "observed_at": "2026-01-01T09:00:00Z"}
    for key, value in (("source_id", source_id), ("title", title), ("text", text)):
        if value is not None:
            event[key] = value
    if source_id is not None and source_id.strip():
        event["source_id"] = f"{source_id.strip()}-{next(_TAGS)}"
    given_one = any(v is not None and v.strip() for v in (source_id, title, text))
    assert _agree(mem, "sense_add", {"events": [event]}) == given_one


@pytest.mark.parametrize("text", ["not json", "[1]", "5", "{bad}", '{"a": 1}', " {} "])
def test_metadata_as_text_is_the_json_of_an_object_to_check_args_as_to_the_library(mem: Any, text: str) -> None:
    """metadata given as a text that is not JSON passed check_args and was refused by the library: the schema
    says what the text must hold (contentMediaType, contentSchema: a standard validator may not assert them, so
    check_args does) and the description says it in words."""
    from mnemon.core.errors import InvalidInput

    op = operations.BY_NAME["action_record"]
    spec = op.properties["action"]["properties"]["metadata"]
    assert spec["contentMediaType"] == "application/json" and spec["contentSchema"]["type"] == "object"
    assert "JSON text" in spec["description"]
    action = {"action_type": "email", "title": f"Sent {next(_TAGS)}", "metadata": text}
    verdicts = []
    for call in (lambda: operations.check_args(op, {"action": action}), lambda: mem.action_record(dict(action))):
        try:
            call()
            verdicts.append(True)
        except InvalidInput:
            verdicts.append(False)
    assert verdicts == [text.strip().startswith("{") and text != "{bad}"] * 2


_TERMS = '"observation_terms_all": ["invoice"]'


@pytest.mark.parametrize("text", ["gws", "{}", "[]", "{" + _TERMS + "}", '{"sense_type": "email", ' + _TERMS + "}",
                                  '{"sense_type": "gws", ' + _TERMS + "}"])
def test_a_match_as_text_is_checked_as_its_object_is(mem: Any, text: str) -> None:
    """A match_json text that is no JSON object, or one without its sense type, passed check_args and was refused
    by the library; the text is checked as the object it holds (contentSchema)."""
    from mnemon.core.errors import InvalidInput

    op = operations.BY_NAME["predict_add"]
    prediction = {"title": f"Paid {next(_TAGS)}", "check_after": "2026-01-01", "expires_at": "2026-02-01",
                  "match_json": text}
    verdicts = []
    for call in (lambda: operations.check_args(op, {"prediction": prediction}),
                 lambda: mem.predict_add(dict(prediction))):
        try:
            call()
            verdicts.append(True)
        except InvalidInput:
            verdicts.append(False)
    assert verdicts == [text.startswith('{"sense_type": "gws"')] * 2


# ── 3. instants: what the schema's pattern takes is what the library reads ───────────────────────────────────
_INSTANTS = [" 2026-01-01", "2026-01-01 ", "20260101", "20260101T093000Z", "20260101T0930+0100", "2026-01-01T09:30",
             "2026-01-01T09:30:15.1234567Z", "2026-01-01t09:30:15,5+05:30", "2026-W01-1", "2026W011",
             "2026-01-01x09:30", "2026-01-01T09:30:15+05:30:15", "2026-01-01T09:3015", "2026-01-01T09:30.5",
             "2026-01-01T09:30+05:3", "2026-1-1", "1d"]


@pytest.mark.parametrize("text", _INSTANTS)
def test_an_instant_the_schema_takes_is_one_the_library_reads(mem: Any, text: str) -> None:
    """The schema's pattern refused " 2026-01-01" and basic-format ISO ("20260101T093000Z") that the library reads,
    and took none of the forms the library reads beyond it: week dates, any character between date and time,
    an offset with seconds. One grammar for both (core.model.ISO_INSTANT)."""
    readable = text.strip()[:1].isdigit() and text not in {"2026-W01-1", "2026W011", "2026-01-01x09:30",
                                                            "2026-01-01T09:30:15+05:30:15", "2026-01-01T09:3015",
                                                            "2026-01-01T09:30.5", "2026-01-01T09:30+05:3", "2026-1-1",
                                                            "1d"}
    assert _agree(mem, "state_list", {"as_of": text}) == readable
    assert _agree(mem, "remember", {"content": f"Mira joined on {next(_TAGS)}", "created_at": text}) == readable
    event = {"sense_type": "gws", "observed_at": text, "source_id": f"msg-{next(_TAGS)}"}
    assert _agree(mem, "sense_add", {"events": [event]}) == readable
