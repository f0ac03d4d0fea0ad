"""The one tokenizer every component shares: Unicode-aware words, CJK as character bigrams, stopwords dropped.

Keyword search (FTS5), diff similarity, causal overlap, recall's keyword signal and entity matching all see the
same tokens, so a memory that matches in one place matches in all of them.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from .lazy_regex import LazyRegex

# Han, kana and hangul runs are split into overlapping bigrams: exact substring recall for 2-4 character words
# without a dictionary segmenter (reference/deps.md §7). Thai, Lao, Burmese and Khmer put no spaces between words
# either: their runs are split alike, into pairs of letters each with its marks (`_clusters`).
_SPACELESS = "\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff"
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af" + _SPACELESS
_CJK_RUN = LazyRegex(f"[{_CJK}]+")  # compiled on first use: only texts that are not ASCII reach them
_CJK_ANY = LazyRegex(f"[{_CJK}]")
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?", re.UNICODE)
# A mark (Unicode category M) is part of the letter before it — a Thai tone mark or vowel sign, a Devanagari matra
# or virama, niqqud, harakat, the dot "İ" leaves after lower-casing — but no `\w`: `_WORD` split "हिन्दी" into ह न द
# and "İstanbul" into a stopword and "stanbul". Soft hyphens and zero-width (non-)joiners sit inside words too.
# The marks are listed from the Unicode database on first non-ASCII text (~3 ms; the BMP blocks that hold them:
# marks of historic scripts beyond still split).
_MARK_SPANS = ((0x300, 0x2100), (0x2CEF, 0x2E00), (0x302A, 0x30A0), (0xA66F, 0xAB00), (0xFB1E, 0xFB1F),
               (0xFE00, 0xFE30))
_IN_WORD_FORMATS = "\u00ad\u200c\u200d\u2060"
_marked_word: re.Pattern[str] | None = None


def _marked_words() -> re.Pattern[str]:
    """`_WORD`, each letter or digit with the marks (and joiners) after it."""
    global _marked_word
    if _marked_word is None:
        runs: list[list[int]] = []
        for first, end in _MARK_SPANS:
            for code in range(first, end):
                if unicodedata.category(chr(code))[0] == "M":
                    if runs and runs[-1][1] == code - 1:
                        runs[-1][1] = code
                    else:
                        runs.append([code, code])
        marks = "".join(chr(a) if a == b else f"{chr(a)}-{chr(b)}" for a, b in runs) + _IN_WORD_FORMATS
        letter = rf"[^\W_]+[{marks}]*"
        _marked_word = re.compile(rf"(?:{letter})+(?:['’](?:{letter})+)?")
    return _marked_word
# In ASCII, `_WORD`'s words are the runs of letters and digits (an apostrophe may join two): a byte table maps every
# other character to a space, and a C-level translate and split find them at a fifth of the regex's cost.
_ASCII_WORD_BYTES = bytes(c if chr(c).isalnum() or c == 0x27 else 0x20 for c in range(128)) + b" " * 128

STOPWORDS = frozenset(
    """
    a about above after again against all am an and any are aren't as at be because been before being below between
    both but by can cannot could did didn't do does doesn't doing don't down during each few for from further had
    hadn't has hasn't have haven't having he he'd he'll he's her here here's hers herself him himself his how how's
    i i'd i'll i'm i've if in into is isn't it it's its itself let's me more most mustn't my myself no nor not of off
    on once only or other ought our ours ourselves out over own same shan't she she'd she'll she's should shouldn't
    so some such than that that's the their theirs them themselves then there there's these they they'd they'll
    they're they've this those through to too under until up very was wasn't we we'd we'll we're we've were weren't
    what what's when when's where where's which while who who's whom why why's with won't would wouldn't you you'd
    you'll you're you've your yours yourself yourselves also just really get got like yeah oh ok okay im ive dont
    的 了 是 在 和 也 就 都 而 及 与 着 或
    """.split()
)


# Latin-script words are reduced to their English Snowball stem ("went"/"going" stay apart, "groups"/"group" meet),
# so keyword search, diff and recall match inflections. Other scripts are left as they are.
_LATIN_WORD = re.compile(r"^[a-z][a-z0-9'-]*$")


# Accents of Latin and Greek letters are folded away ("Zoë" is found by "Zoe", "résumé" by "resume", "Σύμβαση" by
# "Συμβαση"), as people type names without them; marks on other scripts' letters are letters of their own (kana's
# dakuten, Cyrillic й), so they stay. Letters with no decomposition are spelled as people type them. Hebrew niqqud,
# Arabic harakat and tatweel are left out as most text leaves them out ("كَتَبَ" is found by "كتب"), and so are a
# soft hyphen and the zero-width (non-)joiners; a Greek final sigma is a sigma ("ΟΔΟΣ" lower-cases to "οδος").
_FOLDED_LETTERS = str.maketrans({"ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "ł": "l", "đ": "d", "ð": "d",
                                 "þ": "th", "ı": "i", "ς": "σ",
                                 **dict.fromkeys(_IN_WORD_FORMATS + "\u0640", None),
                                 **{chr(c): None for first, last in ((0x591, 0x5bd), (0x5bf, 0x5bf), (0x5c1, 0x5c2),
                                                                     (0x5c4, 0x5c5), (0x5c7, 0x5c7), (0x610, 0x61a),
                                                                     (0x64b, 0x65f), (0x670, 0x670), (0x6d6, 0x6dc),
                                                                     (0x6df, 0x6e4), (0x6e7, 0x6e8), (0x6ea, 0x6ed))
                                    for c in range(first, last + 1)}})


def folded(text: str) -> str:
    """`text` lower-cased as `tokens` reads it, with the accents (niqqud, harakat…) its words lose there — not split
    or stemmed: how the keyword index spells a tag or an entity, which a query word reaches only as written."""
    return text if text.isascii() else _fold_marks(normalize(text))


def _fold_marks(word: str) -> str:
    """`word` without the accents of its Latin and Greek letters (lowercase input, as `normalize` gives)."""
    word = word.translate(_FOLDED_LETTERS)
    decomposed = unicodedata.normalize("NFD", word)
    if decomposed == word and not any(map(unicodedata.combining, word)):  # ("i̇" of "İ" is decomposed already)
        return word
    out: list[str] = []
    base = ""
    for ch in decomposed:
        if unicodedata.combining(ch):
            if not ("a" <= base <= "z" or "\u03b1" <= base <= "\u03c9"):
                out.append(ch)
            continue
        base = ch
        out.append(ch)
    return unicodedata.normalize("NFC", "".join(out))


def _stemmer() -> Callable[[str], str]:
    try:
        import snowballstemmer
    except ImportError:  # pragma: no cover - declared dependency; degrade to exact words
        return lambda w: w
    stem = snowballstemmer.stemmer("english")
    cache: dict[str, str] = {}

    def fn(word: str) -> str:
        out = cache.get(word)
        if out is None:
            if not word.isascii():
                folded = _fold_marks(word)
                if folded != word:
                    out = fn(folded)
                    if len(cache) < 200_000:
                        cache[word] = out
                    return out
            if _LATIN_WORD.match(word) and len(word) > 3:
                out = stem.stemWord(word)
            elif word.endswith("'s") and len(word) > 3:
                out = word[:-2]  # a possessive the stemmer does not see ("zoë's"), left as its "mira's" is
            else:
                out = word
            if len(cache) < 200_000:
                cache[word] = out
        return out
    return fn


stem = _stemmer()


def normalize(text: str) -> str:
    return unicodedata.normalize("NFKC", text).lower()


# A camelCase identifier is also its words: "parseConfig" is found by parse_config, "parse config" and parseconfig,
# "HTTPServer" by "http server", "base64Encode" by "base64 encode", as snake_case already splits at its underscores.
# Only ASCII identifiers; an upper-case run splits before a capitalised word of 2+ lower-case letters, so "PDFs",
# "IDs" and "URLs" stay one word. The whole word is kept too (brand names typed in lower case: "javascript"). The
# hint is an upper-case letter first, then where it stands: the scan skips the many lower-case letters of prose fast.
_CAMEL_HINT = re.compile(r"[A-Z](?:(?<=[a-z][A-Z])|(?<=[a-z][0-9][A-Z])|(?<=[a-z][0-9]{2}[A-Z])"
                         r"|(?<=[a-z][0-9]{3}[A-Z])|(?<=[A-Z]{2})(?=[a-z][a-z]))")
_CAMEL_CUT = re.compile(r"(?<=[a-z])(?=[A-Z])|(?<=[a-z][0-9])(?=[A-Z])|(?<=[a-z][0-9]{2})(?=[A-Z])"
                        r"|(?<=[a-z][0-9]{3})(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z][a-z])")
_IDENTIFIER_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
_CAMEL_WORD_MIN = 3  # a camelCase word is split only when one of its words is this long
_CAMEL_MAX = 64  # a longer run of letters is no identifier (a key, a hash, base64) and splitting it adds only noise


# Every alternative of `_CAMEL_HINT` is an upper-case letter right after an ASCII letter or digit. In ASCII text a
# byte table marks those classes ("U" upper, "a" lower or digit) and two substring tests rule a hint out: the regex's
# scan tried every capital of a note's prose (a sixth of tokenising a section).
_CAMEL_CLASSES = bytes(0x55 if 0x41 <= c <= 0x5A else 0x61 if 0x61 <= c <= 0x7A or 0x30 <= c <= 0x39 else 0x20
                       for c in range(256))


def with_camel_parts(text: str) -> str:
    """`text` with each camelCase word after its words ("parseConfig" → "parse Config parseConfig"): the
    text `tokens` reads. A text without one is returned as it is."""
    if text.isascii():
        classes = text.encode("ascii").translate(_CAMEL_CLASSES)
        if b"aU" not in classes and b"UU" not in classes:
            return text
    return camel_parts_scanned(text)


def camel_parts_scanned(text: str) -> str:
    """`with_camel_parts` by the regex's scan alone."""
    hit = _CAMEL_HINT.search(text)
    if hit is None:
        return text
    pieces: list[str] = []
    done = 0  # text[:done] is in pieces
    while hit is not None:
        start, end = hit.start(), hit.end()
        while start > 0 and text[start - 1] in _IDENTIFIER_CHARS:
            start -= 1
        while end < len(text) and text[end] in _IDENTIFIER_CHARS:
            end += 1
        # (the words go before it, where no "'s" follows them; a word after an apostrophe is not split from it)
        words = _CAMEL_CUT.sub(" ", text[start:end]) if end - start <= _CAMEL_MAX else ""
        # (a name of short halves — "LoRa", "IoT", "DeFi" — is no phrase: "lo" and "ra" only matched unrelated text)
        if (text[start - 1:start] not in ("'", "’") and any(len(w) >= _CAMEL_WORD_MIN for w in words.split())):
            pieces.append(text[done:start])
            pieces.append(" " + words + " ")
            done = start
        hit = _CAMEL_HINT.search(text, end)
    pieces.append(text[done:])
    return "".join(pieces)


# A version or dotted number is one word ("2.3.1", "10.0.0.12", "3.5", "1.1.1w"): split at its dots, "v2.3.1" was
# found by every text holding a "v2" or a "3", and "2.3.1" by "2.3.10". Letters glued before it are a word of their
# own ("python3.11" is python and 3.11, as "Python 3.11" is); a semver pre-release ("2.0.0-rc.1") joins a version of
# three parts or more only, so "a 3.5-hour drive" keeps 3.5 and hour apart. A date written day.month.year
# ("12.02.2026") is no version: its year finds it, as before. The hint skips prose without one fast.
VERSION = re.compile(r"(?<![0-9])(?<![0-9]\.)(?![0-9]{1,2}\.[0-9]{1,2}\.[0-9]{4}(?![0-9a-z]|\.[0-9a-z]))"
                     r"(?:[0-9]+\.[0-9]+\.[0-9][a-z0-9]*(?:\.[0-9][a-z0-9]*)*-[a-z][a-z0-9]*(?:\.[a-z0-9]+)*"
                     r"|[0-9]+(?:\.[0-9][a-z0-9]*)+)")
_VERSION_HINT = re.compile(r"\.[0-9]")  # (a literal first: ~2.5x faster to rule out than "[0-9]\.[0-9]")


def _around(pattern: re.Pattern[str] | LazyRegex, norm: str, words_of: Callable[[str], list[str]],
            found: Callable[[str], list[str]]) -> list[str]:
    """In order, `words_of` each stretch of `norm` between the matches of `pattern`, and `found` of each match."""
    out: list[str] = []
    done = 0
    for m in pattern.finditer(norm):
        out += words_of(norm[done:m.start()])
        out += found(m.group())
        done = m.end()
    return out + words_of(norm[done:])


def _with_versions(norm: str, words_of: Callable[[str], list[str]]) -> list[str]:
    """`words_of(norm)`, each version in `norm` one word among them (`VERSION`)."""
    return _around(VERSION, norm, words_of, _one_word)


def _one_word(word: str) -> list[str]:
    return [word]


# An emoji is a token of its own ("Deploy went out 🚀" is found by 🚀), though no word holds one: Unicode's pictographs
# as NFKC leaves them (‼, ™ and ㊗ it turns into text), with the Misc Symbols and Dingbats blocks whole (✓ ★ ☐ are
# status marks as ✅ is) and the emoji blocks whole (those Unicode assigns later too), less their digits and brackets.
# A skin tone or a variation selector only styles the emoji before it, so "👍🏽" is found by 👍 and "⚠️" by ⚠; a
# ZWJ sequence (👩‍💻) is each emoji in it and then the whole, a flag (🇫🇷, or 🏴 with its tag letters) and a keycap
# (1️⃣) one token each. The keyword index spells them in ASCII (`core.keywords.index_term`).
_BMP_PICTOGRAPH = ("\xa9\xae\u2194-\u2199\u21a9\u21aa\u231a\u231b\u2328\u23cf\u23e9-\u23f3\u23f8-\u23fa"
                   "\u25aa\u25ab\u25b6\u25c0\u25fb-\u25fe\u2600-\u2767\u2794-\u27bf\u2934\u2935"
                   "\u2b05-\u2b07\u2b1b\u2b1c\u2b50\u2b55\u3030\u303d")
_PICTOGRAPH = (_BMP_PICTOGRAPH + "\U0001f000-\U0001f0ff\U0001f10d-\U0001f1e5\U0001f200-\U0001f3fa"
               "\U0001f400-\U0001faff\U0001fc00-\U0001fffd")
_FLAG_LETTER = "\U0001f1e6-\U0001f1ff"  # (regional indicators: two make a flag)
_EMOJI_STYLE = "\ufe0e\ufe0f\U0001f3fb-\U0001f3ff"
_EMOJI_ELEMENT = f"[{_PICTOGRAPH}][{_EMOJI_STYLE}]*[\U000e0020-\U000e007f]*"
EMOJI_PATTERN = f"[{_FLAG_LETTER}]{{1,2}}|[0-9#*]\ufe0f?\u20e3|{_EMOJI_ELEMENT}(?:\u200d{_EMOJI_ELEMENT})*"
EMOJI = LazyRegex(EMOJI_PATTERN)
# Every character an emoji starts with (and the keycap mark), in few ranges: a scan tests each character of a text
# against each range of the supplementary planes, so they are one here (a text of accented words scans 3x faster).
_EMOJI_HINT_CHARS = _BMP_PICTOGRAPH + "\u20e3\U0001f000-\U0001ffff"
_EMOJI_HINT = LazyRegex(f"[{_EMOJI_HINT_CHARS}]")
_CJK_OR_EMOJI = LazyRegex(f"[{_CJK}{_EMOJI_HINT_CHARS}]")
_PICTOGRAPH_ANY = LazyRegex(f"[{_PICTOGRAPH}]")
_UNSTYLED = str.maketrans(dict.fromkeys(["\ufe0e", "\ufe0f", *map(chr, range(0x1F3FB, 0x1F400))]))


def has_emoji(text: str) -> bool:
    """Whether `text` may hold an emoji (`EMOJI`): a C-level scan that rules out nearly all text that holds none."""
    return not text.isascii() and _EMOJI_HINT.search(text) is not None


def _emoji_tokens(emoji: str) -> list[str]:
    """The tokens of one `EMOJI` match: its pictographs, then the whole when it is more than one, all unstyled."""
    whole = emoji.translate(_UNSTYLED)
    parts = _PICTOGRAPH_ANY.findall(whole)
    return parts + [whole] if parts and parts != [whole] else [whole]


def folded_parts(text: str) -> list[str]:
    """`folded(text)` cut around its emoji, and each emoji its `tokens` (a tag or an entity as the keyword index
    holds it): an emoji is found in a tag as in a text, and folding drops the joiners of a ZWJ sequence."""
    if not has_emoji(text):
        return [folded(text)]
    return _around(EMOJI, normalize(text), lambda part: [_fold_marks(part)] if part else [], _emoji_tokens)


def _words(norm: str) -> list[str]:
    """`_WORD.findall(norm)` with ’ read as ', each version one word — for text without CJK (vault ingestion
    tokenises megabytes of it)."""
    if "." in norm and _VERSION_HINT.search(norm) is not None:
        return _with_versions(norm, _plain_words)
    return _plain_words(norm)


def _plain_words(norm: str) -> list[str]:
    """`_WORD.findall(norm)` with ’ read as '."""
    if not norm.isascii():
        return _marked_words().findall(norm.replace("’", "'") if "’" in norm else norm)
    words = norm.encode("ascii").translate(_ASCII_WORD_BYTES).decode("ascii").split()
    if "'" in norm:  # only a run holding an apostrophe needs the regex: "rock'n'roll" is "rock'n" and "roll"
        words = [word for run in words for word in ((run,) if "'" not in run else _WORD.findall(run))]
    return words


def _clusters(run: str) -> list[str]:
    """The letters of a Thai, Lao, Burmese or Khmer run, each with the marks after it (a leading mark dropped)."""
    out: list[str] = []
    for ch in run:
        if unicodedata.category(ch)[0] != "M":
            out.append(ch)
        elif out:
            out[-1] += ch
    return out


def _cjk_bigrams(run: str) -> list[str]:
    if min(run) < "\u3040":  # (Han, kana and hangul come after the spaceless scripts and hold no marks after NFKC)
        units = _clusters(run)
        return units if len(units) < 2 else [units[i] + units[i + 1] for i in range(len(units) - 1)]
    if len(run) == 1:
        return [run]
    return [run[i : i + 2] for i in range(len(run) - 1)]


def _cjk_words(norm: str) -> list[str]:
    """`_WORD.findall(norm)` with ’ read as ', each CJK run in a word as its bigrams."""
    out: list[str] = []
    for word in _marked_words().findall(norm):
        word = word.replace("’", "'")
        pos = 0
        for m in _CJK_RUN.finditer(word):
            if m.start() > pos:
                out.append(word[pos : m.start()])
            out.extend(_cjk_bigrams(m.group()))
            pos = m.end()
        if pos < len(word):
            out.append(word[pos:])
    return out


class _StemOfWord(dict):  # type: ignore[type-arg]
    """word → `stem(word)`, or None for a stopword when `drop_stopwords`; filled on first sight, so `tokens` maps a
    text's words at one C-level dict lookup each (building the recall graph tokenises every memory of a store)."""

    def __init__(self, drop_stopwords: bool) -> None:
        super().__init__()
        self.drop_stopwords = drop_stopwords

    def __missing__(self, word: str) -> str | None:
        token = None if self.drop_stopwords and word in STOPWORDS else stem(word)
        if len(self) < 200_000:
            self[word] = token
        return token


_KEPT_STEM = _StemOfWord(drop_stopwords=True)
_ANY_STEM = _StemOfWord(drop_stopwords=False)


def tokens(text: str, *, keep_stopwords: bool = False) -> list[str]:
    """Ordered tokens of `text` (duplicates kept), lowercased and NFKC-normalised. Changing what this returns means
    bumping `core.keywords.KEYWORD_RECIPE`: stores then rebuild their keyword index, which holds these tokens."""
    norm = normalize(with_camel_parts(text))
    special = not norm.isascii() and _CJK_OR_EMOJI.search(norm) is not None  # (one scan for most texts)
    if special and _EMOJI_HINT.search(norm) is not None:
        return _around(EMOJI, norm, lambda part: _normalized_tokens(part, keep_stopwords), _emoji_tokens)
    return _normalized_tokens(norm, keep_stopwords, special)


def _normalized_tokens(norm: str, keep_stopwords: bool, cjk: bool | None = None) -> list[str]:
    """`tokens` of a text without emoji, lower-cased and NFKC-normalised already (`cjk`: whether it holds CJK, when
    known)."""
    if cjk is None:
        cjk = not norm.isascii() and _CJK_ANY.search(norm) is not None
    if not cjk:
        # Fast path (vault ingest tokenises megabytes): without CJK no word needs splitting into bigrams.
        words = _words(norm)
        if keep_stopwords:
            return list(map(_ANY_STEM.__getitem__, words))
        return [t for t in map(_KEPT_STEM.__getitem__, words) if t is not None]
    out = _with_versions(norm, _cjk_words) if _VERSION_HINT.search(norm) else _cjk_words(norm)
    if keep_stopwords:
        return [stem(t) for t in out]
    return [stem(t) for t in out if t not in STOPWORDS]


def memory_tokens(title: str | None, content: str, tags: Iterable[str], entities: Iterable[str]) -> list[str]:
    """The tokens a memory is matched by in recall's keyword signal: title, content, tags and entities."""
    return tokens(" ".join([title or "", content, *tags, *entities]))


def token_set(*texts: str | Iterable[str]) -> frozenset[str]:
    """Union of the tokens of several texts (strings or iterables of strings, e.g. tags)."""
    acc: set[str] = set()
    for t in texts:
        if isinstance(t, str):
            acc.update(tokens(t))
        else:
            for s in t:
                acc.update(tokens(s))
    return frozenset(acc)


def overlap_max(a: frozenset[str], b: frozenset[str]) -> float:
    """|A∩B| / max(|A|,|B|): the causal-edge overlap of mnemon."""
    if not a or not b:
        return 0.0
    return len(a & b) / max(len(a), len(b))


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    if not a or not b:
        return 0.0
    return len(a & b) / len(a | b)


def query_coverage(query: frozenset[str], doc: frozenset[str]) -> float:
    """|Q∩D| / |Q|: recall's keyword signal."""
    if not query:
        return 0.0
    return len(query & doc) / len(query)


def _is_flag_half(ch: str) -> bool:
    return "\U0001F1E6" <= ch <= "\U0001F1FF"


_LONGEST_GRAPHEME = 32  # code points (a family emoji is 7 to 11, a tag flag 7)
_grapheme: Any = None  # the `regex` module's `\X` (Unicode's grapheme clusters, as the cards cut), compiled when used


def grapheme_cut(text: str, at: int) -> int:
    """`at`, or the nearest index before it where `text` may be cut without breaking a user-perceived character
    (an accent off its letter, a flag or a family emoji in halves): where a shortened text ends. A character of
    more than `_LONGEST_GRAPHEME` code points (stacked marks: "Zalgo" text) is cut inside, not left out whole."""
    global _grapheme
    if not 0 < at < len(text) or (text[at - 1].isascii() and text[at].isascii()):
        return at
    if _grapheme is None:
        import regex

        _grapheme = regex.compile(r"\X")
    start = max(0, at - _LONGEST_GRAPHEME)
    while start > 0 and _is_flag_half(text[start - 1]):
        start -= 1  # (flags pair their halves from the first of a run)
    cut = start
    for cluster in _grapheme.finditer(text, start, at + _LONGEST_GRAPHEME):
        if cluster.end() > at:
            break
        cut = cluster.end()
    return cut if at - cut < _LONGEST_GRAPHEME else at


def excerpt(text: str, limit: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: grapheme_cut(flat, max(0, limit - 1))].rstrip() + "…"


def window_with(text: str, limit: int, terms: frozenset[str]) -> tuple[str, int]:
    """The `limit` characters of `text` to show when it must be shortened, and where they start: its head when that
    holds every one of `terms` (stemmed tokens) or no line holds more of them, else from the start of the first line
    holding the most (a long section is found by words its opening lines may not have)."""
    if len(text) <= limit:
        return text, 0
    head = text[:grapheme_cut(text, limit)]
    if not terms:
        return head, 0
    in_head = terms & frozenset(tokens(head))
    if in_head == terms:
        return head, 0
    best, best_start, start = len(in_head), 0, 0
    for line in text.split("\n"):
        found = len(terms & frozenset(tokens(line))) if start >= limit or start + len(line) > limit else 0
        if found > best:
            best, best_start = found, start
            if found == len(terms):
                break
        start += len(line) + 1
    return text[best_start:grapheme_cut(text, best_start + limit)], best_start


def marked_window(text: str, room: int, terms: frozenset[str]) -> str:
    """`text` in `room` + 1 characters (`room` + 2 when cut at both ends), each cut marked "…": the part holding
    `terms` (stemmed tokens), as `window_with` chooses it."""
    return marked_window_at(text, room, terms)[0]


def marked_window_at(text: str, room: int, terms: frozenset[str]) -> tuple[str, int]:
    """`marked_window` and where in `text` the part it shows starts."""
    shown, start = window_with(text, room - 1, terms)
    if start == 0:
        return text[:grapheme_cut(text, room)] + "…", 0
    return "…" + shown + ("…" if start + len(shown) < len(text) else ""), start


def token_text(text: str) -> str:
    """`" ".join(tokens(text))`, the FTS body, without a Python-level step per word (vault ingestion tokenises
    megabytes): the same stem table as `tokens`, filtered in C."""
    norm = normalize(with_camel_parts(text))
    if not norm.isascii() and _CJK_OR_EMOJI.search(norm) is not None:
        return " ".join(tokens(text))
    return " ".join(filter(None, map(_KEPT_STEM.__getitem__, _words(norm))))


def rarest_terms(terms: Sequence[str], doc_freq: Mapping[str, int], max_terms: int,
                 max_postings: int) -> list[str]:
    """The rarest terms of a long text, as many as fit in a posting budget (always at least one).

    A whole memory is found again by its rarest words; every further common word makes each match cost more to
    rank (BM25 scores every posting), so the search stops adding words once their document counts would exceed
    `max_postings` in total.

    >>> rarest_terms(["the", "qdrant", "vector", "db"], {"the": 900, "qdrant": 2, "vector": 40, "db": 300}, 8, 100)
    ['qdrant', 'vector']
    >>> rarest_terms(["common"], {"common": 5000}, 8, 100)
    ['common']

    A word no memory holds costs nothing and finds nothing, so it never counts as the one term searched by:

    >>> rarest_terms(["battery", "xyzzy"], {"battery": 5000, "xyzzy": 0}, 8, 100)
    ['xyzzy', 'battery']
    """
    ranked = sorted(dict.fromkeys(terms), key=lambda t: (doc_freq.get(t, 0), t))
    out: list[str] = []
    spent = 0
    for term in ranked[:max_terms]:
        cost = doc_freq.get(term, 0)
        if spent and spent + cost > max_postings:
            break
        out.append(term)
        spent += cost
    return out
