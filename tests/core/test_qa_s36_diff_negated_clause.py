"""A clause that denies another memory whole is a CONFLICT whatever the next clause adds: "The API doesn't use JWT
tokens, it uses session cookies" after "The API uses JWT tokens" was an UPDATE (0.67) with no reason, as were "The
API uses session cookies. It does not use JWT tokens" and "服务不支持 IPv6，只支持 IPv4" after "服务支持 IPv6";
"测试没有通过" after "测试通过了" an ADD (the 有 of 没有 and the closing 了 kept the characters apart). A negation in
a clause that says nothing the other memory says still flips nothing ("…, no exceptions")."""
from __future__ import annotations

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.diff import diff_suggestion

DENIED = [
    ("The API uses JWT tokens", "The API doesn't use JWT tokens, it uses session cookies", "doesn't"),
    ("The API uses JWT tokens", "The API uses session cookies. It does not use JWT tokens", "does not"),
    ("We deploy on Fridays", "We do not deploy on Fridays; we deploy on Thursdays instead", "do not"),
    ("服务支持 IPv6", "服务不支持 IPv6，只支持 IPv4", "不"),
    ("测试通过了", "测试没有通过", "没"),
]


@pytest.mark.parametrize(("old", "new", "cue"), DENIED, ids=[d[1] for d in DENIED])
def test_a_clause_denying_the_other_memory_is_a_conflict(old: str, new: str, cue: str) -> None:
    for a, b, says in ((old, new, "the new memory says"), (new, old, "this one says")):
        verdict, matches = diff_suggestion(b, [("old", a, None)])
        assert verdict == "CONFLICT" and matches[0].suggestion == "CONFLICT", (b, a, matches)
        assert f'{says} "{cue}"' in matches[0].reason


STILL_AGREE = [
    ("The nightly backup runs at 2am", "The nightly backup runs at 2am, no exceptions"),
    ("Mira leads the payments team", "Mira leads the payments team, not the billing team"),
    ("The API uses JWT tokens", "The API uses JWT tokens; it does not use session cookies"),
    ("测试通过了", "测试通过了，没有报错"),
]


@pytest.mark.parametrize(("old", "new"), STILL_AGREE, ids=[d[1] for d in STILL_AGREE])
def test_a_negation_about_something_else_flips_nothing(old: str, new: str) -> None:
    verdict, matches = diff_suggestion(new, [("old", old, None)])
    assert verdict != "CONFLICT", matches


def test_remember_calls_the_denying_clause_a_conflict(mem: Mnemon) -> None:
    old = mem.remember("The API uses JWT tokens")
    out = mem.remember("The API doesn't use JWT tokens, it uses session cookies")
    assert out["diff_suggestion"] == "CONFLICT" and out["diff_matches"][0]["id"] == old["id"]
