"""Two facts a memory changes with few words in common with it, each an UPDATE naming both values:

- a count of the same thing: "5 open incidents after the outage" after "3 open incidents" (0.4 of their words in
  common, an ADD). A count is a whole number (not a year, not one written onto a unit: "16GB") that follows no
  content word ("Build agent 7" names an agent) and counts the content words right after it ("open incidents").
  It is the same count when the words before it are the same (its subject: "Payments has 3 …" is not "Billing has
  5 …"), it is of the same place or thing ("in the EU region", "of the API"), and what one clause says besides is
  all said by the other ("12 engineers were hired" / "14 … were fired" are two facts);
- where someone lives: "Mira relocated to Porto" after "Mira lives in Lisbon" (one word in common). A subject that
  moves, relocates or emigrates to a place lives there, as one that lives, resides or is based in it; the same
  subject (its words before the verb, but adverbs: "Mira finally moved") in another place is a new home. A place
  is one to three words after "to" or "in" with no article ("the design team" is no place), and "lived in" is a
  past home, which a move leaves true.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from .diff_when import STATEMENT_TIME
from .text import STOPWORDS, tokens

_CLAUSE = re.compile(r"[;!?()\n]|[.,:](?!\d)|\s[—–-]\s")
_WORD = re.compile(r"[^\W_]+(?:[.,:'’-][^\W_]+)*")
_COUNT = re.compile(r"\d{1,3}(?:,\d{3})+|\d+")
_YEAR = re.compile(r"(?:19|20)\d\d")
_DIGIT = re.compile(r"\d")
COUNTED_WORDS = 3
# a preposition naming where, of what or per what a count is: the same one with other words after it is another count
_SCOPE = frozenset("in on at for of within across inside outside under per from".split())


def _key(words: list[str]) -> frozenset[str]:
    return frozenset(t for t in tokens(" ".join(words)) if t not in STATEMENT_TIME)


def _content(word: str) -> bool:
    return bool(_key([word])) and not word[0].isdigit()


@dataclass(frozen=True)
class _Count:
    value: int
    written: str
    counted: tuple[str, ...]  # keyword tokens of the counted words
    counted_written: str
    subject: frozenset[str]  # keyword tokens before the number
    scope: frozenset[tuple[str, str]]  # (preposition, its first keyword after it)
    rest: frozenset[str]  # keyword tokens after the counted words


@lru_cache(maxsize=64)  # (the new memory's are read against each of its candidates)
def _counts(text: str) -> tuple[_Count, ...]:
    out: list[_Count] = []
    for clause in _CLAUSE.split(text) if _DIGIT.search(text) else ():
        said = [w.lower() for w in _WORD.findall(clause)]
        for k, w in enumerate(said):
            if not _COUNT.fullmatch(w) or _YEAR.fullmatch(w) or (k and _content(said[k - 1])):
                continue  # (no count, a year, or a number in a name: "Build agent 7")
            end = k + 1
            while end < len(said) and end - k <= COUNTED_WORDS and _content(said[end]):
                end += 1
            counted = tuple(tokens(" ".join(said[k + 1:end])))
            if not counted:
                continue
            after = [a for a in said[end:] if a not in STOPWORDS or a in _SCOPE]
            scope = frozenset((p, nxt) for p, nxt in zip(after, after[1:]) if p in _SCOPE)
            out.append(_Count(int(w.replace(",", "")), w, counted, " ".join(said[k + 1:end]), _key(said[:k]), scope,
                              _key(said[end:])))
    return tuple(out)


def _count_difference(new_text: str, old_text: str) -> str:
    news = _counts(new_text)
    for new in news:
        for was in _counts(old_text):
            if (new.counted != was.counted or new.subject != was.subject or new.scope != was.scope
                    or new.value == was.value or not (new.rest <= was.rest or was.rest <= new.rest)):
                continue
            return (f'another count of the same thing ("{new.counted_written}"): the new memory says "{new.written}" '
                    f'and this one "{was.written}"')
    return ""


# ── where someone lives ─────────────────────────────────────────────────────────────────────────────────────────
_MOVES = frozenset("moved moves relocated relocates emigrated emigrates".split())
_LIVES = frozenset("lives live resides reside".split())
_BEING = frozenset("is are has have".split())  # "is based in", "is living in", "has lived in"
_STATE = frozenset(("based", "living", "lived"))
_ADVERBS = frozenset("finally recently just already eventually actually then also now has have had permanently "
                     "officially".split())
_DENIALS = frozenset("not never no longer".split())
_ARTICLES = frozenset("the a an our my his her their its this that these those another some".split())
PLACE_WORDS = 3
_NO_PLACE = frozenset("last next ago yesterday tomorrow".split())  # ("moved to Porto last spring")
_MAY_MOVE = re.compile(r"(?i)\b(?:moved|moves|relocated|relocates|emigrated|emigrates|lives|live|resides|reside|"
                       r"based|living|lived)\b")


@dataclass(frozen=True)
class _Home:
    subject: tuple[str, ...]
    subject_written: str
    place: frozenset[str]
    said: str  # the verb and the place as written


def _place(words: list[str], found: list[re.Match[str]], start: int) -> tuple[frozenset[str], int]:
    end = start
    while end < len(words) and end - start < PLACE_WORDS and words[end] not in STOPWORDS and _content(words[end]) \
            and not any(c.isdigit() for c in words[end]) and words[end] not in _NO_PLACE:
        end += 1
    if end == start or words[start] in _ARTICLES:
        return frozenset(), start
    return frozenset(tokens(" ".join(words[start:end]))), found[end - 1].end()


@lru_cache(maxsize=64)
def _homes(text: str) -> tuple[_Home, ...]:
    out: list[_Home] = []
    if not _MAY_MOVE.search(text):
        return ()
    for clause in _CLAUSE.split(text):
        found = list(_WORD.finditer(clause))
        words = [m.group().lower().replace("’", "'") for m in found]
        for k, w in enumerate(words[:-2]):
            prev = words[k - 1] if k else ""
            if w in _MOVES:
                nxt = k + 2 if words[k + 1] == "back" else k + 1
                prep = "to"
            elif w in _LIVES or (w in _STATE and prev in _BEING and not (w == "lived" and prev not in ("has", "have"))):
                nxt, prep = k + 1, "in"
            else:
                continue
            if nxt >= len(words) or words[nxt] != prep:
                continue
            before = k - 1 if w in _STATE else k
            if any(words[j] in _DENIALS or words[j].endswith("n't") for j in range(before)):
                continue  # "Mira does not live in Lisbon" says where she is not
            lead = [j for j in range(before) if words[j] not in _ADVERBS and words[j] not in STATEMENT_TIME]
            said = [words[j] for j in lead]
            subject = tuple(tokens(" ".join(said))) or (tuple(said) if said in (["i"], ["we"]) else ())
            place, place_end = _place(words, found, nxt + 1)
            if subject and place:
                written = " ".join(found[j].group() for j in lead)
                out.append(_Home(subject, written, place, clause[found[k].start():place_end]))
    return tuple(out)


def _move_difference(new_text: str, old_text: str) -> str:
    for new in _homes(new_text):
        for was in _homes(old_text):
            if new.subject == was.subject and not new.place & was.place:
                return (f'another place for the same subject ("{new.subject_written}"): the new memory says '
                        f'"{new.said}" and this one "{was.said}"')
    return ""


def changed_fact(new_text: str, old_text: str) -> str:
    """Why `new_text` gives a count or a home of `old_text` another value, or "" when it does not."""
    return _count_difference(new_text, old_text) or _move_difference(new_text, old_text)
