"""`--hops N` bounds a thought's path to N edges, for every N: 0 is the thought's memory alone (its note opened the
path regardless, so `thought --hops 0` gave a one-hop path), and a value out of range is an `invalid_input` JSON
error, never a silent default."""
from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from mnemon.app.memory import Mnemon
from mnemon.app.thoughts import MAX_HOPS
from mnemon.core.errors import InvalidInput
from mnemon.render.cards import path_links, render_svg

from .vault_graph import Note, Obs, build, example_notes

WAITING = "Waiting for school confirmation before choosing an apartment"
WORDINGS = ["waiting on the vendor", "deadline due 2026-04-01", "a fact"]
# a hypothesis property over a fixture: the store is read (and thought history logged), never rebuilt per example
FIXTURE_OK = settings(max_examples=30, suppress_health_check=[HealthCheck.function_scoped_fixture])


def _edges(path: list[dict[str, Any]]) -> int:
    """How many edges a path walks: every step but the first is reached over one (the walk's tree)."""
    return max(0, len(path) - 1)


def _cards(mem: Mnemon, hops: int, hints: str | None) -> list[dict[str, Any]]:
    cards = list(mem.candidates(hops=hops, hints=hints, limit=5)["candidates"])
    cards += mem.surface(hops=hops, hints=hints, limit=5)["thoughts"]
    cards += mem.surface(prompt="what should I remember about supplier launch readiness?", hops=hops,
                         hints=hints, limit=5)["thoughts"]
    top = mem.thought(hops=hops, hints=hints)
    if top.get("path") is not None:
        cards.append(top)
    return cards


@pytest.fixture
def example(mem_none: Mnemon, example_vault: Path) -> Mnemon:
    mem_none.ingest(str(example_vault))
    return mem_none


@FIXTURE_OK
@given(hops=st.integers(min_value=0, max_value=MAX_HOPS), hints=st.sampled_from([None, "deadline", "school,lease"]))
def test_no_path_is_longer_than_its_hops(example: Mnemon, hops: int, hints: str | None) -> None:
    cards = _cards(example, hops, hints)
    assert cards
    for card in cards:
        assert _edges(card["path"]) <= hops, (hops, [s["id"] for s in card["path"]])
        assert len(path_links(card)) <= hops  # nor does the card draw more connectors than that


def _random_notes(draw: st.DrawFn) -> tuple[list[Note], list[tuple[str, str, str]]]:
    count = draw(st.integers(min_value=1, max_value=5))
    notes = [Note(f"n{i}.md", f"Note {i}", draw(st.sampled_from(["project", "person", "note"])),
                  [Obs(f"Item {i}.{j} {draw(st.sampled_from(WORDINGS))}",
                       draw(st.sampled_from(["blocked", "risk", "fact"])), draw(st.floats(1.0, 6.0)))
                   for j in range(draw(st.integers(min_value=1, max_value=3)))])
             for i in range(count)]
    pairs = list(itertools.permutations(range(count), 2))
    chosen = draw(st.lists(st.sampled_from(pairs), unique=True, max_size=len(pairs))) if pairs else []
    return notes, [(f"n{a}.md", f"n{b}.md", "active") for a, b in chosen]


@settings(max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(graph=st.composite(_random_notes)(), hops=st.integers(min_value=0, max_value=MAX_HOPS))
def test_no_path_is_longer_than_its_hops_on_any_graph(make_mem: Callable[..., Mnemon], facade_backend: str,
                                                      tmp_path_factory: pytest.TempPathFactory,
                                                      graph: tuple[list[Note], list[tuple[str, str, str]]],
                                                      hops: int) -> None:
    if facade_backend == "postgres":
        pytest.skip("a fresh store per example is a SQLite file; the example-vault property runs on both backends")
    mem = make_mem(db=tmp_path_factory.mktemp("g") / "g.db")
    notes, links = graph
    build(mem, notes, links=links)
    for card in _cards(mem, hops, None):
        assert _edges(card["path"]) <= hops
        assert len(path_links(card)) <= hops


@pytest.fixture
def school(mem: Mnemon, clock) -> Mnemon:  # type: ignore[no-untyped-def]
    mem.rt.clock = clock
    build(mem, example_notes(), links=[("Projects/move.md", "Projects/school-search.md", "active")])
    return mem


def test_zero_hops_is_the_memory_alone_with_its_note_still_named(school: Mnemon) -> None:
    top = school.thought(hops=0)
    assert [s["id"] for s in top["path"]] == [top["memory"]]
    assert "via" not in top["path"][0] and path_links(top) == []
    assert top["seed"].startswith("note:")  # the walk would start at the note; the card still says whose it is
    assert top["insight"].startswith(("Example Move Project holds", "School Search holds"))
    svg = render_svg(top)
    root = ET.fromstring(svg)
    assert len(list(root.iter("{http://www.w3.org/2000/svg}circle"))) == 1
    assert not [p for p in root.iter("{http://www.w3.org/2000/svg}path") if p.get("marker-end")]
    for row in school.candidates(hops=0, limit=5)["candidates"]:
        assert len(row["path"]) == 1 and row["path"][0]["id"] == row["observation"]["id"]
        assert row["seed"]["id"].startswith("note:") and row["seed"]["id"] != row["observation"]["id"]
    waiting = next(t for t in school.surface(prompt="school confirmation apartment", hops=0)["thoughts"]
                   if WAITING in t["evidence"])
    assert len(waiting["path"]) == 1 and waiting["seed"] == "note:Projects/move.md"
    assert school.thought(hops=1)["path"][0]["id"].startswith("note:")  # one hop: note → memory, as before


@pytest.mark.parametrize("hops", [-1, -5, MAX_HOPS + 1, True])
def test_hops_out_of_range_is_invalid_input(school: Mnemon, hops: Any) -> None:
    with pytest.raises(InvalidInput, match="--hops"):
        school.thought(hops=hops)


def test_cli_hops_zero_and_negative(cli_run: Callable[..., tuple[int, Any]], make_mem: Callable[..., Mnemon],
                                    tmp_path: Path) -> None:
    db = tmp_path / "cli.db"
    build(make_mem(db=db), [Note("Projects/move.md", "Move", "project", [Obs(WAITING, "blocked", 5.0)]),
                            Note("Projects/school.md", "School", "project", [Obs("School fact", "fact", 2.0)])],
          links=[("Projects/move.md", "Projects/school.md", "active")])
    code, out = cli_run(["--db", db, "thought", "--hops", "0", "--out", tmp_path / "cards"])
    assert code == 0 and [s["id"] for s in out["path"]] == [out["memory"]]
    for bad in ("-1", "13"):
        code, out = cli_run(["--db", db, "thought", "--hops", bad, "--out", tmp_path / "cards"])
        assert code != 0 and out["ok"] is False
        assert out["error"]["code"] == "invalid_input" and "--hops" in out["error"]["message"]
        assert out["error"]["details"]["hops"] == int(bad)
