"""A question naming a version finds the memories naming that version. Split at its dots, 'mnemon search 2.3.1'
answered 'Bumped lodash from 1.2.3 to 1.2.4' first (it holds a 1, a 2 and a 3 twice), and 'what changed in v2.3.1?'
also found 'The v2 endpoints…' and 'We need 3 more replicas'; 'python 3.11' answered 'Python 3.12…' first. A version
or dotted number is now one token (tokens: tests/core/test_qa_s40_version_tokens.py)."""
from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core import keywords, text

UPGRADE = "Upgraded the API to v2.3.1 last night"
ROLLBACK = "Rolled back to 2.3.10 after the outage"
V2 = "The v2 endpoints are deprecated"
REPLICAS = "We need 3 more replicas"
MEETING = "The meeting took 3.5 hours"
PRIMARY = "Server 10.0.0.12 is the primary database"
GATEWAY = "Server 10.0.0.1 is the gateway"
RC1 = "Released 2.0.0-rc.1 to staging"
RC2 = "Released 2.0.0-rc.2 to staging"
PY311 = "Runs on python3.11"
PY312 = "Python 3.12 dropped distutils"
NODE = "Requires node@18.2"
LODASH = "Bumped lodash from 1.2.3 to 1.2.4"
ALL = (UPGRADE, ROLLBACK, V2, REPLICAS, MEETING, PRIMARY, GATEWAY, RC1, RC2, PY311, PY312, NODE, LODASH)


def _searched(mem: Mnemon, query: str) -> list[str]:
    return [r["content"] for r in mem.search(query)["results"]]


def _recalled(mem: Mnemon, query: str) -> list[str]:
    return [r["insight"]["content"] for r in mem.recall(query)["results"] if r["signals"]["keyword"] > 0]


@pytest.mark.parametrize(("query", "expected"), [
    ("what changed in v2.3.1?", [UPGRADE]), ("2.3.1", [UPGRADE]), ("2.3.10", [ROLLBACK]),
    ("10.0.0.12", [PRIMARY]), ("10.0.0.1", [GATEWAY]), ("2.0.0-rc.1", [RC1]), ("3.5", [MEETING]),
    ("node 18.2", [NODE]), ("1.2.4", [LODASH]),
])
def test_a_question_naming_a_version_finds_only_the_memories_naming_it(
        mem: Mnemon, query: str, expected: list[str]) -> None:
    for content in ALL:
        mem.remember(content, no_diff=True)
    assert _searched(mem, query) == expected
    assert _recalled(mem, query) == expected


def test_a_named_version_outranks_another_version_of_the_same_thing(mem: Mnemon) -> None:
    for content in ALL:
        mem.remember(content, no_diff=True)
    assert _searched(mem, "python 3.11") == [PY311, PY312]
    keyword = {r["insight"]["content"]: r["signals"]["keyword"] for r in mem.recall("python 3.11")["results"]}
    assert keyword[PY311] == 1.0 and keyword[PY312] < keyword[PY311]


def test_words_beside_a_version_still_find_it(mem: Mnemon) -> None:
    for content in ALL:
        mem.remember(content, no_diff=True)
    assert _searched(mem, "3.5 hours")[0] == MEETING
    assert set(_searched(mem, "python")) == {PY311, PY312}
    assert set(_searched(mem, "v2")) == {V2}


def test_a_store_indexed_with_split_versions_is_reindexed_on_open(
        make_mem: Callable[..., Mnemon], monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as old:  # the tokenizer and recipe of the release before
        old.setattr(text, "_VERSION_HINT", re.compile("(?!)"))
        old.setattr(keywords, "KEYWORD_RECIPE", "keywords/4")
        before = make_mem()
        for content in (UPGRADE, ROLLBACK, REPLICAS):
            before.remember(content, no_diff=True)
        assert set(_searched(before, "2.3.1")) == {UPGRADE, ROLLBACK, REPLICAS}
        before.close()
    after = make_mem()  # the same store, opened by this release
    assert _searched(after, "2.3.1") == [UPGRADE]
    assert _recalled(after, "2.3.10") == [ROLLBACK]
    after.forget(after.search("2.3.1")["results"][0]["id"])  # the index holds what removal hands back
    assert _searched(after, "2.3.1") == []
    assert _searched(after, "2.3.10") == [ROLLBACK]


def test_a_date_written_with_dots_is_found_by_its_year(mem: Mnemon) -> None:
    mem.remember("Contract signed on 12.02.2026 with Acme", no_diff=True)
    assert _searched(mem, "2026") == ["Contract signed on 12.02.2026 with Acme"]
    assert _searched(mem, "12.02.2026") == ["Contract signed on 12.02.2026 with Acme"]
