"""A memory is found by the emoji in it: `remember "Deploy went out 🚀 on friday"` then `recall "🚀"` answered
`{"results": [], "hint": "sparse_results"}` and `search "🚀"` nothing, as the tokenizer dropped every emoji. Runs on
SQLite and PostgreSQL (tokens: tests/core/test_qa_s43_emoji_tokens.py)."""
from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from unittest.mock import patch

import pytest

from mnemon.app.integrations.hooks import only_acknowledges
from mnemon.app.memory import Mnemon
from mnemon.core import keywords, text

ROCKET = "Deploy went out 🚀 on friday"
FIRE = "The staging database is on fire 🔥 again"
THUMBS = "Review approved 👍🏽 by Ana"
WARNING = "⚠️ the certificate expires soon"
DONE = "Migrated the billing tables done✅"
CODER = "Pairing session 👩‍💻 with Bo"
LAPTOP = "Bought a new laptop 💻 for the team"
FRANCE = "Trip to Lyon 🇫🇷 booked"
STEP = "Step 1️⃣ is the backup"
PLAIN = "Deploy checklist for friday"
ALL = (ROCKET, FIRE, THUMBS, WARNING, DONE, CODER, LAPTOP, FRANCE, STEP, PLAIN)


def _searched(mem: Mnemon, query: str) -> list[str]:
    return [r["content"] for r in mem.search(query)["results"]]


def _recalled(mem: Mnemon, query: str) -> list[str]:
    return [r["insight"]["content"] for r in mem.recall(query)["results"] if r["signals"]["keyword"] > 0]


@pytest.fixture
def emoji_mem(mem: Mnemon) -> Mnemon:
    for content in ALL:
        mem.remember(content, no_diff=True)
    return mem


@pytest.mark.parametrize(("query", "expected"), [
    ("🚀", [ROCKET]), ("🔥", [FIRE]), ("👍", [THUMBS]), ("👍🏿", [THUMBS]), ("⚠", [WARNING]), ("⚠️", [WARNING]),
    ("✅", [DONE]), ("✔", []), ("🇫🇷", [FRANCE]), ("🇩🇪", []), ("1️⃣", [STEP]), ("what shipped 🚀?", [ROCKET]),
])
def test_a_memory_is_found_by_its_emoji(emoji_mem: Mnemon, query: str, expected: list[str]) -> None:
    assert _searched(emoji_mem, query) == expected
    assert _recalled(emoji_mem, query) == expected


def test_recall_of_an_emoji_is_no_longer_sparse(emoji_mem: Mnemon) -> None:
    out = emoji_mem.recall("🚀")
    assert [r["insight"]["content"] for r in out["results"]][:1] == [ROCKET]


def test_a_zwj_sequence_is_found_whole_first_and_by_its_parts(emoji_mem: Mnemon) -> None:
    assert _searched(emoji_mem, "👩‍💻")[0] == CODER
    assert set(_searched(emoji_mem, "💻")) == {CODER, LAPTOP}


def test_words_beside_an_emoji_still_find_it(emoji_mem: Mnemon) -> None:
    assert set(_searched(emoji_mem, "friday")) == {ROCKET, PLAIN}
    assert _searched(emoji_mem, "billing") == [DONE]
    assert _searched(emoji_mem, "deploy 🚀")[0] == ROCKET


def test_a_store_indexed_without_emoji_is_reindexed_on_open(make_mem: Callable[..., Mnemon]) -> None:
    # (the release before: no emoji step, its recipe)
    with patch.object(text, "EMOJI", re.compile("(?!)")), patch.object(keywords, "KEYWORD_RECIPE", "keywords/8"):
        before = make_mem()
        before.import_json([{"content": c} for c in (ROCKET, FIRE, PLAIN)], no_diff=True)
        assert _searched(before, "🚀") == [] and len(_searched(before, "friday")) == 2
        before.close()
    after = make_mem()  # the same store, opened by this release
    rocket = after.search("🚀")["results"]
    assert [r["content"] for r in rocket] == [ROCKET] and _recalled(after, "🔥") == [FIRE]
    after.forget(rocket[0]["id"])  # the index holds what removal hands back
    assert (_searched(after, "🚀"), _searched(after, "🔥")) == ([], [FIRE])


def test_a_vault_note_is_found_by_its_status_emoji(mem: Mnemon, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "Release.md").write_text("# Release 🚀\n\n- ✅ tests green\n- ❌ docs missing\n- ⚠️ flaky upload\n",
                                      encoding="utf-8")
    (vault / "Chores.md").write_text("# Chores\n\n- tests to write\n", encoding="utf-8")
    mem.ingest(str(vault))
    for emoji, line in (("❌", "❌ docs missing"), ("✅", "✅ tests green"), ("⚠", "⚠️ flaky upload")):
        assert [line in r["content"] for r in mem.search(emoji)["results"]] == [True]
    items = mem.retrieve("🚀")["items"]
    assert items[0]["title"] == "Release 🚀" and items[0]["matched_terms"] == ["🚀"]


@pytest.mark.parametrize("prompt", ["thanks 🙏", "👍", "👍🏽", "ok 👌", "lgtm ✅", "great, thanks! 🎉", "❤️"])
def test_an_acknowledgement_with_an_emoji_still_only_acknowledges(prompt: str) -> None:
    """(the prompt hook adds no memories for it, as it did when emoji were no tokens)"""
    assert only_acknowledges(prompt)


@pytest.mark.parametrize("prompt", ["🚀", "thanks 🚀", "👍 the billing migration"])
def test_an_emoji_of_substance_is_asked_about(prompt: str) -> None:
    assert not only_acknowledges(prompt)
