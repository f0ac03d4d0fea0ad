"""A causal edge points one way, and the ontology says so. `mnemon link A B --type causal` writes one edge, cause to
effect (the seed's causes/enables/prevents), yet `mnemon explain-edge <its id>` answered `relationship_type`
`{"symmetric": true, "inverse": "causal"}` — a reverse edge nobody stores. What the ontology calls symmetric is
now exactly what `link` stores both ways, and a store whose relationship table was seeded before the correction
is not believed over the code. Once per backend (`make_mem`)."""
from __future__ import annotations

from collections.abc import Callable

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.ontology import DEFAULT_ONTOLOGY, MNEMON_EDGE_TYPES, classify_relation, inverse_of


@pytest.mark.parametrize("edge_type", MNEMON_EDGE_TYPES)
def test_the_ontology_calls_symmetric_exactly_what_link_stores_both_ways(
        make_mem: Callable[..., Mnemon], edge_type: str) -> None:
    mem = make_mem("hash")
    a = mem.remember("The Redis node ran out of memory", created_at="2026-11-20T01:00:00Z")["id"]
    b = mem.remember("Checkout failed for an hour", created_at="2026-11-20T02:00:00Z")["id"]
    out = mem.link(b, a, edge_type) if edge_type == "supersedes" else mem.link(a, b, edge_type)
    relationship = mem.explain_edge(out["edge_id"])["edge"]["relationship_type"]
    assert relationship["symmetric"] is ("reverse_edge_id" in out)
    # a symmetric relation is its own inverse; a directed one names the other direction
    assert (relationship["inverse"] == edge_type) is relationship["symmetric"]


def test_causal_is_directed_and_its_inverse_reads_backwards() -> None:
    spec = classify_relation("causal")
    assert spec is not None and spec.symmetric is False
    assert inverse_of("causal") == "caused_by"
    assert all(s.inverse == s.name for s in DEFAULT_ONTOLOGY.specs() if s.symmetric)


def test_a_relationship_table_seeded_before_the_correction_is_not_believed(make_mem: Callable[..., Mnemon]) -> None:
    mem = make_mem("hash")
    a = mem.remember("The Redis node ran out of memory", created_at="2026-11-20T01:00:00Z")["id"]
    b = mem.remember("Checkout failed for an hour", created_at="2026-11-20T02:00:00Z")["id"]
    stale = {**classify_relation("causal").to_row(), "symmetric": True, "inverse": "causal"}  # type: ignore[union-attr]
    mem.rt.store.vault.seed_relationship_types([stale])  # what a vault ingest of an older mnemon left
    edge_id = mem.link(a, b, "causal")["edge_id"]
    relationship = mem.explain_edge(edge_id)["edge"]["relationship_type"]
    assert (relationship["symmetric"], relationship["inverse"]) == (False, "caused_by")
