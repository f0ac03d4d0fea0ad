"""`resolve --file PAYLOAD`: research results written back as a Markdown evidence pack plus weighted claim edges.

The pack lands under `Sources/` in the vault and carries the payload itself in an HTML comment
(`mneme-research-resolution-b64`), so a later ingest — even into an empty database — re-creates the same edges: the
writeback survives re-ingestion. Claim edges have origin `resolve`, so rebuilds keep them anyway.

The pack is written with the note editor's care: its path goes through `notes.safe_resolve` (no symlink, no escape:
`path_refused`), the write is atomic, and it replaces only an earlier pack for the same note, backed up first under
`.mnemon-backups`; any other note already at that path is refused (`conflict`), in a dry run too.

Only sourced, confirmed claims with confidence ≥ `active_threshold` (0.90) may become active, and even then the
ontology's write gate has the last word; everything else is a candidate. Subjects and objects resolve to the note that
names them, or to a placeholder that joins the note when it appears (the next ingest that writes that note). A claim
whose relation a note's parse writes (`links_to`, `has_tag` …) is refused on its own (`ingest_owned`): it would take
over the ingest's edge.

A replay (the same pack resolved again, or re-read by ingest) follows the payload and the threshold: a claim may go
from active to candidate and back, and a claim a re-resolved pack no longer makes stops being active; so does a
belief of its `assertions[]` (retracted as withdrawn) and an open prediction (closed): `withdrawals`. An edge a
person decided is the exception — killed (a tombstone), validated by `validate-edge` or weakened by `weaken-edge`:
the edge event log records who decided it, and a replay leaves such an edge as the person left it.

Everything a payload asks of the world model (assertion fields, `assertions[]`, `predictions[]`, dates) is checked
before the pack or any edge is written, so a bad payload is refused whole instead of half-applied. What is written
then — edges, beliefs, predictions — goes in one store transaction, and the pack is written at its end: a failure
anywhere leaves the store and the vault as they were (`unwrite_pack` covers a failed commit).
"""
from __future__ import annotations

import base64
import binascii
import json
import os
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from ...core.errors import Conflict, InvalidInput
from ...core.model import Edge
from ...core.validation import nul_path
from ...core.vault import ACTIVE_THRESHOLD, LinkIndex, NoteIdentity, gate_edge, normalise_link_key
from ...core.vault.links import link_name
from ...core.world.values import refuse_misspelt_keys
from ...ports.store.base import Store
from .. import notes
from ..runtime import Runtime
from .moves import moved_pack
from .pack_status import BOOKKEEPING_SECTIONS, SOURCES_DIR
from .pack_status import pack_line, pack_plain, pack_status, pack_title, stored_note
from .plan import note_id
from .claim_beliefs import claim_validity, extra_beliefs, predicate_name, propose_assertions, world_proposals
from .resolve_input import refuse_unfit
from .respelled import retire_respelled

CONFIRMED = frozenset({"confirmed", "certain", "user_confirmed", "absolutely_certain"})
UNSOURCED = frozenset({"", "vault", "ingest", "unknown", "none"})
_SLUG = re.compile(r"[^a-z0-9]+")
_LETTERS = re.compile(r"[\W_]+")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_PACK_PAYLOAD = re.compile(r"<!--[ \t]*mneme-research-resolution-b64:[ \t]*([A-Za-z0-9_\-+/=]+)[ \t]*-->")
# (event, actor) of the edge events that record a person's decision; the latest one stands
_DECISIONS = {("validated", "user"): "validated", ("weakened", "weaken-edge"): "weakened",
              ("killed", "kill-edge"): "killed"}


def _slug(text: str) -> str:
    """ASCII letters and digits between hyphens, as Mneme spells it; a title with none ("東京オフィス移転") keeps its
    own letters (NFC, at most 200 bytes: the pack's file name stays under 255), where it was refused for having
    no letters. A slug that has an ASCII spelling keeps it, so a replayed payload finds its pack again."""
    slug = _SLUG.sub("-", text.casefold()).strip("-")[:80]
    if slug:
        return slug
    words = _LETTERS.sub("-", unicodedata.normalize("NFC", text).casefold()).strip("-")
    return words.encode()[:200].decode(errors="ignore").strip("-")


def _unlinked(name: Any) -> Any:
    """A claim's name given as one Obsidian link ("[[Supplier#Contacts|Acme]]") as the note it links to ("Supplier"):
    kept as written, it went to a placeholder "[[supplier]]" and the pack read "[[[[Supplier]]]]"."""
    return link_name(name) if isinstance(name, str) else name


def _text(claim: Mapping[str, Any], key: str, index: int, *, required: bool = True) -> str:
    value = claim.get(key)
    if value is None or (isinstance(value, str) and not value.strip()):
        if required:
            raise InvalidInput(f"claims[{index}]: missing required field {key!r}", field=f"claims[{index}].{key}")
        return ""
    if not isinstance(value, (str, int, float)) or isinstance(value, bool):
        raise InvalidInput(f"claims[{index}].{key} must be text; got a {_kind(value)}", field=f"claims[{index}].{key}")
    return str(value).strip()


def _unit(claim: Mapping[str, Any], key: str, index: int, default: float) -> float:
    value = claim.get(key, default)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= float(value) <= 1.0:
        said = repr(value) if isinstance(value, (str, int, float)) else f"a {_kind(value)}"
        raise InvalidInput(f"claims[{index}].{key} must be a number between 0 and 1; got {said}",
                           field=f"claims[{index}].{key}")
    return float(value)


def _kind(value: Any) -> str:
    """A JSON value's kind as the payload's author wrote it (a list, not Python's `list`)."""
    return {list: "list", dict: "object", bool: "boolean", type(None): "null"}.get(type(value), type(value).__name__)


def validate_payload(payload: Any) -> dict[str, Any]:
    if not isinstance(payload, Mapping):
        raise InvalidInput("the resolution payload must be a JSON object")
    # every string goes into the pack, an edge or a world row: PostgreSQL text cannot hold a NUL and SQLite can, so
    # one is refused on both before the pack or any edge is written (as `remember` and scoped payloads do)
    if (where := nul_path(payload)) is not None:
        raise InvalidInput(f"the resolution payload's {where} must not contain NUL characters", field=where)
    data = dict(payload)
    title = data.get("title")
    if not isinstance(title, str) or not title.strip():
        raise InvalidInput("the resolution payload needs a non-empty 'title'", field="title")
    slug = _slug(str(data.get("slug") or title))
    if not slug and not data.get("slug"):
        # the pack's file name comes from the title when no slug is given: the title is what to say, and the way out
        raise InvalidInput(f"the resolution payload's title {title.strip()!r} has no letters or digits to name its"
                           ' evidence pack by; give the payload a "slug" (e.g. "slug": "acme-research")', field="title")
    if not slug:
        raise InvalidInput("the resolution payload needs a 'slug' made of letters or digits", field="slug")
    data["slug"] = slug
    date = data.get("date")
    if date is not None and (not isinstance(date, str) or not _DATE.match(date)):
        raise InvalidInput("'date' must be YYYY-MM-DD", field="date")
    claims = data.get("claims", [])
    if not isinstance(claims, list) or not all(isinstance(c, Mapping) for c in claims):
        raise InvalidInput("'claims' must be a list of objects", field="claims")
    data["claims"] = claims = [{**c, **{k: _unlinked(c[k]) for k in ("subject", "object") if k in c}} for c in claims]
    for i, claim in enumerate(claims):
        _text(claim, "subject", i)
        if not predicate_name(_text(claim, "predicate", i)):
            # refused here, not when the edge is written: a pack holding it would fail every later ingest
            raise InvalidInput(f"claims[{i}].predicate has no letters or digits; got {claim['predicate']!r}",
                               field=f"claims[{i}].predicate")
        _text(claim, "object", i)
        _unit(claim, "confidence", i, 0.5)
        _unit(claim, "strength", i, float(claim.get("confidence", 0.5)) if isinstance(claim.get("confidence"), (int, float)) else 0.5)
    for key in ("unresolved", "sources_checked"):
        value = data.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise InvalidInput(f"'{key}' must be a list of strings", field=key)
    return data


def pack_path(data: Mapping[str, Any], vault: str | Path | None = None) -> str:
    """`Sources/<date>-<slug>.md`; given the vault, under its own spelling of the folder when it has one only in
    another case (`sources/`): a second folder beside it is one folder on macOS and Windows, and the note editor
    refuses a name that differs from the one on disk only in case."""
    stem = f"{data['date']}-{data['slug']}" if data.get("date") else str(data["slug"])
    return f"{_sources_dir(vault) if vault is not None else SOURCES_DIR}/{stem}.md"


def _sources_dir(vault: str | Path) -> str:
    root = notes.safe_folder(vault, None).path
    if (root / SOURCES_DIR).exists():
        return SOURCES_DIR
    try:
        twins = [e.name for e in os.scandir(root) if e.name.casefold() == SOURCES_DIR.casefold()]
    except OSError:
        return SOURCES_DIR
    return twins[0] if len(twins) == 1 else SOURCES_DIR  # (several: the editor names them all in its refusal)


def claim_shortfall(claim: Mapping[str, Any], threshold: float) -> list[str]:
    """What keeps a claim that asks for no status from being active: the gate's `reasons` name these, where they
    had said `requested_candidate` of a claim that requested nothing."""
    checks = (("missing_evidence", bool(str(claim.get("evidence") or "").strip())),
              ("unsourced", str(claim.get("source_type") or "").strip().lower() not in UNSOURCED),
              ("unconfirmed", str(claim.get("certainty") or "").strip().lower() in CONFIRMED),
              ("below_active_threshold", float(claim.get("confidence", 0.5)) >= threshold))
    return [reason for reason, met in checks if not met]


def claim_status(claim: Mapping[str, Any], threshold: float) -> tuple[str | None, bool]:
    """(requested status, validated) from the claim itself, before the ontology gate."""
    explicit = str(claim.get("status") or "").strip().lower()
    if explicit in ("candidate", "killed"):
        return explicit, False
    return ("candidate", False) if claim_shortfall(claim, threshold) else ("active", True)


def gate_reasons(claim: Mapping[str, Any], threshold: float, reasons: Sequence[str]) -> list[str]:
    """The gate's reasons, with `requested_candidate` kept for a claim that asked for it and, for one that did not,
    replaced by what it lacks."""
    if str(claim.get("status") or "").strip().lower() == "candidate":
        return list(reasons)
    return [r for reason in reasons
            for r in (claim_shortfall(claim, threshold) if reason == "requested_candidate" else [reason])]


# the last index built and the names it was built from: building it normalises every title, alias and path (~30 ms at
# 2,000 notes, three times the workbench's title search, which asks for it on every search); reading the names ~4 ms
_LAST_INDEX: list[tuple[tuple[NoteIdentity, ...], LinkIndex]] = []


def link_index(rt: Runtime) -> LinkIndex:
    """The vault's notes by every name a link can give them, as the store knows them."""
    files = rt.store.vault.files()  # type: ignore[attr-defined]
    identities = tuple(NoteIdentity(p, f.title, f.aliases) for p, f in files.items())
    last = _LAST_INDEX[0] if _LAST_INDEX else None
    if last is not None and last[0] == identities:
        return last[1]
    index = LinkIndex.build(identities)
    _LAST_INDEX[:] = [(identities, index)]
    return index


def _node_for(name: str, index: LinkIndex) -> str:
    # the name whole ("C# Guild" is no link to a section of note C): a wikilink was read as its note (`_unlinked`)
    key = normalise_link_key(name)
    path = index.resolve_key(key)
    return note_id(path) if path else f"placeholder:{key}"


def person_decision(store: Store, edge: Edge) -> str | None:
    """`killed`, `validated` or `weakened` when the latest decision on the edge is a person's, else None.

    Read from the event log, not the row: a resolve edge's metadata says `validated` whenever its claim passed the
    gate, which is the payload's doing, not a person's."""
    return person_decisions(store, [edge]).get(int(edge.id or 0))


def person_decisions(store: Store, edges: Iterable[Edge]) -> dict[int, str]:
    """`person_decision` of many edges in one read of their event logs (a log read per edge cost a re-sent 7k-edge
    payload 0.3 s): edge id → decision, for the edges that have one."""
    out: dict[int, str] = {}
    undecided: list[int] = []
    for edge in edges:
        if edge.status == "killed":
            out[int(edge.id or 0)] = "killed"
        else:
            undecided.append(int(edge.id or 0))
    if undecided:
        for edge_id, kind in store.latest_edge_events(undecided, list(_DECISIONS)).items():
            out[edge_id] = _DECISIONS[kind]
    return out


def refuse_repeated_claims(rt: Runtime, data: Mapping[str, Any]) -> None:
    """`InvalidInput` when two claims are one edge: the same relation between the notes (or placeholders) their
    names resolve to, however spelt. The edge is one row, so the later claim silently replaced the earlier one — a
    sourced claim restated weakly left its belief current on a candidate edge, its evidence gone. Likewise for a
    claim whose subject and object are one note ("Acme" and "ACME", or a note and its alias): it was an edge from the
    note to itself, with a current belief, where `link` and a scoped payload refuse one. Checked by the command
    only: a pack already in the vault is replayed as it was written."""
    index = link_index(rt)
    seen: dict[tuple[str, str, str], int] = {}
    for i, claim in enumerate(data.get("claims", [])):
        subject, obj = _text(claim, "subject", i), _text(claim, "object", i)
        relation = predicate_name(_text(claim, "predicate", i))
        src, dst = _node_for(subject, index), _node_for(obj, index)
        if src == dst:
            raise InvalidInput(f"claims[{i}]: {subject!r} and {obj!r} name the same note ({src}); a claim joins two"
                               " notes", field=f"claims[{i}]", claim=i, node=src)
        first = seen.setdefault((src, dst, relation), i)
        if first != i:
            said = f"{subject} —{relation}→ {obj}"
            raise InvalidInput(f"claims[{i}] states the same claim as claims[{first}] ({said}: one edge); merge them"
                               " into one claim", field=f"claims[{i}]", claim=i, same_as=first)


def ingest_owned(relation: str, index: int) -> InvalidInput | None:
    """The refusal of a claim whose relation a note's parse writes (`writer.INGEST_RELATIONS`: `links_to`, `has_tag`
    …), else None. An edge is one row per (source, target, relation): written as a claim it would be the ingest's
    own edge for that link, overwritten in place — the next ingest re-parses it back and the claim's provenance is
    gone, or the claim takes the link's place. Refusing the claim loses neither: the link stays the ingest's, and
    the claim stays in the evidence pack, where it can be restated with a relation of its own."""
    from .writer import INGEST_RELATIONS

    if relation not in INGEST_RELATIONS:
        return None
    return InvalidInput(f"claims[{index}].predicate {relation!r} is a relation the vault ingest writes from the notes'"
                        " text; state the claim with a relation of its own (e.g. relates_to)",
                        field=f"claims[{index}].predicate",
                        claim=index)


def claim_edges(rt: Runtime, data: Mapping[str, Any], source_path: str, threshold: float,
                vault: str | Path | None = None) -> list[dict[str, Any]]:
    """Write one edge per claim (inside the caller's transaction); returns what was stored, one entry per claim in
    order. A claim with a relation the ingest owns (`ingest_owned`) writes nothing: its entry has status `refused`
    and the `invalid_input` error, and the other claims are written. Given the vault, a claim left a candidate that
    another pack states active is that pack's claim again (`shared_claims.active_elsewhere`)."""
    from .shared_claims import active_elsewhere, claimants
    from .writer import shared_node

    index = link_index(rt)
    store = rt.store
    now = rt.now_iso()
    out: list[dict[str, Any]] = []
    claims = [(claim, _node_for(_text(claim, "subject", i), index), _node_for(_text(claim, "object", i), index),
               predicate_name(_text(claim, "predicate", i))) for i, claim in enumerate(data.get("claims", []))]
    # the claims' edges and their decisions read once, not per claim; `known` follows this loop's own writes, as a
    # read per claim would (nothing written here is a person's decision)
    known, decisions = _stored_claims(store, [(src, dst, relation) for _c, src, dst, relation in claims])
    for i, (claim, src, dst, relation) in enumerate(claims):
        refusal = ingest_owned(relation, i)
        if refusal is not None:
            out.append({"id": None, "src": src, "predicate": relation, "dst": dst, "status": "refused",
                        "reasons": ["ingest_owned_relation"], "error": refusal.to_dict()})
            continue
        confidence = _unit(claim, "confidence", i, 0.5)
        strength = _unit(claim, "strength", i, confidence)
        evidence = _text(claim, "evidence", i, required=False)[:500]
        requested, validated = claim_status(claim, threshold)
        placeholders = [n for n in (src, dst) if n.startswith("placeholder:")]
        if placeholders:
            store.vault.ensure_shared_nodes([shared_node(n, now) for n in placeholders])  # type: ignore[attr-defined]
        existing = known.get((src, dst, relation))
        decision = gate_edge(relation, confidence, evidence or None, validated, "resolve",
                             requested=requested,  # type: ignore[arg-type]
                             existing=existing.status if existing and existing.status in ("active", "candidate", "killed") else None,  # type: ignore[arg-type]
                             active_threshold=threshold)
        reasons = gate_reasons(claim, threshold, decision.reasons)
        if existing is not None and existing.status == "killed":
            store.vault.log_edge_events([(int(existing.id or 0), "blocked_recreation", "resolve",  # type: ignore[attr-defined]
                                          {"reasons": reasons}, now)])
            out.append({"id": existing.id, "src": src, "predicate": relation, "dst": dst, "status": "killed",
                        "strength": existing.weight, "confidence": existing.confidence, "reasons": reasons})
            continue
        decided = decisions.get(int(existing.id or 0)) if existing is not None else None
        if existing is not None and decided is not None:
            store.vault.log_edge_events([(int(existing.id or 0), "decision_kept", "resolve",  # type: ignore[attr-defined]
                                          {"decision": decided, "payload_status": decision.status,
                                           "reasons": reasons}, now)])
            out.append({"id": existing.id, "src": src, "predicate": relation, "dst": dst, "status": existing.status,
                        "strength": existing.weight, "confidence": existing.confidence,
                        "reasons": [f"person_decision_kept:{decided}"]})
            continue
        meta = {"validated": validated and decision.status == "active", "research_resolution": data["slug"],
                "certainty": str(claim.get("certainty") or ""), "source_type": str(claim.get("source_type") or ""),
                "subject": _text(claim, "subject", i), "object": _text(claim, "object", i),
                "gate": reasons, **claim_validity(data, claim),
                "claimed_by": claimants(existing, source_path)}
        edge = Edge(src=src, dst=dst, type=relation, weight=strength, confidence=confidence, status=decision.status,
                    evidence=evidence, origin="resolve", rule="research_resolution", source_path=source_path,
                    metadata=meta, created_at=now, updated_at=now)
        if existing is not None and restates(existing, edge):
            edge_id = int(existing.id or 0)  # a replay: no second `research_writeback`, the graph left unchanged
        else:
            edge_id = store.upsert_edge(edge, actor="resolve", event="research_writeback")
        known[(src, dst, relation)] = replace(edge, id=edge_id)
        out.append({"id": edge_id, "src": src, "predicate": relation, "dst": dst, "status": decision.status,
                    "strength": strength, "confidence": confidence, "reasons": reasons})
        if vault is not None and decision.status == "candidate" and (
                stronger := active_elsewhere(rt, vault, known[(src, dst, relation)], source_path, index)):
            out[-1].update(stronger)
    return out


def restates(stored: Edge, edge: Edge) -> bool:
    """The edge is already stored as it would be written: resolving the same research again (or an ingest reading
    its pack back, or a scoped payload sent again) wrote it anyway, and every run added an identical event to its
    timeline."""
    fields = ("sub_type", "weight", "confidence", "status", "evidence", "origin", "rule", "source_path", "metadata")
    return all(getattr(stored, name) == getattr(edge, name) for name in fields)


def _claim_keys(rt: Runtime, data: Mapping[str, Any]) -> list[tuple[str, str, str, str]]:
    """(src, dst, relation, predicate as written) of each claim (`respelled`: the edges an earlier spelling wrote)."""
    index = link_index(rt)
    return [(_node_for(str(c["subject"]).strip(), index), _node_for(str(c["object"]).strip(), index),
             predicate_name(str(c["predicate"])), str(c["predicate"])) for c in data.get("claims", [])]


def _stored_claims(store: Store, keys: Iterable[tuple[str, str, str]]
                   ) -> tuple[dict[tuple[str, str, str], Edge], dict[int, str]]:
    """The stored edges of these (src, dst, relation) keys, and the person decisions about them: two reads."""
    vault = store.vault  # type: ignore[attr-defined]
    known: dict[tuple[str, str, str], Edge] = vault.edges_by_keys(list(dict.fromkeys(keys)))
    return known, person_decisions(store, known.values())


def pack_payloads(text: str) -> list[dict[str, Any]]:
    """The valid resolution payloads a note carries (a damaged comment is passed over)."""
    out: list[dict[str, Any]] = []
    for match in _PACK_PAYLOAD.finditer(text):
        encoded = match.group(1)
        try:
            out.append(validate_payload(json.loads(base64.urlsafe_b64decode(encoded + "=" * (-len(encoded) % 4)))))
        except (binascii.Error, ValueError, UnicodeDecodeError, RecursionError, InvalidInput):
            continue
    return out


@dataclass(frozen=True)
class PackTarget:
    """Where a pack goes, and the earlier pack there: its exact bytes (None: no file) and its claims."""

    target: notes.Resolved
    existing: bytes | None
    previous: list[Mapping[str, Any]]


def pack_target(vault: str | Path, rel: str, slug: str, title: str | None = None) -> PackTarget:
    """Check the pack's path before anything is written: `PathRefused` for a symlinked `Sources/` or pack (they led
    the write to another note, even outside the vault), `Conflict` when a file there is not an earlier pack of this
    research (a payload comment with this slug that resolve would write to this very path). Given the `title` of a
    payload that names no slug of its own, an earlier pack of another title is another research whose title spells
    the same file name ("C++ vs Rust", "C# vs Rust"; two long titles alike in their first 80 characters): refused
    too, where it was overwritten and its claims demoted.

    A clash is refused rather than written under a free name: the pack's path is the edges' `source_path` and where
    the next run of the same research finds (and corrects) its earlier pack, so a name of our choosing would move
    with every run and leave stale packs behind; a refusal keeps the user's note as it is and leaves the choice —
    another `slug` in the payload, or moving the note — to the user."""
    # (before the editor's own check, which names a folder that is a file as bad input: here it is the user's note
    # in the way of the pack, a conflict)
    folder = notes.safe_folder(vault, None).path / SOURCES_DIR
    if not folder.is_symlink() and folder.exists() and not folder.is_dir():
        raise Conflict(f"{SOURCES_DIR} is a file in the vault, not a folder; move it to write evidence packs",
                       path=SOURCES_DIR)
    target = notes.safe_resolve(vault, rel)
    if not target.path.exists() and (target := moved_pack(vault, rel, slug) or target) and not target.path.exists():
        return PackTarget(target, None, [])  # (a pack `note move` took elsewhere is rewritten there)
    data = target.path.read_bytes()
    payloads = pack_payloads(data.decode("utf-8", errors="replace"))
    ours = [p for p in payloads if p["slug"] == slug and pack_path(p, vault) in (rel, target.rel)]
    if not ours:
        raise Conflict(f"{target.rel} already exists and is not an earlier evidence pack of this research; give the "
                       "payload another 'slug', or move that note away", path=target.rel)
    if title is not None and not any(_same_title(p["title"], title) for p in ours):
        other = ours[0]["title"]
        raise Conflict(f"{target.rel} is the evidence pack of another research, {other!r}, whose title makes the same "
                       f"file name; give this payload its own 'slug', or {slug!r} to replace that pack",
                       path=target.rel, title=other)
    return PackTarget(target, data, [claim for p in payloads for claim in p.get("claims", [])])


def _same_title(a: str, b: str) -> bool:
    """One research's title however re-cased or re-spaced."""
    return " ".join(a.casefold().split()) == " ".join(b.casefold().split())


def drop_unclaimed(rt: Runtime, previous: list[Mapping[str, Any]], written: list[dict[str, Any]],
                   source_path: str, vault: str | Path) -> tuple[list[int], list[dict[str, Any]]]:
    """A claim the pack made before and the new payload no longer makes: its edge, if still active, becomes a
    candidate (kept for audit) — corrected research must not leave the withdrawn claim standing as truth, and a fresh
    ingest of the vault would not create it either. No longer `validated`, or `promote-candidates` would bring it
    straight back. An edge a person decided is left as it is, and one another pack still states is written again
    from that pack (`shared_claims`). Returns the demoted edge ids and the edges left to other packs."""
    store = rt.store
    now = rt.now_iso()
    claimed = {(e["src"], e["dst"], e["predicate"]) for e in written if e["status"] != "refused"}
    dropped: list[int] = []
    demoted, elsewhere = unclaimed(rt, previous, claimed, source_path, vault)
    for edge, (rel, payload) in elsewhere:
        apply_embedded_payload(rt, payload, rel)
    for edge in demoted:
        dropped.append(store.upsert_edge(
            Edge(src=edge.src, dst=edge.dst, type=edge.type, sub_type=edge.sub_type, weight=edge.weight,
                 confidence=edge.confidence, status="candidate", evidence=edge.evidence, origin=edge.origin,
                 rule=edge.rule, source_path=edge.source_path,
                 metadata={**edge.metadata, "validated": False, "dropped_from_payload": True},
                 created_at=edge.created_at, updated_at=now),
            actor="resolve", event="dropped_from_payload"))
    return dropped, [{"edge_id": int(edge.id or 0), "note_path": rel} for edge, (rel, _p) in elsewhere]


def unclaimed(rt: Runtime, previous: list[Mapping[str, Any]], claimed: set[tuple[str, str, str]], source_path: str,
              vault: str | Path) -> tuple[list[Edge], list[tuple[Edge, tuple[str, Mapping[str, Any]]]]]:
    """The active claim edges of the earlier pack that `drop_unclaimed` demotes, and those another pack still states,
    with that pack and its claim (read only: a dry run lists them)."""
    from .shared_claims import claimed_elsewhere

    if not previous:
        return [], []
    index = link_index(rt)
    keys = [key for claim in previous
            if (key := (_node_for(str(claim["subject"]).strip(), index), _node_for(str(claim["object"]).strip(), index),
                        predicate_name(str(claim["predicate"])))) not in claimed]
    known, decisions = _stored_claims(rt.store, keys)
    edges = [edge for key in dict.fromkeys(keys) if (edge := known.get(key)) is not None
             and edge.status == "active" and edge.source_path == source_path and edge.origin == "resolve"
             and int(edge.id or 0) not in decisions]
    others = {int(edge.id or 0): other for edge in edges
              if (other := claimed_elsewhere(vault, edge, source_path, index)) is not None}
    return [e for e in edges if int(e.id or 0) not in others], [(e, others[int(e.id or 0)]) for e in edges
                                                                 if int(e.id or 0) in others]


def apply_embedded_payload(rt: Runtime, payload: Mapping[str, Any], note_path: str,
                           vault: str | Path | None = None) -> list[dict[str, Any]]:
    """Ingest hook: a note carrying a resolution payload re-creates its claim edges (idempotent upserts)."""
    try:
        data = validate_payload(payload)
    except InvalidInput:
        return []  # a damaged comment in a note must not stop an ingest; the parser already warned
    threshold = float(payload.get("active_threshold", ACTIVE_THRESHOLD)) if isinstance(
        payload.get("active_threshold"), (int, float)) else ACTIVE_THRESHOLD
    return claim_edges(rt, data, note_path, threshold, vault)


_LINK_UNSAFE = re.compile(r"[\[\]|#^]")


def pack_name(name: Any) -> str:
    """A claim's subject or object on its pack line: a wikilink when it can be one, else plain text with its brackets
    escaped (a name holding a line break and "## Notes" made a heading the next run kept as the user's; "A]] and
    [[B" a link to B)."""
    line = pack_line(name)
    if _LINK_UNSAFE.search(line) or line != " ".join(str(name).split()):  # (`pack_line` escaped a comment opener)
        return line.replace("[", "\\[").replace("]", "\\]")
    return f"[[{line}]]"


def render_pack(data: Mapping[str, Any], threshold: float, statuses: Sequence[str] | None = None) -> str:
    """The pack's Markdown; `statuses` are what each claim's line says of its edge as stored (`pack_status`), and
    without them (an earlier pack's payload, rendered again) the status each claim asks for."""
    lines = ["---", f"title: {pack_title(data['title'])}", "type: source", "tags: [research]"]
    if data.get("date"):
        lines.append(f"date: {data['date']}")
    lines += ["---", "", f"# {pack_plain(data['title'])}", ""]
    if data.get("date"):
        lines += [f"Resolved on {data['date']}.", ""]
    lines.append("## Claims")
    for i, claim in enumerate(data.get("claims", [])):
        requested = statuses[i] if statuses is not None else claim_status(claim, threshold)[0]
        lines.append(
            f"- {pack_name(claim['subject'])} {predicate_name(str(claim['predicate'])).replace('_', ' ')}"
            f" {pack_name(claim['object'])} (confidence {float(claim.get('confidence', 0.5)):.2f},"
            f" {pack_plain(claim.get('certainty') or 'uncertain')},"
            f" source {pack_plain(claim.get('source_type') or 'none')}, {pack_line(requested)})"
            + (f": {pack_plain(claim.get('evidence'))}" if claim.get("evidence") else ""))
    if data.get("sources_checked"):
        lines += ["", "## Sources checked", *[f"- {pack_plain(s)}" for s in data["sources_checked"]]]
    if data.get("unresolved"):
        lines += ["", "## Unresolved", *[f"- {pack_plain(u)}" for u in data["unresolved"]]]
    encoded = base64.urlsafe_b64encode(json.dumps(dict(data), ensure_ascii=False, sort_keys=True).encode("utf-8"))
    lines += ["", f"<!-- mneme-research-resolution-b64: {encoded.decode('ascii')} -->", ""]
    return "\n".join(lines)


_PAYLOAD_KEYS = ("slug", "title", "date", "claims", "sources_checked", "unresolved", "predictions", "assertions",
                 "active_threshold")


_GENERATED_SECTIONS = BOOKKEEPING_SECTIONS | {"Claims"}  # the `## ` sections render_pack writes


def with_user_sections(text: str, existing: bytes | None) -> tuple[str, list[str]]:
    """`render_pack`'s text with the `## ` sections of the earlier pack it does not write itself (a user's "## My
    notes"), above its payload comment, and their headings: a pack is a note in the user's vault, and resolving
    the same research again dropped what the user had written in it."""
    if not existing:
        return text, []
    kept: list[list[str]] = []
    current: list[str] | None = None
    for line in existing.decode("utf-8", errors="replace").removeprefix("\ufeff").replace("\r\n", "\n").split("\n"):
        if "mneme-research-resolution-b64" in line:
            continue  # (a line after it is of the section it ends: `note add-bullet` puts one there)
        if line.startswith("## "):
            current = [line] if line[3:].strip() not in _GENERATED_SECTIONS else None
            kept += [current] if current else []
        elif current is not None:
            current.append(line)
    if not kept:
        return text, []
    at = text.index("\n<!-- mneme-research-resolution-b64:")
    sections = "\n\n".join("\n".join(lines).strip("\n") for lines in kept)
    return f"{text[:at]}\n{sections}\n{text[at:]}", [lines[0][3:].strip() for lines in kept]


def write_pack(vault: str | Path, place: PackTarget, text: str, *,
               clock: Callable[[], datetime] | None = None) -> str | None:
    """Write the pack where `pack_target` checked; returns the backup of the earlier pack it replaced (None: there
    was none). A new pack never replaces a file that appeared since the check (the kernel checks, at the link), and
    an earlier pack edited since the check is not replaced: its backup would hold the bytes from before the edit."""
    data = text.encode("utf-8")
    path = place.target.path
    if place.existing is None:
        notes.atomic_write_bytes(path, data, replace=False)
        return None
    if path.is_symlink() or not path.is_file() or path.read_bytes() != place.existing:
        raise Conflict(f"{place.target.rel} changed while the pack was being written; run resolve again",
                       path=place.target.rel)
    if data == place.existing:  # a replayed resolve: the pack is already this one (no write, no backup)
        return None
    backup = notes.backup_bytes(vault, place.target.rel, place.existing, clock=clock)
    notes.atomic_write_bytes(path, data)
    return backup


def unwrite_pack(vault: str | Path, place: PackTarget, text: str, backup: str | None, error: BaseException) -> None:
    """Undo `write_pack` after the store refused the rows it went with: a new pack goes, a replaced one gets its
    bytes back (atomically, as it was written) and the backup made of them goes. A file edited since it was
    written is left as it is: the edit is someone's, and the backup still holds the earlier pack. Undoing never
    hides the error that called for it; if it cannot be done, a note on that error says what is left."""
    path = place.target.path
    data = text.encode("utf-8")
    if data == place.existing:
        return  # write_pack wrote nothing
    try:
        if path.is_symlink() or not path.is_file() or path.read_bytes() != data:
            return
        if place.existing is None:
            path.unlink()
            return
        notes.atomic_write_bytes(path, place.existing)
        if backup is not None:
            (Path(vault).expanduser().resolve() / backup).unlink(missing_ok=True)
    except OSError as exc:
        error.add_note(f"the evidence pack {place.target.rel} could not be put back as it was ({exc}); the store"
                       " is unchanged")


def resolve(rt: Runtime, vault: str | Path | None, payload: Any, *, active_threshold: float = ACTIVE_THRESHOLD,
            dry_run: bool = False) -> dict[str, Any]:
    if vault is None:
        raise InvalidInput("resolve needs a vault (--vault, or `init --vault` in the config)")
    if isinstance(active_threshold, bool) or not 0.0 <= float(active_threshold) <= 1.0:
        raise InvalidInput("--active-threshold must be between 0 and 1")
    if isinstance(payload, Mapping):  # (a pack's own payload, replayed by ingest, is read as it is)
        refuse_misspelt_keys(payload, _PAYLOAD_KEYS, "the resolution payload")
    data = validate_payload(payload)
    refuse_unfit(data)  # (a pack's own payload, replayed by ingest, is read as it is)
    refuse_repeated_claims(rt, data)
    data["active_threshold"] = float(active_threshold)
    rel = pack_path(data, vault)
    proposals = world_proposals(rt, data, rel)
    # refused (a symlink, another note, another research's pack) before anything is written; a payload naming its
    # slug says which pack is its own, whatever the title
    named = isinstance(payload, Mapping) and bool(payload.get("slug"))
    place = pack_target(vault, rel, data["slug"], None if named else data["title"])
    rel = place.target.rel  # (where `note move` took the pack, if it did)
    from .pack_edits import with_user_lines, with_user_properties
    from .withdrawals import add_predictions, withdrawn_by_rerun

    def pack_text(stored: Sequence[Mapping[str, Any]]) -> str:
        """The pack as it states the claims' stored edges, with what a person added to the earlier one."""
        text, lines_kept = with_user_lines(render_pack(data, active_threshold, _stated(data, stored)),
                                           place.existing, data["slug"])
        text, kept = with_user_sections(text, place.existing)
        text, properties = with_user_properties(text, place.existing)
        # a replay of the same research writes the same pack: nothing is overwritten (the graph side is idempotent)
        same = place.existing == text.encode("utf-8")
        out.update({"overwrites": place.existing is not None and not same, "pack_changed": not same,
                    **({"kept_sections": kept} if kept else {}), **({"kept_lines": lines_kept} if lines_kept else {}),
                    **({"kept_properties": properties} if properties else {})})
        return text

    world_notes: list[str] = []
    out: dict[str, Any] = {"note_path": rel, "dry_run": dry_run, "overwrites": None, "pack_changed": None}
    if dry_run:
        beliefs: list[dict[str, Any]] = []
        claims = _previewed_claims(rt, data, rel, active_threshold, proposals, vault, beliefs)
        text = pack_text(claims)
        # what a real run would demote, listed as it lists it: the preview used to leave withdrawn claims unsaid
        index = link_index(rt)
        keys = {(_node_for(str(c["subject"]), index), _node_for(str(c["object"]), index), c["predicate"])
                for c in claims if c["status"] != "refused"}
        demoted, elsewhere = unclaimed(rt, place.previous, keys, rel, vault)
        if dropped_ids := [int(e.id or 0) for e in demoted]:
            out["dropped_edges"] = dropped_ids
        if elsewhere:
            out["claimed_elsewhere"] = [{"edge_id": int(e.id or 0), "note_path": other[0]} for e, other in elsewhere]
        # the beliefs and predictions the run would write, as its reply lists them (each against the store as it is)
        out.update(retire_respelled(rt, rel, _claim_keys(rt, data), (rel, pack_path(data, vault)), dry_run=True))
        out.update({"claims": claims, "written": False, "markdown": text,
                    "assertions": [*beliefs, *extra_beliefs(rt, data, rel, world_notes, dry_run=True)],
                    "predictions": add_predictions(rt, data, rel, world_notes, dry_run=True),
                    **withdrawn_by_rerun(rt, rel, data, dry_run=True, earlier=pack_path(data, vault))})
        if world_notes:
            out["notes"] = world_notes
        return out
    previous = place.previous
    written = False
    try:
        # the edges, the beliefs and the predictions of one resolution are stored together or not at all: written
        # one after the other, a refusal or error part-way left the pack and some of them behind
        with rt.store.transaction():
            edges = claim_edges(rt, data, rel, active_threshold, vault)
            dropped, handed = drop_unclaimed(rt, previous, edges, rel, vault)
            text = pack_text(edges)
            out.update(retire_respelled(rt, rel, _claim_keys(rt, data), (rel, pack_path(data, vault)), dry_run=False))
            refused = sum(1 for e in edges if e["status"] == "refused")
            rt.store.log("resolve", None, {"note_path": rel, "claims": len(edges) - refused, "slug": data["slug"]},
                         rt.now_iso())
            assertions = propose_assertions(rt, data, edges, proposals, rel, world_notes)
            predictions = add_predictions(rt, data, rel, world_notes)
            out.update(withdrawn_by_rerun(rt, rel, data, dry_run=False, earlier=pack_path(data, vault)))
            # the pack last, before the commit: a pack that cannot be written rolls the rows back, and a commit that
            # fails takes the pack back out (`unwrite_pack`)
            out["backup"] = write_pack(vault, place, text, clock=rt.clock)
            written = True
    except BaseException as exc:
        if written:
            unwrite_pack(vault, place, text, out.get("backup"), exc)
        raise
    if dropped:
        out["dropped_edges"] = dropped
    if handed:
        out["claimed_elsewhere"] = handed  # withdrawn here, still stated by another pack: its claim again
    if refused:
        out["claims_refused"] = refused
    out.update({"claims_written": len(edges) - refused, "edges": edges, "assertions": assertions,
                "predictions_written": len({p["prediction"]["id"] for p in predictions}), "predictions": predictions,
                "written": True})
    if world_notes:
        out["notes"] = world_notes
    return out


def _stated(data: Mapping[str, Any], stored: Sequence[Mapping[str, Any]]) -> list[str]:
    """Each claim's status on its pack line, from its entry in the reply (`stored`), which learns what the claim
    asked for (`requested_status`, null without a wish) and why it holds another status (`note`)."""
    out: list[str] = []
    for claim, entry in zip(data.get("claims", []), stored):
        requested = str(claim.get("status") or "").strip().lower() or None
        if isinstance(entry, dict):
            entry.setdefault("requested_status", requested)
            if "note" not in entry and (note := stored_note(entry, requested)) is not None:
                entry["note"] = note
        out.append(pack_status(entry, requested))
    return out


def _previewed_claims(rt: Runtime, data: Mapping[str, Any], rel: str, threshold: float,
                      proposals: list[dict[str, Any]] | None, vault: str | Path,
                      beliefs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What a real run would do with each claim, written nowhere: the edge's status after the write gate (`status`,
    with the gate's `reasons` — a killed edge stays killed, a person's decision on it is kept) and, for a claim that
    would be active, what the world model's gate would make of its belief (`assertion`: written or not, status,
    the values it would supersede). A dry run used to echo only `requested_status`, the claim's own wish: a claim
    the ontology keeps a candidate, or one whose belief would replace the current value, looked the same as any.
    Each claim is previewed against the store as it is (claims of one payload do not see each other)."""
    from .shared_claims import previewed_elsewhere

    index = link_index(rt)
    claims = data.get("claims", [])
    known, decisions = _stored_claims(rt.store, [
        (_node_for(str(c["subject"]), index), _node_for(str(c["object"]), index), predicate_name(str(c["predicate"])))
        for c in claims])
    out: list[dict[str, Any]] = []
    for i, claim in enumerate(claims):
        relation = predicate_name(str(claim["predicate"]))
        requested, validated = claim_status(claim, threshold)
        # the claim's own wish, null without one: the gate's verdict is `status` (echoing `requested` here read as a
        # request for `candidate` from a claim that asked for nothing, as `remember --payload`'s edges never did)
        entry: dict[str, Any] = {"subject": claim["subject"], "predicate": relation, "object": claim["object"],
                                 "requested_status": str(claim.get("status") or "").strip().lower() or None}
        out.append(entry)
        if (refusal := ingest_owned(relation, i)) is not None:
            entry.update(status="refused", reasons=["ingest_owned_relation"], error=refusal.to_dict(),
                         note=stored_note({"status": "refused"}, None))
            continue
        src, dst = _node_for(str(claim["subject"]), index), _node_for(str(claim["object"]), index)
        existing = known.get((src, dst, relation))
        confidence = float(claim.get("confidence", 0.5))
        evidence = str(claim.get("evidence") or "").strip()[:500]
        decision = gate_edge(relation, confidence, evidence or None, validated, "resolve",
                             requested=requested,  # type: ignore[arg-type]
                             existing=existing.status if existing and existing.status in ("active", "candidate", "killed") else None,  # type: ignore[arg-type]
                             active_threshold=threshold)
        status: str = decision.status
        reasons = gate_reasons(claim, threshold, decision.reasons)
        decided = decisions.get(int(existing.id or 0)) if existing is not None else None
        if existing is not None and existing.status == "killed":
            status = "killed"  # a tombstone blocks the claim (`blocked_recreation` on the edge)
        elif existing is not None and decided is not None:
            status, reasons = existing.status, [f"person_decision_kept:{decided}"]
        status, reasons = previewed_elsewhere(vault, existing, rel, index, status, reasons)  # (`active_elsewhere`)
        entry.update({"status": status, "reasons": reasons, "edge_id": existing.id if existing else None})
        if (note := stored_note(entry, entry["requested_status"])) is not None:
            entry["note"] = note
        if status != "active" or proposals is None or i >= len(proposals):
            continue
        from ..world import propose_assertion

        report = propose_assertion(rt, proposals[i], source_path=rel,
                                   source_edge_id=str(existing.id) if existing else None, dry_run=True,
                                   reason="resolve")
        beliefs.append(report)  # (the run's reply lists it among its `assertions`)
        entry["assertion"] = {k: report[k] for k in ("id", "written", "status", "validity", "gate", "stored_id",
                                                     "idempotent", "superseded_ids", "retracted_ids", "current_ids",
                                                     "message", "dry_run") if k in report}
    return out
