"""`mnemon bench recall` on any data in the neutral JSONL format, not only LoCoMo: a small hand-written set."""
from __future__ import annotations

import json
from pathlib import Path

from mnemon.app.bench.locomo import run_bench
from mnemon.ports.embed.registry import get_provider


def _write(directory: Path, memories: list[dict], queries: list[dict]) -> Path:
    directory.mkdir()
    for name, rows in (("memories", memories), ("queries", queries)):
        (directory / f"{name}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return directory


def _turn(k: int, when: str, speaker: str, text: str) -> dict:
    return {"type": "memory", "id": f"t:s:{k}", "sample_id": "s", "session_id": f"t:s:{when[:10]}",
            "session_index": k, "turn_index": 0, "speaker": speaker, "text": text, "timestamp": when}


def test_a_question_with_its_own_date_is_answered_as_of_that_date(tmp_path: Path) -> None:
    memories = [_turn(1, "2022-06-14T10:00:00", "Anna", "I baked a rhubarb pie for the neighbours"),
                _turn(2, "2023-06-14T10:00:00", "Anna", "I baked a lemon pie for the neighbours"),
                _turn(3, "2023-09-01T10:00:00", "Anna", "Autumn is here, no more baking outside")]
    queries = [{"type": "query", "id": "t:s:q1", "sample_id": "s", "question": "What pie did Anna bake in June?",
                "category": "temporal", "gold_ids": ["t:s:1"], "gold_session_ids": ["t:s:2022-06-14"],
                "question_date": "2022-07-01T09:00:00", "skip": False},
               {"type": "query", "id": "t:s:q2", "sample_id": "s", "question": "What pie did Anna bake in June?",
                "category": "temporal", "gold_ids": ["t:s:2"], "gold_session_ids": ["t:s:2023-06-14"],
                "question_date": None, "skip": False}]
    data = _write(tmp_path / "set", memories, queries)
    out = tmp_path / "run.jsonl"
    result = run_bench(str(data), str(out), get_provider("none"))
    ranked = {r["query_id"]: r["ranked"] for r in map(json.loads, out.read_text().splitlines())}
    assert ranked["t:s:q1"][0] == "t:s:1"  # asked in July 2022: last June is June 2022
    assert ranked["t:s:q2"][0] == "t:s:2"  # no date given: asked after the last turn, so June 2023
    assert result["turn"]["overall"]["recall_any@1"] == 1.0


def test_data_without_dates_or_sample_ids_is_one_conversation_in_its_given_order(tmp_path: Path) -> None:
    memories = [{"id": f"m{k}", "role": "user" if k % 2 else "assistant", "text": text, "session_index": 1,
                 "turn_index": k} for k, text in enumerate([
                     "Hello! How can I help today?", "Which of my plants needs the least water?",
                     "The cactus you bought in Lisbon needs water once a month.", "Thanks, noted."])]
    queries = [{"id": "q1", "question": "how often does the cactus need water", "gold_ids": ["m2"],
                "category": "single-hop"}]
    data = _write(tmp_path / "plain", memories, queries)
    result = run_bench(str(data), None, get_provider("none"))
    assert result["samples"] == ["all"] and result["queries_run"] == 1
    assert result["turn"]["overall"]["recall_any@1"] == 1.0


def test_a_turn_names_its_speaker_else_its_role() -> None:
    from mnemon.app.bench.locomo import memory_text

    assert memory_text({"speaker": "Caroline", "role": "speaker_a", "text": "Hi"}) == "Caroline: Hi"
    assert memory_text({"role": "assistant", "text": "Hello"}) == "assistant: Hello"
    assert memory_text({"text": "Hm"}) == "someone: Hm"


def test_malformed_data_is_a_clear_error_naming_the_line(tmp_path: Path) -> None:
    import pytest

    from mnemon.core.errors import InvalidInput

    good = [_turn(1, "2023-01-01T10:00:00", "Anna", "hello")]
    for bad, message in (("not json", "queries.jsonl line 2 is not JSON"),
                         (json.dumps({"id": "q2"}), "queries.jsonl line 2 lacks question")):
        data = _write(tmp_path / f"bad{len(message)}", good, [])
        (data / "queries.jsonl").write_text(json.dumps({"id": "q1", "question": "hi", "sample_id": "s"}) + "\n" + bad
                                            + "\n", encoding="utf-8")
        with pytest.raises(InvalidInput, match=message):
            run_bench(str(data), None, get_provider("none"))
