"""What the operation table's schemas say beyond `check_args`'s own keywords: a field stated as another one (Mneme's
`match`, the same object as `match_json`) and the names a `patternProperties` group stands for.

tools/list is paid in tokens by every agent session: a field that is another's second name is said in a line there,
while `check_args` reads it by the other's rules in full (`Alias`); a JSON Schema `$ref` would say it exactly, but
hosts drop or mangle it (Codex showed such a field as a plain string).
"""
from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any


class Alias(dict[str, Any]):
    """A field's schema as `check_args` reads it (the dict: every rule) and as tools/list states it (`said`)."""

    def __init__(self, full: Mapping[str, Any], said: Mapping[str, Any]) -> None:
        super().__init__(full)
        self.said = dict(said)


def stated(spec: Any) -> Any:
    """`spec` as a client is given it: each `Alias` as what it says."""
    if isinstance(spec, Alias):
        return spec.said
    if isinstance(spec, dict):
        return {key: stated(value) for key, value in spec.items()}
    if isinstance(spec, list):
        return [stated(value) for value in spec]
    return spec


# a key the world store indexes is at most 2,000 UTF-8 bytes (core.world.values.KEY_MAX_BYTES, a PostgreSQL index
# entry); JSON Schema counts characters, and 500 of any script fit (4 bytes at most each), so a schema-valid key is
# never refused by the store (a test pins the two)
KEY_CHARS = 500
KEY_RULE = "at most 2,000 UTF-8 bytes (500 characters)"


# a patternProperties pattern -> the names it stands for (a misspelt key is refused naming the closest of them)
GROUP_NAMES: dict[str, tuple[str, ...]] = {}


def group(names: tuple[str, ...], spec: dict[str, Any], pattern: str) -> dict[str, dict[str, Any]]:
    """A patternProperties group: `spec` for each of `names` (the texts `pattern` matches), said once."""
    if not all(re.fullmatch(pattern, name) for name in names):
        raise ValueError(f"{pattern} does not match each of {names}")
    GROUP_NAMES[pattern] = names
    return {pattern: spec}


def fields(spec: Mapping[str, Any], value: Mapping[str, Any],
           search: Callable[[str, str], bool]) -> Iterator[tuple[str, Any]]:
    """Each key of `value` with each schema that states it: its property, and every pattern group it matches."""
    for key in value:
        if key in spec.get("properties", {}):
            yield key, spec["properties"][key]
        for pattern, inner in spec.get("patternProperties", {}).items():
            if search(pattern, key):
                yield key, inner


def known_keys(spec: Mapping[str, Any], value: Mapping[str, Any],
               search: Callable[[str, str], bool]) -> tuple[str, ...]:
    """The keys an object closed by `additionalProperties: false` takes: its properties and its groups' names (and
    any key of `value` a group's pattern matches)."""
    groups = spec.get("patternProperties", {})
    return (*spec.get("properties", {}), *(name for pattern in groups for name in GROUP_NAMES.get(pattern, ())),
            *(key for key in value if any(search(pattern, key) for pattern in groups)))


@functools.lru_cache(maxsize=None)
def ecma(pattern: str) -> re.Pattern[str]:
    """`pattern` as ECMA-262 (JSON Schema's dialect) reads it: its `$` is the end of the text, where Python's also
    matches before a final newline ("2026-05-01\\n" passed as_of's pattern here and failed a JavaScript client's).
    (No pattern of the table holds a literal `$`.)"""
    return re.compile(re.sub(r"(?<!\\)\$", r"\\Z", pattern))


def search(pattern: str, text: str) -> bool:
    return ecma(pattern).search(text) is not None


def rule_key(alternatives: Any) -> str:
    return json.dumps(alternatives, sort_keys=True)


# an anyOf's rule in words (by the anyOf's JSON), where "is missing" and the first field would say too little
ANY_OF_MEANING: dict[str, str] = {}


def any_of(meaning: str, *alternatives: dict[str, Any]) -> list[dict[str, Any]]:
    ANY_OF_MEANING[rule_key(list(alternatives))] = meaning
    return list(alternatives)
