"""A Japanese "moved / switched from X to Y" retires X as "moved from" and 从…搬到 do: "東京オフィスは渋谷から新宿に
移転しました" (the Tokyo office moved from Shibuya to Shinjuku) after "東京オフィスは渋谷にあります", and
"チームはSlackからZulipに切り替えました" after "チームはSlackを使っています", were ADDs (a quarter of their characters
in common): the agent kept the old place and the old tool as current. Either order is a CONFLICT naming the cue;
"from … to" with no verb of change ("月曜日から金曜日まで", "東京から大阪に送りました") retires nothing."""
from __future__ import annotations

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.diff import diff_suggestion

MOVED = [
    ("東京オフィスは渋谷にあります", "東京オフィスは渋谷から新宿に移転しました", "渋谷"),
    ("チームはSlackを使っています", "チームはSlackからZulipに切り替えました", "Slack"),
    ("本番DBはMySQLです", "本番DBはMySQLからPostgresに移行しました", "MySQL"),
]


@pytest.mark.parametrize(("old", "new", "value"), MOVED, ids=[m[1] for m in MOVED])
def test_a_japanese_move_from_a_value_conflicts_with_it(old: str, new: str, value: str) -> None:
    for a, b in ((old, new), (new, old)):
        verdict, matches = diff_suggestion(b, [("old", a, None)])
        assert verdict == "CONFLICT" and matches[0].suggestion == "CONFLICT", (b, a, matches)
        assert f'retires "{value}"' in matches[0].reason, matches[0].reason


NO_CHANGE = [
    ("チームは月曜日に休みます", "チームは月曜日から金曜日まで働きます"),
    ("荷物は東京にあります", "荷物は東京から大阪に送りました"),
    ("東京オフィスは渋谷にあります", "大阪オフィスは梅田から難波に移転しました"),
]


@pytest.mark.parametrize(("old", "new"), NO_CHANGE, ids=[n[1] for n in NO_CHANGE])
def test_from_to_without_a_change_of_the_same_subject_retires_nothing(old: str, new: str) -> None:
    verdict, matches = diff_suggestion(new, [("old", old, None)])
    assert verdict != "CONFLICT", matches


def test_remember_flags_the_old_office_as_contradicted(mem: Mnemon) -> None:
    old = mem.remember("東京オフィスは渋谷にあります")
    out = mem.remember("東京オフィスは渋谷から新宿に移転しました")
    assert out["diff_suggestion"] == "CONFLICT"
    assert any(m["id"] == old["id"] and m["suggestion"] == "CONFLICT" for m in out["diff_matches"])
