"""Causal cue detection (EN/ZH) and the sub-type suggestion rules."""
from __future__ import annotations

import re
from functools import lru_cache

_EN_CAUSAL = [
    "because", "therefore", "due to", "caused by", "as a result", "decided to", "chosen because", "so that",
    "in order to", "leads to", "led to", "results in", "resulted in", "consequently", "hence", "thus", "enables",
    "prevents", "prevented", "this means", "this ensures",
]
_ZH_CAUSAL = ["因为", "所以", "由于", "导致", "因此", "决定", "为了", "以便", "因而", "從而", "因為", "導致"]

_CAUSAL_RE = re.compile(
    r"(?i)(?:\b(?:" + "|".join(re.escape(k) for k in _EN_CAUSAL) + r")\b|" + "|".join(_ZH_CAUSAL) + ")"
)

_SUBTYPE_RULES: list[tuple[str, re.Pattern[str]]] = [
    ("prevents", re.compile(r"(?i)\b(?:despite|prevented|prevents|prevent|blocked)\b|阻止|防止")),
    ("enables", re.compile(r"(?i)\b(?:so that|in order to|enables|enabled|leads to|led to)\b|为了|以便")),
    ("causes", re.compile(r"(?i)\b(?:because|caused by|due to)\b|因为|由于|因為")),
]


# the cues by which a text says it has a cause ("X because Y"), as against what it leads to or what follows from it
# ("leads to", "therefore", "so that"): only such a text is the effect of a memory written after it
_NAMES_CAUSE = re.compile(r"(?i)\b(?:because|caused by|due to|as a result of)\b|因为|因為|由于|由於")


@lru_cache(maxsize=8192)
def causal_cue(text: str) -> str | None:
    """The first causal keyword in `text`, or None."""
    m = _CAUSAL_RE.search(text)
    return m.group(0).lower() if m else None


def suggest_sub_type(*texts: str) -> str:
    joined = "\n".join(texts)
    for name, pat in _SUBTYPE_RULES:
        if pat.search(joined):
            return name
    return "causes"


# where the clause after a cue that names a cause ends ("Because Y, X": Y ends at the comma)
_CLAUSE_END = re.compile(r"[,;.!?，；。！？、]")


def named_cause(text: str) -> str | None:
    """The cause `text` says it has — the clause after "because", "due to", 因为 … — or None when it names none."""
    m = _NAMES_CAUSE.search(text)
    if m is None:
        return None
    rest = text[m.end():]
    end = _CLAUSE_END.search(rest)
    return rest[:end.start()] if end else rest
