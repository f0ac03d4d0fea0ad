"""The `match_json` grammar of predictions and the deterministic matcher over sense events.

Grammar (validated by `parse_match`, every violation is an `InvalidInput` naming the field):

    {
      "sense_type": "gws",                       # required, one of senses.SENSE_TYPES
      "source_id": "msg-123",                    # optional, exact match on the event's source_id
      "title_terms_any": [...], "title_terms_all": [...],
      "observation_terms_any": [...], "observation_terms_all": [...],
      "source_path_terms_any": [...], "source_path_terms_all": [...],
      "observed_after": ISO, "observed_before": ISO,   # default: the prediction's check_after / expires_at
      "min_score": 0.34,                          # in [0, 1]
      "gate": {"sense_type": ..., "source_id"?, "event_type"?, <six term lists>?,
               "time_field": "observed_at" | "metadata.<dot.path>"}
    }

Legacy keys `title_terms` → `title_terms_any`, `text_terms` → `observation_terms_any`. A spec needs `source_id`
or at least one term, otherwise it would match every event of the sense.

Matching is term-level: a term ("boarding pass") is present when all of its tokens are in the field; `_all` needs
every term present, `_any` at least one. The score is the fraction of all criterion tokens present in the event (1.0
for a source_id-only spec) — unlike Mneme's `hits / max(3, n)`, a fully matched one-word prediction scores 1.0
instead of 0.33 (which could never pass its own 0.34 default). Explicit terms are never dropped as stop words: if a
user asks for "email", "email" is what must match. Scripts without word spacing (CJK) match by substring.

`min_score` up to the default never asks for more than the hard criteria: "any" means any, so one term of an
`_any` list is enough however long the list (`action record`'s verify block derives up to six). Only a `min_score`
set above the default asks for that fraction of the tokens (e.g. 0.6: most terms of an `_any` list).
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from mnemon.core.errors import InvalidInput
from mnemon.core.world.senses import SenseEvent, require_sense_type
from mnemon.core.world.values import (
    instant_or_none,
    iso_or_none,
    nfc,
    optional_str,
    parse_instant,
    require_mapping,
    string_list,
    unit_float,
)

FIELDS: tuple[str, ...] = ("title", "observation", "source_path")
TERM_KEYS: tuple[str, ...] = tuple(f"{field}_terms_{mode}" for field in FIELDS for mode in ("any", "all"))
LEGACY_TERM_KEYS: Mapping[str, str] = {"title_terms": "title_terms_any", "text_terms": "observation_terms_any"}
DEFAULT_MIN_SCORE = 0.34
_MATCH_KEYS = frozenset(
    {"sense_type", "source_id", "observed_after", "observed_before", "min_score", "gate", *TERM_KEYS, *LEGACY_TERM_KEYS}
)
_GATE_KEYS = frozenset({"sense_type", "source_id", "event_type", "time_field", *TERM_KEYS, *LEGACY_TERM_KEYS})
_TOKEN = re.compile(r"[^\W_][\w'-]*", re.UNICODE)
_UNSPACED_SCRIPT = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")
_TIME_FIELD = re.compile(r"^(observed_at|metadata(\.[^.\s]+)+)$")


def fold(text: str) -> str:
    """Casefolded NFC: text written decomposed (macOS, many mail clients: e + combining accent) matched no term
    typed composed, and its tokens lost the accent (the combining mark is no word character)."""
    return nfc(nfc(text).casefold())


def tokenize(text: str) -> tuple[str, ...]:
    return tuple(token.strip("'-") for token in _TOKEN.findall(fold(text)) if token.strip("'-"))


@dataclass(frozen=True)
class Terms:
    """The six term lists, each term kept as its token tuple."""

    lists: tuple[tuple[str, str, tuple[tuple[str, ...], ...]], ...] = ()  # (field, mode, terms)

    @property
    def empty(self) -> bool:
        return not self.lists

    def tokens(self) -> set[str]:
        return {token for _, _, terms in self.lists for term in terms for token in term}

    def to_json(self) -> dict[str, list[str]]:
        return {f"{field}_terms_{mode}": [" ".join(term) for term in terms] for field, mode, terms in self.lists}


@dataclass(frozen=True)
class GateSpec:
    sense_type: str
    source_id: str | None = None
    event_type: str | None = None
    terms: Terms = Terms()
    time_field: str = "observed_at"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"sense_type": self.sense_type, "time_field": self.time_field}
        if self.source_id is not None:
            out["source_id"] = self.source_id
        if self.event_type is not None:
            out["event_type"] = self.event_type
        out.update(self.terms.to_json())
        return out


@dataclass(frozen=True)
class MatchSpec:
    sense_type: str
    source_id: str | None = None
    terms: Terms = Terms()
    observed_after: datetime | None = None
    observed_before: datetime | None = None
    min_score: float = DEFAULT_MIN_SCORE
    gate: GateSpec | None = None

    def to_json(self) -> dict[str, Any]:
        """Normalised form: stable for hashing (prediction ids) and round-trips through `parse_match`."""
        out: dict[str, Any] = {"sense_type": self.sense_type, "min_score": self.min_score}
        if self.source_id is not None:
            out["source_id"] = self.source_id
        out.update(self.terms.to_json())
        if self.observed_after is not None:
            out["observed_after"] = iso_or_none(self.observed_after)
        if self.observed_before is not None:
            out["observed_before"] = iso_or_none(self.observed_before)
        if self.gate is not None:
            out["gate"] = self.gate.to_json()
        return out


def _parse_terms(data: Mapping[str, Any], where: str) -> Terms:
    collected: dict[str, list[tuple[str, ...]]] = {}
    for key, value in data.items():
        target = LEGACY_TERM_KEYS.get(key, key)
        if target not in TERM_KEYS or value is None:
            continue
        for index, term in enumerate(string_list(value, f"{where}{key}")):
            tokens = tokenize(term)
            if not tokens:
                raise InvalidInput(f"{where}{key}[{index}] has no word characters: {term!r}", field=f"{where}{key}")
            if tokens not in collected.setdefault(target, []):
                collected[target].append(tokens)
    lists = []
    for key in TERM_KEYS:  # fixed order keeps to_json / ids stable
        if collected.get(key):
            field, _, mode = key.rpartition("_terms_")
            lists.append((field, mode, tuple(collected[key])))
    return Terms(tuple(lists))


def _reject_unknown(data: Mapping[str, Any], allowed: frozenset[str], where: str) -> None:
    unknown = sorted(key for key in data if key not in allowed)
    if unknown:
        raise InvalidInput(f"{where}unknown field(s) {', '.join(map(repr, unknown))}", fields=unknown)


def _parse_gate(value: Any) -> GateSpec:
    data = require_mapping(value, "match_json.gate")
    _reject_unknown(data, _GATE_KEYS, "match_json.gate: ")
    if data.get("sense_type") is None:
        raise InvalidInput("match_json.gate: missing required field 'sense_type'", field="gate.sense_type")
    sense_type = require_sense_type(data["sense_type"], "match_json.gate.sense_type")
    source_id = optional_str(data, "source_id", "match_json.gate")
    event_type = optional_str(data, "event_type", "match_json.gate")
    terms = _parse_terms(data, "match_json.gate.")
    if source_id is None and event_type is None and terms.empty:
        raise InvalidInput("match_json.gate needs source_id, event_type or at least one term list",
                           field="match_json.gate.source_id", fields=["source_id", "event_type", *TERM_KEYS])
    time_field = optional_str(data, "time_field", "match_json.gate", "observed_at") or "observed_at"
    if not _TIME_FIELD.match(time_field):
        raise InvalidInput(
            f"match_json.gate.time_field must be 'observed_at' or 'metadata.<path>', got {time_field!r}",
            field="gate.time_field",
        )
    return GateSpec(sense_type, source_id, event_type, terms, time_field)


def parse_match(obj: Any) -> MatchSpec:
    data = require_mapping(obj, "match_json")
    _reject_unknown(data, _MATCH_KEYS, "match_json: ")
    if data.get("sense_type") is None:
        raise InvalidInput("match_json: missing required field 'sense_type'", field="sense_type")
    sense_type = require_sense_type(data["sense_type"], "match_json.sense_type")
    source_id = optional_str(data, "source_id", "match_json")
    terms = _parse_terms(data, "match_json.")
    if source_id is None and terms.empty:
        raise InvalidInput("match_json needs source_id or at least one term list (e.g. observation_terms_all)",
                           field="match_json.source_id", fields=["source_id", *TERM_KEYS])
    observed_after = instant_or_none(data.get("observed_after"), "match_json.observed_after")
    observed_before = instant_or_none(data.get("observed_before"), "match_json.observed_before")
    if observed_after and observed_before and observed_before < observed_after:
        raise InvalidInput("match_json: observed_before is earlier than observed_after",
                           field="match_json.observed_before")
    min_score = unit_float(data, "min_score", "match_json", DEFAULT_MIN_SCORE)
    gate = None if data.get("gate") is None else _parse_gate(data["gate"])
    return MatchSpec(sense_type, source_id, terms, observed_after, observed_before, min_score, gate)


# ---- matching ---------------------------------------------------------------------------------------------------

def reads_event_text(terms: Terms) -> bool:
    """Whether matching these terms reads an event's text (`observation_terms_*`; see `_field_texts`)."""
    return any(field == "observation" for field, _, _ in terms.lists)


def _field_texts(event: SenseEvent) -> dict[str, str]:
    metadata = event.metadata
    paths = [event.source_id, event.source_uri]
    paths += [str(metadata[key]) for key in ("path", "source_path") if isinstance(metadata.get(key), str)]
    return {"title": event.title, "observation": event.text, "source_path": " ".join(paths)}


def _term_present(term: tuple[str, ...], tokens: set[str], text: str) -> bool:
    for token in term:
        if token in tokens:
            continue
        if _UNSPACED_SCRIPT.search(token) and token in text:
            continue
        return False
    return True


def _terms_score(terms: Terms, event: SenseEvent) -> float | None:
    """None when a hard criterion fails; otherwise the fraction of criterion tokens found."""
    texts = {name: fold(value) for name, value in _field_texts(event).items()}
    tokens = {name: set(tokenize(value)) for name, value in texts.items()}
    wanted = 0
    found = 0
    for field, mode, term_list in terms.lists:
        present = [_term_present(term, tokens[field], texts[field]) for term in term_list]
        if mode == "all" and not all(present):
            return None
        if mode == "any" and not any(present):
            return None
        for term in term_list:
            wanted += len(term)
            found += sum(1 for token in term if _term_present((token,), tokens[field], texts[field]))
    return 1.0 if wanted == 0 else found / wanted


def score_floor(terms: Terms) -> float:
    """The lowest score an event meeting every hard criterion can have: each `_all` list whole, and of each `_any`
    list its shortest term alone (terms sharing tokens only raise a real event's score above this)."""
    wanted = sum(len(term) for _, _, term_list in terms.lists for term in term_list)
    if wanted == 0:
        return 1.0
    least = sum(sum(len(term) for term in term_list) if mode == "all" else min(len(term) for term in term_list)
                for _, mode, term_list in terms.lists)
    return least / wanted


def effective_min_score(spec: MatchSpec) -> float:
    """The score an event needs: `min_score`, but never more than the hard criteria ask while it is at or below the
    default (one hit of a three-term `_any` list scores 0.33, which the 0.34 default used to turn into a miss)."""
    if spec.min_score > DEFAULT_MIN_SCORE:
        return spec.min_score
    return min(spec.min_score, round(score_floor(spec.terms), 6))


def score_event(spec: MatchSpec, event: SenseEvent) -> float:
    """0.0 when the event fails a hard criterion (sense type, source id, an `_all`/`_any` list); else the term score.

    Time windows are not applied here — see `predictions.evaluate_prediction`.
    """
    if event.sense_type != spec.sense_type:
        return 0.0
    if spec.source_id is not None and event.source_id != spec.source_id:
        return 0.0
    score = _terms_score(spec.terms, event)
    return 0.0 if score is None else round(score, 6)


def gate_matches(gate: GateSpec, event: SenseEvent) -> bool:
    if event.sense_type != gate.sense_type:
        return False
    if gate.source_id is not None and event.source_id != gate.source_id:
        return False
    if gate.event_type is not None and event.event_type != gate.event_type:
        return False
    return _terms_score(gate.terms, event) is not None


def gate_time(gate: GateSpec, event: SenseEvent) -> datetime | None:
    """The instant named by `time_field`; calendar-style dicts use dateTime, then date, then start.

    A time without an offset is read in the calendar's `timeZone` beside it, as Google Calendar writes them
    ({"dateTime": "2026-07-05T08:00:00", "timeZone": "Europe/Paris"} is 06:00 UTC; an all-day {"date": …} starts at
    that zone's midnight), else as UTC. A zone this machine does not know leaves the event's time unread."""
    if gate.time_field == "observed_at":
        return event.observed_at
    value: Any = event.metadata
    holder: Any = None
    parts = gate.time_field.split(".")[1:]
    for part in parts:
        if not isinstance(value, Mapping) or part not in value:
            return None
        holder, value = value, value[part]
    if isinstance(value, Mapping):
        holder = value
        value = next((value[key] for key in ("dateTime", "date", "start") if value.get(key)), None)
    elif parts[-1] not in ("dateTime", "date"):
        holder = None  # a zone beside another field names nothing about this one
    if value is None:
        return None
    try:
        moment = parse_instant(value, gate.time_field)
    except InvalidInput:
        return None  # a malformed calendar field on one event must not make the whole prediction uncheckable
    zone_name = holder.get("timeZone") if isinstance(holder, Mapping) else None
    if zone_name is None or not isinstance(value, str) or not _WITHOUT_OFFSET.match(value):
        return moment
    zone = _zone(zone_name)
    return None if zone is None else moment.replace(tzinfo=zone).astimezone(moment.tzinfo)


# a date, or a date and time, that names no offset (parse_instant reads it as UTC)
_WITHOUT_OFFSET = re.compile(r"\s*\d{4}-\d{2}-\d{2}(?:[Tt ][0-9:.,]+)?\s*\Z")


def _zone(name: Any) -> ZoneInfo | None:
    """The IANA zone `name` names ("Europe/Paris"), or None when this machine's time zone data has no such zone."""
    if not isinstance(name, str) or not name.strip():
        return None
    try:
        return ZoneInfo(name.strip())
    except (ZoneInfoNotFoundError, ValueError, OSError):  # not found, not a key, a file that is no zone
        return None


def resolve_gate(gate: GateSpec, events: Iterable[SenseEvent], now: datetime) -> tuple[datetime, str] | None:
    """Earliest (time, event id) among gate events already stored at `now`; None when unresolved."""
    best: tuple[datetime, str] | None = None
    for event in events:
        if event.observed_at > now or not gate_matches(gate, event):
            continue
        moment = gate_time(gate, event)
        if moment is not None and (best is None or (moment, event.id) < best):
            best = (moment, event.id)
    return best
