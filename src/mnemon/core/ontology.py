"""The relationship ontology: every edge relation mnemon may store, what kind of claim it is, and which of
mnemon's four traversal graphs it counts as.

Two families live in one table, as DESIGN.md asks ("one graph"):

* Mneme's seeded rows (`DEFAULT_RELATIONSHIP_TYPES`, reference §2.2) — reference / structure / extraction /
  observation / semantic / semantic_pending — plus the two Mneme used without seeding (`revalidated_by` from
  its contract table, and `has_correction`, which its ingest wrote but never registered, so correction
  observations were silently treated as unknown claims), plus the relations the vault parser now produces
  (`embeds`, `has_tag`, `has_section`) and the `relates_to` of Mneme's README example.
* mnemon's edge types `temporal`, `entity`, `causal`, `semantic` (category ``association``: rule-built links
  between memories) and `supersedes` (category ``lineage``: an explicit correction that traversal never
  follows, only recall's demotion reads).

`graph_of` answers "which graph does this edge count as during beam search": dates are temporal, links and
claims about things are entity, evidence that re-validated a belief is causal, and only mnemon's own
`semantic` edges and the untyped `relates_to` are semantic. Unknown relations are never auto-admitted:
`classify_relation` returns None and the edge gate treats them as claims that need validation; widen the
ontology explicitly with `Ontology.with_relations`.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from types import MappingProxyType
from typing import Any, Iterable, Literal, Mapping, get_args

from mnemon.core.errors import Conflict, InvalidInput

Category = Literal[
    "reference", "structure", "extraction", "observation", "semantic", "semantic_pending", "association", "lineage"
]
GraphName = Literal["temporal", "entity", "causal", "semantic"]
CATEGORIES: tuple[str, ...] = get_args(Category)
GRAPHS: tuple[str, ...] = get_args(GraphName)
# Navigational/parsed edges: useful provenance, never proof of a real-world relationship.
PROVENANCE_CATEGORIES: frozenset[str] = frozenset({"reference", "structure", "extraction"})
VALIDATION_CATEGORIES: frozenset[str] = frozenset({"semantic", "semantic_pending"})
MNEMON_EDGE_TYPES: tuple[str, ...] = ("temporal", "entity", "causal", "semantic", "supersedes")


@dataclass(frozen=True, slots=True)
class RelationSpec:
    name: str
    category: Category
    inverse: str | None
    requires_validation: bool
    description: str
    graph: GraphName | None
    symmetric: bool = False
    transitive: bool = False
    domain: str = "any"  # hints only, as in Mneme; nothing enforces them yet
    range: str = "any"

    @property
    def is_provenance(self) -> bool:
        return self.category in PROVENANCE_CATEGORIES

    def to_row(self) -> dict[str, Any]:
        """A flat row for the store's relationship_types table."""
        return asdict(self)


def _spec(
    name: str, category: Category, inverse: str | None, graph: GraphName | None, description: str, **extra: Any
) -> RelationSpec:
    return RelationSpec(
        name=name, category=category, inverse=inverse, requires_validation=category in VALIDATION_CATEGORIES,
        description=description, graph=graph, **extra,
    )


DEFAULT_RELATIONSHIP_TYPES: tuple[RelationSpec, ...] = (
    # -- Mneme's seeded rows (17) ---------------------------------------------------------------------------
    _spec("links_to", "reference", "linked_from", "entity",
          "Explicit Markdown link from one note to another; navigation, not proof of a relationship."),
    _spec("linked_from", "reference", "links_to", "entity", "Inverse of links_to."),
    _spec("has_heading", "structure", "heading_of", "entity", "Note contains this heading."),
    _spec("mentions_email", "extraction", "email_mentioned_by", "entity", "Text mentions this email address."),
    _spec("mentions_date", "extraction", "date_mentioned_by", "temporal", "Text mentions this date."),
    _spec("has_fact", "observation", "fact_of", "entity", "Scored bullet stating a fact, contained in the note."),
    _spec("has_blocked", "observation", "blocked_item_of", "entity",
          "Open task or bullet about something blocked or waiting."),
    _spec("has_risk", "observation", "risk_of", "entity", "Bullet about a deadline, penalty or risk."),
    _spec("has_done", "observation", "done_item_of", "entity", "Completed task or bullet about something done."),
    _spec("belongs_to", "semantic", "has_part", "entity", "Real-world membership claim."),
    _spec("has_part", "semantic", "belongs_to", "entity", "Real-world composition claim."),
    _spec("located_in", "semantic", "contains_location", "entity", "Place is inside another place.",
          transitive=True, domain="place", range="place"),
    _spec("contains_location", "semantic", "located_in", "entity", "Place contains another place.",
          transitive=True, domain="place", range="place"),
    _spec("father_of", "semantic", "child_of", "entity", "Family relationship claim.",
          domain="person", range="person"),
    _spec("part_of", "semantic", "has_part", "entity", "Component/whole claim.", transitive=True),
    _spec("attends_activity", "semantic", "activity_attended_by", "entity", "Person attends an activity.",
          domain="person", range="activity"),
    _spec("requested_activity", "semantic_pending", "activity_requested_by", "entity",
          "Activity was requested; pending, not resolved truth.", domain="person", range="activity"),
    # -- used by Mneme but never seeded ---------------------------------------------------------------------
    _spec("revalidated_by", "observation", "revalidates", "causal",
          "A belief was re-checked against fresh sensed evidence."),
    _spec("has_correction", "observation", "correction_of", "entity",
          "Bullet correcting earlier information, contained in the note."),
    _spec("relates_to", "semantic", "relates_to", "semantic", "Untyped real-world association claim.",
          symmetric=True),
    # -- produced by mnemon's vault parser ------------------------------------------------------------------
    _spec("embeds", "reference", "embedded_in", "entity", "Note transcludes another note (![[...]])."),
    _spec("has_tag", "extraction", "tag_of", "entity", "Note carries this #tag or front-matter tag."),
    _spec("has_section", "structure", "section_of", "entity", "Note contains this section (a memory)."),
    # -- mnemon's own edge types ----------------------------------------------------------------------------
    _spec("temporal", "association", "temporal", "temporal",
          "Memories close in time (backbone order or proximity).", symmetric=True),
    _spec("entity", "association", "entity", "entity", "Memories sharing a named entity.", symmetric=True),
    # directed, as `link --type causal` and the causal rule store it (one edge, cause to effect; seed §2
    # causes/enables/prevents): calling it symmetric had explain-edge promise a reverse edge nobody writes
    _spec("causal", "association", "caused_by", "causal", "One memory causes, enables or prevents another."),
    _spec("semantic", "association", "semantic", "semantic", "Memories close in meaning.", symmetric=True),
    _spec("supersedes", "lineage", "superseded_by", None,
          "Newer memory replaces an older one; recall demotes the target, traversal does not follow it."),
)


def _normalise_name(name: str) -> str:
    return name.strip().lower()


class Ontology:
    """An immutable set of relation specs; the default one is `DEFAULT_ONTOLOGY`."""

    def __init__(self, specs: Iterable[RelationSpec]) -> None:
        table: dict[str, RelationSpec] = {}
        for spec in specs:
            if spec.category not in CATEGORIES:
                raise InvalidInput(f"unknown relation category {spec.category!r}", relation=spec.name)
            if spec.graph is not None and spec.graph not in GRAPHS:
                raise InvalidInput(f"unknown traversal graph {spec.graph!r}", relation=spec.name)
            key = _normalise_name(spec.name)
            if not key or key in table:
                raise Conflict(f"relation {spec.name!r} is empty or defined twice", relation=spec.name)
            table[key] = spec
        self._table: Mapping[str, RelationSpec] = MappingProxyType(table)

    def classify(self, name: str) -> RelationSpec | None:
        if not isinstance(name, str):
            return None
        return self._table.get(_normalise_name(name))

    def with_relations(self, *specs: RelationSpec) -> "Ontology":
        """A new ontology with extra relations — the only way an unknown relation becomes known."""
        return Ontology([*self._table.values(), *specs])

    def names(self) -> tuple[str, ...]:
        return tuple(self._table)

    def specs(self) -> tuple[RelationSpec, ...]:
        return tuple(self._table.values())

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and _normalise_name(name) in self._table

    def __len__(self) -> int:
        return len(self._table)


DEFAULT_ONTOLOGY = Ontology(DEFAULT_RELATIONSHIP_TYPES)


def classify_relation(name: str, ontology: Ontology = DEFAULT_ONTOLOGY) -> RelationSpec | None:
    return ontology.classify(name)


def graph_of(relation: str, ontology: Ontology = DEFAULT_ONTOLOGY) -> GraphName | None:
    """The traversal graph an edge of this relation counts as; None for supersedes and unknown relations."""
    spec = ontology.classify(relation)
    return spec.graph if spec else None


def category_of(relation: str, ontology: Ontology = DEFAULT_ONTOLOGY) -> Category | None:
    spec = ontology.classify(relation)
    return spec.category if spec else None


def requires_validation(relation: str, ontology: Ontology = DEFAULT_ONTOLOGY) -> bool:
    """Unknown relations need validation, as in Mneme: an unregistered name is a claim nobody vetted."""
    spec = ontology.classify(relation)
    return True if spec is None else spec.requires_validation


def inverse_of(relation: str, ontology: Ontology = DEFAULT_ONTOLOGY) -> str | None:
    spec = ontology.classify(relation)
    return spec.inverse if spec else None


def is_symmetric(relation: str, ontology: Ontology = DEFAULT_ONTOLOGY) -> bool:
    """A relation whose edge from A to B says what its edge from B to A says (temporal, entity, semantic)."""
    spec = ontology.classify(relation)
    return bool(spec and spec.symmetric)


def relations_for_graph(graph: GraphName, ontology: Ontology = DEFAULT_ONTOLOGY) -> tuple[str, ...]:
    if graph not in GRAPHS:
        raise InvalidInput(f"unknown graph {graph!r}; expected one of {', '.join(GRAPHS)}", graph=graph)
    return tuple(spec.name for spec in ontology.specs() if spec.graph == graph)


def observation_relation(kind: str) -> str:
    """``has_<kind>`` for an observation kind (fact, blocked, done, risk, correction)."""
    relation = f"has_{kind}"
    if category_of(relation) != "observation":
        raise InvalidInput(f"no observation relation for kind {kind!r}", kind=kind)
    return relation
