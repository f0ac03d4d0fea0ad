"""The action ledger: `action record --file` stores what the agent did in the world, with its provider handle, and
spawns a verification prediction (once) when the payload carries a `verify` block."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.errors import InvalidInput, NotFound
from ...core.world import Action, Prediction, parse_prediction, validate_action, verification_prediction
from ...core.world.ledger import rerecorded
from ..runtime import Runtime
from .common import audit, now_of, put_prediction, world_of
from .sense import read_json_document


def _check_proof(rt: Runtime, action: Action) -> None:
    """`verified` by a prediction means a prediction that exists and was confirmed — not merely named."""
    if action.status != "verified" or not action.verified_by_prediction or action.user_confirmed:
        return
    raw = world_of(rt).get_prediction(action.verified_by_prediction)
    if raw is None:
        raise NotFound(f"verified_by_prediction {action.verified_by_prediction!r} names no stored prediction",
                       field="verified_by_prediction")
    if raw.get("status") != "confirmed":
        raise InvalidInput(
            f"prediction {action.verified_by_prediction} is {raw.get('status')}, not confirmed; it cannot verify "
            "this action (record status succeeded, or user_confirmed: true)", rule="verified_needs_proof",
            field="verified_by_prediction")
    # the evidence must be about this action: the prediction its verify block spawned, one naming it as its
    # source_action_id, or one naming no action that the action names as its prediction_id (another action's
    # confirmation verified any action it was named by)
    owner = raw.get("source_action_id")
    if owner != action.id and (owner or raw.get("id") != action.prediction_id):
        whose = f"the action {owner}" if owner else "no action (name it as this action's prediction_id)"
        raise InvalidInput(
            f"prediction {action.verified_by_prediction} is about {whose}, not this one ({action.id}); it cannot "
            "verify this action", rule="verified_needs_proof", field="verified_by_prediction")


def record_action(rt: Runtime, document: Any) -> dict[str, Any]:
    data = read_json_document(document, "action file")
    if not isinstance(data, Mapping):
        raise InvalidInput(f"action must be a JSON object, got {type(data).__name__}")
    now = now_of(rt)
    world = world_of(rt)
    action = validate_action(data, now)
    raw_existing = world.get_action(action.id)
    if raw_existing is not None:
        # re-recording keeps the original created_at, hence the same verification window and prediction id, and what
        # the payload leaves out
        stored = Action.from_row(raw_existing)
        action = validate_action(rerecorded(stored, data), now, existing=stored)
    _check_proof(rt, action)
    # the ids tie the action to beliefs and a prediction, as `predict add` ties its own: a mistyped one was stored
    # and the action read as recorded against a belief that does not exist
    for assertion_id in action.assertion_ids:
        if world.get_assertion(assertion_id) is None:
            raise NotFound(f"assertion_ids: {assertion_id!r} names no stored assertion", field="assertion_ids")
    spawned = verification_prediction(action)
    if spawned is None and action.prediction_id and world.get_prediction(action.prediction_id) is None:
        raise NotFound(f"prediction_id {action.prediction_id!r} names no stored prediction", field="prediction_id")
    prediction: Prediction | None = None
    if spawned is not None and world.get_prediction(spawned["id"]) is None:
        if action.source_path:
            spawned["metadata"] = {**spawned["metadata"], "source_path": action.source_path}
        prediction = parse_prediction(spawned, now)
    with rt.store.transaction():
        world.put_action(action.to_row(), rt.now_iso())
        audit(rt, "recorded" if raw_existing is None else "re-recorded", "action", action.id,
              {"status": action.status, "side_effect_level": action.side_effect_level})
        if prediction is not None:
            put_prediction(rt, prediction)
            audit(rt, "predicted", "prediction", prediction.id, {"spawned_by": action.id})
    return {"created": raw_existing is None, "action": action.to_row(),
            "spawned_prediction_id": None if spawned is None else spawned["id"],
            "prediction_created": prediction is not None}
