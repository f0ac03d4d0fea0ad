"""An import's per-row report kept bounded: rows without their text, the first refused rows in full, the others
counted by message (`full`, the CLI's `--full-report`: every row as it was made, text included).

A draft of 50,000 rows each refused for the same reason answered a 6.3 MB reply repeating one message 50,000 times,
and a successful one 10 MB, each row echoing the text the caller sent. Every row that lands keeps its entry (the
caller maps its draft by them: index, id, action); the refused rows past the first `LISTED_ERRORS` are left out of
`results` and counted in `error_groups` instead.
"""
from __future__ import annotations

import re
from typing import Any

LISTED_ERRORS = 20  # refused rows listed in full, the first by row number (agents read `results[0]`)
GROUPS = 20  # distinct messages counted, the most frequent first
GROUP_INDEXES = 5  # the first row numbers given for each message

# "export insight 12: content must be…": the row's own number, left out of the message its group counts
_ROW_PREFIX = re.compile(r"^export (?:insight|edge|vault edge) (\d+): ")


def _group_key(row: dict[str, Any]) -> tuple[str, str]:
    error = row.get("error") or {}
    message = str(error.get("message", ""))
    found = _ROW_PREFIX.match(message)
    if found and int(found.group(1)) == row.get("index"):
        message = message[found.end():]
    return str(error.get("code", "")), message


def bounded(rows: list[dict[str, Any]], prefix: str = "", *, full: bool = False) -> dict[str, Any]:
    """`{prefix}results`: `rows` (sorted by row number) without their `content`, at most `LISTED_ERRORS` of them
    refused, and when some were left out `{prefix}errors_omitted` and `{prefix}error_groups` ({code, message, count,
    first_indexes}); `full`: `rows` as they are."""
    if full:
        return {f"{prefix}results": rows}
    rows = [{k: v for k, v in r.items() if k != "content"} if "content" in r else r for r in rows]
    refused = [r for r in rows if r.get("action") == "error"]
    if len(refused) <= LISTED_ERRORS:
        return {f"{prefix}results": rows}
    listed = {id(r) for r in refused[:LISTED_ERRORS]}
    groups: dict[tuple[str, str], dict[str, Any]] = {}
    for row in refused:
        key = _group_key(row)
        group = groups.get(key)
        if group is None:
            group = groups[key] = {"code": key[0], "message": key[1], "count": 0, "first_indexes": []}
        group["count"] += 1
        if len(group["first_indexes"]) < GROUP_INDEXES:
            group["first_indexes"].append(row.get("index"))
    ranked = sorted(groups.values(), key=lambda g: (-g["count"], g["first_indexes"][:1]))
    out: dict[str, Any] = {f"{prefix}results": [r for r in rows if r.get("action") != "error" or id(r) in listed],
                           f"{prefix}errors_omitted": len(refused) - LISTED_ERRORS,
                           f"{prefix}error_groups": ranked[:GROUPS]}
    if len(ranked) > GROUPS:
        out[f"{prefix}error_groups_omitted"] = len(ranked) - GROUPS
    return out



def refused_said(reply: dict[str, Any], said: str = "details.results says why for each") -> str:
    """Where a refused import's details say why its rows were refused, naming the groups when rows were left out."""
    if any(key.endswith("errors_omitted") for key in reply):
        return f"{said}, the first {LISTED_ERRORS}; details.error_groups counts them all by message"
    return said
