"""One part of a memory said again with another value: "Mira now lives in Porto" after "Mira lives in Lisbon", "We
now use Zulip for team chat" after "We use Slack for team chat", "米拉现在住在波尔图" after "米拉住在里斯本". The
word saying the change ("now", "actually", 现在) is one more word the other memory does not have, so two short
memories shared too few words (0.4) for the overlap to call them one fact: the agent kept both places as current.
Read beside those words, the two are the same words around one changed part of at most four words (two at the
end; eight characters), after a shared subject and verb: an UPDATE whose reason names both parts. A changed number
is left to the number and measure rules ("Build agent 9" is another agent, not a new value of "Build agent 7")."""
from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from .lazy_regex import AsciiCaseless
from .text import tokens
from .text_memo import RECALLED_CHARS, text_memo

# words saying that what follows is the current value, not what it is about
_MARKERS = AsciiCaseless(r"\b(?:now|actually|currently|nowadays|these\s+days|in\s+fact|correction|update|fyi)\b"
                         r"|现在|目前|如今|其实|实际上")
_WORD = re.compile(r"\w+(?:['’]\w+)*")
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
_ZH_CLOSING = re.compile(r"[了的啦呢]+(?=\s*(?:$|[，。；！？,.;!?]))")  # (a closing particle: "…32GB 内存了")
_CJK_CHAR = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\w]")
# a part that denies a value ("不再用Slack", "no longer uses Slack") is no value the other part replaces: "团队现在用
# Zulip" after "团队不再用 Slack 沟通了" agrees with it
_DENIAL = re.compile(r"(?i)\b(?:not|no|never|no\s+longer)\b|n['’]t\b|不|没|未(?!来)")
PART_WORDS = 4  # the most words a changed part holds
PART_CHARS = 8  # … or Chinese characters


def _ends(new: Sequence[str], old: Sequence[str]) -> tuple[int, int]:
    """The lengths of the common start and the common end of two sequences (not overlapping)."""
    p = 0
    while p < min(len(new), len(old)) and new[p] == old[p]:
        p += 1
    s = 0
    while s < min(len(new), len(old)) - p and new[-1 - s] == old[-1 - s]:
        s += 1
    return p, s


_PERSONAL = frozenset("i we you he she they".split())  # (a subject, though no keyword)


def _content(words: Sequence[str]) -> int:
    return sum(1 for w in words if w in _PERSONAL or tokens(w))


@lru_cache(maxsize=1024)  # (recall reads each of its best results against every newer one)
@text_memo(RECALLED_CHARS)  # (and in recall after recall)
def _words_of(text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    said = tuple(_WORD.findall(_MARKERS.blanked(text)))
    return said, tuple(w.lower() for w in said)


def _english(new_text: str, old_text: str) -> tuple[str, str]:
    new_said, new = _words_of(new_text)
    old_said, old = _words_of(old_text)
    if new[:2] != old[:2]:
        return "", ""  # (no subject and verb said alike before the part: most pairs recall reads end here)
    p, s = _ends(new, old)
    new_part, old_part = new[p:len(new) - s], old[p:len(old) - s]
    most = PART_WORDS if s else PART_WORDS // 2  # (a part ending the text is a value, not a new predicate)
    if not (0 < len(new_part) <= most and 0 < len(old_part) <= most):
        return "", ""
    if not _content(new_part) or not _content(old_part) or any(c.isdigit() for w in new_part + old_part for c in w):
        return "", ""
    if _content(new[:p]) < 2:
        return "", ""  # (a subject and its verb before the part: "Mira lives in", "We use", not "Mira loves the …")
    return " ".join(new_said[p:len(new) - s]), " ".join(old_said[p:len(old) - s])


def _chinese(new_text: str, old_text: str) -> tuple[str, str]:
    new = _CJK_CHAR.findall(_ZH_CLOSING.sub("", _MARKERS.caseless.sub("", new_text)))
    old = _CJK_CHAR.findall(_ZH_CLOSING.sub("", _MARKERS.caseless.sub("", old_text)))
    p, s = _ends(new, old)
    while p and (new[p - 1].isdigit() or new[p - 1].isascii()) and new[p - 1].isalnum():
        p -= 1  # a number or a Latin word is changed whole ("34" / "35", not "4" / "5")
    while s and new[len(new) - s].isascii() and new[len(new) - s].isalnum():
        s -= 1
    new_part, old_part = "".join(new[p:len(new) - s]), "".join(old[p:len(old) - s])
    if not (0 < len(new_part) <= PART_CHARS and 0 < len(old_part) <= PART_CHARS) or p < 2:
        return "", ""
    return new_part, old_part


def changed_parts(new_text: str, old_text: str) -> tuple[str, str]:
    """The one part `new_text` says where `old_text` says another, as written, or ("", "") when there is none."""
    cjk = not (new_text.isascii() or old_text.isascii()) and _CJK.search(new_text) and _CJK.search(old_text)
    said, was = (_chinese if cjk else _english)(new_text, old_text)
    if not said or _DENIAL.search(said) or _DENIAL.search(was):
        return "", ""
    return said, was


def changed_part(new_text: str, old_text: str) -> str:
    """Why `new_text` gives one part of `old_text` another value, or "" when it does not."""
    said, was = changed_parts(new_text, old_text)
    if not said:
        return ""
    return (f'the same words but for one part: the new memory says "{said}" where this one says "{was}": a new '
            "value of the same fact, unless both hold")
