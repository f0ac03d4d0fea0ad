"""The action ledger: an auditable record of what the agent did in the world.

Rules (`validate_action`):
* any `side_effect_level` other than `none` needs a provider handle — `external_ref` or `tool_call_id` — so the
  ledger can be reconciled with the provider instead of reconstructed from chat history;
* `status: verified` needs `verified_by_prediction` (a prediction id) or `user_confirmed: true`;
* a `verify` block on a side-effectful action yields a `confirmation_expected` prediction payload whose id is a
  content hash anchored on the action's id and `created_at`, so recording the same action twice spawns one
  prediction. Its evidence window starts at the action itself (Mneme starts it at check_after, so a confirmation
  email arriving within the first day was never counted).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from mnemon.core.errors import InvalidInput
from mnemon.core.validation import FUTURE_SLACK
from mnemon.core.world.match import tokenize
from mnemon.core.world.predictions import prediction_id
from mnemon.core.world.senses import require_sense_type
from mnemon.core.world.values import (
    content_hash,
    instant_or_none,
    iso,
    optional_bool,
    optional_mapping,
    optional_str,
    parse_duration,
    parse_instant,
    refuse_nul,
    refuse_unknown_keys,
    require_aware,
    require_mapping,
    required_str,
    string_list,
    unit_float,
)

ACTION_STATUSES: tuple[str, ...] = ("recorded", "pending", "succeeded", "failed", "verified", "reverted")
NO_SIDE_EFFECT = "none"
# what a side effect reaches: nothing, the agent's own machine, another party (mail, a calendar, a ticket), money
SIDE_EFFECT_LEVELS: tuple[str, ...] = (NO_SIDE_EFFECT, "local", "external", "financial")
_DERIVED_TERM_STOP = frozenset(
    "the and for with that this from into still needs need follow update task event email calendar notion open "
    "send sent was were are has have had will can should would our your their about after before verify".split()
)
MAX_DERIVED_TERMS = 6
# every key an action payload may carry (the keys of `Action.to_row()`, so a stored row is a valid payload too) and
# of its `verify` block (`expires_at` is Mneme's spelling of `expires`)
ACTION_FIELDS = frozenset((
    "id", "actor", "action_type", "title", "tool_name", "tool_call_id", "external_ref", "side_effect_level",
    "reversibility", "status", "verified_by_prediction", "user_confirmed", "assertion_ids", "prediction_id",
    "source_path", "verify", "metadata", "created_at"))
VERIFY_FIELDS = frozenset(("sense_type", "source_id", "terms", "check_after", "expires", "expires_at", "confidence"))


@dataclass(frozen=True)
class VerifySpec:
    sense_type: str
    source_id: str | None = None
    terms: tuple[str, ...] = ()
    check_after: str = "1d"  # duration after the action, or an ISO instant
    expires: str = "3d"
    confidence: float = 0.6

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "sense_type": self.sense_type,
            "check_after": self.check_after,
            "expires": self.expires,
            "confidence": self.confidence,
        }
        if self.source_id is not None:
            out["source_id"] = self.source_id
        if self.terms:
            out["terms"] = list(self.terms)
        return out


@dataclass(frozen=True)
class Action:
    id: str
    action_type: str
    title: str
    created_at: datetime
    actor: str = "agent"
    tool_name: str | None = None
    tool_call_id: str | None = None
    external_ref: str | None = None
    side_effect_level: str = NO_SIDE_EFFECT
    reversibility: str = "unknown"
    status: str = "recorded"
    verified_by_prediction: str | None = None
    user_confirmed: bool = False
    assertion_ids: tuple[str, ...] = ()
    prediction_id: str | None = None
    source_path: str | None = None
    verify: VerifySpec | None = None
    metadata: Mapping[str, Any] = field(default_factory=dict)

    @property
    def side_effectful(self) -> bool:
        return self.side_effect_level != NO_SIDE_EFFECT

    def to_row(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "actor": self.actor,
            "action_type": self.action_type,
            "title": self.title,
            "tool_name": self.tool_name,
            "tool_call_id": self.tool_call_id,
            "external_ref": self.external_ref,
            "side_effect_level": self.side_effect_level,
            "reversibility": self.reversibility,
            "status": self.status,
            "verified_by_prediction": self.verified_by_prediction,
            "user_confirmed": self.user_confirmed,
            "assertion_ids": list(self.assertion_ids),
            "prediction_id": self.prediction_id,
            "source_path": self.source_path,
            "verify": None if self.verify is None else self.verify.to_json(),
            "metadata": dict(self.metadata),
            "created_at": iso(self.created_at),
        }

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> Action:
        data = require_mapping(row, "action row")
        if data.get("created_at") is None:
            raise InvalidInput("action row: missing required field 'created_at'")
        # a stored row is read as it is: a column a later version added to it must not make it unreadable
        return validate_action(data, parse_instant(data["created_at"], "created_at"), refuse_unknown=False)


def action_id(actor: str, action_type: str, title: str, tool_name: str | None, tool_call_id: str | None,
              external_ref: str | None, created_at: datetime) -> str:
    """A provider handle identifies the side effect by itself; without one the timestamp has to."""
    handle = [tool_call_id, external_ref]
    key = [actor, action_type, title, tool_name, *handle, None if any(handle) else iso(created_at)]
    return content_hash("wa:", key, 24)


def _parse_verify(value: Any) -> VerifySpec:
    data = require_mapping(value, "action.verify")
    refuse_unknown_keys(data, VERIFY_FIELDS, "action.verify")
    if data.get("sense_type") is None:
        raise InvalidInput("action.verify.sense_type: missing (the sense its evidence comes from)",
                           field="verify.sense_type")
    sense_type = require_sense_type(data["sense_type"], "action.verify.sense_type")
    terms = () if data.get("terms") is None else string_list(data["terms"], "action.verify.terms")
    offsets = {}
    for key, alias, default in (("check_after", None, "1d"), ("expires", "expires_at", "3d")):
        raw = data.get(key, data.get(alias) if alias else None)
        if raw is None:
            offsets[key] = default
            continue
        if not isinstance(raw, str):
            raise InvalidInput(f"action.verify.{key} must be a duration (1d) or an ISO instant", field=f"verify.{key}")
        try:
            parse_duration(raw, f"action.verify.{key}")
        except InvalidInput:
            parse_instant(raw, f"action.verify.{key}")
        offsets[key] = raw.strip()
    return VerifySpec(
        sense_type=sense_type,
        source_id=optional_str(data, "source_id", "action.verify"),
        terms=terms,
        check_after=offsets["check_after"],
        expires=offsets["expires"],
        confidence=unit_float(data, "confidence", "action.verify", 0.6),
    )


def _given_at(error: InvalidInput, where: str) -> InvalidInput:
    """A verify block's refusal naming the field where the block was given: `verify`, or Mneme's `metadata.verify`
    (the readers name it action.verify.x, verify.x or the key alone)."""
    field = str(error.details.get("field") or "")
    for prefix in ("action.verify", "verify"):
        if field == prefix or field.startswith(prefix + "."):
            field = field[len(prefix):]
            break
    else:
        field = f".{field}" if field else ""
    # the message says the field details names ('action: verify.sense_type: …', 'action: metadata.verify.expires …')
    message = error.message.replace("action.verify", f"action: {where}")
    key = field.rpartition(".")[2]
    if key and where + field not in message:
        message = message.replace(f"action: {where}: {key} ", f"action: {where}.{key} ", 1)
    return InvalidInput(message, **{**error.details, "field": where + field})


def rerecorded(existing: Action, payload: Mapping[str, Any]) -> dict[str, Any]:
    """The payload of a re-record of `existing` (the same side effect again): a key it leaves out keeps what the
    ledger holds. A bare replay rewrote the row from the payload alone — a `succeeded` action read `recorded`, its
    beliefs, verification prediction and payload scope were gone."""
    return {**{key: value for key, value in existing.to_row().items() if value is not None}, **payload}


def validate_action(payload: Any, now: datetime, existing: Action | None = None, *,
                    refuse_unknown: bool = True) -> Action:
    """Validate an `action record` payload. Pass the stored row as `existing` when re-recording, so the original
    `created_at` (and with it the verification window and prediction id) is kept. A key outside `ACTION_FIELDS`
    is refused (a misspelt `side_effect_level` would otherwise record no side effect and skip its rule)."""
    now = require_aware(now)
    what = "action"
    data = require_mapping(payload, what)
    if refuse_unknown:
        refuse_unknown_keys(data, ACTION_FIELDS, what)
        refuse_nul(data, what)
    actor = optional_str(data, "actor", what, "agent") or "agent"
    action_type = required_str(data, "action_type", what)
    title = required_str(data, "title", what)
    tool_name = optional_str(data, "tool_name", what)
    tool_call_id = optional_str(data, "tool_call_id", what)
    external_ref = optional_str(data, "external_ref", what)
    level = (optional_str(data, "side_effect_level", what, NO_SIDE_EFFECT) or NO_SIDE_EFFECT).casefold()
    if refuse_unknown and level not in SIDE_EFFECT_LEVELS:
        # (a stored row is read as it is: one a version before this check took keeps its level)
        raise InvalidInput(f"{what}: side_effect_level must be one of {', '.join(SIDE_EFFECT_LEVELS)}, got "
                           f"{level!r}", field="side_effect_level")
    if level != NO_SIDE_EFFECT and not (tool_call_id or external_ref):
        raise InvalidInput(
            f"{what}: side_effect_level {level!r} needs external_ref or tool_call_id (a provider handle)",
            rule="side_effects_need_handle", field="side_effect_level",
        )
    status = optional_str(data, "status", what, "recorded") or "recorded"
    if status not in ACTION_STATUSES:
        raise InvalidInput(f"{what}: status must be one of {', '.join(ACTION_STATUSES)}, got {status!r}",
                           field="status")
    verified_by = optional_str(data, "verified_by_prediction", what)
    user_confirmed = optional_bool(data, "user_confirmed", what)
    if status == "verified" and not (verified_by or user_confirmed):
        raise InvalidInput(
            f"{what}: status verified needs verified_by_prediction or user_confirmed: true",
            rule="verified_needs_proof", field="status",
        )
    metadata = optional_mapping(data, "metadata", what)
    # Mneme's place for the block, read when verify is not given (null is not given, as everywhere in a payload)
    where = "verify" if data.get("verify") is not None else "metadata.verify"
    verify_raw = data.get("verify") if where == "verify" else metadata.get("verify")
    try:
        verify = None if verify_raw is None else _parse_verify(verify_raw)
    except InvalidInput as exc:
        raise _given_at(exc, where) from None
    if verify is not None and level == NO_SIDE_EFFECT:
        raise InvalidInput(f"{what}: a verify block ({where}) needs a side-effectful action (side_effect_level != "
                           "none)", field=where)
    assertion_ids = () if data.get("assertion_ids") is None else string_list(data["assertion_ids"], "assertion_ids")
    created_at = instant_or_none(data.get("created_at"), "created_at") or now
    if refuse_unknown and created_at > now + FUTURE_SLACK:
        # an action is dated when it was done: a mistyped year would open its verification window years ahead, so
        # its prediction never came due and nothing reported it (as `remember` refuses a memory dated ahead)
        raise InvalidInput(f"{what}: created_at {iso(created_at)} is in the future (now is {iso(now)}); an action is "
                           "dated when it was done", field="created_at")
    given_id = optional_str(data, "id", what)
    new_id = given_id or action_id(actor, action_type, title, tool_name, tool_call_id, external_ref, created_at)
    if existing is not None and existing.id == new_id:
        created_at = existing.created_at
    action = Action(
        id=new_id,
        actor=actor,
        action_type=action_type,
        title=title,
        tool_name=tool_name,
        tool_call_id=tool_call_id,
        external_ref=external_ref,
        side_effect_level=level,
        reversibility=optional_str(data, "reversibility", what, "unknown") or "unknown",
        status=status,
        verified_by_prediction=verified_by,
        user_confirmed=user_confirmed,
        assertion_ids=assertion_ids,
        prediction_id=optional_str(data, "prediction_id", what),
        source_path=optional_str(data, "source_path", what),
        verify=verify,
        metadata=metadata,
        created_at=created_at,
    )
    try:
        payload_for_prediction = verification_prediction(action)
    except InvalidInput as exc:
        raise _given_at(exc, where) from None
    if payload_for_prediction is not None:
        action = replace(action, prediction_id=payload_for_prediction["id"])
    return action


def _offset(anchor: datetime, value: str, field_name: str) -> datetime:
    field = field_name.removeprefix("action.")
    try:
        delta = parse_duration(value, field_name)
    except InvalidInput:
        return parse_instant(value, field_name)
    try:
        return anchor + delta
    except OverflowError:
        raise InvalidInput(f"{field_name} reaches beyond the calendar: {value!r}", field=field) from None


def _derived_terms(title: str) -> list[str]:
    seen: list[str] = []
    for token in tokenize(title):
        if len(token) >= 3 and token not in _DERIVED_TERM_STOP and not token.isdigit() and token not in seen:
            seen.append(token)
    return seen[:MAX_DERIVED_TERMS]


def verification_prediction(action: Action) -> dict[str, Any] | None:
    """The prediction payload a `verify` block spawns (None without one); its `id` is deterministic."""
    spec = action.verify
    if spec is None:
        return None
    check_after = _offset(action.created_at, spec.check_after, "action.verify.check_after")
    expires_at = _offset(action.created_at, spec.expires, "action.verify.expires")
    if expires_at < check_after:
        raise InvalidInput("action.verify.expires is before check_after", field="verify.expires")
    match: dict[str, Any] = {"sense_type": spec.sense_type, "observed_after": iso(action.created_at)}
    if spec.source_id is not None:
        match["source_id"] = spec.source_id
    terms = list(spec.terms) or ([] if spec.source_id else _derived_terms(action.title))
    if terms:
        match["observation_terms_any"] = terms
    if spec.source_id is None and not terms:
        raise InvalidInput(
            "action.verify.terms: nothing specific to match — give source_id or terms (the title has no usable "
            "words)",
            field="verify.terms")
    payload: dict[str, Any] = {
        "title": f"Verify: {action.title}",
        "prediction_type": "confirmation_expected",
        "source_action_id": action.id,
        "match_json": match,
        "check_after": iso(check_after),
        "expires_at": iso(expires_at),
        "confidence": spec.confidence,
        "created_at": iso(action.created_at),
        "metadata": {"spawned_by": "action.verify"},
    }
    payload["id"] = prediction_id({k: v for k, v in payload.items() if k != "id"})
    return payload
