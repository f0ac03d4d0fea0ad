"""A number or a boolean a tool takes, also taken as its JSON text ("5", "0.5", "true").

Many MCP clients pass a model's numbers and booleans on as strings, whatever the schema says, and a refusal only made
the model send the same again. The schema states the text form (`"type": [kind, "string"]` with a pattern of the
texts taken, its range spelt out, since `minimum` and `maximum` say nothing of a string), so a client that checks the
schema and the server agree: a standard validator takes exactly the texts `read` turns into the value.

The texts are JSON's own spellings, nothing looser: an integer's digits with no sign but a minus, no leading zero, no
space; a number's digits with an optional fraction (no exponent); true or false in lower case.
"""
from __future__ import annotations

import json
from typing import Any

from ..core.errors import InvalidInput

# a text longer than this is refused as text (a number so large is given as one): the pattern stays short
_MAX_TEXT_DIGITS = 15
_BIGGEST = 10**_MAX_TEXT_DIGITS - 1
BOOLEAN_TEXT = "^(true|false)$"
# pattern → the rule in words, for `operations._PATTERN_MEANING`
MEANING: dict[str, str] = {BOOLEAN_TEXT: "must be true or false"}


def _same_length(low: str, high: str) -> list[str]:
    """Regex alternatives for the digit strings of one length from `low` to `high`."""
    if low == high:
        return [low]
    if len(low) == 1:
        return [f"[{low}-{high}]"]
    if low[0] == high[0]:
        return [low[0] + rest for rest in _same_length(low[1:], high[1:])]
    width, parts, tail = len(low) - 1, [], []
    start, end = int(low[0]), int(high[0])
    if low[1:] != "0" * width:
        parts = [low[0] + rest for rest in _same_length(low[1:], "9" * width)]
        start += 1
    if high[1:] != "9" * width:
        tail = [high[0] + rest for rest in _same_length("0" * width, high[1:])]
        end -= 1
    if start <= end:
        digit = str(start) if start == end else f"[{start}-{end}]"
        parts.append(digit + ("[0-9]" if width == 1 else f"[0-9]{{{width}}}"))
    return parts + tail


def _natural(low: int, high: int) -> list[str]:
    """Regex alternatives for the integers from `low` to `high` (0 ≤ low), written without leading zeros."""
    out: list[str] = []
    full: list[int] = []  # a run of lengths taken whole (10…0 to 99…9): one alternative, [1-9][0-9]{a,b}
    for length in range(len(str(low)), len(str(high)) + 1):
        first = max(low, 10 ** (length - 1) if length > 1 else 0)
        last = min(high, 10**length - 1)
        if length > 1 and (first, last) == (10 ** (length - 1), 10**length - 1):
            full.append(length - 1)
        elif first <= last:
            out += _same_length(str(first), str(last))
    if full:
        out.append("[1-9][0-9]" + (f"{{{full[0]}}}" if len(full) == 1 else f"{{{full[0]},{full[-1]}}}"))
    return out


def integer_text(low: int, high: int, *, not_zero: bool = False) -> str:
    """The pattern of an integer's texts from `low` to `high` (at most 15 digits either way)."""
    low, high = max(low, -_BIGGEST), min(high, _BIGGEST)
    alternatives = []
    if low < 0:
        alternatives += ["-" + alt for alt in _natural(max(1, -high), -low)]
    if high >= 0:
        alternatives += _natural(max(low, 1 if not_zero else 0), high)
    pattern = f"^({'|'.join(alternatives)})$"
    MEANING[pattern] = f"must be an integer from {low} to {high}" + (", not 0" if not_zero else "")
    return pattern


def number_text(low: int, high: int) -> str:
    """The pattern of a number's texts from `low` to `high` (whole bounds, 0 ≤ low < high): digits, and a fraction."""
    if not 0 <= low < high:
        raise ValueError(f"no number text pattern for {low}..{high}")
    below = "|".join(_natural(low, high - 1))
    pattern = f"^(({below})(\\.[0-9]+)?|{high}(\\.0+)?)$"
    MEANING[pattern] = f"must be a number from {low} to {high}"
    return pattern


def texted(spec: dict[str, Any], pattern: str) -> dict[str, Any]:
    """`spec` (an integer, number or boolean, maybe null) also taking its JSON text by `pattern`."""
    kinds = spec["type"] if isinstance(spec["type"], list) else [spec["type"]]
    return {**spec, "type": [kinds[0], "string", *kinds[1:]], "pattern": pattern}


TEXTED_KINDS = ("integer", "number", "boolean")


def text_kind(spec: Any) -> str | None:
    """The kind a spec built by `texted` takes as text, else None."""
    kinds = spec.get("type") if isinstance(spec, dict) else None
    if isinstance(kinds, list) and len(kinds) > 1 and kinds[0] in TEXTED_KINDS and kinds[1] == "string":
        return str(kinds[0])
    return None


def read(what: str, spec: dict[str, Any], value: str, search: Any) -> Any:
    """`value`, a text, as the number or boolean it writes; `search(pattern, text)` reads a pattern as the schema's
    dialect does. A text off the pattern is refused in the rule's words."""
    if not search(spec["pattern"], value):
        raise InvalidInput(f"{what} {MEANING.get(spec['pattern'], 'must match ' + spec['pattern'])}, or its JSON "
                           f"text; got the string {value[:40]!r}")
    return json.loads(value)


def given_as(kind: str | None, value: Any) -> dict[str, Any]:
    """What a rule's `const` becomes for an argument that takes its text too: the value or its JSON text."""
    return {"enum": [value, json.dumps(value)]} if kind is not None else {"const": value}
