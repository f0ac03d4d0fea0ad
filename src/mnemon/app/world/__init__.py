"""The world model wired to the store: services over `mnemon.core.world` and the facade mixin.

Entry points other packages call:
* `propose_assertion(rt, payload, …)` — the one gated door into state assertions (`resolve`, payload `assertions[]`);
* `record_sense_event(rt, origin, sense_type, source_id, observed_at, title, text, metadata)` — every ingestion path
  (many at once: `store_sense_events(rt, [(parsed_sense_event(origin, SenseInput(…)), source_path), …])` — vault
  ingestion's workers parse theirs and the writer stores them);
* `keep_note_texts(rt, {path: old content hash})` — vault ingestion, before it changes or removes notes: their
  events, stored without text, keep the text they observed (`note_text.py`); `keep_texts_before_forget(rt, id,
  source)` — a plain `forget`, before it soft-deletes a memory such an event's text is read from;
* `world_context_items(rt, prompt, as_of)` — world rows for context packs, with `truth_policy`; `world_context` adds
  the claim edges whose beliefs are no longer in force (`claim_edges_not_in_force_now`: the same at now, for walks);
* `forget_world_scope(rt, "mneme://…")` — the only deleting path, for an explicit scoped forget.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .facade import WorldMixin
    from .note_text import keep_note_texts, keep_texts_before_forget
    from .preflight import agent_preflight, claim_edges_not_in_force_now, world_context, world_context_items
    from .sense import SenseInput, parsed_sense_event, record_memory_sense, record_sense_event, store_sense_events
    from .state import forget_world_scope, propose_assertion

# loaded on first use: `remember` imports `world.sense` on every write and must not pull in the whole world model
_LAZY = {"WorldMixin": "facade", "agent_preflight": "preflight", "world_context_items": "preflight",
         "world_context": "preflight", "claim_edges_not_in_force_now": "preflight",
         "record_memory_sense": "sense", "record_sense_event": "sense",
         "SenseInput": "sense", "parsed_sense_event": "sense", "store_sense_events": "sense",
         "keep_note_texts": "note_text", "keep_texts_before_forget": "note_text",
         "forget_world_scope": "state", "propose_assertion": "state"}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value

__all__ = [
    "SenseInput",
    "WorldMixin",
    "agent_preflight",
    "claim_edges_not_in_force_now",
    "forget_world_scope",
    "keep_note_texts",
    "keep_texts_before_forget",
    "parsed_sense_event",
    "propose_assertion",
    "record_memory_sense",
    "record_sense_event",
    "store_sense_events",
    "world_context",
    "world_context_items",
]
