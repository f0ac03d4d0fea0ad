"""Memories in many languages are found by the words a user types, on SQLite and PostgreSQL alike: a word inside a
spaceless Thai or Japanese sentence, a Korean word with its particle, Hindi and Tamil words (marks inside them),
Arabic and Hebrew typed without harakat or niqqud, "İstanbul" typed as "istanbul", full-width "ＡＰＩ", NFD text."""
from __future__ import annotations

import unicodedata

import pytest

_MEMORIES = {
    "rice": "ผมชอบกินข้าวผัดที่ร้านใกล้บ้าน",
    "tokyo": "先週東京に行きました。新宿で寿司を食べた。",
    "seoul": "서울은 정말 좋은 도시입니다",
    "delhi": "मेरी बहन दिल्ली में रहती है",
    "tamil": "நான் தமிழ் பேசுவேன்",
    "letter": "كَتَبَ أحمد الرسالة إلى المدير",
    "hebrew": "שָׁלוֹם לכל החברים בצוות",
    "turkey": "Wir treffen uns in İstanbul am Bosporus",
    "api": "Die ＡＰＩ läuft auf Port ８０８０",
    "cafe": unicodedata.normalize("NFD", "Rendez-vous au café de la Mairie"),
}
_QUERIES = [("ข้าวผัด", "rice"), ("東京", "tokyo"), ("新宿", "tokyo"), ("서울", "seoul"), ("दिल्ली", "delhi"),
            ("தமிழ்", "tamil"), ("كتب", "letter"), ("שלום", "hebrew"), ("ISTANBUL", "turkey"), ("api 8080", "api"),
            ("cafe mairie", "cafe"), ("Café", "cafe")]


@pytest.mark.parametrize(("query", "key"), _QUERIES)
def test_each_memory_is_found_by_its_plain_words(mem, query: str, key: str) -> None:
    ids = {name: mem.remember(text)["id"] for name, text in _MEMORIES.items()}
    assert [hit["id"] for hit in mem.search(query)["results"]][:1] == [ids[key]]
    assert ids[key] in [hit["insight"]["id"] for hit in mem.recall(query)["results"]]
