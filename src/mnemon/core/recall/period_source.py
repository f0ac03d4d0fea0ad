"""When the period a query names is a source of recall of its own (app/recall.py: its memories are `window` anchors,
match the query's date words and are supported whatever their words), and which rule made it one.

Two rules, tried in order:

- `named_day`: the period is at most `WINDOW_SOURCE_SPAN` long ("what happened on 20 November 2026", "standup notes
  from 20 November 2026"): a day's memories are few, so they may join whatever else the query asks about.
- `period_only`: a closed period of any length when the query asks about nothing else — "what happened in March
  2025", "what did we do in June 2024", "2025年3月发生了什么". With no content word left there is nothing for a month's
  memories to crowd out, while without the rule they share no word with the query, are dropped as unsupported, and
  what fills the results is from outside the period. A query with a content word ("billing decisions in March 2025",
  every LoCoMo question) keeps to the day rule: a month's hundreds of memories all matching "March" outweighed the
  question there (params.py).

A query asks about "nothing else" when, once the period's own expression is cut out, every word left is a stopword
(core/text.py) or one of `_FILLER`: the words of asking what went on, not of what about.
"""
from __future__ import annotations

from functools import cache

from ..lazy_regex import LazyRegex
from ..text import normalize, tokens
from .params import WINDOW_SOURCE_SPAN
from .timeframe import TimeWindow

NAMED_DAY = "named_day"
PERIOD_ONLY = "period_only"

# English words of asking what went on in a period (stemmed as the tokenizer stems them) and of the period itself
# that the expression read by timeframe.py may leave behind ("in June last year", "early in March 2025")
_FILLER_WORDS = ("happen happened happens happening occur occurred going go goes went work worked working anything"
                 " everything something things thing stuff event events tell show list give summary summarize"
                 " summarise recap overview remember recall memories memory us please year month last early late mid")
# Chinese and Japanese ones, cut out as text: CJK runs are tokenized as bigrams, so "发生了什么" is no list of words
_CJK_FILLER = LazyRegex("|".join(sorted((
    "发生了什么", "发生过什么", "发生", "什么", "做了", "干了", "做过", "有哪些", "哪些", "有什么", "事情", "事", "我们", "我",
    "都", "了", "吗", "呢", "在", "期间", "的时候", "时候", "那时", "里", "中", "的", "去年", "今年", "前年",
    "何があった", "何をした", "何", "があった", "起きた", "した", "ました", "でした", "こと", "の", "に", "は", "で",
), key=len, reverse=True)))


@cache
def _filler() -> frozenset[str]:
    return frozenset(tokens(_FILLER_WORDS))


def asks_only_about(query: str, window: TimeWindow) -> bool:
    """True when `query` names `window` and nothing else: no content word outside the period's own expression."""
    norm = normalize(query)
    expression = normalize(window.text)
    at = norm.find(expression)
    rest = norm if at < 0 else norm[:at] + " " + norm[at + len(expression):]
    rest = _CJK_FILLER.sub(" ", rest)
    filler = _filler()
    return all(t in filler for t in tokens(rest))


def period_source(query: str, window: TimeWindow | None) -> tuple[TimeWindow | None, str | None]:
    """The period that is a source of its own and the rule that made it one, or (None, None)."""
    if window is None:
        return None, None
    if window.span() <= WINDOW_SOURCE_SPAN:
        return window, NAMED_DAY
    closed = window.start.year > 1 and window.end.year < 9999  # "since March" / "as of June" name no own period
    if closed and asks_only_about(query, window):
        return window, PERIOD_ONLY
    return None, None
