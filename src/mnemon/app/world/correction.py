"""`agent preflight`'s route for a prompt that corrects a belief the world model holds.

The route (`core.world.route`) reads wording only, so its next step for a correction is `remember`: right for a
memory, but a belief of the world model — what preflight states as present fact — stays in force whatever is
remembered. When the prompt names the subject of beliefs in force, the route lists them (`beliefs`) and its next
step names the writes that change one: `state assert` as a correction (which retracts the value in force) or
`state retract`; over the servers, `remember_payload`'s `assertions[]` and `state_retract`.
"""
from __future__ import annotations

from typing import Any

from ...core.surface import write_step
from ...core.text import token_set
from ...core.world import validity_at
from ...core.world.route import BOTH, RETRIEVAL, route
from .common import WorldView

MAX_BELIEFS = 3

_NAMED = "The prompt corrects what the world model believes: {beliefs}."
_COMMAND = (" Record the corrected value with `mnemon state assert --file` (the same subject and predicate, "
            "source_type user_correction, certainty user_confirmed, confidence 1.0, the user's words as evidence): "
            "it retracts the value in force. `mnemon state retract ID --reason TEXT` takes out a value that was never "
            "true. `mnemon remember` would leave the belief in force.")
_TOOL = (" Record the corrected value as an `assertions[]` entry of `remember_payload` (under a mneme:// "
         "source_path; the same subject and predicate, source_type user_correction, certainty user_confirmed, "
         "confidence 1.0, the user's words as evidence): it retracts the value in force. `state_retract` (id, reason) "
         "takes out a value that was never true. `remember` would leave the belief in force.")
_ANSWER = "Answer from the context pack with the correction applied. "


def named_beliefs(view: WorldView, prompt: str) -> list[dict[str, Any]]:
    """Beliefs in force at the view's instant whose subject the prompt names (every word of it), those sharing more
    words with the prompt first; at most `MAX_BELIEFS`."""
    words = token_set(prompt)
    found = []
    for row in view.assertions.values():
        subject = token_set(row.subject)
        if not subject or not subject <= words or validity_at(row, view.now) != "current":
            continue
        shared = len(words & token_set(row.predicate.replace("_", " "), row.object))
        found.append((-shared, row.subject.casefold(), row.predicate, row.id, row))
    found.sort(key=lambda entry: entry[:4])
    return [{"id": row.id, "subject": row.subject, "predicate": row.predicate, "object": row.object,
             "source_path": row.source_path} for *_, row in found[:MAX_BELIEFS]]


def preflight_route(prompt: str, view: WorldView) -> dict[str, Any]:
    """The prompt's route; a correction's lists the beliefs it may correct and, when there are some, the step that
    changes them."""
    out = route(prompt).to_dict()
    if out["path"] == RETRIEVAL:
        return out
    beliefs = named_beliefs(view, prompt)
    out["beliefs"] = beliefs
    if beliefs:
        named = _NAMED.format(beliefs="; ".join(
            f"{b['subject']} {b['predicate']} {b['object']} (id {b['id']})" for b in beliefs))
        lead = _ANSWER if out["path"] == BOTH else ""
        out["next_step"] = lead + write_step(named + _COMMAND, named + _TOOL)
    return out
