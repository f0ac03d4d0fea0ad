"""The relationship ontology and the edge lifecycle gate: what may become a fact, and what must wait."""
from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from mnemon.core.errors import Conflict, InvalidInput
from mnemon.core.ontology import (
    DEFAULT_ONTOLOGY,
    DEFAULT_RELATIONSHIP_TYPES,
    MNEMON_EDGE_TYPES,
    RelationSpec,
    category_of,
    classify_relation,
    graph_of,
    inverse_of,
    observation_relation,
    relations_for_graph,
    requires_validation,
)
from mnemon.core.vault import (
    EdgeFacts,
    gate_edge,
    promotion_plan,
    survives_rebuild,
    truth_policy,
    weaken,
    weaken_edge,
)
from mnemon.core.vault.lifecycle import kept_active

MNEME_SEEDED = {
    "links_to": ("reference", "linked_from", False),
    "linked_from": ("reference", "links_to", False),
    "has_heading": ("structure", "heading_of", False),
    "mentions_email": ("extraction", "email_mentioned_by", False),
    "mentions_date": ("extraction", "date_mentioned_by", False),
    "has_fact": ("observation", "fact_of", False),
    "has_blocked": ("observation", "blocked_item_of", False),
    "has_risk": ("observation", "risk_of", False),
    "has_done": ("observation", "done_item_of", False),
    "belongs_to": ("semantic", "has_part", True),
    "has_part": ("semantic", "belongs_to", True),
    "located_in": ("semantic", "contains_location", True),
    "contains_location": ("semantic", "located_in", True),
    "father_of": ("semantic", "child_of", True),
    "part_of": ("semantic", "has_part", True),
    "attends_activity": ("semantic", "activity_attended_by", True),
    "requested_activity": ("semantic_pending", "activity_requested_by", True),
}


# -- ontology --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(MNEME_SEEDED))
def test_mneme_seeded_rows_are_present_with_category_inverse_and_validation(name: str) -> None:
    spec = classify_relation(name)
    assert spec is not None
    assert (spec.category, spec.inverse, spec.requires_validation) == MNEME_SEEDED[name]
    assert spec.description


def test_transitive_flags_and_domain_hints_follow_mneme() -> None:
    assert {s.name for s in DEFAULT_RELATIONSHIP_TYPES if s.transitive} == {
        "located_in", "contains_location", "part_of",
    }
    located = classify_relation("located_in")
    assert located is not None and (located.domain, located.range) == ("place", "place")


def test_mnemon_edge_types_are_associations_with_their_own_graph() -> None:
    for name in ("temporal", "entity", "causal", "semantic"):
        assert category_of(name) == "association"
        assert graph_of(name) == name
        assert not requires_validation(name)
    assert category_of("supersedes") == "lineage"
    assert graph_of("supersedes") is None
    assert set(MNEMON_EDGE_TYPES) <= set(DEFAULT_ONTOLOGY.names())


@pytest.mark.parametrize(
    ("relation", "graph"),
    [
        ("links_to", "entity"), ("embeds", "entity"), ("has_heading", "entity"), ("has_section", "entity"),
        ("mentions_date", "temporal"), ("mentions_email", "entity"), ("has_tag", "entity"),
        ("has_blocked", "entity"), ("has_correction", "entity"), ("revalidated_by", "causal"),
        ("located_in", "entity"), ("relates_to", "semantic"),
    ],
)
def test_every_relation_maps_to_a_traversal_graph(relation: str, graph: str) -> None:
    assert graph_of(relation) == graph


def test_graph_partition_lists_each_relation_once() -> None:
    seen: list[str] = []
    for graph in ("temporal", "entity", "causal", "semantic"):
        seen.extend(relations_for_graph(graph))  # type: ignore[arg-type]
    assert len(seen) == len(set(seen))
    assert set(seen) | {"supersedes"} == set(DEFAULT_ONTOLOGY.names())
    with pytest.raises(InvalidInput):
        relations_for_graph("narrative")  # type: ignore[arg-type]


def test_unknown_relations_are_not_admitted() -> None:
    assert classify_relation("works_at") is None
    assert graph_of("works_at") is None and category_of("works_at") is None
    assert requires_validation("works_at")
    assert "works_at" not in DEFAULT_ONTOLOGY  # looking it up did not register it
    assert classify_relation("  Links_To ") is not None  # case/space-insensitive lookup of known names


def test_ontology_is_extended_only_explicitly_and_rejects_duplicates() -> None:
    works_at = RelationSpec("works_at", "semantic", "employs", True, "Employment claim.", "entity")
    wider = DEFAULT_ONTOLOGY.with_relations(works_at)
    assert graph_of("works_at", wider) == "entity"
    assert classify_relation("works_at") is None  # the default ontology is unchanged
    with pytest.raises(Conflict):
        DEFAULT_ONTOLOGY.with_relations(RelationSpec("links_to", "reference", None, False, "dup", "entity"))
    with pytest.raises(InvalidInput):
        DEFAULT_ONTOLOGY.with_relations(RelationSpec("x", "vibes", None, False, "bad", None))  # type: ignore[arg-type]


def test_inverse_and_observation_relation_helpers() -> None:
    assert inverse_of("part_of") == "has_part"
    assert inverse_of("unknown_rel") is None
    assert [observation_relation(k) for k in ("fact", "blocked", "done", "risk", "correction")] == [
        "has_fact", "has_blocked", "has_done", "has_risk", "has_correction",
    ]
    with pytest.raises(InvalidInput):
        observation_relation("mood")


def test_rows_for_the_store_are_flat() -> None:
    row = classify_relation("links_to").to_row()  # type: ignore[union-attr]
    assert row["name"] == "links_to" and row["graph"] == "entity" and row["requires_validation"] is False


# -- write gate ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("relation", ["links_to", "embeds", "has_heading", "mentions_date", "mentions_email", "has_tag"])
def test_parsed_provenance_edges_stay_candidate_at_ingest(relation: str) -> None:
    decision = gate_edge(relation, 0.9, "[[Beta]]", False, "ingest")
    assert decision.status == "candidate"
    assert decision.reasons == ("parsed_provenance_stays_candidate",)
    # An explicit non-ingest request (an agent linking two notes) may make the same relation active.
    assert gate_edge(relation, 0.9, "[[Beta]]", False, "link").status == "active"


@pytest.mark.parametrize("relation", ["has_fact", "has_blocked", "has_risk", "has_done", "has_correction"])
def test_source_contained_observations_go_straight_to_active(relation: str) -> None:
    decision = gate_edge(relation, 0.5, "- Waiting on keys", False, "ingest")
    assert (decision.status, decision.reasons) == ("active", ("source_contained_observation",))


@pytest.mark.parametrize("relation", ["temporal", "entity", "causal", "semantic"])
def test_mnemon_association_edges_are_active_from_rules_and_links(relation: str) -> None:
    assert gate_edge(relation, 0.4, None, False, "auto").status == "active"
    assert gate_edge(relation, 0.4, None, False, "link").status == "active"


def test_supersedes_only_from_an_explicit_caller() -> None:
    assert gate_edge("supersedes", 1.0, "newer", False, "auto").reasons == ("supersedes_must_be_explicit",)
    assert gate_edge("supersedes", 1.0, "newer", False, "link").status == "active"


def test_semantic_claims_need_validation_evidence_and_threshold() -> None:
    unvalidated = gate_edge("attends_activity", 0.95, "receipt", False, "resolve")
    assert (unvalidated.status, unvalidated.reasons) == ("candidate", ("requires_explicit_validation",))
    no_evidence = gate_edge("attends_activity", 0.95, "  ", True, "resolve")
    assert no_evidence.reasons == ("missing_evidence",)
    weak = gate_edge("attends_activity", 0.89, "receipt", True, "resolve")
    assert weak.reasons == ("below_active_threshold",)
    ok = gate_edge("attends_activity", 0.90, "receipt", True, "resolve")
    assert (ok.status, ok.reasons) == ("active", ("validated_claim",))
    everything_missing = gate_edge("belongs_to", 0.2, None, False, "link")
    assert everything_missing.reasons == ("requires_explicit_validation", "missing_evidence", "below_active_threshold")
    assert gate_edge("requested_activity", 0.95, "form", True, "resolve").status == "active"


def test_a_person_confirming_is_the_validation() -> None:
    decision = gate_edge("father_of", 0.6, "I am his father", True, "user")
    assert (decision.status, decision.reasons) == ("active", ("user_confirmed",))


def test_vault_text_and_automatic_rules_cannot_validate_claims() -> None:
    assert gate_edge("located_in", 1.0, "Paris is in France", True, "ingest").reasons == ("ingest_cannot_validate",)
    assert gate_edge("part_of", 1.0, "co-occurrence", True, "auto").reasons == ("auto_cannot_validate",)


def test_unknown_relations_need_validation_and_say_so() -> None:
    candidate = gate_edge("works_at", 0.95, "payslip", False, "scoped", requested="active")
    assert candidate.status == "candidate"
    assert candidate.reasons == ("unknown_relation", "requires_explicit_validation")
    assert candidate.to_dict()["category"] == "unknown"
    validated = gate_edge("works_at", 0.95, "payslip", True, "resolve")
    assert (validated.status, validated.reasons) == ("active", ("unknown_relation", "validated_claim"))


def test_killed_is_terminal_unless_explicitly_revived() -> None:
    blocked = gate_edge("has_fact", 1.0, "x", True, "ingest", existing="killed")
    assert (blocked.status, blocked.reasons) == ("killed", ("killed_tombstone_blocks_recreation",))
    assert gate_edge("links_to", 1.0, "x", False, "link", existing="killed", requested="killed").reasons == (
        "already_killed",
    )
    revived = gate_edge("links_to", 1.0, "x", False, "ingest", existing="killed", revive=True)
    # Revival re-gates from scratch: a parsed link comes back as a candidate, not straight to active.
    assert (revived.status, revived.reasons) == ("candidate", ("revived", "parsed_provenance_stays_candidate"))
    assert gate_edge("links_to", 1.0, "x", False, "link", requested="killed").reasons == ("explicit_kill",)
    assert gate_edge("has_fact", 1.0, "x", False, "ingest", requested="candidate").status == "candidate"


@given(
    relation=st.sampled_from([*DEFAULT_ONTOLOGY.names(), "made_up", "Knows"]),
    confidence=st.floats(0.0, 1.0),
    evidence=st.one_of(st.none(), st.text(max_size=5)),
    validated=st.booleans(),
    origin=st.sampled_from(["ingest", "auto", "link", "resolve", "scoped", "user", "promote"]),
    existing=st.sampled_from([None, "candidate", "active", "killed"]),
)
def test_gate_invariants(
    relation: str, confidence: float, evidence: str | None, validated: bool, origin: str, existing: str | None
) -> None:
    decision = gate_edge(relation, confidence, evidence, validated, origin, existing=existing)  # type: ignore[arg-type]
    assert decision.status in ("candidate", "active", "killed")
    assert decision.reasons
    if existing == "killed":
        assert decision.status == "killed"
    if decision.status == "active" and requires_validation(relation):
        assert validated and evidence and evidence.strip() and origin not in ("ingest", "auto")
        assert origin == "user" or confidence >= 0.9


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"confidence": 1.5}, "confidence"), ({"confidence": float("nan")}, "confidence"),
        ({"confidence": True}, "confidence"), ({"origin": "vibes"}, "origin"), ({"relation": " "}, "relation"),
        ({"requested": "maybe"}, "requested"), ({"evidence": 3}, "evidence"),
    ],
)
def test_gate_rejects_bad_input(kwargs: dict[str, object], field: str) -> None:
    args: dict[str, object] = {"relation": "links_to", "confidence": 0.5, "evidence": "e", "validated": False,
                               "origin": "link"}
    args.update(kwargs)
    with pytest.raises(InvalidInput) as raised:
        gate_edge(**args)  # type: ignore[arg-type]
    assert field in raised.value.details


def test_truth_policy_labels() -> None:
    assert truth_policy("links_to", "killed") == "excluded"
    assert truth_policy("belongs_to", "candidate") == "candidate_only"
    assert truth_policy("belongs_to", "active") == "active_validated_claim"
    assert truth_policy("mentions_date", "active") == "provenance_not_fact"
    assert truth_policy("has_risk", "active") == "source_contained_observation"
    assert truth_policy("causal", "active") == "active_evidence"


# -- promotion, rebuild survival, weakening --------------------------------------------------------------------


EDGES = [
    EdgeFacts("e1", "attends_activity", "candidate", 0.95, "receipt", True, "resolve"),
    EdgeFacts("e2", "attends_activity", "candidate", 0.70, "brochure", True, "resolve"),
    EdgeFacts("e3", "links_to", "candidate", 0.9, "[[Beta]]", False, "ingest"),
    EdgeFacts("e4", "belongs_to", "candidate", 0.95, "said so", False, "scoped"),
    EdgeFacts("e5", "has_fact", "active", 0.5, "- fact", False, "ingest"),
    EdgeFacts("e6", "links_to", "killed", 0.9, "[[Gone]]", False, "ingest"),
    EdgeFacts("e7", "mentions_date", "candidate", 0.75, "2026-01-01", True, "ingest"),
]


def test_promotion_validated_only_considers_validated_non_ingest_candidates() -> None:
    plan = promotion_plan(EDGES, "validated-only")
    assert [(p.edge_id, p.to_status, p.reasons) for p in plan] == [
        ("e1", "active", ("validated_claim",)),
        ("e2", "candidate", ("below_active_threshold",)),
    ]
    assert [p.activates for p in plan] == [True, False]


def test_promotion_all_is_noisy_but_still_gated() -> None:
    plan = {p.edge_id: p for p in promotion_plan(EDGES, "all")}
    assert set(plan) == {"e1", "e2", "e3", "e4", "e7"}  # never active or killed edges
    assert plan["e3"].to_status == "active" and plan["e7"].to_status == "active"  # provenance gets promoted
    assert plan["e4"].to_status == "candidate"  # an unvalidated claim stays a candidate
    assert plan["e2"].to_status == "candidate"


@given(st.lists(st.builds(
    EdgeFacts, id=st.uuids().map(str), relation=st.sampled_from(["links_to", "belongs_to", "made_up"]),
    status=st.sampled_from(["candidate", "candidate", "active"]), confidence=st.sampled_from([0.5, 0.95, 1]),
    evidence=st.sampled_from([None, "", "  ", "seen it", " x "]), validated=st.booleans(),
    origin=st.sampled_from(["ingest", "resolve", "user", "agent"])), min_size=2, max_size=30),
    st.sampled_from(["validated-only", "all"]))
@example([EdgeFacts("a", "belongs_to", "candidate", 0.95, " ", True, "resolve"),  # alike but for their evidence
          EdgeFacts("b", "belongs_to", "candidate", 0.95, "seen it", True, "resolve")], "all")
@example([EdgeFacts("a", "belongs_to", "candidate", 0.95, "seen it", True, "resolve"),  # and for their validation
          EdgeFacts("b", "belongs_to", "candidate", 0.95, "seen it", False, "resolve")], "all")
def test_promotion_decides_each_edge_as_the_gate_does_alone(edges: list[EdgeFacts], mode: str) -> None:
    # the plan reuses one decision for edges alike in all the gate reads: each still gets its own edge's decision
    expected = []
    for e in edges:
        if e.status == "candidate" and (mode == "all" or (e.validated and e.origin != "ingest")):
            origin = "promote" if mode == "all" or e.origin == "agent" else e.origin  # (not an origin of the gate's)
            d = gate_edge(e.relation, e.confidence, e.evidence, e.validated, origin, requested="active")
            expected.append((e.id, d.status, d.reasons))
    plan = promotion_plan(edges, mode)  # type: ignore[arg-type]
    assert [(p.edge_id, p.to_status, p.reasons) for p in plan] == expected


def test_promotion_rejects_unknown_mode() -> None:
    with pytest.raises(InvalidInput):
        promotion_plan(EDGES, "everything")  # type: ignore[arg-type]


def test_survives_rebuild() -> None:
    by_id = {edge.id: edge for edge in EDGES}
    assert survives_rebuild(by_id["e6"])  # killed tombstone
    assert not survives_rebuild(by_id["e3"])  # parsed candidate link: the rebuild recreates it
    assert not survives_rebuild(by_id["e5"])  # parsed observation: recreated from the note
    assert survives_rebuild(by_id["e1"])  # research writeback
    assert survives_rebuild(EdgeFacts("v", "links_to", "active", 1.0, "x", True, "ingest"))  # validated active
    # made active with no decision recorded: the parse owns it
    assert not survives_rebuild(EdgeFacts("a", "links_to", "active", 1.0, "x", False, "ingest"))
    assert survives_rebuild(EdgeFacts("p", "links_to", "active", 1.0, "x", False, "ingest", promoted=True))
    # a promotion of an edge weakened back to candidate since: the parse owns it again
    assert not survives_rebuild(EdgeFacts("w", "links_to", "candidate", 1.0, "x", False, "ingest", promoted=True))


@pytest.mark.parametrize(("status", "metadata", "kept"), [
    ("active", {"validated": True}, True), ("active", {"promoted": "all"}, True),
    ("active", '{"line":3,"promoted":"all"}', True), ("active", '{"validated": true}', True),
    ("active", '{"line":3}', False), ("active", '{"validated":false}', False), ("active", "", False),
    ("active", None, False), ("active", '"promoted"', False),  # (a JSON text that is no object)
    ("candidate", {"promoted": "all"}, False), ("killed", {"validated": True}, False),
])
def test_kept_active_reads_a_decision_from_metadata_or_its_json(status: str, metadata: object, kept: bool) -> None:
    assert kept_active(status, metadata) is kept  # type: ignore[arg-type]


def test_weaken_multiplies_floors_and_never_strengthens() -> None:
    assert weaken(0.8, 0.5) == pytest.approx(0.4)
    assert weaken(0.8, 0.5, floor=0.5) == pytest.approx(0.5)
    assert weaken(0.3, 0.5, floor=0.5) == pytest.approx(0.3)  # a floor above the value does not raise it
    with pytest.raises(InvalidInput):
        weaken(0.8, 1.5)


def test_weaken_edge_demotes_active_below_threshold() -> None:
    assert weaken_edge("active", 0.3, 0.5) == (pytest.approx(0.15), "active")
    strength, status = weaken_edge("active", 0.15, 0.5)
    assert strength == pytest.approx(0.075) and status == "candidate"
    assert weaken_edge("killed", 0.0, 0.5) == (0.0, "killed")


@given(st.floats(0, 1), st.floats(0, 1), st.floats(0, 1))
def test_weaken_stays_in_unit_interval_and_never_increases(confidence: float, factor: float, floor: float) -> None:
    result = weaken(confidence, factor, floor)
    assert 0.0 <= result <= confidence
