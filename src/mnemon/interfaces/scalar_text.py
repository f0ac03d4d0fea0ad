"""A number or a boolean given as its JSON text ("5", "0.5", "true"), read as that value by `check_args`.

Many MCP clients pass a model's numbers and booleans on as strings whatever the schema says, and a refusal only made
the model send the same again, where the CLI reads them from text. The schemas still state the value alone: a type
array `[kind, "string"]` is refused by some hosts' function declarations, and its patterns cost every session's
tools/list a third more. So this is a leniency beyond the schema (docs/agents.md says so): a schema-valid call is
accepted as before, and a text is read as the value it writes, which is then checked as that value would be (its
range, the operation's rules).

The texts are JSON's own spellings, ASCII only: an optional minus, digits without a leading zero, an optional
fraction (no exponent, no plus, no space); true or false in lower case. Anything else stays a text, refused.
"""
from __future__ import annotations

import json
import re
from typing import Any

_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?")
_BOOLEANS = {"true": True, "false": False}


def read(kinds: Any, value: Any) -> Any:
    """`value` as the number or boolean it writes when it is a text and `kinds` (a schema's `type`: a name or a list)
    take no text but a number or a boolean; else `value` as given."""
    if not isinstance(value, str):
        return value
    kinds = set(kinds) if isinstance(kinds, list) else {kinds}
    if "string" in kinds:
        return value
    if "boolean" in kinds and value in _BOOLEANS:
        return _BOOLEANS[value]
    if kinds & {"integer", "number"} and _NUMBER.fullmatch(value):
        try:
            return json.loads(value)
        except ValueError:  # more digits than Python reads as an int: refused as the text it is
            return value
    return value


def named(value: Any, json_type: str) -> str:
    """A wrong value as a refusal names it: a text with its words (the one leniency has limits), else its type."""
    return f"the string {value[:40]!r}" if isinstance(value, str) else json_type
