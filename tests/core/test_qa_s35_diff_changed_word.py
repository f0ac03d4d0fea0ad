"""A memory with one content word changed for another is no duplicate, however close its vector: with the local
e5 model "Deploy freeze ends on Friday" after "Deploy freeze starts on Friday" was a DUPLICATE (cosine 0.90), as was
a long memory with one word changed (its overlap over 0.9), and the agent was told the new fact was already known.
They are an UPDATE whose reason names the words that differ (a synonym, "resides" for "lives", is one too: the
reason says the fact is the same only if the words mean the same); a word only added ("… ever") stays a
duplicate."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from mnemon.core.diff import diff_suggestion

E5_COSINE = 0.9015  # what the e5 model gave "Deploy freeze starts on Friday" / "… ends on Friday"
LONG = ("The quarterly access review for the payments cluster covers every service account, every human operator "
        "and every break-glass credential, and its findings go to the security channel and the audit wiki on {day}")

CHANGED = [
    ("Deploy freeze starts on Friday", "Deploy freeze ends on Friday", E5_COSINE, "ends", "starts"),
    (LONG.format(day="Monday"), LONG.format(day="Thursday"), None, "thursday", "monday"),
    ("Store the nightly backups in the Frankfurt region", "Store the nightly backups in the Dublin region", 0.93,
     "dublin", "frankfurt"),
]


@pytest.mark.parametrize(("old", "new", "cosine", "said", "unsaid"), CHANGED, ids=[p[3] for p in CHANGED])
def test_a_changed_content_word_is_an_update_naming_both(old: str, new: str, cosine: float | None, said: str,
                                                        unsaid: str) -> None:
    verdict, matches = diff_suggestion(new, [("old", old, cosine)])
    assert verdict == "UPDATE" and matches[0].suggestion == "UPDATE"
    assert said in matches[0].reason.lower() and unsaid in matches[0].reason.lower()


SAME = [
    ("Never commit secrets to the git repository", "Never commit secrets to the git repository ever", 0.95),
    ("The server is up", "Server is up", None),
    ("car broke down", "automobile failure on the road", 0.97),  # two phrasings: the vector decides
]


@pytest.mark.parametrize(("old", "new", "cosine"), SAME, ids=[p[1] for p in SAME])
def test_an_added_word_or_another_phrasing_stays_a_duplicate(old: str, new: str, cosine: float | None) -> None:
    assert diff_suggestion(new, [("old", old, cosine)])[0] == "DUPLICATE"


WORDS = ["ledger", "billing", "export", "nightly", "cluster", "replica", "archive", "tenant", "invoice", "audit",
         "region", "schema", "queue", "worker", "report", "budget", "vendor", "payroll", "backup", "mirror", "canary",
         "rollout", "ticket", "pager"]


@settings(max_examples=80, deadline=None)
@given(st.lists(st.sampled_from(WORDS), min_size=20, max_size=24, unique=True), st.data())
def test_one_word_changed_in_a_long_memory_is_never_a_duplicate(words: list[str], data: st.DataObject) -> None:
    k = data.draw(st.integers(0, len(words) - 1))
    other = data.draw(st.sampled_from([w + "s2" for w in WORDS]))
    changed = [*words[:k], other, *words[k + 1:]]
    assert diff_suggestion(" ".join(changed), [("old", " ".join(words), None)])[0] != "DUPLICATE"
