"""`VaultMixin`: the vault commands of the `Mnemon` facade, one method each, returning JSON-ready dicts."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.errors import InvalidInput
from ...core.vault import ACTIVE_THRESHOLD
from . import lifecycle, payload, resolve as resolve_mod
from .ingest import Progress, ingest_vault

if TYPE_CHECKING:
    from ..runtime import Runtime


class VaultMixin:
    rt: "Runtime"

    def ingest(self, vault: str | None, *, mode: str = "rebuild", max_notes: int | None = None,
               follow_symlinks: bool = False, hints: Any = None, progress: Progress | None = None,
               workers: int | None = None, embed: bool = True,
               embed_progress: Progress | None = None, bulk_threads: bool = False,
               allow_empty: bool = False, replace: bool = False) -> dict[str, Any]:
        """`bulk_threads`: this process embeds for this ingest and nothing else (a CLI command), so a local model may
        use every core (`EmbeddingProvider.prefer_bulk_threads`)."""
        if not vault:
            raise InvalidInput("ingest needs a vault: pass --vault DIR or set it once with `init --vault DIR`")
        from .setup import parse_hints

        threads = self.rt.provider.prefer_bulk_threads() if bulk_threads and embed else None
        out = ingest_vault(self.rt, vault, mode=mode, max_notes=max_notes, follow_symlinks=follow_symlinks,
                           hints=parse_hints(hints), progress=progress, workers=workers, embed=embed,
                           embed_progress=embed_progress, allow_empty=allow_empty, replace=replace)
        if threads is not None:
            out["vectors"]["threads"] = threads
        return out

    def explain_edge(self, edge_id: Any) -> dict[str, Any]:
        return lifecycle.explain_edge(self.rt, edge_id)

    def promote_candidates(self, *, mode: str = "validated-only", dry_run: bool = False) -> dict[str, Any]:
        return lifecycle.promote_candidates(self.rt, mode=mode, dry_run=dry_run)

    def weaken_edge(self, edge_id: Any, *, reason: str = "", factor: float = 0.5, floor: float = 0.0) -> dict[str, Any]:
        return lifecycle.weaken(self.rt, edge_id, reason=reason, factor=factor, floor=floor)

    def kill_edge(self, edge_id: Any, *, reason: str = "") -> dict[str, Any]:
        return lifecycle.kill(self.rt, edge_id, reason=reason)

    def validate_edge(self, edge_id: Any, *, reason: str = "") -> dict[str, Any]:
        return lifecycle.validate(self.rt, edge_id, reason=reason)

    def forget_dated(self, days_threshold: Any = 30, *, dry_run: bool = False) -> dict[str, Any]:
        return lifecycle.forget_dated(self.rt, days_threshold=days_threshold, dry_run=dry_run)

    def remember_payload(self, raw: Any, *, dry_run: bool = False) -> dict[str, Any]:
        return payload.remember_payload(self.rt, raw, dry_run=dry_run)

    def forget_source(self, source: Any, *, dry_run: bool = False) -> dict[str, Any]:
        return payload.forget_source(self.rt, source, dry_run=dry_run)

    def resolve(self, vault: str | None, raw: Any, *, active_threshold: float = ACTIVE_THRESHOLD,
                dry_run: bool = False) -> dict[str, Any]:
        from ..world.sense import read_json_document

        document = read_json_document(raw, "resolution payload") if isinstance(raw, (str, bytes)) else raw
        return resolve_mod.resolve(self.rt, vault, document, active_threshold=active_threshold, dry_run=dry_run)
