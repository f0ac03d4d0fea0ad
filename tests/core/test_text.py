"""The shared tokenizer: what keyword search, diff, causal overlap and recall all see."""
from __future__ import annotations

from hypothesis import example, given, settings, strategies as st

from mnemon.core.text import excerpt, jaccard, normalize, overlap_max, query_coverage, stem, token_set, tokens


def _stems(*words: str) -> list[str]:
    return [stem(w) for w in words]


def test_english_words_are_lowercased_and_stopwords_dropped() -> None:
    assert tokens("The Deploy failed because OF the Cache") == _stems("deploy", "failed", "cache")


def test_stopwords_can_be_kept_on_request() -> None:
    assert tokens("the cache", keep_stopwords=True) == _stems("the", "cache")


def test_inflections_of_one_word_meet() -> None:
    assert token_set("deployments failed") == token_set("deployment fails")


def test_chinese_is_split_into_overlapping_bigrams() -> None:
    assert tokens("向量数据库") == ["向量", "量数", "数据", "据库"]


def test_single_cjk_character_stays_a_token_and_mixed_scripts_split_at_the_boundary() -> None:
    assert tokens("用Redis缓存") == ["用", stem("redis"), "缓存"]


def test_chinese_query_matches_a_chinese_memory_by_shared_bigrams() -> None:
    memory = token_set("我们决定使用向量数据库存储嵌入")
    query = token_set("向量数据库")
    assert query_coverage(query, memory) == 1.0


def test_japanese_kana_and_korean_are_bigrammed_too() -> None:
    assert tokens("カタカナ") == ["カタ", "タカ", "カナ"]
    assert tokens("한국어") == ["한국", "국어"]


def test_fullwidth_and_compatibility_forms_are_normalised() -> None:
    assert tokens("ＳＱＬｉｔｅ") == tokens("sqlite") == [stem("sqlite")]
    assert normalize("Ｆｏｏ") == "foo"


def test_apostrophes_keep_contractions_whole_and_curly_equals_straight() -> None:
    assert tokens("team’s choice") == tokens("team's choice")
    assert len(tokens("team's choice")) == 2
    assert tokens("don’t") == []  # a stopword in either spelling


def test_punctuation_and_underscores_separate_words() -> None:
    assert tokens("user_id, api-key; v2!") == _stems("user", "id", "api", "key", "v2")
    assert tokens("v2.0!") == ["v", "2.0"]  # a version is one word (tests/core/test_qa_s40_version_tokens.py)


def test_overlap_and_similarity_measures() -> None:
    a, b = frozenset({"x", "y", "z", "w"}), frozenset({"x", "y"})
    assert overlap_max(a, b) == 0.5
    assert jaccard(a, b) == 0.5
    assert query_coverage(b, a) == 1.0
    assert overlap_max(a, frozenset()) == jaccard(frozenset(), b) == query_coverage(frozenset(), a) == 0.0


def test_excerpt_collapses_whitespace_and_marks_truncation() -> None:
    assert excerpt("a  b\n c", 10) == "a b c"
    out = excerpt("word " * 50, 20)
    assert len(out) <= 20 and out.endswith("…")


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_tokens_never_fail_and_are_normalised_lowercase_without_stopwords(text: str) -> None:
    toks = tokens(text)
    for t in toks:
        assert t and t == t.lower()
        assert not any(ch.isspace() for ch in t)
    assert set(toks) == set(token_set(text))


@settings(max_examples=100, deadline=None)
@given(st.text(), st.text())
def test_similarities_stay_in_unit_interval_and_are_symmetric(x: str, y: str) -> None:
    a, b = token_set(x), token_set(y)
    for v in (overlap_max(a, b), jaccard(a, b), query_coverage(a, b)):
        assert 0.0 <= v <= 1.0
    assert overlap_max(a, b) == overlap_max(b, a)
    assert jaccard(a, b) == jaccard(b, a)
    if a:
        assert jaccard(a, a) == 1.0


_WORDISH = st.text(alphabet=st.sampled_from(list("abcdefghijklmnopqrstuvwxyz'’ -_.,0123456789ÉéçÄ")), max_size=80)


@settings(max_examples=300, deadline=None)
@given(st.one_of(_WORDISH, st.text(max_size=80)), st.booleans())
@example("0\u09c7", False)  # (a digit with a vowel sign after it: one word)
@example("i\u0307stanbul'da hi\u0300", True)
def test_tokens_are_each_words_stem_in_order_with_stopwords_dropped_unless_kept(text: str, keep: bool) -> None:
    """The words' stems in order, duplicates kept: what the per-word lookup tables must give (a word's stem is
    cached per word, a stopword maps to nothing). The words are those of the text with camelCase words' parts
    added (tests/core/test_qa_s39_camel_tokens.py) and each version one word between them
    (tests/core/test_qa_s40_version_tokens.py)."""
    import re
    import unicodedata

    from mnemon.core.text import _IN_WORD_FORMATS, _MARK_SPANS, STOPWORDS, VERSION, has_emoji, with_camel_parts

    norm = unicodedata.normalize("NFKC", with_camel_parts(text)).lower()
    if re.search("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]", norm):
        return  # (CJK runs become bigrams: tested above)
    if has_emoji(norm):
        return  # (emoji are tokens of their own: tests/core/test_qa_s43_emoji_tokens.py)
    # a letter or digit keeps the marks after it ("0ে", "हिन्दी": tests/core/test_qa_s41_script_marks.py)
    marks = "".join(re.escape(chr(c)) for first, end in _MARK_SPANS for c in range(first, end)
                    if unicodedata.category(chr(c))[0] == "M") + _IN_WORD_FORMATS
    unit = rf"[^\W_][{marks}]*" if not norm.isascii() else r"[^\W_]"
    word = rf"(?:{unit})+(?:['’](?:{unit})+)?"
    words = []
    for i, piece in enumerate(re.split(f"({VERSION.pattern})", norm)):  # (versions at the odd places)
        words += [w.replace("’", "'") for w in re.findall(word, piece)] if i % 2 == 0 else [piece]
    expected = [stem(w) for w in words if keep or w not in STOPWORDS]
    assert tokens(text, keep_stopwords=keep) == expected
