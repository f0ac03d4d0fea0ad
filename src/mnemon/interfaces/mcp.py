"""`mnemon mcp serve`: the facade as Model Context Protocol tools over stdio (JSON-RPC 2.0, one message per line).

Thin like the CLI: each tool validates nothing itself, calls one facade method and returns the same JSON payload the
CLI prints (as text content and as structured content). Errors come back as tool results with `isError` and the usual
envelope, so an agent sees the same codes everywhere. No SDK: the protocol surface used here is small and stable.
"""
from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, Any

from .payloads import dumps, from_exception

PROTOCOL_VERSION = "2025-06-18"


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    properties: dict[str, Any]
    required: tuple[str, ...]
    read_only: bool
    call: Callable[[Any, dict[str, Any]], Any]
    destructive: bool = False

    def spec(self) -> dict[str, Any]:
        return {
            "name": self.name, "description": self.description,
            "inputSchema": {"type": "object", "properties": self.properties, "required": list(self.required),
                            "additionalProperties": False},
            "annotations": {"readOnlyHint": self.read_only, "destructiveHint": self.destructive,
                            "idempotentHint": self.read_only},
        }


def _s(desc: str) -> dict[str, Any]:
    return {"type": "string", "description": desc}


def _i(desc: str) -> dict[str, Any]:
    return {"type": "integer", "description": desc}


TOOLS: tuple[Tool, ...] = (
    Tool("remember", "Store one memory (exact repeats are skipped; the diff is advice). Returns the seed's remember JSON.",
         {"content": _s("the memory"), "category": _s("preference|decision|fact|insight|context|general"),
          "importance": _i("1-5"), "tags": {"type": "array", "items": {"type": "string"}},
          "entities": {"type": "array", "items": {"type": "string"}}, "source": _s("who wrote it (default agent)")},
         ("content",), False,
         lambda m, a: m.remember(a["content"], category=a.get("category", "general"), importance=a.get("importance", 3),
                                 tags=a.get("tags"), entities=a.get("entities"), source=a.get("source", "agent"))),
    Tool("recall", "Smart recall: intent-aware graph retrieval with signals per result.",
         {"query": _s("what to recall"), "limit": _i("1-100, default 10"), "intent": _s("WHY|WHEN|ENTITY|GENERAL"),
          "brief": {"type": "boolean"}},
         ("query",), True,
         lambda m, a: m.recall(a["query"], limit=a.get("limit", 10), intent=a.get("intent"),
                               brief=bool(a.get("brief", False)))),
    Tool("search", "Keyword-only search (FTS5 BM25).", {"query": _s("keywords"), "limit": _i("default 10")},
         ("query",), True, lambda m, a: m.search(a["query"], limit=a.get("limit", 10))),
    Tool("show", "One memory in full, with its edges.", {"id": _s("memory id")}, ("id",), True,
         lambda m, a: m.show(a["id"])),
    Tool("related", "Breadth-first neighbourhood of a memory.",
         {"id": _s("memory id"), "depth": _i("1-10, default 2"), "edge_type": _s("only this edge type")},
         ("id",), True, lambda m, a: m.related(a["id"], depth=a.get("depth", 2), edge_type=a.get("edge_type"))),
    Tool("link", "Create or replace an edge (supersedes demotes the target in recall).",
         {"source_id": _s("from"), "target_id": _s("to"), "edge_type": _s("temporal|entity|causal|semantic|supersedes"),
          "weight": {"type": "number"}, "sub_type": _s("causes|enables|prevents for causal")},
         ("source_id", "target_id"), False,
         lambda m, a: m.link(a["source_id"], a["target_id"], a.get("edge_type", "semantic"),
                             sub_type=a.get("sub_type", ""), weight=a.get("weight", 0.5))),
    Tool("forget", "Soft-delete a memory (kept in the database, edges retired, logged).", {"id": _s("memory id")},
         ("id",), False, lambda m, a: m.forget(a["id"]), destructive=True),
    Tool("status", "Counts, top entities, size and embedding coverage.", {}, (), True, lambda m, a: m.status()),
    Tool("retrieve", "A context pack for a prompt: items with truth policies within a character budget; a vault "
         "path in the prompt (Projects/, lighthouse.md) keeps it to those notes.",
         {"prompt": _s("the prompt"), "budget": _i("characters, default 2500"), "max_items": _i("default 8")},
         ("prompt",), True,
         lambda m, a: m.retrieve(a["prompt"], budget=a.get("budget", 2500), max_items=a.get("max_items", 8))),
)
_BY_NAME = {t.name: t for t in TOOLS}


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
        result = {"tools": [t.spec() for t in TOOLS]}
    elif method == "tools/call":
        params = message.get("params") or {}
        tool = _BY_NAME.get(params.get("name", ""))
        if tool is None:
            return {"jsonrpc": "2.0", "id": msg_id,
                    "error": {"code": -32602, "message": f"unknown tool {params.get('name')!r}"}}
        args = params.get("arguments") or {}
        try:
            payload = tool.call(mem_factory(), args)
            is_error = False
        except KeyError as exc:
            payload, is_error = {"ok": False, "error": {"code": "invalid_input",
                                                        "message": f"missing argument {exc.args[0]!r}"}}, True
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
