"""The one serialiser: JSON-ready dicts out, the error envelope for failures. CLI, MCP and HTTP all use it."""
from __future__ import annotations

import json
from typing import Any

from ..core.errors import MnemonError


def dumps(payload: Any, *, pretty: bool = False) -> str:
    return json.dumps(payload, ensure_ascii=False, indent=2 if pretty else None, default=str,
                      separators=None if pretty else (",", ":"))


def error_envelope(code: str, message: str, details: dict[str, Any] | None = None) -> dict[str, Any]:
    err: dict[str, Any] = {"code": code, "message": message}
    if details:
        err["details"] = details
    return {"ok": False, "error": err}


def from_exception(exc: BaseException) -> tuple[dict[str, Any], int]:
    if isinstance(exc, MnemonError):
        return error_envelope(exc.code, exc.message, exc.details or None), exc.exit_code
    return error_envelope("internal", f"{type(exc).__name__}: {exc}"), 1
