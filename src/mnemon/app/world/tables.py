"""The backend's world tables and the audit trail every world service writes to.

Kept apart from `common` so a plain `remember`, which records one sense event, does not import the world services.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.errors import StoreError
from ..runtime import Runtime


def world_of(rt: Runtime) -> Any:
    """The backend's world tables (`store.world`); a backend without them cannot run world commands."""
    world = getattr(rt.store, "world", None)
    if world is None:
        raise StoreError(f"the {type(rt.store).__name__} backend has no world-model tables yet")
    if not rt.store.readonly and world.nfc_keys_pending():  # (asked of the store once per process)
        from .keys import upgrade_world_keys

        upgrade_world_keys(rt, world)  # before any service reads a row: they all come through here
    return world


def audit(rt: Runtime, event: str, target: str, target_id: str, detail: Mapping[str, Any]) -> None:
    world_of(rt).log_event(event, target, target_id, detail, rt.now_iso())
