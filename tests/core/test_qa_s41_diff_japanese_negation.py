"""Japanese denials are a CONFLICT as their Chinese and English ones are: "東京オフィスはもう渋谷にありません" (the
Tokyo office is no longer in Shibuya) after "東京オフィスは渋谷にあります", "テストは通りませんでした" after
"テストは通りました" and the plain "本番環境ではRedisを使っていない" after "…使っている" were UPDATEs with no reason:
the polite ending (ます / ません, ました / ませんでした), the もう of "no longer" and the plain negative ない were
read as other words, which pulled the pair under the conflict threshold. The same sentence said twice still agrees."""
from __future__ import annotations

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.diff import diff_suggestion

DENIED = [
    ("東京オフィスは渋谷にあります", "東京オフィスはもう渋谷にありません"),
    ("テストは通りました", "テストは通りませんでした"),
    ("本番環境ではRedisを使っている", "本番環境ではRedisを使っていない"),
    ("チームはSlackを使っています", "チームはもうSlackを使っていません"),
    ("金曜日のデプロイは許可されています", "金曜日のデプロイは許可されていません"),
]


@pytest.mark.parametrize(("old", "new"), DENIED, ids=[d[1] for d in DENIED])
def test_a_japanese_denial_is_a_conflict(old: str, new: str) -> None:
    for a, b in ((old, new), (new, old)):
        verdict, matches = diff_suggestion(b, [("old", a, None)])
        assert verdict == "CONFLICT" and matches[0].suggestion == "CONFLICT", (b, a, matches)
        assert matches[0].reason


AGREE = [
    ("東京オフィスは渋谷にあります", "東京オフィスは今も渋谷にあります"),
    ("本番環境ではRedisを使っていない", "本番環境ではもうRedisを使っていません"),
    ("在庫は少ない", "在庫はとても少ない"),
]


@pytest.mark.parametrize(("old", "new"), AGREE, ids=[a[1] for a in AGREE])
def test_the_same_polarity_is_no_conflict(old: str, new: str) -> None:
    for a, b in ((old, new), (new, old)):
        verdict, matches = diff_suggestion(b, [("old", a, None)])
        assert verdict != "CONFLICT", (b, a, matches)


def test_remember_calls_the_japanese_denial_a_conflict(mem: Mnemon) -> None:
    old = mem.remember("東京オフィスは渋谷にあります")
    out = mem.remember("東京オフィスはもう渋谷にありません")
    assert out["diff_suggestion"] == "CONFLICT" and out["diff_matches"][0]["id"] == old["id"]
