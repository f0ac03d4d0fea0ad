"""`receipt`: the real mnemon's privacy-reduced audit export of the operation log (schema mnemon.memory.receipt.v1),
which this mnemon lacked. Each log row becomes an event with its operation, time and SHA-256 hashes of its node id
and detail: no memory text, query or id in clear, every hash checkable by whoever holds the log entry, and reading it
writes nothing."""
from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mnemon.app.config import load_config
from mnemon.app.memory import MAX_LOG_LIMIT, Mnemon
from mnemon.core.errors import InvalidInput
from mnemon.core.model import LOG_OPS, parse_iso


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_the_receipt_has_the_schema_and_one_event_per_log_row_newest_first(mem: Mnemon) -> None:
    first = mem.remember("Chose Qdrant as the vector database", category="decision")
    mem.recall("why Qdrant")
    got = mem.receipt(limit=5)
    assert got["schema"] == "mnemon.memory.receipt.v1" and got["limit"] == 5
    assert got["privacy"]["raw_detail_included"] is False and got["privacy"]["hash_algorithm"] == "sha256"
    assert "can check" in got["privacy"]["note"] and "not signed" in got["privacy"]["note"]
    log = mem.log(limit=5)["entries"]
    assert got["count"] == len(got["events"]) == len(log) == 2
    assert [e["operation"] for e in got["events"]] == [e["op"] for e in log] == ["recall", "remember"]
    assert [e["created_at"] for e in got["events"]] == [e["created_at"] for e in log]
    assert {e["event_name"] for e in got["events"]} == {"mnemon.memory.operation.observed"}
    recall, remember = got["events"]
    assert "insight_id_hash" not in recall  # a recall is about no node
    assert remember["insight_id_hash"] == _sha(first["id"])
    assert got["generated_at"].endswith("Z")


def test_a_holder_of_the_log_entry_can_check_its_detail_hash(mem: Mnemon) -> None:
    mem.remember("Zoë moved the payment service to the Zürich cluster", tags=["infra"])
    entry = mem.log(limit=1)["entries"][0]
    event = mem.receipt(limit=1)["events"][0]
    canonical = json.dumps(entry["detail"], ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    assert event["detail_present"] is True and event["detail_hash"] == _sha(canonical)


def test_no_memory_text_query_or_id_is_in_clear(mem: Mnemon) -> None:
    stored = mem.remember("The launch code word is heliotrope-7731")
    mem.recall("heliotrope codeword")
    mem.forget(stored["id"])
    text = json.dumps(mem.receipt(limit=50), ensure_ascii=False)
    for secret in ("heliotrope", "7731", "codeword", stored["id"]):
        assert secret not in text


HEX64 = re.compile(r"[0-9a-f]{64}")


@settings(max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(content=st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1, max_size=80)
       .filter(lambda s: s.strip()),
       tags=st.lists(st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1, max_size=12)
                     .filter(str.strip), max_size=3))
def test_every_value_of_an_event_is_a_name_a_time_or_a_hash_for_any_text(mem: Mnemon, content: str,
                                                                         tags: list[str]) -> None:
    """Whatever the memory holds, nothing of it reaches the receipt: the events hold the operation's name (one of the
    log's), its time and 64-hex hashes; the rest of the document is the same for every store."""
    out = mem.remember(content, tags=[t.replace(",", " ") for t in tags], no_diff=True)
    mem.search(content)
    receipt = mem.receipt(limit=3)
    assert set(receipt) == {"schema", "generated_at", "store", "limit", "count", "privacy", "events"}
    assert receipt["privacy"] == mem.receipt(limit=1)["privacy"] and receipt["count"] == len(receipt["events"])
    for event in receipt["events"]:
        assert set(event) <= {"event_name", "operation", "created_at", "insight_id_hash", "detail_hash",
                              "detail_present"}
        assert event["operation"] in LOG_OPS and parse_iso(event["created_at"])
        assert all(HEX64.fullmatch(event[k]) for k in ("insight_id_hash", "detail_hash") if k in event)
        assert event["detail_present"] is ("detail_hash" in event)
    if out["action"] == "added":  # the newest remember event (a search may log its reads after it)
        written = next(e for e in receipt["events"] if e["operation"] == "remember")
        assert written["insight_id_hash"] == _sha(out["id"])


def test_reading_the_receipt_writes_nothing(mem: Mnemon) -> None:
    mem.remember("Alice owns the payment service")
    before = mem.log(limit=100)
    mem.receipt(limit=10)
    mem.receipt()
    assert mem.log(limit=100) == before


def test_an_empty_log_is_an_empty_receipt(mem: Mnemon) -> None:
    got = mem.receipt()
    assert got["count"] == 0 and got["events"] == [] and got["limit"] == 20


@pytest.mark.parametrize("limit", [0, -1, MAX_LOG_LIMIT + 1, True, "5", 2.0, None])
def test_a_limit_log_refuses_is_refused(mem: Mnemon, limit: object) -> None:
    with pytest.raises(InvalidInput, match="--limit must be from 1 to"):
        mem.receipt(limit=limit)  # type: ignore[arg-type]
    with pytest.raises(InvalidInput, match="--limit must be from 1 to"):
        mem.log(limit=limit)  # type: ignore[arg-type]


def test_the_store_is_named_and_a_database_named_by_path_is_not_printed(home: Path, tmp_path: Path) -> None:
    with Mnemon.open(load_config(dict(os.environ), store="work")) as named:
        named.remember("Alice owns the payment service")
        assert named.receipt()["store"] == "work"
    db = tmp_path / "private-folder" / "secret.db"
    with Mnemon.open(load_config(dict(os.environ), db=str(db))) as by_path:
        by_path.remember("Alice owns the payment service")
        got = by_path.receipt()
    assert got["store"] is None and "private-folder" not in json.dumps(got)
