"""Vault ingestion's shortcuts give exactly what the plain computations give.

Planning a note takes shortcuts on the common case — ASCII text read with byte tables instead of regexes, simple
front matter read without the YAML library, a note's bullets dated and titled once instead of one by one — and each
shortcut promises the very same output. These properties compare each one with the plain computation it replaces.
"""
from __future__ import annotations

from datetime import date

import yaml
from hypothesis import given, settings, strategies as st

from mnemon.core.keywords import keyword_text, vault_keyword_text
from mnemon.core.text import _marked_words, _words, normalize, token_text, tokens
from mnemon.core.vault.dates import _ISO_TAIL, date_spans, dated_days, dated_days_each
from mnemon.core.vault.frontmatter import simple_yaml
from mnemon.core.vault.observations import _WORD as _SCORE_WORD
from mnemon.core.vault.observations import STATUS_FAMILIES, _TermIndex, _word_set, hint_hits, matched_families, score_text
from mnemon.core.vault.proactive import words_of

# ASCII-heavy text with the characters the shortcuts must get right: apostrophes, underscores, every ASCII space,
# and a few non-ASCII ones that change under NFKC or lower-casing (final sigma, dotted I, a spacing diaeresis).
_TRICKY = st.lists(st.sampled_from(list("aZ9 _'-.,:\t\n\x0b\x0c\x1c\x1f") + ["’", "Σ", "İ", "¨", "\u00a0", "ſ",
                                                                                "東京", "é", "e\u0301", "ab"]),
                   max_size=30).map("".join)


@settings(max_examples=400, deadline=None)
@given(_TRICKY)
def test_the_byte_table_finds_the_words_the_word_pattern_finds(text: str) -> None:
    norm = normalize(text)
    assert _words(norm) == _marked_words().findall(norm.replace("’", "'"))  # (`_WORD` with marks in words)


@settings(max_examples=300, deadline=None)
@given(_TRICKY)
def test_token_text_is_the_tokens_joined(text: str) -> None:
    assert token_text(text) == " ".join(tokens(text))


@settings(max_examples=300, deadline=None)
@given(_TRICKY, _TRICKY)
def test_a_vault_rows_keyword_text_from_its_title_tokens_and_content_tokens(title: str, content: str) -> None:
    assert vault_keyword_text(token_text(title), token_text(content)) == \
        keyword_text(title, content, "vault:a.md", None)


@settings(max_examples=300, deadline=None)
@given(_TRICKY)
def test_a_bullets_proactive_words_are_its_keyword_tokens(text: str) -> None:
    assert words_of(text) == frozenset(token_text(text).split())


@settings(max_examples=300, deadline=None)
@given(_TRICKY)
def test_the_scorers_word_set_is_the_word_pattern_s(text: str) -> None:
    lowered = text.lower()
    assert _word_set(lowered) == set(_SCORE_WORD.findall(lowered))


# -- status families and hints: a phrase's regex runs only when its words are there ----------------------------------

_PHRASE_PIECES = st.sampled_from(["need to", "to do", "needs", "follow up", "follow-up", "fix:", "fix", "wrong:",
                                  "updated:", "prefix", "to", "do", "todo", "c++", "tax_", "tax_x", "ſtuck up",
                                  "stuck up", "Fıx:", "e.g.", "NEED  TO", " ", ",", "-", "paid", "x"])


def _naive_terms(index: _TermIndex, lowered: str, words: set[str]) -> list[tuple[str, str]]:
    found = list(dict.fromkeys(index.single[w] for w in index.single.keys() & words))
    found.sort(key=lambda pair: lowered.find(pair[1]))
    return found + [(label, term) for gate, label, term, pattern, _whole in index.phrases
                    if gate in lowered and pattern.search(lowered)]


@settings(max_examples=400, deadline=None)
@given(st.lists(_PHRASE_PIECES, max_size=8).map(" ".join))
def test_phrases_are_found_as_the_regexes_alone_find_them(text: str) -> None:
    hints = ("follow-up", "c++", "tax_", "ſtuck up", "e.g.", "deadline")
    index = _TermIndex.build(("hint", h) for h in hints)
    lowered = text.lower()
    words = set(_SCORE_WORD.findall(lowered))
    assert index.matches(lowered, words) == _naive_terms(index, lowered, words)
    assert hint_hits(text, hints) == tuple(term for _label, term in _naive_terms(index, lowered, words))
    family_index = _TermIndex.build((f.name, w) for f in STATUS_FAMILIES for w in f.words)
    names = {label for label, _term in _naive_terms(family_index, lowered, words)}
    assert matched_families(text) == tuple(f for f in STATUS_FAMILIES if f.name in names)
    scored = score_text(text, hints=hints)
    strongest = max(matched_families(text), key=lambda f: f.weight, default=None)
    assert scored.kind == (strongest.name if strongest else "fact")


# -- dates -------------------------------------------------------------------------------------------------------------

_DATE_PIECES = st.sampled_from(["2026-03-20", "2024-02-30", "2024-01-05-2024-02-03", "-", "--", "12", "2024", "-01",
                                "x", " ", "_", ".", "30 Jun 2026", "Jun 30", "Mar 5, 2027", "2026-1-2", "٢٠٢٤",
                                "T10:00", "-7", "May", "3rd", "ſep", "İ", "Σ", "0", "20", "24", "\n"])


def _iso_at_every_dash(text: str) -> list[tuple[int, str, int, int, int]]:
    """ISO dates as `date_spans` found them before: a test at every dash, overlapping finds refused."""
    found: list[tuple[int, str, int, int, int]] = []
    end = -1
    position = text.find("-", 4)
    while position != -1:
        match = _ISO_TAIL.match(text, position)
        start = position - 4
        if match and start >= end and text[start:position].isdigit() and text[start:position].isascii() and (
                start == 0 or not (text[start - 1].isalnum() or text[start - 1] in "_.-")):
            y, m, d = int(text[start:position]), int(match.group(1)), int(match.group(2))
            try:
                date(y, m, d)
            except ValueError:
                pass
            else:
                if 1000 <= y:
                    found.append((start, text[start:match.end()], y, m, d))
                    end = match.end()
        position = text.find("-", position + 1)
    return found


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(["2026-03-20", "2024-02-30", "2024-01-05-2024-02-03", "-", "--", "12", "2024",
                                 "-01", "-05", "x", " ", "_", ".", "0", "9", "a-", "T10", "\n"]), max_size=10)
       .map("".join))
def test_iso_dates_are_the_ones_a_test_at_every_dash_finds(text: str) -> None:
    assert date_spans(text) == _iso_at_every_dash(text)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(_DATE_PIECES, max_size=6).map(" ".join), max_size=6))
def test_a_notes_bullets_are_dated_together_as_they_are_one_by_one(texts: list[str]) -> None:
    assert dated_days_each(texts) == [dated_days(text) for text in texts]


# -- front matter ------------------------------------------------------------------------------------------------------

_KEY_NAMES = st.sampled_from(["title", "tags", "aliases", "type", "created", "k1", "a-b", "_x", "Rating", "Z"])
_KEYS = st.one_of(_KEY_NAMES, _KEY_NAMES, st.sampled_from(["yes", "On", "Null", "title ", "x y"]))
_GOOD = st.sampled_from(["Foo", "Foo Bar", "Foo  Bar", "Bob's plan", "a.b", "x/y", "12", "0", "2024-01-05", "[a, b]",
                         "[a,b]", "[]", "[ ]", "[a  b, c]", "Café", "ſep", "½ cup", "a-", "a'", "e1", "trail   "])
_ANY = st.sampled_from(["(x)", "yes", "No", "null", "~", "", " ", "012", "1.5", "2024-02-30", "2024-1-5", "[a, [b]]",
                        "[a,]", "[yes]", "a: b", "a #c", "#c", "x\ty", "-x", '"q"', "'q'", "Y", ".inf", "x,y", "on",
                        "1_000", "0x1F", "1:30", "a\u00a0b", "a\u2028b", "99999999999999999999"])
_VALUES = st.one_of(_GOOD, _GOOD, _GOOD, _ANY)
_WORDS = st.sampled_from(["Foo", "Bob's plan", "a.b", "Café", "x/y", "a-", "ſep", "Foo  Bar"])
_ENTRY = st.one_of(
    st.tuples(_KEYS, st.sampled_from([": ", ":  "]), _VALUES).map(lambda t: ["".join(t)]),
    st.tuples(_KEYS, st.sampled_from(["", " ", "  "]), st.lists(st.one_of(_WORDS, _WORDS, _VALUES), max_size=3)).map(
        lambda t: [t[0] + ":"] + [f"{t[1]}- {item}" for item in t[2]]),
    st.sampled_from(["", "# c", "  cont", "key:val", "\t- a", "-", "- x"]).map(lambda line: [line]),
)
_ENTRY = st.one_of(_ENTRY.filter(lambda lines: ":" in lines[0]), _ENTRY)  # mostly keys
_BLOCKS = st.lists(_ENTRY, max_size=4).map(lambda entries: [line for entry in entries for line in entry])


def _typed(value: object) -> object:
    """A loaded value with its types spelled out; a YAML date as its ISO text, as the front-matter reader keeps it."""
    if isinstance(value, dict):
        return [(str(k), _typed(v)) for k, v in value.items()]
    if isinstance(value, list):
        return [_typed(v) for v in value]
    if isinstance(value, date):
        value = value.isoformat()
    return (type(value).__name__, value)


@settings(max_examples=1500, deadline=None)
@given(_BLOCKS)
def test_simple_front_matter_reads_as_yaml_reads_it(lines: list[str]) -> None:
    fast = simple_yaml(lines)
    if fast is not None:  # (None: left to the YAML library)
        loaded = yaml.load("\n".join(lines), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        assert _typed(fast) == _typed(loaded)


def test_typical_front_matter_takes_the_shortcut() -> None:
    assert simple_yaml(["title: Alpha Plan", "tags: [work, q3]", "created: 2024-01-05", "aliases:", "  - Alpha",
                        "  - The A", "rating: 5"]) == {
        "title": "Alpha Plan", "tags": ["work", "q3"], "created": "2024-01-05", "aliases": ["Alpha", "The A"],
        "rating": 5}
    assert simple_yaml(['title: "Quoted"']) is None
    assert simple_yaml(["done: yes"]) is None
