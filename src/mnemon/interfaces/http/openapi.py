"""`GET <mount>api/openapi.json`: the API `mnemon serve` offers as an OpenAPI 3.1 document."""
from __future__ import annotations

from typing import Any
from urllib.parse import quote

from ..operations import OPERATIONS


def openapi(mount: str, *, secured: bool = False, writes: bool = True) -> dict[str, Any]:
    """An OpenAPI 3.1 description of the API, made from the operation table (so it cannot drift from it): a client
    generator or a fuzzer reads the same schemas `check_args` enforces. Without `writes` (a read-only server) only
    the operations that read: an agent framework makes a tool of every operation, and each write could only fail
    403 `readonly` (as `mnemon --readonly mcp serve` lists only the reading tools)."""
    from ... import __version__
    from .server import STATUS_OF_CODE  # (the server's table; it imports this module)

    error = {"$ref": "#/components/schemas/Error"}
    codes: dict[int, list[str]] = {}
    for code, status in sorted(STATUS_OF_CODE.items(), key=lambda kv: kv[1]):
        codes.setdefault(status, []).append(code)  # two codes share 500 and 503: each is named
    failures = {str(status): {"description": " or ".join(names), "content": {"application/json": {"schema": error}}}
                for status, names in codes.items()}
    paths: dict[str, Any] = {}
    for op in (op for op in OPERATIONS if writes or op.read_only):
        answer = {"200": {"description": "the JSON the CLI prints for the same call",
                          "content": {"application/json": {"schema": {"type": "object"}}}}, **failures}
        item: dict[str, Any] = {"post": {
            "operationId": op.name, "summary": op.description,
            "requestBody": {"required": bool(op.required), "content": {"application/json": {"schema": op.schema()}}},
            "responses": answer}}
        if op.read_only:
            item["get"] = {"operationId": f"{op.name}_get", "summary": op.description, "responses": answer,
                           "parameters": [{"name": name, "in": "query", "required": name in op.required,
                                           "schema": spec, **({"style": "form", "explode": False}
                                                              if spec.get("type") == "array" else {})}
                                          for name, spec in op.parameters.items()]}
        else:
            item["post"]["description"] = "Writes: offered only by a server that allows writes."
        paths[f"/api/{op.name}"] = item
    doc: dict[str, Any] = {
        "openapi": "3.1.0",
        "info": {"title": "mnemon", "version": __version__,
                 "description": "Local-first graph memory for agents: the operations of `mnemon serve`."},
        "servers": [{"url": quote(mount.rstrip("/")) or "/"}],  # a URL, as the redirect and the ready line give it
        "paths": paths,
        "components": {"schemas": {"Error": {
            "type": "object", "required": ["ok", "error"],
            "properties": {"ok": {"const": False}, "error": {
                "type": "object", "required": ["code", "message"],
                "properties": {"code": {"type": "string"}, "message": {"type": "string"},
                               "details": {"type": "object"}}}}}}},
    }
    if secured:
        doc["components"]["securitySchemes"] = {"token": {"type": "http", "scheme": "bearer"}}
        doc["security"] = [{"token": []}]
    return doc
