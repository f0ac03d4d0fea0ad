"""The automatic edge rules of `remember` (mnemon's graph engine), as pure functions of the rows they look at."""
from __future__ import annotations

from collections.abc import Callable, Sequence

from .causal import causal_cue, named_cause, suggest_sub_type
from .model import Edge, Memory, parse_iso
from .text import overlap_max, token_set

PROXIMITY_HOURS = 24.0
PROXIMITY_MAX = 10
ENTITY_LINKS_PER_ENTITY = 5
ENTITY_LINKS_PER_MEMORY = 50  # counted in both directions
CAUSAL_LOOKBACK = 10
CAUSAL_MIN_OVERLAP = 0.15
SEMANTIC_AUTO_LINK = 0.80
SEMANTIC_TOP = 3
BACKBONE_STEPS = ("backbone", "reply")  # the sub-types of a source's chain of consecutive memories


_RULES: dict[tuple[str, str], str] = {}  # one string per (type, sub-type): a bulk import makes ~40 edges a memory


def rule_name(type_: str, sub: str) -> str:
    """The extraction rule an automatic edge records: its type, and sub-type when it has one."""
    got = _RULES.get((type_, sub))
    if got is None:
        got = _RULES[(type_, sub)] = f"{type_}:{sub}" if sub else type_
    return got


def _both(a: str, b: str, type_: str, sub: str, weight: float, meta: dict[str, object], now: str,
          meta_back: dict[str, object] | None = None) -> list[Edge]:
    rule = rule_name(type_, sub)
    return [
        Edge(a, b, type_, sub, weight, metadata=meta, created_at=now, rule=rule),
        Edge(b, a, type_, sub, weight, metadata=meta_back if meta_back is not None else meta, created_at=now,
             rule=rule),
    ]


def is_question(text: str) -> bool:
    """Whether a memory ends by asking something (hands the turn to whoever writes next)."""
    return text.rstrip().endswith(("?", "？"))


def backbone_pair(earlier: Memory, later: Memory, now: str) -> list[Edge]:
    """The source's chain, both ways. The forward step out of a question to what its source wrote next within
    24 h is a `reply` step: that memory most likely answers it, so recall lets the question's relevance carry
    over to it whole (a chat's "Which team do you support?" → "The Wolves, of course")."""
    hours = (parse_iso(later.created_at) - parse_iso(earlier.created_at)).total_seconds() / 3600.0
    forward = "reply" if is_question(earlier.content) and 0.0 <= hours <= PROXIMITY_HOURS else "backbone"
    return [
        Edge(earlier.id, later.id, "temporal", forward, 1.0, metadata={"direction": "precedes"}, created_at=now,
             rule=f"temporal:{forward}"),
        Edge(later.id, earlier.id, "temporal", "backbone", 1.0, metadata={"direction": "succeeds"}, created_at=now,
             rule="temporal:backbone"),
    ]


def temporal_edges(new: Memory, backbone_prev: Memory | None, nearby: Sequence[Memory], now: str) -> list[Edge]:
    """Backbone to the previous memory of the same source, both ways; proximity to ≤10 memories within 24 h.

    The window is measured from the new memory's own timestamp, so imported history gets proximity edges too.
    """
    edges: list[Edge] = []
    if backbone_prev is not None:
        edges += backbone_pair(backbone_prev, new, now)
    t_new = parse_iso(new.created_at)
    taken = 0
    for other in nearby:
        if taken >= PROXIMITY_MAX:
            break
        if other.id == new.id or (backbone_prev is not None and other.id == backbone_prev.id):
            continue
        hours = abs((t_new - parse_iso(other.created_at)).total_seconds()) / 3600.0
        if hours > PROXIMITY_HOURS:
            continue
        edges += _both(new.id, other.id, "temporal", "proximity", 1.0 / (1.0 + hours),
                       {"hours_diff": round(hours, 3)}, now)
        taken += 1
    return edges


def entity_edges(new_id: str, holders: dict[str, list[str]], now: str) -> list[Edge]:
    """Co-occurrence links to the most recent holders of each entity (≤5 each, ≤50 edges per memory)."""
    edges: list[Edge] = []
    linked: set[str] = set()
    for entity, ids in holders.items():
        for other in ids[:ENTITY_LINKS_PER_ENTITY]:
            if other == new_id or other in linked:
                continue
            if len(edges) + 2 > ENTITY_LINKS_PER_MEMORY:
                return edges
            linked.add(other)
            edges += _both(new_id, other, "entity", "", 1.0, {"entity": entity}, now)
    return edges


def causal_edges(new: Memory, recent_same_source: Sequence[Memory], now: str,
                 tokens_of: Callable[[Memory], frozenset[str]] | None = None,
                 later_same_source: Sequence[Memory] = ()) -> list[Edge]:
    """Keyword + token overlap ≥ 0.15 against the 10 most recent memories of the same source; cause → effect.

    `later_same_source` (oldest first): the memories of the source dated after a backdated `new`. Each of the first
    10 would have had `new` in its own lookback had the two been written in time order, so the pair gets the edge
    that write would have made, with the later memory in the role of the new one."""
    def toks(m: Memory) -> frozenset[str]:
        return tokens_of(m) if tokens_of is not None else token_set(m.title or "", m.content, m.tags, m.entities)

    new_tokens = token_set(new.title or "", new.content, new.tags, new.entities)
    new_cue = causal_cue(new.content)
    edges: list[Edge] = []
    for prev in recent_same_source[:CAUSAL_LOOKBACK]:
        if prev.id != new.id:
            edges += _causal_pair(prev, causal_cue(prev.content), toks(prev), new, new_cue, new_tokens, now)
    for later in later_same_source[:CAUSAL_LOOKBACK]:
        if later.id != new.id:
            edges += _causal_pair(new, new_cue, new_tokens, later, causal_cue(later.content), toks(later), now)
    return edges


def _causal_pair(earlier: Memory, earlier_cue: str | None, earlier_tokens: frozenset[str], later: Memory,
                 later_cue: str | None, later_tokens: frozenset[str], now: str) -> list[Edge]:
    """The causal edge between two memories of a source, as the write of the later one makes it: nothing unless
    either carries a cue and they overlap enough."""
    if not (later_cue or earlier_cue):
        return []
    overlap = overlap_max(later_tokens, earlier_tokens)
    if overlap < CAUSAL_MIN_OVERLAP:
        return []
    # cause → effect in time order: a later memory with the keyword explains the earlier one ("…because of that",
    # "therefore …"). Against time only when the earlier one alone has a keyword, names a cause it has ("X because
    # Y") and the later one states that cause (most of Y's words): an earlier "X leads to Y" or "X, therefore Z" is
    # no effect of a later memory, nor is "the deploy failed because Redis ran out of memory" of a later "we raised
    # Redis's memory limit after the outage", which follows from it
    backwards = not later_cue and _states_cause(later_tokens, earlier.content)
    src, dst = (later.id, earlier.id) if backwards else (earlier.id, later.id)
    sub = suggest_sub_type(later.content if later_cue else earlier.content)
    return [Edge(src, dst, "causal", sub, round(overlap, 6),
                 metadata={"overlap": round(overlap, 4), "cue": later_cue or earlier_cue or ""},
                 created_at=now, rule=f"causal:{sub}")]


def _states_cause(tokens: frozenset[str], text: str) -> bool:
    """Whether a memory of these tokens states the cause `text` names: more than half of that clause's words."""
    cause = named_cause(text)
    words = token_set(cause) if cause is not None else frozenset()
    return bool(words) and len(words & tokens) * 2 > len(words)


def semantic_edges(new_id: str, similar: Sequence[tuple[str, float]], now: str) -> list[Edge]:
    """Auto-link the top 3 with calibrated cosine ≥ 0.80, both ways, weight = cosine."""
    edges: list[Edge] = []
    for other, cos in [p for p in similar if p[0] != new_id and p[1] >= SEMANTIC_AUTO_LINK][:SEMANTIC_TOP]:
        edges += _both(new_id, other, "semantic", "", round(cos, 6), {"created_by": "auto", "cosine": round(cos, 4)}, now)
    return edges
