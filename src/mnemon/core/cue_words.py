"""A word that every correction cue of `diff.corrections` holds (and every hand-over of `diff_handover`: "now",
"new", "took over", "replaced", "handed … to", "ownership of … moved to", and every change `diff_updates` reads:
"now", "raised", "upgraded", "rolled out", 现在 …): a text without one corrects nothing, so recall and remember's diff
skip reading it for cues (recall without even loading the diff module)."""
from __future__ import annotations

import re

# words saying a value changed, not only what it is: a verb of change, or "now" of the current value
_CHANGE_WORDS = (r"\b(?:now|currently|nowadays|these\s+days|raised|increased|decreased|lowered|reduced|bumped|cut|"
                 r"extended|shortened|doubled|halved|tripled|grew|dropped|fell|rose|jumped|climbed|went\s+(?:up|down)|"
                 r"upgraded|upgrade|downgraded|updated|changed|moved|migrated|switched|rolled\s+(?:out|back)|"
                 r"rescheduled|postponed|delayed|pushed\s+back)\b|现在|如今|目前|已改为|升级|現在")
CHANGE_SAID = re.compile(rf"(?i){_CHANGE_WORDS}")
# a correction's or a hand-over's cue (every cue of diff._CUES has one)
_CORRECTION_WORDS = (r"\b(?:from|instead|rather|replaced|replaces|superseded|supersedes|longer|more|anymore|used|not|"
                     r"stopped|quit|ceased|now|new|over|handed|hands|passed|passes|transferred|transfers|ownership|"
                     r"leadership|management|maintenance|chairmanship|stewardship)\b|从|不再|把|取代|代替|替代|替换|不是|から")
MAY_CORRECT_WORDED = re.compile(rf"(?i){_CORRECTION_WORDS}")
MAY_CORRECT = re.compile(rf"(?i){_CORRECTION_WORDS}|{_CHANGE_WORDS}")
