"""Entity extraction: regex patterns, the tech dictionary, known entities (EN and CJK), and merge modes."""
from __future__ import annotations

import random
import re
from collections.abc import Iterable

from hypothesis import given, settings, strategies as st

from mnemon.core.entities import MAX_ENTITY_CHARS, TECH_TERMS, extract_entities, merge_entities, tech_terms


def test_camelcase_acronyms_paths_urls_handles_and_tech_terms() -> None:
    text = ("Alice moved PaymentService to Kubernetes; see src/app/main.py and https://example.com/doc, "
            "ping @bob_smith about the AWS bill")
    ents = extract_entities(text)
    for expected in ("PaymentService", "Kubernetes", "src/app/main.py", "https://example.com/doc", "@bob_smith",
                     "AWS"):
        assert expected in ents, (expected, ents)


def test_order_is_first_appearance_and_no_duplicates() -> None:
    ents = extract_entities("Redis then Postgres then Redis again")
    assert ents == ["Redis", "Postgres"]


def test_common_uppercase_words_are_not_acronyms() -> None:
    assert extract_entities("IT IS OK TO GO, BTW") == []
    assert extract_entities("the SQS and the SNS") == ["SQS", "SNS"]


def test_chinese_book_title_brackets_yield_the_title() -> None:
    assert "三体" in extract_entities("我在读《三体》这本书")
    assert "项目代号" in extract_entities("他提到「项目代号」很多次")


def test_trailing_punctuation_is_stripped() -> None:
    assert "Redis" in extract_entities("We use Redis.")
    assert all(not e.endswith((".", ",", ";")) for e in extract_entities("Try README.md, then JSON."))


def test_tech_term_inside_a_longer_word_is_not_matched() -> None:
    assert "Go" not in extract_entities("Going forward we keep Gopher")
    assert "Go" in extract_entities("We rewrote it in Go last year")


def test_known_entities_admit_plain_words_and_cjk_ngrams() -> None:
    asked: list[set[str]] = []

    def known(cands: set[str]) -> Iterable[str]:
        asked.append(set(cands))
        return {c for c in cands if c in {"Athena", "张三"}}

    ents = extract_entities("Athena shipped; 张三负责发布", known=known)
    assert "Athena" in ents and "张三" in ents
    # one batched lookup, not one per candidate
    assert len(asked) == 1


def test_without_known_lookup_plain_capitalised_words_are_not_entities() -> None:
    assert "Athena" not in extract_entities("Athena shipped")


def test_merge_modes() -> None:
    provided, extracted = ["Qdrant", "Milvus"], ["Milvus", "Docker"]
    assert merge_entities(provided, extracted, "merge") == ["Qdrant", "Milvus", "Docker"]
    assert merge_entities(provided, extracted, "provided") == ["Qdrant", "Milvus"]
    assert merge_entities(provided, extracted, "auto") == ["Milvus", "Docker"]


def test_overlong_entities_are_dropped() -> None:
    assert merge_entities(["x" * (MAX_ENTITY_CHARS + 1), "ok"], []) == ["ok"]


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=400))
def test_any_text_gives_unique_bounded_entities_found_in_the_text(text: str) -> None:
    ents = extract_entities(text, known=lambda c: set())
    assert len(ents) == len(set(ents))
    for e in ents:
        assert e and len(e) <= MAX_ENTITY_CHARS
        assert e in text


def test_dictionary_terms_match_the_whole_token_alternation() -> None:
    # the scan must find exactly what the plain regex alternation over the dictionary finds
    reference = re.compile(r"(?<![\w.+#-])(" + "|".join(sorted(map(re.escape, TECH_TERMS), key=len, reverse=True))
                           + r")(?=(?:[0-9]++(?:\.[0-9]++)*+)?(?![\w+#]|\.\w))")
    tricky = ("Golang Redis. Node.js-Redis C++/Rust _Redis 9Redis é-Go Go. Go.x C#x C# GPT-4 Next.jsx vue.js Nginx+ "
              "PyTorch#2 (Docker) dbt's uv-based über Kafka—Spark React.Native Vue.js. node.js NODE.JS "
              "Python3.11 C++17 Go1.22.x Redis7.2-alpine Vue3x Java8. Neo4j5 Rust2024+").split()
    words = [*sorted(TECH_TERMS), *tricky, *(f"word{i}" for i in range(100))]
    separators = [" ", ", ", ". ", "-", "/", "\n", "(", ")", ".", "+", "#", "é", "_", "'", "—"]
    rng = random.Random(7)
    for _ in range(2000):
        text = "".join(rng.choice(words) + rng.choice(separators) for _ in range(rng.randint(1, 30)))
        assert tech_terms(text) == [(m.start(), m.group(1)) for m in reference.finditer(text)], text
