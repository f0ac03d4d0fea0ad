"""A word that every correction cue of `diff.corrections` holds (and every hand-over of `diff_handover`: "now",
"new", "took over", "replaced", "handed … to", "ownership of … moved to", and every change `diff_updates` reads:
"now", "raised", "upgraded", "rolled out", 现在 …): a text without one corrects nothing, so recall and remember's diff
skip reading it for cues (recall without even loading the diff module)."""
from __future__ import annotations

import re

from .lazy_regex import AsciiCaseless

# words saying a value changed, not only what it is: a verb of change, or "now" of the current value
_CHANGE_LATIN = (
    "now", "currently", "nowadays", "these days", "raised", "increased", "decreased", "lowered", "reduced", "bumped",
    "cut", "extended", "shortened", "doubled", "halved", "tripled", "grew", "dropped", "fell", "rose", "jumped",
    "climbed", "went up", "went down", "upgraded", "upgrade", "downgraded", "updated", "changed", "moved", "migrated",
    "switched", "rolled out", "rolled back", "rescheduled", "postponed", "delayed", "pushed back")
_CHANGE_CJK = "现在|如今|目前|已改为|升级|現在"
# a correction's or a hand-over's cue (every cue of diff._CUES has one)
_CORRECTION_LATIN = (
    "from", "instead", "rather", "replaced", "replaces", "superseded", "supersedes", "longer", "more", "anymore",
    "used", "not", "stopped", "quit", "ceased", "now", "new", "over", "handed", "hands", "passed", "passes",
    "transferred", "transfers", "ownership", "leadership", "management", "maintenance", "chairmanship",
    "stewardship")
_CORRECTION_CJK = "从|不再|把|取代|代替|替代|替换|不是|から"
_LETTERS = re.compile(r"[a-z]+")


def _alternation(words: tuple[str, ...]) -> str:
    return "|".join(w.replace(" ", r"\s+") for w in words)


class WordCue:
    """A cue said by one of some English words or phrases (whole words, any case) or some CJK strings. `search` is
    the regular expression's; `said_in` answers the same for a text of ASCII from its words alone, ten times faster
    than the expression's scan (recall asks it of every candidate): a phrase matched stands between non-word
    characters, so its first word is one of the text's runs of letters, and no CJK string is in ASCII text."""

    def __init__(self, *parts: tuple[tuple[str, ...], str]) -> None:
        latin = "|".join(_alternation(words) for words, _ in parts)
        cjk = "|".join(cjk for _, cjk in parts if cjk)
        self._source = rf"\b(?:{latin})\b" + (f"|{cjk}" if cjk else "")
        self.pattern = re.compile("(?i)" + self._source)
        self.search = self.pattern.search
        self._caseless: AsciiCaseless | None = None  # (built when `span` is first asked: most cues never are)
        self._first_words = frozenset(w.split()[0] for words, _ in parts for w in words)

    def said_in(self, text: str, runs: frozenset[str] | None = None) -> bool:
        """`runs`: `letter_runs(text)`, when several cues are asked of one text."""
        if text.isascii():
            return not self._first_words.isdisjoint(runs if runs is not None else _LETTERS.findall(text.lower()))
        return self.pattern.search(text) is not None


    def span(self, text: str) -> tuple[int, int] | None:
        """Where `search` finds the cue first, found faster in ASCII text (`AsciiCaseless`)."""
        if self._caseless is None:
            self._caseless = AsciiCaseless(self._source)
        return self._caseless.span(text)


def letter_runs(text: str) -> frozenset[str] | None:
    """The runs of letters of an ASCII `text`, lowercased: what `WordCue.said_in` reads of it (None for other text,
    whose cues are found by their expressions)."""
    return frozenset(_LETTERS.findall(text.lower())) if text.isascii() else None


CHANGE_SAID = WordCue((_CHANGE_LATIN, _CHANGE_CJK))
MAY_CORRECT_WORDED = WordCue((_CORRECTION_LATIN, _CORRECTION_CJK))
MAY_CORRECT = WordCue((_CORRECTION_LATIN, _CORRECTION_CJK), (_CHANGE_LATIN, _CHANGE_CJK))
