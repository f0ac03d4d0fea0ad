"""One part of a memory said again with another value is an UPDATE naming both parts, however few words the two
share: "Mira now lives in Porto" and "Actually, Mira lives in Porto" after "Mira lives in Lisbon" were ADDs at 0.4
(the "now" is one more word the other lacks), "米拉现在住在波尔图" after "米拉住在里斯本" an ADD at 0.17, so an
agent kept both places as current. A changed number after a name is another thing ("Build agent 9"), a part only
added is no new value, and a subject with no shared word besides ("We use Jira for tickets") is another fact."""
from __future__ import annotations

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.diff import diff_suggestion

CHANGED = [
    ("Mira lives in Lisbon", "Mira now lives in Porto", "Porto", "Lisbon"),
    ("Mira lives in Lisbon", "Actually, Mira lives in Porto", "Porto", "Lisbon"),
    ("We use Slack for team chat", "We now use Zulip for team chat", "Zulip", "Slack"),
    ("Ana reports to Mira", "These days Ana reports to Bob Stone", "Bob Stone", "Mira"),
    ("米拉住在里斯本", "米拉现在住在波尔图", "波尔图", "里斯本"),
    ("米拉今年34岁", "米拉今年35岁", "35", "34"),
    ("服务器有 16GB 内存", "服务器现在有 32GB 内存了", "32GB", "16GB"),
]


@pytest.mark.parametrize(("old", "new", "part", "old_part"), CHANGED, ids=[c[1] for c in CHANGED])
def test_one_part_said_with_another_value_is_an_update(old: str, new: str, part: str, old_part: str) -> None:
    verdict, matches = diff_suggestion(new, [("old", old, None)])
    assert verdict == "UPDATE" and matches[0].suggestion == "UPDATE", matches
    assert f'says "{part}" where this one says "{old_part}"' in matches[0].reason


NO_NEW_VALUE = [
    ("Build agent 7 is offline", "Build agent 9 is offline"),
    ("Mira has 3 cats", "Mira has 2 kids"),
    ("Mira lives in Lisbon", "Mira now lives in Lisbon with Ana"),
    ("We use Slack for team chat", "We use Jira for tickets"),
    ("Mira lives in Lisbon", "Ana now lives in Lisbon"),
]


@pytest.mark.parametrize(("old", "new"), NO_NEW_VALUE, ids=[c[1] for c in NO_NEW_VALUE])
def test_no_changed_part_where_none_is_changed(old: str, new: str) -> None:
    for a, b in ((old, new), (new, old)):
        _, matches = diff_suggestion(b, [("old", a, None)])
        assert "for one part" not in matches[0].reason, (b, a, matches)


def test_remember_calls_the_new_city_an_update(mem: Mnemon) -> None:
    old = mem.remember("Mira lives in Lisbon")
    out = mem.remember("Mira now lives in Porto")
    assert out["diff_suggestion"] == "UPDATE" and out["diff_matches"][0]["id"] == old["id"]
    assert "Porto" in out["diff_matches"][0]["reason"]


def test_a_value_said_again_after_a_newer_one_is_an_update_naming_it() -> None:
    verdict, matches = diff_suggestion("Mira lives in Lisbon.", [("a", "Mira lives in Lisbon", None),
                                                                 ("b", "Mira lives in Berlin", None)],
                                       {"a": "2026-01-01T00:00:00Z", "b": "2026-01-02T00:00:00Z"})
    assert verdict == "UPDATE"
    duplicate, = (m for m in matches if m.suggestion == "DUPLICATE")
    assert duplicate.id == "a" and "newer b" in duplicate.reason
