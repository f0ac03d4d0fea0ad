"""Numbers and measured values in the diff: two texts a high overlap calls one fact are not the same fact said
again when each states another number ("limit is 100" / "limit is 500"), and a memory with few words in common is
the same measure with a new value ("Checkout latency p99 is 420 ms" / "… is 180 ms after raising Redis maxmemory")."""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from .diff_when import scheduled_alike
from .diff_words import FROM_VERBS as _FROM_VERBS, content_words as _content
from .measure_values import CURRENCY, MONTHS, ORDINALS, canonical, same_value
from .text import token_set, tokens
from .text_memo import RECALLED_CHARS, text_memo


def numbers(text: str) -> frozenset[str]:
    """The numbers `text` states, as its tokens holding a digit ("100", "16gb", "3pm"), leading zeros dropped."""
    return frozenset((t.lstrip("0") or "0") if t.isdigit() else t
                     for t in tokens(text, keep_stopwords=True) if any(c.isdigit() for c in t))


def number_difference(new_text: str, old_text: str) -> str:
    """Why two texts a high overlap or cosine calls one are not the same fact: each states a number the other does
    not ("limit is 100" / "limit is 500"), or "" when they state the same ones or one states none."""
    new_n, old_n = numbers(new_text), numbers(old_text)
    if not new_n or not old_n or new_n == old_n:
        return ""
    said, unsaid = " ".join(sorted(new_n - old_n)), " ".join(sorted(old_n - new_n))
    parts = ([f'the new memory says "{said}"'] if said else []) + ([f'this one says "{unsaid}"'] if unsaid else [])
    return "another number: " + " and ".join(parts) + ", so not the same fact said again"


# A measured quantity: the words naming it right before its value ("Checkout latency p99 is 420 ms", "The launch is
# on March 3", "The planning moved to Wednesday", "The deploy takes 10 minutes"). A word starting with a letter holds
# its digits and hyphens ("p99", "db-1"); a number its inner point, comma or colon; a value is a number (with the
# month before or after it, the am/pm, an ordinal's ending, the numbers after it: "2026-03-03", "10 March", "3 pm")
# or a day of the week; a currency sign before it, a % and a unit written onto it ("5k", "30s") are quoted with it.
_MEASURE_WORD = re.compile(r"[^\W\d_]\w*(?:[-'’]\w+)*|\d[\d.,:]*\d|\d|\w+")
_MEASURE_CLAUSE = re.compile(r"[;!?\n]|[.,:](?!\d)")
MEASURE_WORDS = 3  # the last content words before a value that name its measure (2 shared, or 1 and the same unit)
WEEKDAYS = frozenset(d + s for d in "monday tuesday wednesday thursday friday saturday sunday".split()
                      for s in ("", "s"))
_AFTER_NUMBER = frozenset(("am", "pm", "a.m", "p.m"))
# words saying a value changed, not what it measures ("The launch moved to March 10", "p99 dropped to 180 ms")
_CHANGED = frozenset(_FROM_VERBS.split("|")) | frozenset(
    "rescheduled postponed delayed pushed bumped raised lowered dropped increased decreased reduced fell rose grew "
    "went became jumped climbed rolled enabled".split())  # ("is enabled for 10%", "was rolled out to 100%")
# verbs that measure what they follow ("The deploy takes 10 minutes", "Mira weighs 60 kg"): part of the measure's
# name, with no value of a name after them ("Build agent 7")
_MEASURING = frozenset("take takes took cost costs weigh weighs weighed last lasts lasted total totals totaled "
                       "totalled average averages averaged measure measures measured".split())
_AGE_BEFORE = frozenset(("turned", "turns", "aged"))  # "Mira turned 35"
_AGE_AFTER = (("years", "old"), ("year", "old"), ("yrs", "old"), ("years", "of", "age"))  # "35 years old"
_NO_UNIT = frozenset(("per", "a", "an", "each"))  # "€25 per seat": the price, not a unit "per"
# between the word that states a value and the value ("is now 35", "is at 80%")
_VALUE_ADVERBS = frozenset("now still currently just only about around roughly approximately nearly almost "
                           "exactly at".split())


@dataclass(frozen=True)
class _Measure:
    key: tuple[str, ...]  # the keyword tokens of the words naming it
    named: str  # those words as written
    value: str
    unit: str  # the keyword token of the word after the value ("age" for one), or ""
    link: str = ""  # the word stating the value ("is", "has"): a unit on one side only is the same measure by it


def _value_end(words: list[str], found: list[re.Match[str]], end: int) -> int:
    """Past the numbers, am/pm, a day's month ("10 March") and an ordinal's ending ("3rd") after a value."""
    while end < len(words):
        w, attached = words[end], found[end].start() == found[end - 1].end()
        if not (w[0].isdigit() or w in _AFTER_NUMBER or (w in ORDINALS and attached)
                or (w in MONTHS and words[end - 1][0].isdigit() and w != "may")):
            break
        end += 1
    return end


@lru_cache(maxsize=8192)  # (a few thousand words name most measures; each costs a tokenising)
def _key_of(word: str) -> str:
    return " ".join(_content(word))


def _may_state_value(text: str) -> bool:
    """False only when `text` states no value `_measures` reads (recall asks this of every newer candidate that says
    a change, and of the older ones beside it): no word of its clauses, split as `_measures` splits them, is a
    number or a day of the week (a month names a value only beside a number). Most memories that hold a digit hold
    it inside a word ("ticket NIM-1824", "p99", "v2"), which `_measures` never reads as a value."""
    return any((w := word.lower())[0].isdigit() or w in WEEKDAYS
               for clause in _MEASURE_CLAUSE.split(text) for word in _MEASURE_WORD.findall(clause))


@lru_cache(maxsize=64)  # (the new memory's are read against each of its candidates)
@text_memo(RECALLED_CHARS)  # (and in recall after recall)
def _measures(text: str) -> tuple[_Measure, ...]:
    """The values `text` states after content words naming them: the words since the clause's start or the value
    before (and its unit: "420 ms and error rate is 2 %" names "error rate" alone). A value right after a content
    word is part of a name ("Invoice INV 2041", "Build agent 7", "Release Friday"): a value follows "is", "to",
    "at", "on", "of" … An age ("turned 35", "35 years old", "Mira's age is 35") is the unit "age"."""
    out: list[_Measure] = []
    if not _may_state_value(text):
        return ()
    for clause in _MEASURE_CLAUSE.split(text):
        found = list(_MEASURE_WORD.finditer(clause))
        words = [m.group().lower() for m in found]
        lead: list[tuple[str, str]] = []
        after_content = age = False
        link = ""
        k = 0
        while k < len(words):
            w = words[k]
            end = k + 2 if w in MONTHS and k + 1 < len(words) and words[k + 1][0].isdigit() else k + 1
            if end == k + 1 and not w[0].isdigit() and w not in WEEKDAYS:
                key = _key_of(w)
                if key and w not in _CHANGED and w not in _AGE_BEFORE:
                    lead.append((key, found[k].group()))
                after_content = bool(key) and w not in _CHANGED and w not in _MEASURING and w not in _AGE_BEFORE
                age = w in _AGE_BEFORE
                link = "is" if age else (link if w in _VALUE_ADVERBS else w)
                k += 1
                continue
            end = _value_end(words, found, end)
            nxt = words[end] if end < len(words) else ""
            unit = _key_of(nxt) if nxt and not nxt[0].isdigit() and nxt not in _NO_UNIT else ""
            if lead and lead[-1][0] == "age":  # "Mira's age is 35"
                lead, age = lead[:-1], True
            if age or any(tuple(words[end:end + len(a)]) == a for a in _AGE_AFTER):
                unit, link = "age", "is"
            if link == "from" and lead and not after_content:
                # "increased from 100 to 250": the value left, not the measure's; the one after "to" is
                link, k = "", end + (1 if unit and unit != "age" else 0)
                continue
            if lead and not after_content:
                named = lead[-MEASURE_WORDS:]
                first, last = found[k].start(), found[end - 1].end()
                if unit and unit != "age" and end < len(found) and found[end].start() == last:
                    last = found[end].end()  # "5k", "30s"
                first -= first > 0 and clause[first - 1] in CURRENCY
                last += clause[last:last + 1] == "%"
                out.append(_Measure(tuple(t for t, _ in named), " ".join(w for _, w in named),
                                    clause[first:last], unit, link))
            lead, after_content, age, link = [], False, False, ""
            k = end + (1 if unit and unit != "age" else 0)  # (the unit names no next measure)
    return tuple(out)


def _named_alike(new: _Measure, was: _Measure) -> bool:
    new_key, was_key = scheduled_alike(new.key, was.key)  # ("standup", "start") / ("standup",)
    k = min(len(new_key), len(was_key), MEASURE_WORDS)
    named_alike = k >= 2 or (k == 1 and (new.unit == was.unit or (
        "" in (new.unit, was.unit) and new.link == was.link)))
    return named_alike and new_key[-k:] == was_key[-k:]


def _besides_value(text: str, m: _Measure, year: object) -> frozenset[str]:
    """The keyword tokens of `text` but the value `m` states, its unit, and `year` (a date's, said beside it)."""
    return token_set(text.replace(m.value, " ", 1)) - {m.unit, str(year)}


def measure_restated(new_text: str, old_text: str) -> str:
    """Why two memories are one fact with its value written two ways ("The request timeout is 30 seconds" / "… is
    30s", "Budget is $5000" / "… $5,000", "on 2026-03-03" / "on March 3, 2026"): the same measure, the same value,
    and every other word the same. "" otherwise."""
    news = _measures(new_text)
    old = _measures(old_text) if news else ()
    for new in news:
        for was in old:
            if new.value == was.value or not _named_alike(new, was):
                continue
            new_value, was_value = canonical(new.value, new.unit), canonical(was.value, was.unit)
            if not same_value(new_value, was_value):
                continue
            new_year = new_value[3] if new_value[0] == "date" else None
            was_year = was_value[3] if was_value[0] == "date" else None
            if _besides_value(new_text, new, was_year) == _besides_value(old_text, was, new_year):
                return (f'the same value written another way: the new memory says "{new.value}" and this one '
                        f'"{was.value}"')
    return ""


def measure_difference(new_text: str, old_text: str) -> str:
    """Why a memory with few words in common is the same measure with a new value ("Checkout latency p99 is 420 ms"
    / "… is 180 ms after raising Redis maxmemory"), or "" when no measure of one is measured by the other."""
    news = _measures(new_text)
    old = _measures(old_text) if news else ()
    for new in news:
        for was in old:
            if not _named_alike(new, was):
                continue
            if not same_value(canonical(new.value, new.unit), canonical(was.value, was.unit)):
                named = new.named if "age" not in (new.unit, was.unit) else new.named.removesuffix("'s") + "'s age"
                return (f'another value of the same measure ("{named}"): the new memory says "{new.value}" and '
                        f'this one "{was.value}"')
    return ""
