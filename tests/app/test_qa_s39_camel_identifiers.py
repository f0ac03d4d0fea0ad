"""A coding agent asks for an identifier however it is written: `mnemon search parseConfig` found nothing for a memory
saying parse_config (and 'connection pool' nothing for ConnectionPool), while 'parse config' found it. A camelCase
word is tokenised as its words and itself (tokens: tests/core/test_qa_s39_camel_tokens.py)."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core import keywords, text

SNAKE = "parse_config is defined in src/app/config.py; it reads settings.toml"
CAMEL = "Release v2.3.1 fixed the leak in the websocket handler (class ConnectionPool)"
FRONTEND = "The frontend function parseUserInput strips zero-width characters"
OTHER = "The dev server listens on port 8080"


def _found(mem: Mnemon, query: str) -> tuple[list[str], list[str]]:
    searched = [r["content"] for r in mem.search(query)["results"]]
    recalled = [r["insight"]["content"] for r in mem.recall(query)["results"] if r["signals"]["keyword"] > 0]
    return searched, recalled


@pytest.mark.parametrize(("query", "expected"), [
    ("parseConfig", SNAKE), ("parse_config", SNAKE), ("parse config", SNAKE),
    ("connection pool", CAMEL), ("connection_pool", CAMEL), ("ConnectionPool", CAMEL), ("connectionpool", CAMEL),
    ("parse_user_input", FRONTEND), ("parseUserInput", FRONTEND),
])
def test_an_identifier_is_found_however_it_is_written(mem: Mnemon, query: str, expected: str) -> None:
    for content in (SNAKE, CAMEL, FRONTEND, OTHER):
        mem.remember(content, no_diff=True)
    searched, recalled = _found(mem, query)
    assert searched and searched[0] == expected
    assert recalled and recalled[0] == expected


def test_a_store_indexed_before_camel_words_were_split_is_reindexed_on_open(
        make_mem: Callable[..., Mnemon], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "old.db"
    with monkeypatch.context() as old:  # the tokenizer and recipe of the release before
        old.setattr(text, "with_camel_parts", lambda t: t)
        old.setattr(keywords, "KEYWORD_RECIPE", "keywords/3")
        before = make_mem(db=db)
        before.remember(CAMEL, no_diff=True)
        assert before.search("connection pool")["results"] == []
        before.close()
    after = make_mem(db=db)
    assert [r["content"] for r in after.search("connection pool")["results"]] == [CAMEL]
    after.forget(after.search("ConnectionPool")["results"][0]["id"])  # the index holds what removal hands back
    assert after.search("ConnectionPool")["results"] == []
