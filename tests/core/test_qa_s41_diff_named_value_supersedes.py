"""A named value said as the current one supersedes the older name in the same words: "We now use Zulip for team
chat" after "We use Slack for team chat", "Mira now lives in Porto" after "Mira lives in Lisbon", "团队现在用 Zulip
沟通" after "团队用 Slack 沟通" were UPDATEs naming both parts, but recall still ranked the older name first. A part
that is a name (capitalised) on both sides, changed in a memory that says it is the current one ("now", 现在), is a
superseding UPDATE; a changed verb ("Bob now reviews …" / "Bob owns …"), a part added ("now also"), or no "now" is
not."""
from __future__ import annotations

import pytest

from mnemon.core.diff import diff_suggestion
from mnemon.core.diff_updates import superseding_update
from mnemon.core.recall.rerank import corrected_by

NAMED = [
    ("We use Slack for team chat", "We now use Zulip for team chat"),
    ("Mira lives in Lisbon", "Mira now lives in Porto"),
    ("The team meets on Google Meet every Monday", "The team now meets on Zoom every Monday"),
    ("团队用 Slack 沟通", "团队现在用 Zulip 沟通"),
]


@pytest.mark.parametrize(("old", "new"), NAMED, ids=[n[1] for n in NAMED])
def test_a_new_name_said_as_current_supersedes_the_older(old: str, new: str) -> None:
    verdict, matches = diff_suggestion(new, [("old", old, None)])
    assert verdict == "UPDATE" and "supersedes" in matches[0].reason, matches
    assert corrected_by([("a", old, "2026-11-01"), ("b", new, "2026-11-02")]) == {"a": "b"}


NOT_NAMED = [
    ("Bob Chen owns the deployment pipeline", "Bob Chen now reviews the deployment pipeline"),
    ("We use Slack for team chat", "We now also use Zulip for team chat"),
    ("We use Slack for team chat", "We use Zulip for team chat"),
    ("Mira lives in Lisbon", "Mira now works in Lisbon"),
    ("团队不再用 Slack 沟通了", "团队现在用 Zulip 沟通"),
    ("米拉负责支付系统", "米拉现在审查支付系统"),
]


@pytest.mark.parametrize(("old", "new"), NOT_NAMED, ids=[n[1] for n in NOT_NAMED])
def test_no_new_name_said_as_current_supersedes_nothing(old: str, new: str) -> None:
    assert superseding_update(new, old) == ""
    assert corrected_by([("a", old, "2026-11-01"), ("b", new, "2026-11-02")]) == {}
