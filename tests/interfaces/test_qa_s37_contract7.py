"""QA session 37, the interfaces' contract, seventh round: a value JSON cannot write (NaN, Infinity — Python's JSON
reads them) in free-form metadata is refused naming where it sits, by every tool taking such metadata."""
from __future__ import annotations

import json
import math
from typing import Any

import pytest

from mnemon.interfaces.mcp import handle

NAN, INF = math.nan, math.inf
_PREDICTION = {"title": "Acme pays", "check_after": "2026-01-02", "expires_at": "2026-02-01",
               "match_json": {"sense_type": "gws", "source_id": "m1"}}
_EVENT = {"sense_type": "gws", "observed_at": "2026-01-05T00:00:00Z", "source_id": "m1"}


def _call(mem: Any, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """One tools/call as the MCP server answers it (a client's JSON read by Python, NaN and all)."""
    reply = handle(lambda: mem, {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                                 "params": {"name": name, "arguments": arguments}})
    assert reply is not None
    result = reply["result"]
    return dict(json.loads(result["content"][0]["text"]), isError=result.get("isError", False))


# ── 1. NaN and Infinity in free-form metadata ──────────────────────────────────────────────────────────────────
@pytest.mark.parametrize("name, arguments, field", [
    ("sense_add", {"events": [{**_EVENT, "metadata": {"a": NAN}}]}, "metadata.a"),
    ("sense_add", {"events": [_EVENT, {**_EVENT, "source_id": "m2", "metadata": {"a": [1, {"b": -INF}]}}]},
     "metadata.a[1].b"),
    ("action_record", {"action": {"action_type": "email", "title": "Sent", "metadata": {"a": {"b": INF}}}},
     "metadata.a.b"),
    ("action_record", {"action": {"action_type": "email", "title": "Sent", "metadata": '{"a": NaN}'}}, "metadata.a"),
    ("predict_add", {"prediction": {**_PREDICTION, "metadata": {"x": 1, "a": NAN}}}, "metadata.a"),
    ("predict_add", {"prediction": {**_PREDICTION, "metadata_json": '{"a": [Infinity]}'}}, "metadata_json.a[0]"),
    ("remember_payload", {"payload": {"source_path": "mneme://s/1", "assertions": [
        {"subject": "Ada", "predicate": "owns", "object": "payments", "metadata": {"a": NAN}}]}}, "metadata.a"),
])
def test_a_value_json_cannot_write_in_metadata_is_refused_naming_where(mem: Any, name: str,
                                                                     arguments: dict[str, Any], field: str) -> None:
    """sense_add with metadata {"a": NaN} was refused 'metadata must contain only JSON values' with only `index` in
    details (action_record and predict_add with no details at all): the refusal names the field."""
    answer = _call(mem, name, arguments)
    assert answer["isError"] and answer["error"]["code"] == "invalid_input", answer
    assert answer["error"]["details"].get("field") == field, answer["error"]
    assert field in answer["error"]["message"]
    if name == "sense_add":
        assert answer["error"]["details"]["index"] == len(arguments["events"]) - 1


@pytest.mark.parametrize("meta, field", [({"a": NAN}, "meta.a"), ({"a": [1, {"b": INF}]}, "meta.a[1].b"),
                                         ({"why": "dup", "w": -INF}, "meta.w")])
def test_link_refuses_what_json_cannot_write_in_meta(mem: Any, meta: dict[str, Any], field: str) -> None:
    """link's meta over MCP or HTTP (an object, not the CLI's text) with NaN or Infinity was stored as written:
    the edge row's metadata held 'NaN' or 'Infinity' — not JSON — and the reply showed null; the CLI's --meta
    refused the same value."""
    ada = mem.remember("Ada Quill owns the payment service")["id"]
    bob = mem.remember("Bob Marsh runs the billing team")["id"]
    answer = _call(mem, "link", {"source_id": ada, "target_id": bob, "meta": meta})
    assert answer["isError"] and answer["error"]["details"].get("field") == field, answer
    def semantic() -> list[Any]:
        return mem.related(ada, edge_type="semantic")["related"]
    assert semantic() == []  # nothing stored
    assert not _call(mem, "link", {"source_id": ada, "target_id": bob, "meta": {"a": 1.5}})["isError"]
    assert [item["id"] for item in semantic()] == [bob]
