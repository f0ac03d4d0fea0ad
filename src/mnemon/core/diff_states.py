"""A subject said to be in the opposite state: "The API is down" after "The API is up and running". The opposite
words flip the fact whatever else either memory says of the state ("and running", "since the deploy", "until the
vendor replies"), which the overlap of the rest of their words cannot tell: those two shared half their words and
were an UPDATE with no reason. It is the same fact only when the subject before the verb of being is the same
("The billing API" / "The billing API", not "The staging API" / "The production API") and the state is not of
another place or thing each names after it ("up in the US region" / "down in the EU region")."""
from __future__ import annotations

import re
from dataclasses import dataclass

from .opposites import being_verb, opposites
from .text import token_set

_CLAUSE = re.compile(r"[,;:!?()\n，；：！？。]|[.](?!\d)|\s[—–-]\s")
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?|\d\w*")
_DETERMINERS = frozenset("the a an our my your their his her its this that these those".split())
# a preposition naming where or of what the state is: the same one with other words after it is another scope
_SCOPE = frozenset("in on at for within across inside outside under".split())
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
# what stands between a Chinese subject and its state: 是, 很, 已经, 现在, 又 …
_ZH_LINK = re.compile(r"(?:是|很|都|也|已经|已|现在|目前|仍然|还是|还|又|再次|变得|变成|处于)+$")


@dataclass(frozen=True)
class _Said:
    subject: frozenset[str]  # its keyword tokens
    written: str  # the subject as written, without its article
    scope: frozenset[tuple[str, str]]  # (preposition, the first word after it) said after the state


def _english(text: str, word: str) -> _Said | None:
    for clause in _CLAUSE.split(text):
        found = list(_WORD.finditer(clause))
        words = [m.group().lower().replace("’", "'") for m in found]
        for k, w in enumerate(words):
            verb = being_verb(words, k) if w == word else -1
            if verb < 0:
                continue
            start = next((i for i in range(verb) if words[i] not in _DETERMINERS), verb)
            if verb == start:
                return None
            written = clause[found[start].start():found[verb - 1].end()]
            after = [a for a in words[k + 1:] if a not in _DETERMINERS]
            scope = frozenset((p, nxt) for p, nxt in zip(after, after[1:]) if p in _SCOPE)
            return _Said(token_set(written), written, scope)
    return None


def _chinese(text: str, word: str) -> _Said | None:
    for clause in _CLAUSE.split(text):
        at = clause.find(word)
        if at > 0:
            written = _ZH_LINK.sub("", clause[:at]).strip()
            return _Said(token_set(written), written, frozenset()) if written else None
    return None


def _said(text: str, word: str) -> _Said | None:
    return _chinese(text, word) if _CJK.search(word) else _english(text, word)


def _scopes_differ(one: frozenset[tuple[str, str]], other: frozenset[tuple[str, str]]) -> bool:
    return any(p == q and a != b for p, a in one for q, b in other)


def state_change(new_text: str, old_text: str) -> str:
    """Why `new_text` says the subject of `old_text` is in the opposite state, or "" when it does not."""
    found = opposites(new_text, old_text)
    for o in found:
        new, old = _said(new_text, o.new_word), _said(old_text, o.old_word)
        if new is None or old is None or not new.subject or new.subject != old.subject:
            continue
        if _scopes_differ(new.scope, old.scope):
            continue
        return (f'a state change of the same subject ("{new.written}"): the new memory says "{o.new_word}" and this '
                f'one "{o.old_word}" ({o.pair}), one denies the other')
    return ""
