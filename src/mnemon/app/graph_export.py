"""`graph --format dot|html --out FILE`: the graph view (`graph_view`, the same bounds) written to a file.

The command prints one JSON document, so the drawing goes to a file, never to stdout; the answer says what was
written (path, format, bytes, node and link counts, whether the limits cut the graph). The file is written under a
temporary name and renamed into place once whole: a failure leaves an earlier file as it was.
"""
from __future__ import annotations

import os
from typing import Any

from ..core.errors import InvalidInput, write_refused
from .graph_view import graph_view
from .runtime import Runtime

FORMATS = ("dot", "html")


def export_graph(rt: Runtime, fmt: Any, path: str, **bounds: Any) -> dict[str, Any]:
    """Write the view `bounds` choose (`graph_view`'s arguments) to `path` as `fmt` (checked before any read)."""
    if fmt not in FORMATS:
        raise InvalidInput(f"--format must be one of {', '.join(FORMATS)} to write a file; got {fmt!r}",
                           field="format", valid=list(FORMATS))
    view = graph_view(rt, **bounds)
    memories = [n["id"] for n in view["nodes"] if n["kind"] == "memory" and n["type"] == "memory"]
    found = rt.store.get_nodes(memories)
    for node in view["nodes"]:  # a memory is coloured by its category, as the real mnemon's viz does
        if node["id"] in found:
            node["category"] = found[node["id"]].category
    from ..ports.array_file import write_atomic
    from ..render.graph_export import to_dot, to_html

    text = to_dot(view) if fmt == "dot" else to_html(view, generated_at=rt.now_iso())
    try:
        write_atomic(path, [text.encode("utf-8")], durable=True)
    except OSError as exc:
        raise write_refused(path, exc) from None
    return {"ok": True, "format": fmt, "path": path, "bytes": os.path.getsize(path), "nodes": len(view["nodes"]),
            "links": view["stats"]["links"], "truncated": view["truncated"], "focus": view["focus"],
            "folder": view["folder"], "limits": view["limits"]}
