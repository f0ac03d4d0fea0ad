"""Keyword search and recall find an accented name typed without its accents (tokens: tests/core/test_accent_folding.py)
— "Zoe" found nothing for "Zoë", and "cafe lease" found the café note only by "lease"."""
from __future__ import annotations

from mnemon.app.memory import Mnemon

TEXT = "Zoë signed the café lease in Malmö"


def test_search_and_recall_find_an_accented_name_typed_plain(mem: Mnemon) -> None:
    mem.remember(TEXT)
    for query in ("Zoe", "cafe lease", "Malmo"):
        assert [r["content"] for r in mem.search(query)["results"]] == [TEXT]
        recalled = mem.recall(query)["results"]
        assert [r["insight"]["content"] for r in recalled] == [TEXT] and recalled[0]["signals"]["keyword"] > 0
