"""`related` follows edges both ways by default, so it answers "what replaced this?".

A newer memory B that supersedes A holds the edge B→A (and a cause C holds C→effect): `related A --type supersedes`
used to return nothing, as it only walked edges leaving A. It now walks edges entering a memory too (`direction`
`both`, the default; `out` and `in` pick one side) and says for each result which way its edge ran."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from mnemon.app import curation
from mnemon.app.memory import Mnemon
from mnemon.core.errors import InvalidInput
from mnemon.interfaces import operations
from mnemon.interfaces.operations import BY_NAME, check_args

FIELDS = {"id", "content", "category", "importance", "depth", "via_edge_type", "via_sub_type", "weight", "direction"}


def _superseded(mem: Mnemon) -> tuple[str, str]:
    old = mem.remember("The team deploys on Fridays", source="s1", no_diff=True)["id"]
    new = mem.remember("Deploys moved to Tuesdays after the outage", source="s2", no_diff=True)["id"]
    mem.link(new, old, "supersedes")
    return old, new


def test_the_memory_that_supersedes_another_is_related_to_it(mem: Mnemon) -> None:
    old, new = _superseded(mem)
    out = mem.related(old, edge_type="supersedes")
    assert out["direction"] == "both"
    [hit] = out["related"]
    assert (hit["id"], hit["depth"], hit["via_edge_type"], hit["direction"]) == (new, 1, "supersedes", "in")
    assert set(hit) == FIELDS and hit["content"] == "Deploys moved to Tuesdays after the outage"
    # and from the newer one, the memory it replaced, as before
    [back] = mem.related(new, edge_type="supersedes")["related"]
    assert (back["id"], back["direction"]) == (old, "out")


def test_direction_picks_one_side(mem: Mnemon) -> None:
    old, new = _superseded(mem)
    assert mem.related(old, edge_type="supersedes", direction="out")["related"] == []
    assert [r["id"] for r in mem.related(old, edge_type="supersedes", direction="in")["related"]] == [new]
    assert mem.related(new, edge_type="supersedes", direction="in")["related"] == []
    assert [r["id"] for r in mem.related(new, edge_type="supersedes", direction="out")["related"]] == [old]


def test_a_causal_chain_is_walked_back_from_the_effect(mem: Mnemon) -> None:
    a, b, c = (mem.remember(t, source=f"s{k}", no_diff=True)["id"]
               for k, t in enumerate(["one x", "two y", "three z"]))
    mem.link(a, b, "causal")
    mem.link(b, c, "causal")
    back = mem.related(c, depth=2, edge_type="causal")["related"]
    assert [(r["id"], r["depth"], r["direction"]) for r in back] == [(b, 1, "in"), (a, 2, "in")]
    forward = mem.related(a, depth=2, edge_type="causal")["related"]
    assert [(r["id"], r["depth"], r["direction"]) for r in forward] == [(b, 1, "out"), (c, 2, "out")]
    assert mem.related(c, depth=2, edge_type="causal", direction="out")["related"] == []


def test_a_symmetric_edge_is_reported_once_as_out(mem: Mnemon) -> None:
    a = mem.remember("alpha one", source="s1", no_diff=True)["id"]
    b = mem.remember("beta two", source="s2", no_diff=True)["id"]
    mem.link(a, b, "semantic", weight=0.7)
    for start, other in ((a, b), (b, a)):
        hits = mem.related(start, edge_type="semantic")["related"]
        assert [(r["id"], r["direction"], r["weight"]) for r in hits] == [(other, "out", 0.7)]
        assert hits == mem.related(start, edge_type="semantic", direction="out")["related"]


def test_a_bad_direction_is_invalid_input(mem: Mnemon) -> None:
    old, _ = _superseded(mem)
    for bad in ("up", "", "BOTH", "incoming"):
        with pytest.raises(InvalidInput, match="direction"):
            mem.related(old, direction=bad)


def test_the_cli_takes_direction_and_refuses_a_bad_one(cli_run: Callable[..., tuple[int, Any]]) -> None:
    code, old = cli_run(["remember", "The team deploys on Fridays", "--source", "s1", "--no-diff"])
    assert code == 0
    code, new = cli_run(["remember", "Deploys moved to Tuesdays after the outage", "--source", "s2", "--no-diff"])
    assert code == 0
    assert cli_run(["link", new["id"], old["id"], "--type", "supersedes"])[0] == 0
    code, out = cli_run(["related", old["id"], "--type", "supersedes"])
    assert code == 0 and [(r["id"], r["direction"]) for r in out["related"]] == [(new["id"], "in")]
    code, out = cli_run(["related", old["id"], "--type", "supersedes", "--direction", "out"])
    assert code == 0 and out["related"] == []
    code, out = cli_run(["related", old["id"], "--direction", "sideways"])
    assert code != 0 and out["ok"] is False and out["error"]["code"] == "invalid_input"


def test_the_operation_takes_direction_as_its_schema_says(mem: Mnemon) -> None:
    old, new = _superseded(mem)
    op = BY_NAME["related"]
    assert op.schema()["properties"]["direction"]["enum"] == list(curation.RELATED_DIRECTIONS)
    assert operations.RELATED_DIRECTIONS == curation.RELATED_DIRECTIONS
    out = op.call(mem, check_args(op, {"id": old, "edge_type": "supersedes"}))
    assert [(r["id"], r["direction"]) for r in out["related"]] == [(new, "in")]
    out = op.call(mem, check_args(op, {"id": old, "edge_type": "supersedes", "direction": "out"}))
    assert out["related"] == []
    with pytest.raises(InvalidInput):
        check_args(op, {"id": old, "direction": "sideways"})


@settings(max_examples=20, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edges=st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4), st.sampled_from(["supersedes", "causal"])),
                      max_size=8), start=st.integers(0, 4))
def test_both_is_what_out_and_in_reach_at_depth_one(
        make_mem: Callable[..., Mnemon], edges: list[tuple[int, int, str]], start: int) -> None:
    mem = make_mem()
    ids = [mem.remember(f"memory number {k} about topic {k * 7}", source=f"s{k}", no_diff=True)["id"]
           for k in range(5)]
    for src, dst, kind in edges:
        if src != dst:
            mem.link(ids[src], ids[dst], kind)
    for kind in ("supersedes", "causal"):
        both = {r["id"]: r["direction"] for r in mem.related(ids[start], depth=1, edge_type=kind)["related"]}
        outs = {r["id"] for r in mem.related(ids[start], depth=1, edge_type=kind, direction="out")["related"]}
        ins = {r["id"] for r in mem.related(ids[start], depth=1, edge_type=kind, direction="in")["related"]}
        assert set(both) == outs | ins
        assert outs == {ids[d] for s, d, k in edges if k == kind and ids[s] == ids[start] and s != d}
        assert ins == {ids[s] for s, d, k in edges if k == kind and ids[d] == ids[start] and s != d}
        for node, way in both.items():
            assert way == ("out" if node in outs else "in")
    mem.close()
