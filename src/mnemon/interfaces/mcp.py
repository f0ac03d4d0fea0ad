"""`mnemon mcp serve`: the facade as Model Context Protocol tools over stdio (JSON-RPC 2.0, one message per line).

Thin like the CLI: the tools are the shared operation table (`operations.py`, the HTTP API's routes too); each call's
arguments are checked against its schema, then one facade method runs and its payload is what the CLI prints (as
text content and as structured content). Errors come back as tool results with `isError` and the usual
envelope, so an agent sees the same codes everywhere. No SDK: the protocol surface used here is small and stable.
"""
from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import IO, Any

from .operations import BY_NAME, OPERATIONS, Operation, check_args
from .payloads import dumps, from_exception

PROTOCOL_VERSION = "2025-06-18"


def tool_spec(op: Operation) -> dict[str, Any]:
    return {"name": op.name, "description": op.description, "inputSchema": op.schema(),
            "annotations": {"readOnlyHint": op.read_only, "destructiveHint": op.destructive,
                            "idempotentHint": op.read_only}}


def handle(mem_factory: Callable[[], Any], message: dict[str, Any]) -> dict[str, Any] | None:
    """One JSON-RPC message in, its response out (None for notifications)."""
    method = message.get("method")
    msg_id = message.get("id")
    if msg_id is None:
        return None  # notifications (initialized, cancelled) need no answer
    if method == "initialize":
        result: Any = {"protocolVersion": PROTOCOL_VERSION, "capabilities": {"tools": {"listChanged": False}},
                       "serverInfo": {"name": "mnemon", "version": "0.1.0"}}
    elif method == "ping":
        result = {}
    elif method == "tools/list":
        result = {"tools": [tool_spec(op) for op in OPERATIONS]}
    elif method == "tools/call":
        params = message.get("params") or {}
        tool = BY_NAME.get(params.get("name", ""))
        if tool is None:
            return {"jsonrpc": "2.0", "id": msg_id,
                    "error": {"code": -32602, "message": f"unknown tool {params.get('name')!r}"}}
        try:
            payload = tool.call(mem_factory(), check_args(tool, params.get("arguments") or {}))
            is_error = False
        except Exception as exc:  # the envelope, never a traceback
            payload, _ = from_exception(exc)
            is_error = True
        structured = payload if isinstance(payload, dict) else {"result": payload}
        result = {"content": [{"type": "text", "text": dumps(payload)}], "structuredContent": structured,
                  "isError": is_error}
    else:
        return {"jsonrpc": "2.0", "id": msg_id, "error": {"code": -32601, "message": f"method {method!r} not found"}}
    return {"jsonrpc": "2.0", "id": msg_id, "result": result}


def serve(mem_factory: Callable[[], Any], stdin: IO[str] = sys.stdin, stdout: IO[str] = sys.stdout) -> None:
    for line in stdin:
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except json.JSONDecodeError as exc:
            stdout.write(json.dumps({"jsonrpc": "2.0", "id": None,
                                     "error": {"code": -32700, "message": f"parse error: {exc.msg}"}}) + "\n")
            stdout.flush()
            continue
        response = handle(mem_factory, message) if isinstance(message, dict) else None
        if response is not None:
            stdout.write(json.dumps(response, ensure_ascii=False, default=str) + "\n")
            stdout.flush()
