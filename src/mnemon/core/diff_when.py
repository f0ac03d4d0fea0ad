"""Words that say when a fact is stated, or when a thing takes place, not which fact or thing it is.

"the cache is warm now" says of "the cache is not warm" all but the "not": the "now" is the time of the statement,
which the other memory need not say, so the overlap of the two beside their negation leaves it out (it pulled the
pair under the conflict threshold, 2/3). "The standup now starts at 10:15" gives the time "the standup is at 9:30"
gives: a verb of scheduling ("starts", "begins", "is scheduled for") names no other measure than "is at" does, while
"ends at" does ("The standup starts at 9:30" / "… ends at 10:15" are two times of one meeting)."""
from __future__ import annotations

from .text import tokens

# the keyword tokens of the words of a statement's time ("again" and "no longer" are no keywords already)
STATEMENT_TIME = frozenset(tokens("now currently still anymore nowadays today actually finally"))
# the keyword tokens of the verbs that put a thing at a time as "is at" does: its start, or the whole of it
_SCHEDULING = frozenset(tokens("start starts started begin begins began happen happens occur occurs held "
                               "scheduled planned kick kicks"))


def _unscheduled(key: tuple[str, ...]) -> tuple[str, ...]:
    return key[:-1] if len(key) > 1 and key[-1] in _SCHEDULING else key


def scheduled_alike(one: tuple[str, ...], other: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The names of two measures (their keyword tokens) to compare, without a last verb of scheduling unless both
    end on the same word: ("standup", "start") and ("standup",) are one measure, as are ("standup", "start") and
    ("standup", "begin"); ("standup", "end") and ("standup",) are two, as are ("standup", "start") and
    ("standup", "end")."""
    if one[-1:] == other[-1:]:
        return one, other
    return _unscheduled(one), _unscheduled(other)
