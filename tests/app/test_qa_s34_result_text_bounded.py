"""Recall and search lists bound a result's text (session 34 QA): a vault note of one 4 MB section printed the whole
section for one result (~4 MB of JSON in an agent's context). A longer text is cut to the part holding the query's
words, marked `truncated` with its whole length in `chars`; `show` reads it whole. A memory `remember` can write
(at most 8,000 characters) is shown exactly as before."""
from __future__ import annotations

import json
from pathlib import Path

from mnemon.app.memory import Mnemon
from mnemon.core.validation import MAX_CONTENT_CHARS

FILLER = "alpha beta gamma delta river stone cloud paper metal glass"


def _huge_vault(tmp_path: Path) -> tuple[Path, int]:
    vault = tmp_path / "vault"
    vault.mkdir()
    lines = [f"{FILLER} {n}" for n in range(20_000)]
    lines[15_000] += " the zeppelin hangar key is under the mat"
    (vault / "Huge.md").write_text("# Huge\n\n" + "\n".join(lines) + "\n", encoding="utf-8")
    return vault, len("\n".join(lines))


def test_a_huge_section_is_cut_around_the_query_in_recall_and_search(mem: Mnemon, tmp_path: Path) -> None:
    vault, _size = _huge_vault(tmp_path)
    mem.ingest(str(vault))
    recalled = mem.recall("zeppelin hangar")
    searched = mem.search("zeppelin hangar")
    for payload, row in ((recalled, recalled["results"][0]["insight"]), (searched, searched["results"][0])):
        assert len(json.dumps(payload)) < 4 * MAX_CONTENT_CHARS
        assert row["truncated"] is True and row["chars"] == len(mem.show(row["id"])["content"]) > MAX_CONTENT_CHARS
        assert "zeppelin hangar key" in row["content"] and len(row["content"]) <= MAX_CONTENT_CHARS + 2
        assert row["content"].startswith("…") and row["content"].endswith("…")
        assert "show" in payload["detail_command"]


def test_memories_up_to_the_remember_limit_are_shown_whole(mem: Mnemon) -> None:
    longest = ("zeppelin " + FILLER + " ") * (MAX_CONTENT_CHARS // (len(FILLER) + 10))
    longest = longest[:MAX_CONTENT_CHARS]
    mem.remember(longest)
    mem.remember("The zeppelin hangar opens at dawn")
    for row in [r["insight"] for r in mem.recall("zeppelin", verbose=True)["results"]] + \
            mem.search("zeppelin")["results"]:
        assert "truncated" not in row and "chars" not in row
        assert row["content"] in (longest, "The zeppelin hangar opens at dawn")
    assert "detail_command" not in mem.recall("zeppelin")


def test_the_result_limit_is_what_remember_keeps() -> None:
    from mnemon.app.recall import RESULT_TEXT_CHARS

    assert RESULT_TEXT_CHARS == MAX_CONTENT_CHARS  # (spelt out in recall, which does not load core.validation)
