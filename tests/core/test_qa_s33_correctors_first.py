"""`correctors_first`: the order recall returns when a result corrects another one among them."""
from __future__ import annotations

from mnemon.core.recall.precedence import correctors_first


def test_corrector_takes_the_place_of_what_it_corrects() -> None:
    assert correctors_first(["p", "old", "q", "new", "r"], [("new", "old")]) == ["p", "new", "old", "q", "r"]


def test_corrector_already_above_moves_nothing() -> None:
    assert correctors_first(["new", "p", "old"], [("new", "old")]) == ["new", "p", "old"]


def test_pairs_outside_the_results_are_ignored() -> None:
    order = ["old", "p", "q"]
    assert correctors_first(order, [("gone", "old"), ("p", "missing"), ("q", "q")]) == order


def test_chain_and_one_corrector_of_two() -> None:
    assert correctors_first(["a", "b", "c"], [("b", "a"), ("c", "b")]) == ["c", "b", "a"]
    assert correctors_first(["x", "p", "y", "new"], [("new", "x"), ("new", "y")]) == ["new", "x", "p", "y"]


def test_links_that_contradict_each_other_keep_the_first_and_every_result() -> None:
    assert correctors_first(["b", "p", "a"], [("a", "b"), ("b", "a")]) == ["a", "b", "p"]
    assert correctors_first(["a", "b", "c"], [("a", "b"), ("b", "c"), ("c", "a")]) == ["a", "b", "c"]
