"""A role handed to someone else: "Bob Chen left the team; Ana Ruiz now owns the deployment pipeline" retires "Bob
Chen owns the deployment pipeline", with no "from X" or "instead of X" naming the value it retires (the holder).

A role here is one only one holder has at a time: owning, leading, running, managing, maintaining, heading,
overseeing or chairing a thing (as a verb, "owns", or a noun, "is the owner of", or "is owned by"). A new memory hands
it over when it says so — "now owns", "is now the owner of", "took over", "replaced Bob as owner of", "handed the
pipeline to Ana", "ownership of the pipeline moved from Bob to Ana" (the holder after "to") — and a stored
memory where another holder has the same role for the same thing (the same content words) is the one retired: a
CONFLICT in the diff, `corrected_by` in recall. Not a hand-over: a role shared ("now also owns", "co-owns",
"owns … too", "together with"), another role ("now reviews"), another thing, or the same holder said again.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from .cue_words import WordCue, letter_runs
from .diff_when import STATEMENT_TIME
from .diff_words import FILLERS
from .measure_values import MONTHS
from .text import tokens

# a role's verb forms and nouns, each as the role it names
_VERBS = {"own": "own", "owns": "own", "owned": "own", "lead": "lead", "leads": "lead", "led": "lead", "run": "run",
          "runs": "run", "manage": "manage", "manages": "manage", "managed": "manage", "maintain": "maintain",
          "maintains": "maintain", "maintained": "maintain", "head": "head", "heads": "head", "headed": "head",
          "oversee": "oversee", "oversees": "oversee", "oversaw": "oversee", "overseen": "oversee", "chair": "chair",
          "chairs": "chair", "chaired": "chair"}
_NOUNS = {"owner": "own", "lead": "lead", "leader": "lead", "manager": "manage", "maintainer": "maintain",
          "head": "head", "chair": "chair"}
_VERB = "|".join(sorted(_VERBS, key=len, reverse=True))
_NOUN = "|".join(sorted(_NOUNS, key=len, reverse=True))
_PARTICIPLE = "owned|led|run|managed|maintained|headed|overseen|chaired"
_ADVERBS = r"(?:(?:now|currently|officially|formally|also|jointly|still)\s+)*"
_OBJECT = r"(?P<object>[^,;:.!?()]+)"
_TO_HOLDER = r"\s+to\s+(?P<holder>[^,;:.!?()]+)"  # the new holder, after the thing handed
_ROLE_NOUNS = {"ownership": "own", "leadership": "lead", "management": "manage", "maintenance": "maintain",
               "chairmanship": "chair", "stewardship": "own"}
_FORMS = (
    # "Ana is now the owner of the pipeline", "Ana is the new lead for payments"
    re.compile(rf"(?i)\s(?:is|are|'s|’s|was|became|becomes)\s+(?P<pre>{_ADVERBS})(?:the\s+|our\s+)?(?P<new>new\s+)?"
               rf"\b(?P<role>{_NOUN})\s+(?:of|for|on)\s+{_OBJECT}"),
    # "Ana took over the pipeline", "Ana has taken over the pipeline from Bob"
    re.compile(rf"(?i)(?<!\S)(?P<pre>{_ADVERBS})(?:has\s+|have\s+|had\s+)?(?P<over>took|taken|takes|taking)\s+over\s+"
               rf"(?!from\b|as\b){_OBJECT}"),
    # "Ana replaced Bob as owner of the pipeline"
    re.compile(rf"(?i)(?<!\S)(?P<pre>{_ADVERBS})(?P<over>replaced|replaces)\s+[^,;:.!?()]+?\s+as\s+(?:the\s+)?"
               rf"\b(?P<role>{_NOUN})\s+(?:of|for|on)\s+{_OBJECT}"),
    # "Ownership of the billing service moved from Alice to Bob", "Leadership of payments passed to Bob"
    re.compile(rf"(?i)(?<!\S)(?P<noun>{'|'.join(_ROLE_NOUNS)})\s+(?:of|for|over)\s+(?P<object>[^,;:.!?()]+?)\s+"
               r"(?:(?:was|were|has\s+been|had\s+been|is|got)\s+)?(?P<over>moved|passed|went|shifted|transferred|"
               rf"handed(?:\s+over)?)(?:\s+from\s+[^,;:.!?()]+?)?{_TO_HOLDER}"),
    # "Kenji handed the CI pipeline (over) to Aiko", "Kenji passed the pipeline on to Aiko": the holder after "to"
    re.compile(rf"(?i)(?<!\S)(?P<pre>{_ADVERBS})(?:has\s+|have\s+|had\s+)?(?P<over>handed|hands|passed|passes|"
               r"transferred|transfers)\s+(?:over\s+)?(?!from\b)(?P<object>[^,;:.!?()]+?)(?:\s+(?:over|on))?"
               rf"{_TO_HOLDER}"),
    # "Ana Ruiz now owns the pipeline" (not "now co-owns": no clause with "co-" is read)
    re.compile(rf"(?i)(?<!\S)(?P<pre>{_ADVERBS})(?:has\s+|have\s+)?\b(?P<role>{_VERB})\b\s+{_OBJECT}"),
)
# "the pipeline is now owned by Ana": the object first, the holder after "by"
_PASSIVE = re.compile(rf"(?i)^(?P<object>.+?)\s+(?:is|are|was|were|has\s+been|have\s+been)\s+(?P<pre>{_ADVERBS})"
                      rf"(?P<role>{_PARTICIPLE})\s+by\s+(?P<holder>[^,;:.!?()]+)")
_CLAUSE = re.compile(r"[;:!?()\n]|[.,](?!\d)|\s[—–-]\s|\b(?:and|but|while|whereas|then|so)\b")
# words that end the thing a role is of: "owns the pipeline from May", "since the reorg", "as of today"
_OBJECT_END = re.compile(r"(?i)\s+(?:from|since|after|until|starting|effective|as\s+of|as|in|on|at)\s+.*$")
# a role kept shared: "owns the pipeline too", "together with Bob", "alongside Bob"
_SHARED_TAIL = re.compile(r"(?i)\b(?:too|as\s+well|jointly|together|alongside|along\s+with|with)\b")
_NO_HOLDER = frozenset(tokens("who which that it this he she they we i you someone nobody everyone team"))
# the words one of `_FORMS` or `_PASSIVE` hands a role over with (whole words, as the forms read them): a cue of its
# own ("took over", "handed … to"), "replaced" with a role's noun ("replaced Bob as owner of"), a role's noun with a
# verb of its move ("ownership of … moved to"), or "now" or "new" with a role's word ("is now the owner of", "is the
# new lead for", "now owns", "is now owned by"). A text with none hands nothing over and its clauses are not read
# (recall asks it of each candidate with a correction's words)
_HANDED = WordCue((("took", "taken", "takes", "taking", "handed", "hands", "passed", "passes", "transferred",
                    "transfers"), ""))
_REPLACED = WordCue((("replaced", "replaces"), ""))
_NOW_OR_NEW = WordCue((("now", "new"), ""))
_ROLE_WORD = WordCue(((*_VERBS, *_NOUNS), ""))
_ROLE_NOUN = WordCue((tuple(_NOUNS), ""))
_ROLE_MOVED = WordCue((tuple(_ROLE_NOUNS), ""))
_MOVED = WordCue((("moved", "went", "shifted"), ""))


def may_hand_over(text: str) -> bool:
    """False only when `text` holds no hand-over `_roles` reads with a cue (`hands_over` is then False)."""
    runs = letter_runs(text)
    return (_HANDED.said_in(text, runs) or (_REPLACED.said_in(text, runs) and _ROLE_NOUN.said_in(text, runs))
            or (_NOW_OR_NEW.said_in(text, runs) and _ROLE_WORD.said_in(text, runs))
            or (_ROLE_MOVED.said_in(text, runs) and _MOVED.said_in(text, runs)))


@dataclass(frozen=True)
class _Role:
    holder: frozenset[str]
    holder_text: str
    role: str  # "" for "took over": whichever role the thing had
    thing: frozenset[str]
    thing_text: str
    handed_over: bool  # said with a cue: "now", "new", "took over", "replaced … as"
    span: str


def _words(text: str) -> frozenset[str]:
    return frozenset(t for t in tokens(text) if t not in FILLERS and t not in STATEMENT_TIME and t not in MONTHS)


def _holder(before: str) -> tuple[frozenset[str], str]:
    """Who has the role: the last words before it (at most four), as written."""
    words = before.split()[-4:]
    while words and not _words(words[0]):
        words.pop(0)
    text = " ".join(words)
    return _words(text) - _NO_HOLDER, text


def _thing(text: str) -> tuple[frozenset[str], str, bool]:
    text = _OBJECT_END.sub("", text.strip())
    shared = _SHARED_TAIL.search(text) is not None
    return _words(text), text.strip(), shared


@lru_cache(maxsize=64)  # (the new memory's are read against each candidate)
def _roles(text: str) -> tuple[_Role, ...]:
    out: list[_Role] = []
    for clause in _CLAUSE.split(text):
        clause = clause.strip()
        if not clause or "co-" in clause.lower():
            continue
        passive = _PASSIVE.match(clause)
        if passive:
            matches = [(passive, passive.group("holder"), _VERBS.get(passive.group("role").lower(), ""))]
        else:
            found = next((m for form in _FORMS for m in form.finditer(clause)), None)  # (in the forms' order)
            if found is None:
                continue
            role = found.groupdict().get("role") or ""
            # (no role for "took over" or "handed … to": whichever the thing had; the noun of "replaced Bob as owner
            # of"; of "Ownership of … moved to", the role its noun names)
            role = _ROLE_NOUNS.get((found.groupdict().get("noun") or "").lower()) or _NOUNS.get(role.lower()) \
                or _VERBS.get(role.lower(), "")
            matches = [(found, found.groupdict().get("holder") or clause[:found.start()], role)]
        for m, before, role in matches:
            pre = (m.group("pre") or "").lower().split() if "pre" in m.groupdict() else []
            thing, thing_text, shared = _thing(m.group("object"))
            if m.groupdict().get("holder"):  # (the holder after "to", up to a when: "to Aiko since May")
                _, after, shared_after = _thing(m.group("holder"))
                holder, holder_text = _holder(" ".join(after.split()[:4]))
                shared = shared or shared_after
            else:
                holder, holder_text = _holder(before)
            if "also" in pre or "jointly" in pre or shared or not holder or not thing:
                continue
            cue = "now" in pre or bool(m.groupdict().get("new")) or bool(m.groupdict().get("over"))
            out.append(_Role(holder, holder_text, role, thing, thing_text, cue, clause))
    return tuple(out)


def hands_over(text: str) -> bool:
    """Whether `text` hands a role over at all: a memory that does not retires nothing by `handover`."""
    return may_hand_over(text) and any(role.handed_over for role in _roles(text))


def handover(new_text: str, old_text: str, *, stored: bool = False) -> str:
    """Why `new_text` hands to another holder the role `old_text` gives someone, or "" when it does not; `stored`:
    `new_text` is the stored memory, and the new one states the role it handed over (said so)."""
    for new in _roles(new_text):
        if not new.handed_over:
            continue
        for old in _roles(old_text):
            if (old.thing == new.thing and (not new.role or old.role == new.role)
                    and not old.holder & new.holder and old.holder_text.casefold() != new.holder_text.casefold()):
                said = ("this memory's", "the new memory") if stored else ("the new memory's", "this memory")
                return (f'{said[0]} hand-over "{new.span}" gives "{new.thing_text}" to "{new.holder_text}", where '
                        f'{said[1]} says "{old.holder_text}" has it')
    return ""
