"""A Logseq graph's blocks by uuid, kept across ingests: what a ``((uuid))`` in one page reads as, and links to, when
another page holds the block (``id:: <uuid>`` under it: `core.vault.logseq.page_blocks`).

An ingest reads only the notes whose bytes changed, so the blocks of every page (per page, uuid → text) are kept in
the vault state; each run takes out the pages it reads again or removes and puts in what the read ones hold now. A
block whose text or page changed, or that came or went, plans again every unchanged note whose ``((uuid))`` names it
(its `link_keys` hold `block_ref_key`), as a renamed note relinks the notes naming it.

A uuid two pages hold (a page copied inside the graph) is the block of the page first in `_holding_order`, whatever
the order the pages were written or ingested in; the ingest warns of it when it reads either (`duplicate_warnings`).
"""
from __future__ import annotations

import base64
import json
import re
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from ...core.vault.logseq import BLOCK_REF, LogseqGraph, page_blocks
from .plan import block_ref_key, decoded_note

BLOCKS_STATE = "logseq_blocks"
DUPLICATE_UUIDS_SHOWN = 20  # per warning: a copied page may repeat hundreds
_REF_BYTES = re.compile(BLOCK_REF.pattern.encode("ascii"))
Pages = dict[str, dict[str, str]]  # page path → uuid → the block's text


def _load(stored: str | None) -> Pages:
    if not stored:
        return {}
    try:
        pages = json.loads(zlib.decompress(base64.b64decode(stored[2:])) if stored.startswith("z:") else stored)
    except (ValueError, zlib.error):
        return {}  # unreadable: the pages read now are all it knows
    return pages if isinstance(pages, dict) else {}


def _dump(pages: Pages) -> str:
    text = json.dumps(pages, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return "z:" + base64.b64encode(zlib.compress(text.encode("utf-8"), 6)).decode("ascii")


def _holding_order(path: str) -> tuple[int, str]:
    """Which of two pages holding a uuid holds it: the shorter path, then the first by path. A copy's name is its
    page's and more ("Falcon copy.md", "Falcon (1).md", "archive/Falcon.md"): by path alone the copy came first."""
    return len(path), path


def _by_uuid(pages: Mapping[str, Mapping[str, str]]) -> dict[str, tuple[str, str]]:
    """uuid → (page, text); a uuid two pages hold (a copied block) is the first page's in `_holding_order`."""
    out: dict[str, tuple[str, str]] = {}
    for path in sorted(pages, key=_holding_order):
        for uuid, text in pages[path].items():
            out.setdefault(uuid, (path, text))
    return out


def duplicate_warnings(pages: Mapping[str, Mapping[str, str]], read: set[str]) -> list[dict[str, Any]]:
    """An ingest warning for each page holding a block uuid that a page before it in `_holding_order` holds too, when
    this run read either of the two: its ``((uuid))`` references read as the other page's block."""
    first: dict[str, str] = {}
    shadowed: dict[tuple[str, str], list[str]] = {}  # (page read, page not read) → their shared uuids
    for path in sorted(pages, key=_holding_order):
        for uuid in pages[path]:
            if (holder := first.setdefault(uuid, path)) != path and read & {holder, path}:
                shadowed.setdefault((holder, path), []).append(uuid)
    return [{"path": copy, "code": "duplicate_block_id", "line": None, "paths": [holder, copy],
             "uuids": sorted(uuids)[:DUPLICATE_UUIDS_SHOWN], "count": len(uuids),
             "message": f"{len(uuids)} of its block ids ({', '.join(sorted(uuids)[:2])}{', …' * (len(uuids) > 2)})"
             f" are also under {holder}: a ((uuid)) naming one reads as, and links to, the block of {holder} (the"
             " shorter path)"}
            for (holder, copy), uuids in shadowed.items()]


def indexed_blocks(vault_store: Any, graph: LogseqGraph, to_plan: Sequence[tuple[str, bytes, float]],
                   removed: Sequence[str]) -> tuple[LogseqGraph, set[str], str | None, list[dict[str, Any]]]:
    """(`graph` with every block of the graph as this run leaves it, the uuids whose page or text changed or that
    came or went, the state to store: None when it is the stored one, the warnings of uuids two pages hold)."""
    stored_text = vault_store.get_state(BLOCKS_STATE)
    stored = _load(stored_text)
    gone = {rel for rel, _data, _mtime in to_plan} | set(removed)
    pages = {path: held for path, held in stored.items() if path not in gone}
    for rel, data, _mtime in to_plan:
        if b"::" in data and (held := page_blocks(decoded_note(data)[0], graph)):
            pages[rel] = held
    before, after = _by_uuid(stored), _by_uuid(pages)
    changed = {uuid for uuid in before.keys() | after.keys() if before.get(uuid) != after.get(uuid)}
    state = _dump(pages)
    warnings = duplicate_warnings(pages, {rel for rel, _data, _mtime in to_plan})
    return replace(graph, blocks=after), changed, None if state == stored_text else state, warnings


def referencing_notes(vault_store: Any, paths: Sequence[str], changed: set[str]) -> set[str]:
    """The notes among `paths` with a ``((uuid))`` naming a block of `changed`."""
    if not changed or not paths:
        return set()
    keys = {block_ref_key(uuid) for uuid in changed}
    return {path for path, held in vault_store.link_keys_of(list(paths)).items() if not keys.isdisjoint(held)}


def batch_graph(graph: LogseqGraph | None, batch: Sequence[tuple[str, bytes, float]]) -> LogseqGraph | None:
    """`graph` with the blocks the notes of `batch` reference only: what a worker process is sent."""
    if graph is None or not graph.blocks:
        return graph
    named = {ref.group(1).decode("ascii").lower() for _rel, data, _mtime in batch if b"((" in data
             for ref in _REF_BYTES.finditer(data)}
    return replace(graph, blocks={uuid: graph.blocks[uuid] for uuid in named if uuid in graph.blocks})
