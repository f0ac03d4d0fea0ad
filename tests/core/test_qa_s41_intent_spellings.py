"""The same question spelt the usual other way got another intent: "what's the rate limit" was GENERAL while "what is
the rate limit" was ENTITY (as "who's" already was "who is"); "whoʼs" typed with U+02BC was GENERAL; and 王伟是谁
("who is Wang Wei", the everyday Chinese word order) was GENERAL while 谁是王伟 was ENTITY. Whoever-clauses
(无论是谁, 不管是谁: "whoever it is") ask for nobody."""
from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from mnemon.core.intent import Intent, IntentDecision, detect_intent

ENTITY, GENERAL, WHY = Intent.ENTITY, Intent.GENERAL, Intent.WHY


@pytest.mark.parametrize(("query", "cues"), [
    ("what's the API rate limit", ("en:what is",)),
    ("What’s the API rate limit?", ("en:what is",)),
    ("WHAT'S THE RATE LIMIT", ("en:what is",)),
    ("whoʼs on call this week", ("en:who is",)),  # U+02BC, a letter: the whole "whoʼs" was one unknown word
    ("王伟是谁", ("zh:是谁",)),
    ("混合云迁移的负责人是谁？", ("zh:是谁",)),
    ("王偉是誰", ("zh:是誰",)),
    ("是谁决定放弃 Redis 的", ("zh:谁决定",)),  # the longer cue holds the 谁 they share
])
def test_the_other_spelling_asks_the_same_question(query: str, cues: tuple[str, ...]) -> None:
    assert detect_intent(query) == IntentDecision(ENTITY, "auto", cues)


@pytest.mark.parametrize(("query", "expected"), [
    ("what's the reason we dropped Redis", ENTITY),  # the seed's ENTITY tie-break, as "what is the reason"
    ("why's the build red", WHY),
    ("whatsoever happened", GENERAL),
    ("无论是谁提交的代码都要评审", GENERAL),  # whoever submits code
    ("不管是谁值班，都要先看仪表盘", GENERAL),
    ("不论是谁", GENERAL),
])
def test_edges_of_the_new_spellings(query: str, expected: Intent) -> None:
    assert detect_intent(query).intent is expected


@given(st.sampled_from(["the rate limit", "Kafka", "the on-call rotation", "new-checkout"]),
       st.sampled_from(["'", "’", "ʼ"]), st.sampled_from(["", "?", "???", "."]))
def test_contraction_and_full_form_agree(subject: str, apostrophe: str, end: str) -> None:
    full = detect_intent(f"what is {subject}{end}").intent
    assert detect_intent(f"what{apostrophe}s {subject}{end}").intent is full is ENTITY
