"""One argument's value checked against its JSON schema, as `check_args` reads each argument of an operation:
every keyword the operations' schemas use is enforced here, in words a caller can act on, so a client that checks
the schema first is never refused. The blank and NUL patterns the schemas share live here with what they mean."""
from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

from ..core.errors import InvalidInput
from ..core.world.values import refuse_unknown_keys
from . import scalar_text, schema_keywords
from .schema_keywords import ANY_OF_MEANING as _ANY_OF_MEANING, ecma as _ecma, rule_key as _key
from .schema_keywords import search as _search

MAX_INTEGER = 2**63 - 1


def char_class(chars: str) -> str:
    """`chars` as a regex class body of `\\uXXXX` escapes, which ECMA-262 (a JavaScript client) and Python's `re`
    (jsonschema, `check_args`) read alike; a bare `\\s` means different characters in the two."""
    codes = sorted(map(ord, chars))
    runs: list[list[int]] = []
    for code in codes:
        if runs and code == runs[-1][1] + 1:
            runs[-1][1] = code
        else:
            runs.append([code, code])
    return "".join(f"\\u{a:04x}" if a == b else f"\\u{a:04x}-\\u{b:04x}" for a, b in runs)


# blank is what `str.strip` removes (the facade's test) plus U+FEFF, which JavaScript's `\s` counts as space: a
# text blank by either reading is refused, so no client's own check disagrees with the server's. (Every character
# `str.isspace` accepts is below U+3001; a test checks the whole range.)
PY_SPACE = "".join(chr(c) for c in range(0x3001) if chr(c).isspace())
_BLANK = char_class(PY_SPACE + "\ufeff")
NOT_BLANK = r"\S"  # the readable hint; `BLANK_ONLY` under `not` is the exact rule
BLANK_ONLY = f"^[{_BLANK}]*$"
NUL = "\\u0000"  # what no text of a memory holds (content, tags, entities, source): PostgreSQL text cannot
BLANK_OR_NUL = f"{BLANK_ONLY}|{NUL}"
NOT_MEANING = {BLANK_ONLY: "must not be blank", BLANK_OR_NUL: "must not be blank or contain a NUL character",
                NUL: "must not contain a NUL character"}

# a refusal by pattern in words, where the regex itself would be all a caller is told (the operations' table adds
# the meanings of its own patterns)
PATTERN_MEANING: dict[str, str] = {}
# a pattern that stands for a choice among names (an intent in any case): its refusal says what it was given and, in
# `choice_details`, the names, as an `enum`'s does
PATTERN_CHOICES: dict[str, list[str]] = {}
JSON_TYPES: Mapping[str, tuple[type, ...]] = {"string": (str,), "integer": (int,), "number": (int, float),
                                               "boolean": (bool,), "array": (list,), "object": (dict,),
                                               "null": (type(None),)}



def _a(kind: str) -> str:
    return kind if kind == "null" else f"{'an' if kind[:1] in 'aeiou' else 'a'} {kind}"


def _json_type(value: Any) -> str:
    """`value`'s type as a JSON client names it ("object", "null"), not as Python does ("dict", "NoneType")."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    return {float: "number", str: "string", dict: "object", list: "array"}.get(type(value), type(value).__name__)


def checked(what: str, spec: Mapping[str, Any], value: Any) -> Any:
    expected = spec.get("type")
    value = scalar_text.read(expected, value)  # a number or a boolean as its JSON text ("5"): the value it writes
    if isinstance(expected, list):  # one of several types: checked as the one the value has
        if value is None and "null" in expected:
            return value
        fits = [kind for kind in expected if kind != "null" and _json_type(value) in (kind, "integer" * (
            kind == "number"))]
        if not fits:
            raise InvalidInput(f"{what} must be {' or '.join(_a(kind) for kind in expected)}; got "
                               f"{scalar_text.named(value, _json_type(value))}")
        spec = {**spec, "type": fits[0]}
        expected = fits[0]
    if expected == "integer" and isinstance(value, float) and value.is_integer():
        value = int(value)  # JSON Schema counts 5.0 as an integer; the facade wants an int
    kinds = JSON_TYPES.get(expected or "", ())
    # JSON has no separate bool: true is not an integer here, even though Python says so
    if kinds and (not isinstance(value, kinds) or (isinstance(value, bool) and expected != "boolean")):
        raise InvalidInput(f"{what} must be {_a(str(expected))}; got {scalar_text.named(value, _json_type(value))}")
    if expected == "number" and not math.isfinite(value):  # Python's JSON reads NaN and Infinity
        raise InvalidInput(f"{what} must be a finite number")
    if expected in ("integer", "number"):
        unbounded = MAX_INTEGER if expected == "integer" else math.inf
        low, high = spec.get("minimum", -unbounded), spec.get("maximum", unbounded)
        if not low <= value <= high:
            raise InvalidInput(f"{what} must be from {low} to {high}; got {value}")
    if "enum" in spec and value not in spec["enum"]:
        raise InvalidInput(f"{what} must be one of {', '.join(map(str, spec['enum']))}; got {value!r}")
    if isinstance(value, str):
        if len(value) > spec.get("maxLength", len(value)):
            raise InvalidInput(f"{what} is {len(value)} characters; the limit is {spec['maxLength']}")
        if "pattern" in spec.get("not", {}) and _ecma(spec["not"]["pattern"]).search(value):
            raise InvalidInput(f"{what} {NOT_MEANING.get(spec['not']['pattern'], 'is not allowed')}")
        if "pattern" in spec and not _ecma(spec["pattern"]).search(value):
            got = f"; got {value!r}" if spec["pattern"] in PATTERN_CHOICES else ""
            raise InvalidInput(f"{what} {PATTERN_MEANING.get(spec['pattern'], 'must match ' + spec['pattern'])}{got}")
    if isinstance(value, dict):
        if len(value) > spec.get("maxProperties", len(value)):
            raise InvalidInput(f"{what} has {len(value)} keys; the limit is {spec['maxProperties']}")
        if spec.get("additionalProperties") is False:  # in the library's words, with the closest known field
            refuse_unknown_keys(value, schema_keywords.known_keys(spec, value, _search), what)
        # a field the library refuses to go without, stated so a client that checks the schema is told first (a
        # sense event's description said observed_at defaulted to now; the library refused the event without it)
        missing = [key for key in spec.get("required", ()) if key not in value]
        if missing:
            raise InvalidInput(f"{what} is missing {missing[0]!r}")
        # a rule between fields (a field that has other names, a side effect's handle): the rule in words, else the
        # first spelling of the field is the one named
        alternatives = spec.get("anyOf", ())
        if alternatives and not any(_fits(what, alt, value) for alt in alternatives):
            rule = _ANY_OF_MEANING.get(_key(alternatives))
            raise InvalidInput(f"{what} {rule or 'is missing ' + repr(alternatives[0]['required'][0])}")
        for rules in spec.get("allOf", ()):  # several rules between the fields (an action's), each an anyOf
            checked(what, rules, value)
        # what an object inside an argument states of its own, each field as read (a number given as its text)
        value = {**value, **{key: checked(f"{what}, field {key!r}", inner, value[key])
                             for key, inner in schema_keywords.fields(spec, value, _search)}}
    if isinstance(value, str) and spec.get("contentMediaType") == "application/json":
        try:  # metadata or a match as its JSON text: what the text holds is checked as the object would be
            held = json.loads(value)
        except ValueError:
            raise InvalidInput(f"{what} is a text that is not JSON (give an object, or its JSON text)") from None
        # the object the text holds, as the argument states an object (contentSchema adds to it)
        held_spec = {**{key: spec[key] for key in _OBJECT_KEYWORDS if key in spec}, **spec["contentSchema"]}
        read = checked(f"{what} (its JSON text)", held_spec, held)
        if read != held:  # a number or a boolean inside it as its text: the object as read, else the text as given
            value = read
    if "const" in spec and (value != spec["const"] or type(value) is not type(spec["const"])):
        raise InvalidInput(f"{what} must be {json.dumps(spec['const'])}")
    if spec.get("not", {}).get("type") == "null" and value is None:
        raise InvalidInput(f"{what} must not be null")
    if "const" in spec.get("not", {}) and value == spec["not"]["const"]:
        raise InvalidInput(f"{what} must not be {spec['not']['const']}")
    if isinstance(value, list):
        if len(value) > spec.get("maxItems", len(value)):
            raise InvalidInput(f"{what} has {len(value)} items; the limit is {spec['maxItems']}")
        if len(value) < spec.get("minItems", 0):
            raise InvalidInput(f"{what} must hold at least {spec['minItems']} item(s)")
        value = [checked(f"{what}, item {i}", spec.get("items", {}), item) for i, item in enumerate(value)]
    return value



def choice_details(name: str, spec: Mapping[str, Any], value: Any) -> dict[str, Any]:
    """What a refusal of argument `name` adds when it is a choice among names: the value sent (under the argument's
    name, as the library's refusals put it) and `valid`, the names; nothing for another argument."""
    choices = spec.get("enum") or PATTERN_CHOICES.get(spec.get("pattern", ""))
    return {name: value, "valid": list(choices)} if choices else {}


_OBJECT_KEYWORDS = ("required", "properties", "patternProperties", "additionalProperties", "anyOf", "allOf",
                    "maxProperties")


def _fits(what: str, alternative: Mapping[str, Any], value: Any) -> bool:
    try:
        checked(what, alternative, value)
    except InvalidInput:
        return False
    return True
