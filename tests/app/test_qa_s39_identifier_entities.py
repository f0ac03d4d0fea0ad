"""An env var, an error code or a signal is an entity: 'mnemon remember "Set DATABASE_URL before boot"' stored no
entity (the acronym pattern takes 2..6 capitals, no underscore, no digit), nor did "ECONNREFUSED when calling redis" or
"ERR_OSSL_EVP_UNSUPPORTED on node 17", so two memories naming the same one were never linked by it."""
from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from mnemon.app.memory import Mnemon
from mnemon.core.entities import IDENTIFIER_CHARS, extract_entities


def _entity_links(mem: Mnemon, node_id: str) -> dict[str, str]:
    return {e["target_id"] if e["source_id"] == node_id else e["source_id"]: e["metadata"]["entity"]
            for e in mem.show(node_id)["edges"] if e["edge_type"] == "entity"}


def test_memories_naming_one_env_var_or_error_code_are_linked_by_it(mem: Mnemon) -> None:
    boot = mem.remember("Set DATABASE_URL and SENTRY_DSN before boot, or the worker exits")
    node = mem.remember("NODE_OPTIONS=--openssl-legacy-provider fixes ERR_OSSL_EVP_UNSUPPORTED on node 17")
    refused = mem.remember("ECONNREFUSED when the worker calls redis on localhost")
    rotated = mem.remember("Rotated the password in DATABASE_URL on staging")
    again = mem.remember("ECONNREFUSED again: redis was not started by docker compose")
    assert mem.show(boot["id"])["entities"] == ["DATABASE_URL", "SENTRY_DSN"]
    assert mem.show(node["id"])["entities"] == ["NODE_OPTIONS", "ERR_OSSL_EVP_UNSUPPORTED"]
    assert _entity_links(mem, boot["id"]).get(rotated["id"]) == "DATABASE_URL"
    assert _entity_links(mem, refused["id"]).get(again["id"]) == "ECONNREFUSED"
    assert refused["id"] not in _entity_links(mem, boot["id"])


@pytest.mark.parametrize(("text", "expected"), [
    ("export AWS_S3_BUCKET=x; echo ${SENTRY_DSN}", ["AWS_S3_BUCKET", "SENTRY_DSN"]),
    ("rustc says E0425, tsc says TS2345, shellcheck SC2086", ["E0425", "TS2345", "SC2086"]),
    ("the pod got SIGKILL after SIGTERM was ignored", ["SIGKILL", "SIGTERM"]),
    ("ETIMEDOUT then EADDRINUSE then ENOTFOUND", ["ETIMEDOUT", "EADDRINUSE", "ENOTFOUND"]),
    ("WARNING: ECONNREFUSED ON PROD AGAIN", ["ECONNREFUSED"]),  # a system's own name, even shouted
    ("DATABASE_URL IS NOT SET IN PROD", ["DATABASE_URL"]),
])
def test_identifiers_are_entities(text: str, expected: list[str]) -> None:
    assert extract_entities(text) == expected
    assert extract_entities(text, known=lambda words: set()) == expected


@pytest.mark.parametrize("text", [
    "DO NOT MERGE", "URGENT: call me", "IMPORTANT: rotate the key", "WARNING, EVERYONE", "CONFIDENTIAL draft",
    "ABSOLUTELY NOT", "Q3 2024 roadmap", "P99 latency is 40 ms", "X86 box", "MP3 files",
    "snake_case_name and Mixed_Case", "__init__ and _PRIVATE and MAX_", "A_B", "2024_01_05 backup",
    "DATABASE_URL_v2",
])
def test_near_misses_are_no_entities(text: str) -> None:
    assert extract_entities(text) == [], text
    assert extract_entities(text, known=lambda words: set()) == [], text


@given(st.from_regex(r"[A-Z][A-Z0-9]{0,20}(_[A-Z0-9]{1,20}){1,4}", fullmatch=True))
def test_an_identifier_of_capitals_digits_and_underscores_is_one_entity_up_to_its_bound(name: str) -> None:
    found = extract_entities(f"set {name} first")
    assert found == ([name] if 4 <= len(name) <= IDENTIFIER_CHARS else []), name
