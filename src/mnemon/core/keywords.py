"""What keyword search indexes for a memory: a pure function of the memory's stored fields.

Because it is pure, a store needs no copy of the indexed text: SQLite's FTS5 index is contentless, and removing a
memory from it recomputes what was indexed from the row itself (FTS5 must be told the exact tokens it deletes). So
every writer — `remember`, import, restore, vault ingestion, payload memory — indexes `keyword_text` of the row it
writes and nothing else; `KEYWORD_RECIPE` names this recipe, and changing the recipe or the tokenizer makes a store
rebuild its index (`keyword_fingerprint`).

Recipes, by where a memory came from:
- vault notes (`vault:<path>`): title and text, without the lines listed in `fts_skip` — a section leaves out the
  bullets that are observation memories of their own, so each bullet is indexed once;
- scoped payload memory (`mneme://…`): title and text;
- everything else (`remember`, imports, agents): the text.
"""
from __future__ import annotations

import json
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

from .model import Memory
from .lazy_regex import LazyRegex
from .text import EMOJI, EMOJI_PATTERN, VERSION, folded, folded_parts, has_emoji, token_text, tokens

# 9: emoji are tokens; 8: tags and entities folded as query words; 7: Thai, Lao, Burmese, Khmer runs as pairs of
# letters; 6: marks kept
KEYWORD_RECIPE = "keywords/9"
VAULT_SOURCE_PREFIX = "vault:"
PAYLOAD_SOURCE_PREFIX = "mneme://"
SKIP_KEY = "fts_skip"  # metadata: 0-based indexes of content lines keyword search leaves out
PROPERTIES_KEY = "properties"  # metadata: true on the section a vault note's front-matter properties make

# What the third-party stemmer decides (case, stopwords, stems), in ASCII: a non-ASCII probe would compile the CJK
# patterns at every store open. Our own tokenizer code (CJK bigrams, apostrophes) is versioned by KEYWORD_RECIPE —
# bump it when `core.text.tokens` changes — and NFKC by the Unicode database's version.
_PROBE = "The Runners were RUNNING quickly; don't they've groups grouped generously 2026-12-02 v1.2"


# SQLite's FTS5 (unicode61) splits a word at a dot or a hyphen, and so does PostgreSQL's copy of it (`fts_words`):
# the keyword index spells a version token ("2.0.0-rc.1") with private-use characters in their place, which both
# keep inside a word and no typed text holds. Both drop an emoji as a separator: the index spells an emoji token by
# its code points in hex ("🚀" is "emoji1f680", "🇫🇷" "emoji1f1ebx1f1f7"). Every other token is spelled as it is.
_INDEX_JOINERS = str.maketrans({".": "\ue000", "-": "\ue001"})
_EMOJI_TOKEN = LazyRegex(rf"(?<!\S)(?:{EMOJI_PATTERN})(?!\S)")  # (a whole token of tokenizer output)


def index_term(token: str) -> str:
    """How the keyword index spells `token` (a search term): a version with its joiners, an emoji in ASCII,
    anything else as it is."""
    if "." in token and VERSION.fullmatch(token):
        return token.translate(_INDEX_JOINERS)
    return _ascii_emoji(token) if has_emoji(token) and EMOJI.fullmatch(token) else token


def _ascii_emoji(emoji: str) -> str:
    return "emoji" + "x".join(f"{ord(ch):x}" for ch in emoji)


def _index_spelling(tokens: str) -> str:
    # (in tokenizer output only a version holds a dot or a hyphen, and every version holds a dot)
    return _emoji_spelled(tokens.translate(_INDEX_JOINERS) if "." in tokens else tokens)


def _emoji_spelled(tokens: str) -> str:
    """`tokens` (space-separated) with each emoji token spelled by `index_term`."""
    return _EMOJI_TOKEN.sub(lambda m: _ascii_emoji(m.group()), tokens) if has_emoji(tokens) else tokens


def keyword_text(title: str | None, content: str, source: str, metadata: Mapping[str, Any] | str | None) -> str:
    """The FTS body of a memory row (space-separated tokens, each spelled by `index_term`)."""
    if source.startswith(VAULT_SOURCE_PREFIX):
        skip = skipped_lines(metadata)
        if skip:
            content = "\n".join(line for i, line in enumerate(content.split("\n")) if i not in skip)
        return _index_spelling(token_text(f"{title}\n{content}" if title else content))
    if source.startswith(PAYLOAD_SOURCE_PREFIX):
        return _index_spelling(token_text(f"{title}\n{content}" if title else content))
    return _index_spelling(token_text(content))


def vault_keyword_text(title_tokens: str, content_tokens: str) -> str:
    """`keyword_text` of a vault row (no skipped lines) put together from `token_text` of its title and of its
    content: ingestion tokenises a note's title once for all of its bullets, and a bullet's own tokens are the words
    of its proactive score too. The text is the same because nothing reaches across the newline `keyword_text` puts
    between the two: NFKC composes nothing with it, no case rule looks past it and no word contains it."""
    if title_tokens and content_tokens:
        return _index_spelling(f"{title_tokens} {content_tokens}")
    return _index_spelling(title_tokens or content_tokens)


def embedding_text(title: str | None, content: str, source: str, metadata: Mapping[str, Any] | str | None) -> str:
    """The text a memory's vector is made from. Everything but a vault row embeds its text as stored. A vault row
    embeds what a reader sees — its note's title or heading path first, wikilinks as names — and a section leaves
    out the bullets that have vectors of their own, as keyword search does: on the local model a section's lines
    cost embedding time in proportion to their length, and the same bullet embedded twice only blurs the section."""
    if not source.startswith(VAULT_SOURCE_PREFIX):
        return content
    from .vault.links import display_links  # here: the vault package (YAML parser and all) is no cost of recall

    skip = skipped_lines(metadata)
    if skip:
        content = "\n".join(line for i, line in enumerate(content.split("\n")) if i not in skip)
    text = display_links(f"{title}\n{content}" if title else content).strip()
    return text or content


def keyword_words(values: Sequence[str] | str) -> str:
    """The FTS spelling of a tags or entities list (or of its JSON column): the values, space-separated, folded as a
    query word is (`core.text.folded`: "Zoë" is searched as "zoe"), unstemmed, each emoji spelled as the body
    spells it (its tokens, by `index_term`: both backends drop an emoji as a separator)."""
    if isinstance(values, str):
        if values in ("", "[]"):
            return ""
        values = json.loads(values)
    return " ".join(map(_value_words, values))


def _value_words(value: str) -> str:
    return _emoji_spelled(" ".join(folded_parts(value))) if has_emoji(value) else folded(value)


def tag_query_words(query: str) -> list[str]:
    """The words of a `search` query spelled as `keyword_words` spells a tag or an entity holding them: the index
    keeps those unstemmed, so the tag "plumbing" is reached by the word "plumbing", never by its stem "plumb". A word
    the text search leaves out (a stopword) is left out here too, and so is one spelled as its own token: that token
    is searched in every column already."""
    out: list[str] = []
    for word in dict.fromkeys(query.split()):
        searched = tokens(word)
        spelled = _value_words(word)
        if searched and spelled not in out and spelled not in map(index_term, searched):
            out.append(spelled)
    return out


def keyword_fingerprint() -> str:
    """Changes whenever `keyword_text` would index the same row differently: a store whose index was built under
    another fingerprint must rebuild it before deleting anything from it."""
    return f"{KEYWORD_RECIPE}|unicode {unicodedata.unidata_version}|{keyword_text(None, _PROBE, 'user', None)}"


_NO_LINES: frozenset[int] = frozenset()


def skipped_lines(metadata: Mapping[str, Any] | str | None) -> frozenset[int]:
    """The content lines keyword search leaves out of a row (`fts_skip` in its metadata, as values or JSON)."""
    if not metadata:  # most rows (an ingest computes this 20 times a note)
        return _NO_LINES
    if isinstance(metadata, str):
        if SKIP_KEY not in metadata:  # most rows: no JSON parse
            return _NO_LINES
        try:
            metadata = json.loads(metadata)
        except ValueError:
            return _NO_LINES
    if not isinstance(metadata, Mapping):
        return _NO_LINES
    skip = metadata.get(SKIP_KEY)
    if not skip or not isinstance(skip, list):
        return _NO_LINES
    return frozenset(i for i in skip if isinstance(i, int) and not isinstance(i, bool))


def embedding_text_of(memory: Memory) -> str:
    """`embedding_text` of a stored memory."""
    return embedding_text(memory.title, memory.content, memory.source, memory.metadata)


def keyword_text_of(memory: Memory) -> str:
    """`keyword_text` of a memory about to be stored."""
    return keyword_text(memory.title, memory.content, memory.source, memory.metadata)
