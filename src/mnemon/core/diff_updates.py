"""An update said as a change supersedes what it changes: "The API rate limit is now 250 requests per minute" after
"Our API rate limit is 100 …", "The staging cluster was upgraded to Kubernetes 1.29" after "… runs Kubernetes 1.27".
Neither names the value it replaces ("from X", "instead of X"), so no correction cue retired the older memory and
recall kept ranking the stale value first. Two kinds are read, each only when the new memory says it changed ("now",
"raised", "upgraded", "rolled out", 现在 …) and not that it is one more ("now also"): otherwise two values may both
hold (two projects on two Pythons).

- a new value of the same measure (`measure_difference`: "rate limit" 100 → 250, "rolled out to 100%" after
  "enabled for 10%");
- one part of the same words that is a name on both sides ("We now use Zulip for team chat" after "… Slack …",
  "Mira now lives in Porto"): not a changed verb ("Bob now reviews the pipeline" after "Bob owns …"), no value;
- another version of the same named product, every other word of the older memory said again ("staging cluster").
  A number right after a name is part of it ("Sprint 12", "Python 3", "Build agent 7"): it is a version only when
  it is one ("3.11", "1.29") or the memory says so ("to version 8", "upgraded to Postgres 16").
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from .cue_words import CHANGE_SAID
from .diff_measures import measure_difference
from .diff_slots import changed_parts
from .lazy_regex import AsciiCaseless
from .measure_values import MONTHS
from .text import token_set, tokens
from .text_memo import RECALLED_CHARS, text_memo

# a value said beside the older one, not in its place ("now also reviews", "now owns the docs too", 也, 还)
_ADDED = AsciiCaseless(r"\b(?:also|too|as\s+well|additionally|in\s+addition|alongside|both)\b|也|还")
# a change by an amount ("increased 20%", "raised by 50"): no new value of the measure, which the older one states
_DELTA = AsciiCaseless(r"\b(?:raised|increased|decreased|lowered|reduced|bumped|cut|extended|shortened|grew|dropped|"
                        r"fell|rose|jumped|climbed|went\s+(?:up|down))\s+(?:by\s+)?[$€£¥]?\d")
# the words of a change that say a number after a name is a version of it ("upgraded to Postgres 16")
_VERSION_CHANGE = re.compile(r"(?i)\b(?:upgraded|upgrade|upgrading|downgraded|updated|bumped|migrated|version)\b")
# a name and the number after it: "Kubernetes 1.29", "Elasticsearch to version 8", "Node.js v20"
_VERSIONED = re.compile(r"(?<![\w.])(?P<name>[A-Za-z][\w+#]*(?:\.[A-Za-z]+)?)\s+(?:(?:to|from)\s+)?"
                        r"(?P<said>(?:version|v)\s*)?(?P<version>\d+(?:\.\d+)*)(?![\w%]|\.\d)")
# what comes right before every version `_VERSIONED` reads: a space, or the "v" or "version" said with it ("v20")
_MAY_VERSION = re.compile(r"[\svn]\d")
_LATIN_WORDS = re.compile(r"[A-Za-z]\w*")
_CJK_CHAR = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]")
_DOTTED = re.compile(r"\d+\.\d+")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_YEAR = re.compile(r"(?:19|20)\d\d")
# a product's verbs and the words of its version: what the older memory may say that the newer need not
_PRODUCT_WORDS = frozenset(tokens("use uses using used run runs running ran on version versions upgrade upgraded "
                                  "to from"))


@dataclass(frozen=True)
class _Version:
    name: str  # as written
    key: str  # casefolded
    version: str
    explicit: bool  # a version by its form or the memory's words, not a number that may name the product


@lru_cache(maxsize=64)  # (the new memory's are read against each candidate)
@text_memo(RECALLED_CHARS)  # (and in recall after recall)
def _versions(text: str) -> tuple[_Version, ...]:
    if _MAY_VERSION.search(text) is None:
        return ()
    said_version = _VERSION_CHANGE.search(text) is not None
    out: list[_Version] = []
    for m in _VERSIONED.finditer(text):
        name, version = m.group("name"), m.group("version")
        if name.lower() in MONTHS or _YEAR.fullmatch(version) or not tokens(name):
            continue  # ("March 3", "in 2026", "to 250": a date, a year, a value)
        if not (any(c.isupper() for c in name) or m.group("said")):  # ("Kubernetes", "iPhone", "version 8")
            continue  # ("runs 3 replicas": a count, not a product's version)
        out.append(_Version(name, name.casefold(), version,
                            bool(m.group("said")) or said_version or _DOTTED.fullmatch(version) is not None))
    return tuple(out)


_NAME_WORD = re.compile(r"[^\W\d_]*[A-Z]\w*")  # ("Zulip", "Google Meet", "iCloud"; in Chinese text, "Slack")


def _named(part: str) -> bool:
    words = _LATIN_WORDS.findall(part)
    return bool(words) and all(_NAME_WORD.fullmatch(w) for w in words) and not _CJK_CHAR.search(part)


def _version_change(new_text: str, old_text: str, cue: str) -> str:
    for new in _versions(new_text):
        if not new.explicit:
            continue
        for was in _versions(old_text):
            if was.key != new.key or was.version == new.version:
                continue
            # every other word of the older memory said again: "The production cluster runs Kubernetes 1.27" is
            # not what "The staging cluster was upgraded to Kubernetes 1.29" changes
            rest = token_set(old_text) - _PRODUCT_WORDS - set(tokens(was.name)) - {was.version}
            if rest <= token_set(new_text):
                return (f'another version of "{new.name}": the new memory says "{new.version}" and this one '
                        f'"{was.version}", said as a change ("{cue}"), so the new memory supersedes this one')
    return ""


def superseding_update(new_text: str, old_text: str) -> str:
    """Why `new_text` changes what `old_text` states, said as a change (so the older memory is no longer current),
    or "" when it does not."""
    said = _change_said(new_text)
    if said is None:
        return ""
    cue, subject_numbers, delta = said
    if _other_subject(subject_numbers, old_text):
        return _version_change(new_text, old_text, cue)
    changed = measure_difference(new_text, old_text) if not delta else ""
    if changed:
        return f'{changed}; said as a change ("{cue}"), so the new memory supersedes this one'
    part, was = changed_parts(new_text, old_text)
    if part and _named(part) and _named(was):
        return (f'another name in the same words: the new memory says "{part}" where this one says "{was}", said as '
                f'a change ("{cue}"), so the new memory supersedes this one')
    return _version_change(new_text, old_text, cue)


@lru_cache(maxsize=256)  # (recall reads one new memory against each of the best results)
@text_memo(RECALLED_CHARS)  # (and in recall after recall)
def _change_said(new_text: str) -> tuple[str, tuple[str, ...], bool] | None:
    """The change `new_text` says (its cue), the numbers of the words before it, and whether it is by an amount
    ("raised by 50"); None when it says no change, or one more value ("now also")."""
    change = CHANGE_SAID.span(new_text) if CHANGE_SAID.said_in(new_text) else None
    if change is None or _ADDED.found_in(new_text):
        return None
    start, end = change
    return new_text[start:end], tuple(_NUMBER.findall(new_text[:start])), _DELTA.found_in(new_text)


def _other_subject(subject_numbers: tuple[str, ...], old_text: str) -> bool:
    """Whether the words before the new memory's change name a number the older memory does not have: "Zebrafish
    tank 2 moved to the lab in week 2" is about another tank than "tank 1 moved … in week 1", not its new week."""
    if not subject_numbers:
        return False
    said = set(_NUMBER.findall(old_text))
    return any(n not in said for n in subject_numbers)
