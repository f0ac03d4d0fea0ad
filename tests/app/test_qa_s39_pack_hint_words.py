"""QA round (session 39): `retrieve --hints` and `agent preflight --hints` echo the words given, not their stems.

`mnemon retrieve --prompt "battery supplier" --hints "running,batteries"` answered `"hints": ["batteri", "run"]` and
each hinted item `"matched_hints": ["batteri"]`: the scorer's stemmed terms, which the user never typed. `thought`'s
`hint_report` echoes the words since the last session (ec4ae6a, test_qa_s38_hint_words.py); a pack now does too:
`hints` and an item's `matched_hints` are the words as given (once each, in their order), and `hint_terms` the stemmed
terms the items are scored by."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import given, strategies as st

from mnemon.app.memory import Mnemon
from mnemon.core.text import tokens


def test_retrieve_echoes_the_words_and_scores_by_their_terms(example_vault_mem: Mnemon) -> None:
    pack = example_vault_mem.retrieve("what is late with the supplier", hints="Batteries,running,Batteries,the")
    assert pack["hints"] == ["Batteries", "running", "the"]
    assert pack["hint_terms"] == ["batteri", "run"]
    hinted = [i for i in pack["items"] if i.get("matched_hints")]
    assert hinted, [i["id"] for i in pack["items"]]
    assert all(set(i["matched_hints"]) <= {"Batteries", "running"} and i["score_factors"]["hints"] > 1.0
               for i in hinted), hinted
    assert any(i["matched_hints"] == ["Batteries"] for i in hinted)


def test_without_hints_the_pack_names_none(example_vault_mem: Mnemon) -> None:
    pack = example_vault_mem.retrieve("what is late with the supplier")
    assert pack["hints"] == [] and pack["hint_terms"] == []


def test_preflight_echoes_the_words_as_retrieve_does(example_vault_mem: Mnemon) -> None:
    out = example_vault_mem.agent_preflight("what is late with the supplier", hints="batteries,running")
    assert out["context"]["hints"] == ["batteries", "running"] and out["context"]["hint_terms"] == ["batteri", "run"]


@given(st.lists(st.text(alphabet="abcXYZé -", min_size=1, max_size=8), min_size=1, max_size=4))
def test_the_echo_is_the_given_words_and_the_terms_their_tokens(words: list[str]) -> None:
    from mnemon.app.context import hint_echo

    echoed, terms = hint_echo(",".join(words))
    given_words = [w.strip() for w in words if w.strip()]
    assert echoed == list(dict.fromkeys(given_words))
    assert terms == sorted({t for w in given_words for t in tokens(w)})


def test_the_cli_answers_the_words(cli_run: Callable[..., tuple[int, Any]]) -> None:
    assert cli_run(["remember", "The batteries are running late at the supplier"])[0] == 0
    code, out = cli_run(["retrieve", "--prompt", "supplier late", "--hints", "running,batteries"])
    assert code == 0 and out["hints"] == ["running", "batteries"], out["hints"]
    assert out["items"][0]["matched_hints"] == ["running", "batteries"], out["items"][0]
    code, out = cli_run(["agent", "preflight", "--prompt", "supplier late", "--hints", "running,batteries"])
    assert code == 0 and out["context"]["hints"] == ["running", "batteries"], out["context"]["hints"]
