"""The world model wired to the store: services over `mnemon.core.world` and the facade mixin.

Entry points other packages call:
* `propose_assertion(rt, payload, …)` — the one gated door into state assertions (`resolve`, payload `assertions[]`);
* `record_sense_event(rt, origin, sense_type, source_id, observed_at, title, text, metadata)` — every ingestion path;
* `world_context_items(rt, prompt, as_of)` — world rows for context packs, with `truth_policy`;
* `forget_world_scope(rt, "mneme://…")` — the only deleting path, for an explicit scoped forget.
"""
from .facade import WorldMixin
from .preflight import agent_preflight, world_context_items
from .sense import record_memory_sense, record_sense_event
from .state import forget_world_scope, propose_assertion

__all__ = [
    "WorldMixin",
    "agent_preflight",
    "forget_world_scope",
    "propose_assertion",
    "record_memory_sense",
    "record_sense_event",
    "world_context_items",
]
