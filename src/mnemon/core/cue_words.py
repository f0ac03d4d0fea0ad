"""A word that every correction cue of `diff.corrections` holds (and every hand-over of `diff_handover`: "now",
"new", "took over", "replaced", "handed … to", "ownership of … moved to"): a text without one corrects nothing, so
recall and remember's diff skip reading it for cues (recall without even loading the diff module)."""
from __future__ import annotations

import re

MAY_CORRECT = re.compile(r"(?i)\b(?:from|instead|rather|replaced|replaces|superseded|supersedes|longer|more|anymore|"
                         r"used|not|stopped|quit|ceased|now|new|over|handed|hands|passed|passes|transferred|transfers|"
                         r"ownership|leadership|management|maintenance|chairmanship|stewardship)\b"
                         r"|从|不再|把|取代|代替|替代|替换|不是|から")  # (every cue of diff._CUES has one)
