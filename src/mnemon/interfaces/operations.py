"""The facade calls the MCP server and the HTTP API offer, in one table: each a name, a JSON schema for its
arguments, whether it writes, and the one facade method it calls.

One table so the two interfaces cannot drift: a tool an agent calls over MCP and the route a script calls over HTTP
take the same arguments, are checked the same way (`check_args`) and return the payload the CLI prints.
"""
from __future__ import annotations

import difflib
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ..core.errors import InvalidInput
from ..core.intent import VALID_INTENTS
from ..core.model import CATEGORIES, ISO_INSTANT, LOG_OPS, MNEMON_EDGE_TYPES
from ..core.validation import (ENTITY_MODES, MAX_CONTENT_CHARS, MAX_ENTITIES, MAX_ENTITY_CHARS, MAX_SOURCE_CHARS,
                               MAX_TAG_CHARS, MAX_TAGS, surrogate_path)
from . import schema_keywords
from .argument_values import (BLANK_ONLY, BLANK_OR_NUL, MAX_INTEGER, NOT_BLANK, NUL, PY_SPACE as _PY_SPACE,
                              char_class as _char_class, checked as _checked)
from .argument_values import NOT_MEANING as _NOT_MEANING, PATTERN_CHOICES as _PATTERN_CHOICES
from .argument_values import PATTERN_MEANING as _PATTERN_MEANING, choice_details as _choice_details
from .schema_keywords import any_of as _any_of

# app.context's, app.recall's and app.curation's (a test pins them equal): importing them here would load recall and
# numpy for `mcp serve`
MAX_BUDGET = 200_000
MAX_QUERY_CHARS = 2000
MAX_PROMPT_CHARS = 2000
CAUSAL_SUB_TYPES = ("causes", "enables", "prevents")
RELATED_DIRECTIONS = ("both", "out", "in")  # app.curation's (tests/app/test_related_both_directions.py)
# app.world.state's and core.world.assertions' (a test pins them equal): importing them costs `mcp serve` ~0.1 s
STATE_VALIDITIES = ("current", "lapsed", "future", "superseded", "retracted", "unbacked")
STATE_ORDERS = ("subject", "updated_at_desc", "created_at_desc")
STATE_TYPES = ("belief", "open_loop")
MAX_PAYLOAD_ITEMS = 5000  # app.vault.payload's MAX_ITEMS (a test pins them equal)
MAX_META_KEYS = 20  # app.curation's (a test pins them equal)
MAX_FORGET_DAYS = 36_500  # app.vault.lifecycle's (a test pins them equal)


# a scope as app/vault/payload.py's `check_scope` takes it: after "mneme://" a name with no space (as Python's
# `isspace` reads it: the facade's test) and no NUL, not only slashes; trailing slashes and spaces are dropped. The
# bare "^mneme://" let "mneme://" and "mneme://a b" past a client's check into the facade's refusal.
MNEME_SCOPE = (f"^mneme://[^{_char_class(_PY_SPACE)}\\u0000]*[^{_char_class(_PY_SPACE)}\\u0000/]/*"
               f"[{_char_class(_PY_SPACE)}]*$")
# an intent as `core.intent.parse_intent` takes it (the CLI's --intent): in any case — no other character casefolds
# to a letter of these names — with the spaces `str.strip` drops around it. An `enum` of the upper-case names refused
# "why" over MCP and HTTP while the CLI took it; they stay the canonical spellings (`examples`, the description)
INTENT = (f"^[{_char_class(_PY_SPACE)}]*("
          + "|".join("".join(f"[{c}{c.lower()}]" for c in name) for name in VALID_INTENTS)
          + f")[{_char_class(_PY_SPACE)}]*$")
# an RFC 3339 / ISO-8601 date or time as `core.model.parse_iso` and the world's `parse_instant` read it, with the
# spaces `str.strip` drops around it (empty: not given); anchored, so a standard validator and `check_args` refuse
# the same texts
ISO_TIME = f"^(|[{_char_class(_PY_SPACE)}]*({ISO_INSTANT})[{_char_class(_PY_SPACE)}]*)$"
_PATTERN_MEANING.update({
    ISO_TIME: "must be an RFC 3339 / ISO-8601 date or time, e.g. 2026-05-01 or 2026-05-01T09:30:00Z",
    MNEME_SCOPE: "must be a mneme:// scope without spaces, e.g. mneme://agent/session-1",
    INTENT: f"must be one of {', '.join(VALID_INTENTS)} (in any case)"})
_PATTERN_CHOICES[INTENT] = list(VALID_INTENTS)


@dataclass(frozen=True)
class Operation:
    name: str
    description: str
    properties: dict[str, Any]
    required: tuple[str, ...]
    read_only: bool
    call: Callable[[Any, dict[str, Any]], Any]
    destructive: bool = False
    # pairs of arguments that cannot both be given (recall's brief and verbose, both true; graph's focus and folder,
    # both non-empty): stated in the schema, so a client that checks it first is never refused
    exclusive: tuple[tuple[str, str], ...] = ()
    # (argument, other, value): the argument given needs the other given as that value (link's sub_type, a causal
    # sub-type, needs edge_type causal); stated in the schema and refused by `check_args` as an exclusive pair is
    needs: tuple[tuple[str, str, Any], ...] = ()
    # (argument, value, other): the argument at that value (None: at any) needs the other given, as `_GIVEN` reads
    # it (surface's include_candidates false needs a prompt: the proactive cards read no pack to leave candidates out
    # of; graph's depth needs a focus: the overview has no hops to count, as `graph --depth` says on the CLI)
    needs_given: tuple[tuple[str, Any, str], ...] = ()

    @cached_property
    def parameters(self) -> dict[str, Any]:
        """`properties` as the schema states them: a required text cannot be blank (the facade refuses it)."""
        return {name: _text_not_blank(spec) if name in self.required and spec.get("type") == "string" else spec
                for name, spec in self.properties.items()}

    @cached_property
    def stated_parameters(self) -> dict[str, Any]:
        return dict(schema_keywords.stated(self.parameters))

    def schema(self, *, full: bool = False) -> dict[str, Any]:
        """The arguments' schema as clients are given it; `full`: as `check_args` reads it (an alias written out)."""
        out = {"type": "object", "properties": self.parameters if full else self.stated_parameters,
               "required": list(self.required),
               "additionalProperties": False}
        rules = [{"not": {"required": list(pair), "properties": {f: _GIVEN[self.properties[f]["type"]]
                                                                   for f in pair}}} for pair in self.exclusive]
        rules += [{"if": {"required": [name]}, "then": {"required": [other], "properties": {other: {"const": value}}}}
                  for name, other, value in self.needs]
        rules += [{"if": {"required": [name], **({} if value is None else {"properties": {name: {"const": value}}})},
                   "then": {"required": [other], "properties": {other: _GIVEN[self.properties[other]["type"]]}}}
                  for name, value, other in self.needs_given]
        if rules:
            out["allOf"] = rules
        return out

    def tool_schema(self) -> dict[str, Any]:
        """`schema()` as an agent host takes a tool's: a plain object at its root. Anthropic's and OpenAI's tool APIs
        refuse `allOf`/`anyOf`/`oneOf` there, so Claude Code dropped recall and graph (or failed every request of
        the session) and Codex refused them; their exclusive pairs are said in the arguments' descriptions, and
        `check_args` refuses both as before."""
        return {key: value for key, value in self.schema().items() if key != "allOf"}


# what "given" means to an exclusive pair, as the facade reads it (Python's truth): a flag set, a text not empty
_GIVEN: Mapping[str, dict[str, Any]] = {"boolean": {"const": True}, "string": {"minLength": 1}}


def _text_not_blank(spec: dict[str, Any], *, no_nul: bool = False) -> dict[str, Any]:
    # a pattern of its own (forget_source's MNEME_SCOPE) is kept: replaced by the hint, it was a rule the schema
    # stopped stating while the facade still refused what broke it
    return spec if "not" in spec else {**spec, "pattern": spec.get("pattern", NOT_BLANK),
                                       "not": {"pattern": BLANK_OR_NUL if no_nul else BLANK_ONLY}}


def check_args(op: Operation, args: Any) -> dict[str, Any]:
    """`args` if they fit the operation's schema (every keyword it uses is enforced here, so a client that checks
    the schema first is never refused); else `InvalidInput` naming the first problem (a caller learns about a
    typo'd argument instead of having it ignored). An integral float for an integer (JSON's 5.0) arrives as 5."""
    if not isinstance(args, dict):
        raise InvalidInput(f"{op.name}: arguments must be a JSON object")
    # JSON null means "not given": the operation's default applies (a None reaching the facade was a crash)
    args = {name: value for name, value in args.items() if value is not None}
    unknown = sorted(set(args) - set(op.properties))
    if unknown:
        # the argument it resembles, as the CLI's "Did you mean '--limit'?": an agent fixes `limt` in one retry
        near = difflib.get_close_matches(unknown[0].casefold(), list(op.properties), n=1)
        guess = f" (did you mean {near[0]!r}?)" if near else ""
        raise InvalidInput(f"{op.name}: unknown argument {unknown[0]!r}{guess}; it takes "
                           f"{', '.join(op.properties) or 'none'}", field=unknown[0], allowed=list(op.properties))
    missing = [name for name in op.required if args.get(name) is None]
    if missing:
        raise InvalidInput(f"{op.name}: missing argument {missing[0]!r}", field=missing[0])
    for name, value in args.items():
        where = surrogate_path(value, name)
        if where is not None:
            # one refusal for every tool: `search` answered nothing and `show` refused, each in its own words
            shown = f"argument {name!r}" + ("" if where == name else f" ({where})")
            raise InvalidInput(f"{op.name}: {shown} is not valid UTF-8 text: it holds a lone surrogate (a "
                               "\\ud800-style escape without its pair)", field=where)
    checked = {}
    for name, value in args.items():
        try:
            checked[name] = _checked(f"{op.name}: argument {name!r}", op.parameters[name], value)
        except InvalidInput as exc:  # which argument, for a machine (as the facade's refusals say it)
            raise InvalidInput(exc.message, field=name, **_choice_details(name, op.parameters[name], value)) from None
    for first, second in op.exclusive:
        if checked.get(first) and checked.get(second):
            given = "true" if op.properties[first]["type"] == "boolean" else "given"
            raise InvalidInput(f"{op.name}: arguments {first!r} and {second!r} cannot both be {given}", field=second)
    for name, other, value in op.needs:
        if name in checked and checked.get(other) != value:
            def said(given: Any) -> str:  # as JSON writes it: true, not Python's True
                return given if isinstance(given, str) else json.dumps(given)
            raise InvalidInput(f"{op.name}: argument {name!r} needs {other!r} {said(value)}; got "
                               f"{said(checked[other]) if other in checked else 'none'}", field=name)
    for name, value, other in op.needs_given:
        if name in checked and value in (None, checked[name]) and not checked.get(other):
            at = "" if value is None else f" {json.dumps(value)}"
            raise InvalidInput(f"{op.name}: argument {name!r}{at} needs {other!r}", field=name)
    return checked


def with_defaults(op: Operation, args: dict[str, Any], defaults: Mapping[str, Any] | None) -> dict[str, Any]:
    """Checked `args`, plus the configured value of each argument left out that the CLI reads from the config file
    too (`hints`: retrieve, surface, agent_preflight). The servers answered without them, so the same prompt ranked
    differently over MCP or HTTP than on the command line."""
    if not defaults:
        return args
    return {**{name: value for name, value in defaults.items() if name in op.properties and value is not None},
            **args}


def _s(desc: str, max_length: int | None = None, *, not_blank: bool = False, no_nul: bool = False) -> dict[str, Any]:
    """A text argument; `not_blank` for an optional one the facade refuses blank when given (a required one always
    is: `Operation.parameters`)."""
    spec: dict[str, Any] = {"type": "string", "description": desc}
    if max_length is not None:
        spec["maxLength"] = max_length
    return _text_not_blank(spec, no_nul=no_nul) if not_blank or no_nul else spec


def _choice(desc: str, values: tuple[str, ...]) -> dict[str, Any]:
    return {"type": "string", "description": desc, "enum": list(values)}


def _unit(desc: str) -> dict[str, Any]:
    return {"type": "number", "description": desc, "minimum": 0, "maximum": 1}


def _texts(desc: str, max_items: int, max_length: int) -> dict[str, Any]:
    return {"type": "array", "description": desc, "maxItems": max_items,
            "items": {"type": "string", "maxLength": max_length, "not": {"pattern": NUL}}}


def _i(desc: str, low: int | None = None, high: int | None = None) -> dict[str, Any]:
    """An integer argument; its range, when given, is part of the schema `check_args` enforces."""
    spec: dict[str, Any] = {"type": "integer", "description": desc}
    if low is not None:
        spec["minimum"] = low
    if high is not None:
        spec["maximum"] = high
    return spec


# a negative edge id is a note's edge to one of its own items, read from the item (ports/store/contained_sqlite.py)
_EDGE_ID = {**_i("edge id (non-zero; a negative one is a note's edge to an item of its own)", -MAX_INTEGER,
                 MAX_INTEGER), "not": {"const": 0}}


def _b(desc: str) -> dict[str, Any]:
    return {"type": "boolean", "description": desc}


# Mneme's `retrieve`/`surface`/`agent preflight` options (`--as-of`, `--hints`, `--no-candidates`), as the CLI has
# the pattern is the schema's word for what both parsers take (retrieve's and the world's): without it a client that
# checked the schema was refused, and agent_preflight alone read "1d" as a day from now
_AS_OF = {**_s("ISO-8601 instant to replay at (validity and world state as they were then)", 64),
          "pattern": ISO_TIME}
# the default as the CLI's --hints says it (core.vault.observations.DEFAULT_HINTS: a test pins them equal)
# recall's and search's --excerpt-chars (app.recall.check_excerpt_chars): only with brief, whose excerpts it cuts
_EXCERPT_CHARS = _i("length of brief's excerpts in characters, default 240 (needs brief)", 1, MAX_INTEGER)
_HINTS = _s("comma-separated words raising the items holding them (default: the config's `hints`, else deadline, "
            "project, invoice, lease, tax, school, move, certification, payment)")
_CANDIDATES = _b("include candidate (unvalidated) edges, marked candidate_only (default true)")



def _items(required: tuple[str, ...], optional: dict[str, Any]) -> dict[str, Any]:
    """A list of a payload's objects: each names its required fields (non-blank texts) and takes no other field
    than these, as `app.vault.payload.parse_payload` refuses them."""
    fields = {**{name: _text_not_blank({"type": "string"}, no_nul=True) for name in required}, **optional}
    return {"type": "array", "maxItems": MAX_PAYLOAD_ITEMS,
            "items": {"type": "object", "required": list(required), "properties": fields,
                      "additionalProperties": False}}


# an optional text of a payload's item: a string (blank or null: its default) without a NUL, as
# `app.vault.payload._str` reads it (a name of 5 passed the schema and was refused by the library)
# (a pattern, which holds for null: a `not` of the NUL pattern had to name its type, 22 bytes more a field)
_NO_NUL = "^[^\\u0000]*$"
_PATTERN_MEANING[_NO_NUL] = _NOT_MEANING[NUL]
_OPTIONAL_TEXT = {"type": ["string", "null"], "pattern": _NO_NUL}
_SPACES = f"[{_char_class(_PY_SPACE)}]*"
# characters other than the letter and its capital that `str.lower` makes an ASCII letter (the Kelvin sign; a test
# checks the whole range)
_LOWERS_TO = {"k": "\\u212a"}


def _choice_of(words: tuple[str, ...], *, any_case: bool, optional: bool) -> dict[str, Any]:
    """One of `words` (in any case, as `str.lower` reads it) between spaces, as the library strips a choice; an
    `optional` one may also be null or blank (its default)."""
    def letter(c: str) -> str:
        return f"[{c}{c.upper()}{_LOWERS_TO.get(c, '')}]" if any_case and c.isalpha() else re.escape(c)
    pattern = f"^{_SPACES}({'|'.join(''.join(map(letter, word)) for word in words)}){'?' * optional}{_SPACES}$"
    _PATTERN_MEANING[pattern] = f"must be one of {', '.join(words)}{' (in any case)' * any_case}"
    return {**(_OPTIONAL_TEXT if optional else {"type": "string"}), "pattern": pattern}


# app.vault.payload's OBSERVATION_KINDS and an edge's statuses; core.world's SENSE_TYPES, PREDICTION_TYPES,
# ACTION_STATUSES (a test pins them equal: importing them would load the world layer for `mcp serve`)
OBSERVATION_KINDS = ("fact", "blocked", "done", "risk", "correction")
EDGE_STATUSES = ("active", "candidate", "killed")
SENSE_TYPES = ("md", "gws", "notion", "hermes_sessions", "gateway_log", "manual", "agent")
PREDICTION_TYPES = ("confirmation_expected", "no_news_expected")
ACTION_STATUSES = ("recorded", "pending", "succeeded", "failed", "verified", "reverted")
SIDE_EFFECT_LEVELS = ("none", "local", "external", "financial")
_KIND = _choice_of(OBSERVATION_KINDS, any_case=True, optional=True)
_STATUS = _choice_of(EDGE_STATUSES, any_case=False, optional=True)
_SENSE_TYPE = _choice_of(SENSE_TYPES, any_case=True, optional=False)
# a world-model object's fields as `core.world.values` reads them: a required text, an id (null: a hash of the
# content; never blank), an instant (ISO text, never blank), a probability, metadata (an object or its JSON text), a
# list of texts
_TEXT = _text_not_blank({"type": "string"}, no_nul=True)
_ID = {"type": ["string", "null"], "pattern": NOT_BLANK, "not": {"type": "string", "pattern": BLANK_OR_NUL},
       "maxLength": schema_keywords.KEY_CHARS}
_KEY = {**_OPTIONAL_TEXT, "maxLength": schema_keywords.KEY_CHARS}  # a text the world store indexes
# (ISO_TIME's instant alone: never blank; a `not` of BLANK_ONLY beside it said nothing more, 125 bytes a field)
_ISO_GIVEN = f"^[{_char_class(_PY_SPACE)}]*({ISO_INSTANT})[{_char_class(_PY_SPACE)}]*$"
_PATTERN_MEANING[_ISO_GIVEN] = _PATTERN_MEANING[ISO_TIME]
_INSTANT = {"type": "string", "maxLength": 64, "pattern": _ISO_GIVEN}
_INSTANT_OR_NULL = {**_INSTANT, "type": ["string", "null"]}
_PROBABILITY = {"type": ["number", "null"], "minimum": 0, "maximum": 1}
# an object or its JSON text: JSON Schema states what the text holds (contentMediaType, contentSchema), which a
# standard validator need not assert; `check_args` does, as the library reads it
_METADATA = {"type": ["object", "string", "null"], "not": {"type": "string", "pattern": NUL},
             "contentMediaType": "application/json", "contentSchema": {"type": "object"},
             "description": "an object, or its JSON text (a text that is not the JSON of an object is refused)"}
# given, as `str.strip` reads a text (an optional text blank is its default: not given)
_GIVEN_TEXT = {"type": "string", "pattern": f"[^{_char_class(_PY_SPACE)}]"}
_TEXTS = {"type": ["array", "null"], "items": _TEXT}
_PAYLOAD = {"type": "object", "required": ["source_path"], "additionalProperties": False,
            "description": '{"source_path": "mneme://agent/session-1", "nodes": [{"ref", "name", "type", '
                           '"summary"}], "edges": [{"src", "dst", "relation", "status", "confidence", "evidence", '
                           '"validated"}], "observations": [{"node", "kind", "text", "score"}], "assertions": '
                           '[world-state beliefs]}; edges and observations name nodes by ref',
            "properties": {
                "source_path": {"type": "string", "pattern": MNEME_SCOPE},
                "nodes": _items(("ref",), {"name": _OPTIONAL_TEXT, "type": _OPTIONAL_TEXT,
                                           "summary": _OPTIONAL_TEXT}),
                "edges": _items(("src", "dst", "relation"),
                                {"status": _STATUS, "evidence": _OPTIONAL_TEXT,
                                 "confidence": _unit("0-1, default 1"),
                                 "validated": _b("a person confirmed it (default false)")}),
                "observations": _items(("node", "text"),
                                       {"kind": _KIND,
                                        "score": {"type": "number", "minimum": 0, "maximum": 100}}),
                "assertions": {"type": "array", "maxItems": MAX_PAYLOAD_ITEMS, "items": {"type": "object"}}}}
# a prediction's match as `core.world.match.parse_match` reads it (the object, or its JSON text): its sense type, the
# keys it knows, a source_id or a term list (else it would match every event), terms not blank; its gate likewise
_TERM_KEYS = tuple(f"{f}_terms_{m}" for f in ("title", "observation", "source_path") for m in ("any", "all")) + (
    "title_terms", "text_terms")  # core.world.match's TERM_KEYS and the legacy ones (a test pins them equal)
_TERM_LIST = {"type": ["array", "null"], "items": {"type": "string", "pattern": NOT_BLANK,
                                                   "not": {"pattern": BLANK_OR_NUL}}}
# one group, said once (each key written out was 1.5 KB of tools/list an object)
_TERMS = schema_keywords.group(_TERM_KEYS, _TERM_LIST,
                               "^((title|observation|source_path)_terms_(any|all)|title_terms|text_terms)$")
_TERM_GIVEN = [{"required": [key], "properties": {key: {"type": "array", "minItems": 1}}} for key in _TERM_KEYS]
_TIME_FIELD = (f"^{_SPACES}(observed_at|metadata(\\.[^.{_char_class(_PY_SPACE)}\\u0000]+)+)?{_SPACES}$")
_PATTERN_MEANING[_TIME_FIELD] = "must be observed_at or metadata.<path>"
_GATE = {"type": ["object", "null"], "required": ["sense_type"], "additionalProperties": False,
         "properties": {"sense_type": _SENSE_TYPE, "source_id": _OPTIONAL_TEXT, "event_type": _OPTIONAL_TEXT,
                        "time_field": {**_OPTIONAL_TEXT, "pattern": _TIME_FIELD}}, "patternProperties": _TERMS,
         "anyOf": _any_of("needs source_id, event_type or a term list", *(
             {"required": [key], "properties": {key: _GIVEN_TEXT}} for key in ("source_id", "event_type")),
             *_TERM_GIVEN)}
_MATCH_OBJECT = {"required": ["sense_type"], "additionalProperties": False, "patternProperties": _TERMS, "properties": {
    "sense_type": _SENSE_TYPE, "source_id": _OPTIONAL_TEXT, "observed_after": _INSTANT_OR_NULL,
    "observed_before": _INSTANT_OR_NULL, "min_score": _PROBABILITY, "gate": _GATE},
    "anyOf": _any_of("needs source_id or a term list (e.g. observation_terms_all), so it cannot match every event",
                     {"required": ["source_id"], "properties": {"source_id": _GIVEN_TEXT}}, *_TERM_GIVEN)}
# its JSON text holds what the object states, said once (`check_args` reads the object's keywords for the text): a
# second copy in contentSchema was half of predict_add's schema, paid in every session's tools/list
_MATCH = {"type": ["object", "string"], **_MATCH_OBJECT, "contentMediaType": "application/json",
          "contentSchema": {"type": "object"},
          "description": '{"sense_type", "source_id" or term lists ("title_terms_any", "observation_terms_all", '
                         '…; each term with a letter or digit), "observed_after", "observed_before" (not before '
                         'observed_after), "min_score" 0-1, "gate"}, or its JSON text (the same object)'}
# a verify block's times as `core.world.ledger` reads them: a duration after the action (core.world.values'
# parse_duration: ASCII digits, m/h/d/w in any case) or an instant
_OFFSET = f"^{_SPACES}([0-9]+(\\.[0-9]+)?{_SPACES}[mhdwMHDW]|{ISO_INSTANT}){_SPACES}$"
_PATTERN_MEANING[_OFFSET] = "must be a duration after the action (30m, 4h, 1d, 2w) or an ISO-8601 instant"
_WHEN = {**_OPTIONAL_TEXT, "pattern": _OFFSET}
_VERIFY = {"type": ["object", "null"], "required": ["sense_type"], "additionalProperties": False,
           "properties": {"sense_type": _SENSE_TYPE, "source_id": _OPTIONAL_TEXT, "terms": _TEXTS,
                          "check_after": _WHEN, "expires": _WHEN, "expires_at": _WHEN, "confidence": _PROBABILITY}}
_ACTION_TEXTS = ("actor", "tool_name", "tool_call_id", "external_ref", "reversibility",
                 "verified_by_prediction", "prediction_id", "source_path")
_ACTION = {"id": _KEY, "action_type": _TEXT, "title": _TEXT,
           **{name: _KEY if name in ("actor", "source_path") else _OPTIONAL_TEXT for name in _ACTION_TEXTS},
           "status": _choice_of(ACTION_STATUSES, any_case=False, optional=True),
           "side_effect_level": _choice_of(SIDE_EFFECT_LEVELS, any_case=True, optional=True),
           "user_confirmed": {"type": ["boolean", "null"]}, "assertion_ids": _TEXTS, "verify": _VERIFY,
           "metadata": _METADATA, "created_at": _INSTANT_OR_NULL}
_PREDICTION = {"id": _ID, "title": _TEXT, "prediction_type": _choice_of(PREDICTION_TYPES, any_case=False,
                                                                        optional=True),
               # match: Mneme's spelling, read only when match_json is not given (null then: none); checked as
               # match_json, said in a line (written out again, it was 9.7 KB of every session's tools/list)
               "match_json": _MATCH, "match": schema_keywords.Alias(
                   {**_MATCH, "type": ["object", "string", "null"]},
                   {"type": ["object", "string", "null"], "description": "Mneme's name for match_json, read when "
                    "match_json is not given: the same object or its JSON text, by the same rules"}),
               "check_after": _INSTANT, "expires_at": _INSTANT,
               "confidence": _PROBABILITY, "subject_assertion_id": _KEY,
               "source_action_id": _OPTIONAL_TEXT, "metadata": _METADATA, "metadata_json": _METADATA,
               "created_at": _INSTANT_OR_NULL, "source_path": _KEY}
# (side_effect_level blank, null or none in any case is no side effect; as its own pattern holds it to one of
# SIDE_EFFECT_LEVELS, it is none exactly when it has no a, which each other level has: a rule said in 10 bytes)
_NO_SIDE_EFFECT = "^[^aA]*$"
_NONE_LEVEL = {"side_effect_level": {"type": ["string", "null"], "pattern": _NO_SIDE_EFFECT}}
_VERIFIED = "verified"  # (the status's own pattern takes no other text holding it)
# `core.world.ledger.validate_action`'s rules between the fields, each an anyOf (allOf holds them)
_ACTION_RULES = [{"anyOf": _any_of(
    "needs tool_call_id or external_ref (a provider handle) when its side_effect_level is not none",
    {"properties": _NONE_LEVEL}, *({"required": [name], "properties": {name: _GIVEN_TEXT}}
                                   for name in ("tool_call_id", "external_ref")))},
    {"anyOf": _any_of("has a verify block, which needs a side_effect_level other than none (a side effect to verify)",
                      {"properties": {"verify": {"type": "null"}}},
                      {"required": ["side_effect_level"], "properties": {"side_effect_level": {
                          "type": "string", "not": {"pattern": _NO_SIDE_EFFECT}}}})},
    {"anyOf": _any_of("has status verified, which needs verified_by_prediction or user_confirmed true",
                      {"properties": {"status": {"not": {"type": "string", "pattern": _VERIFIED}}}},
                      {"required": ["verified_by_prediction"], "properties": {"verified_by_prediction": _GIVEN_TEXT}},
                      {"required": ["user_confirmed"], "properties": {"user_confirmed": {"type": "boolean",
                                                                                         "const": True}}})}]
_SENSE_RULES = _any_of("needs at least one of source_id, title or text, so it can ever match",
                       *({"required": [name], "properties": {name: _GIVEN_TEXT}}
                         for name in ("source_id", "title", "text")))
_SENSE_EVENT = {"id": _ID, "sense_type": _SENSE_TYPE, "observed_at": _INSTANT,
                **{name: _OPTIONAL_TEXT for name in ("source_id", "title", "text", "event_type")}, "source_uri": _KEY,
                "metadata": _METADATA}


OPERATIONS: tuple[Operation, ...] = (
    Operation("remember", "Store one memory (exact repeats are skipped; the diff is advice). Returns its id, the "
              "action taken (added or skipped), the diff against similar memories and the edges it made.",
              {"content": _s("the memory", MAX_CONTENT_CHARS, no_nul=True),
               "category": _choice("default general", CATEGORIES), "importance": _i("1-5, default 3", 1, 5),
               "tags": _texts("labels", MAX_TAGS, MAX_TAG_CHARS),
               "entities": _texts("names it is about (added to those found in it)", MAX_ENTITIES, MAX_ENTITY_CHARS),
               "source": _s("who wrote it (default agent)", MAX_SOURCE_CHARS, no_nul=True),
               "created_at": {"type": "string", "maxLength": 64, "pattern": ISO_TIME,
                              "description": "when it happened, RFC 3339 / ISO-8601 (default now): a fact from "
                                             "history, or one written down later than it happened; at most a "
                                             "day past the store's clock"},
               # the CLI's --entity-mode and --no-diff
               "entity_mode": _choice("merge (default): the given entities and those found in it; provided: the "
                                      "given ones only; auto: those found only", ENTITY_MODES),
               "no_diff": _b("skip the duplicate check and the advisory diff (default false)")},
              ("content",), False,
              lambda m, a: m.remember(a["content"], category=a.get("category"), importance=a.get("importance"),
                                      tags=a.get("tags"), entities=a.get("entities"), source=a.get("source"),
                                      entity_mode=a.get("entity_mode", "merge"), no_diff=a.get("no_diff", False),
                                      created_at=a.get("created_at"), default_source="agent")),
    Operation("recall", "Smart recall: intent-aware graph retrieval with signals per result.",
              {"query": _s("what to recall", MAX_QUERY_CHARS, no_nul=True), "limit": _i("1-100, default 10", 1, 100),
               "intent": {"type": "string", "pattern": INTENT, "examples": list(VALID_INTENTS),
                          "description": f"the question's kind: {', '.join(VALID_INTENTS)}, in any case (default: "
                                         "detected from the query)"},
               "brief": _b("ids and excerpts only (not with verbose)"),
               "verbose": _b("each result's signals and intent details (not with brief)"),
               "explain": _b("stage trace: anchors, fusion, beam, re-rank (brief: each result's signals, via)"),
               "category": _choice("only memories of this category", CATEGORIES),
               "source": _s("only memories from this source", MAX_SOURCE_CHARS, no_nul=True),
               "excerpt_chars": _EXCERPT_CHARS},
              ("query",), True,
              lambda m, a: m.recall(a["query"], limit=a.get("limit", 10), intent=a.get("intent"),
                                    category=a.get("category"), source=a.get("source"),
                                    brief=bool(a.get("brief", False)), verbose=bool(a.get("verbose", False)),
                                    excerpt_chars=a.get("excerpt_chars"), explain=bool(a.get("explain", False))),
              exclusive=(("brief", "verbose"),), needs=(("excerpt_chars", "brief", True),)),
    Operation("search", "Keyword-only search (FTS5 BM25).",
              {"query": _s("keywords", MAX_QUERY_CHARS, no_nul=True), "limit": _i("1-100, default 10", 1, 100),
               "brief": _b("ids and excerpts only"), "excerpt_chars": _EXCERPT_CHARS},
              ("query",), True,
              lambda m, a: m.search(a["query"], limit=a.get("limit", 10), brief=bool(a.get("brief", False)),
                                    excerpt_chars=a.get("excerpt_chars")),
              needs=(("excerpt_chars", "brief", True),)),
    Operation("show", "One memory or graph node in full, with its edges.", {"id": _s("node id")}, ("id",), True,
              lambda m, a: m.show(a["id"])),
    Operation("related", "Breadth-first neighbourhood of a memory, along edges in both directions by default (each "
              "result says which: out, or in as from the memory that supersedes or causes it).",
              {"id": _s("memory id"), "depth": _i("1-10, default 2", 1, 10),
               "edge_type": _choice("only this edge type", MNEMON_EDGE_TYPES),
               "direction": _choice("edges to follow: both (default), out (leaving it) or in (entering it)",
                                    RELATED_DIRECTIONS)},
              ("id",), True, lambda m, a: m.related(a["id"], depth=a.get("depth", 2), edge_type=a.get("edge_type"),
                                                    direction=a.get("direction", "both"))),
    Operation("link", "Create or replace an edge (supersedes demotes the target in recall).",
              {"source_id": _s("from"), "target_id": _s("to"),
               "edge_type": _choice("default semantic", MNEMON_EDGE_TYPES), "weight": _unit("0-1, default 0.5"),
               "sub_type": _choice("for a causal edge: needs edge_type causal (default causes)", CAUSAL_SUB_TYPES),
               # the CLI's `link --meta JSON`: the servers could not set it
               "meta": {"type": "object", "maxProperties": MAX_META_KEYS,
                        "description": f"metadata kept on the edge, a JSON object of at most {MAX_META_KEYS} keys "
                                       "(created_by is always agent)"}},
              ("source_id", "target_id"), False,
              lambda m, a: m.link(a["source_id"], a["target_id"], a.get("edge_type", "semantic"),
                                  sub_type=a.get("sub_type", ""), weight=a.get("weight", 0.5), meta=a.get("meta")),
              needs=(("sub_type", "edge_type", "causal"),)),
    Operation("forget", "Soft-delete a memory (kept, edges retired, logged).",
              {"id": _s("memory id"), "undo": _b("bring a forgotten memory back (forget --undo)"),
               "dry_run": _b("change nothing")},
              ("id",), False, lambda m, a: m.undo_forget([a["id"]], dry_run=a.get("dry_run", False))
              if a.get("undo") else m.forget(a["id"], dry_run=a.get("dry_run", False)), destructive=True),
    Operation("status", "Counts, top entities, size and embedding coverage.", {}, (), True, lambda m, a: m.status()),
    Operation("retrieve", "A context pack for a prompt: items with truth policies within a character budget; a "
              "vault path in the prompt (Projects/, lighthouse.md) keeps it to those notes.",
              {"prompt": _s("the prompt", MAX_PROMPT_CHARS, no_nul=True),
               "budget": _i("characters, default 2500", 1, MAX_BUDGET),
               "max_items": _i("1-100, default 8", 1, 100), "as_of": _AS_OF, "hints": _HINTS,
               "include_candidates": _CANDIDATES, "verbose": _b("each item's recall signals and route"),
               "explain": _b("a ranking table and the recall trace")},
              ("prompt",), True,
              lambda m, a: m.retrieve(a["prompt"], budget=a.get("budget", 2500), max_items=a.get("max_items", 8),
                                      as_of=a.get("as_of"), hints=a.get("hints"),
                                      include_candidates=a.get("include_candidates", True),
                                      verbose=a.get("verbose", False), explain=a.get("explain", False))),
    Operation("surface", "Thought cards: from retrieval for a prompt, or (without one) the strongest proactive "
              "candidates; each with its path, evidence and suggested actions (no card images).",
              {"prompt": _s("the prompt (none: proactive cards)", MAX_PROMPT_CHARS, no_nul=True),
               "limit": _i("1-50, default 5", 1, 50), "hints": _HINTS,
               "hops": _i("most edges in each card's path, 0-12, default 5 (0: the memory alone)", 0, 12),
               "include_candidates": _b("include candidate (unvalidated) edges, marked candidate_only (default "
                                        "true); false needs a prompt")},
              (), True,
              lambda m, a: m.surface(prompt=a.get("prompt"), limit=a.get("limit", 5), hints=a.get("hints"),
                                     hops=a.get("hops", 5), include_candidates=a.get("include_candidates", True)),
              needs_given=(("include_candidates", False, "prompt"),)),
    Operation("agent_preflight", "What an agent reads before answering: the context pack, world state (current, "
              "lapsed and unbacked beliefs, due predictions, contradictions), the contract check and the rules; "
              "the error `contract_failed` when the database breaks its contract.",
              {"prompt": _s("the prompt", MAX_PROMPT_CHARS, no_nul=True), "as_of": _AS_OF,
               "budget": _i("characters, default 2500", 1, MAX_BUDGET), "max_items": _i("1-100, default 8", 1, 100),
               "surface_limit": _i("thought cards to add, 0-50, default 0", 0, 50), "hints": _HINTS,
               "include_candidates": _CANDIDATES},
              ("prompt",), True,
              lambda m, a: m.agent_preflight(a["prompt"], as_of=a.get("as_of"), budget=a.get("budget", 2500),
                                             max_items=a.get("max_items", 8),
                                             surface_limit=a.get("surface_limit", 0), hints=a.get("hints"),
                                             include_candidates=a.get("include_candidates", True))),
    Operation("remember_payload", "Scoped agent memory (Mneme's `remember add`): nodes, edges and observations "
              "under one mneme:// source_path, removable as a unit with forget_source. Edges and observations name "
              "nodes of the same payload by ref; an edge that needs validation is stored as a candidate (each edge "
              "says its status and why). Writing the scope again replaces what it wrote.",
              {"payload": _PAYLOAD,
               "dry_run": _b("validate and show what would be written; write nothing")},
              ("payload",), False,
              lambda m, a: m.remember_payload(a["payload"], dry_run=a.get("dry_run", False))),
    Operation("forget_source", "Remove everything a remember_payload wrote under one mneme:// source_path (Mneme's "
              "`remember remove`): its nodes, edges, observations and world rows. Vault notes and memories are "
              "outside this path: any other source is refused.",
              {"source_path": {**_s("the mneme:// scope, e.g. mneme://agent/session-1"), "pattern": MNEME_SCOPE},
               "dry_run": _b("report what would be removed; change nothing")},
              ("source_path",), False,
              lambda m, a: m.forget_source(a["source_path"], dry_run=a.get("dry_run", False)), destructive=True),
    Operation("forget_dated", "Age the vault's past-dated bullets (Mneme's `forget --days-threshold N`): an active "
              "bullet edge whose dates are all older than N days becomes a candidate of strength 0; nothing is "
              "deleted, the bullet stays recallable, validate_edge restores one, and each change is an edge event.",
              {"days_threshold": _i("days, 0-36500 (the cutoff is now minus this)", 0, MAX_FORGET_DAYS),
               "dry_run": _b("report what would be aged; change nothing")},
              ("days_threshold",), False,
              lambda m, a: m.forget_dated(a["days_threshold"], dry_run=a.get("dry_run", False)), destructive=True),
    Operation("explain_edge", "Why an edge exists: relation, status, truth policy, evidence, source path, "
              "confidence and its audit events.", {"id": _EDGE_ID}, ("id",), True,
              lambda m, a: m.explain_edge(a["id"])),
    Operation("graph", "A bounded part of the graph to draw: around a focus node (breadth-first, strongest edges "
              "first) or, without one, the best-connected notes (of one folder, given `folder`: not with a focus); "
              "`truncated` says when the limits cut it.",
              {"focus": _s("node id to centre on (not with folder)"),
               "depth": _i("hops from the focus, 1-4, default 1 (needs focus)", 1, 4),
               "max_nodes": _i("1-2000, default 150", 1, 2000),
               "max_links": _i("0-10000, default 600", 0, 10_000),
               "include_candidates": _b("draw candidate edges (default true)"),
               "include_killed": _b("draw killed edges (default false)"),
               "folder": _s("only the notes under this vault folder (overview only: not with focus)")},
              (), True,
              lambda m, a: m.graph(focus=a.get("focus"), depth=a.get("depth", 1), max_nodes=a.get("max_nodes", 150),
                                   max_links=a.get("max_links", 600),
                                   include_candidates=a.get("include_candidates", True),
                                   include_killed=a.get("include_killed", False), folder=a.get("folder")),
              exclusive=(("focus", "folder"),), needs_given=(("depth", None, "focus"),)),
    Operation("find_nodes", "Graph nodes whose title holds the text, in any case, anywhere in the store: notes first, "
              "then headings, tags, people and other named nodes; exact titles, then prefixes, then the rest. "
              "Memories: recall and search.",
              {"query": _s("part of a title, or a note's [[link]], file name, path or alias", MAX_QUERY_CHARS,
                           no_nul=True),
               "limit": _i("1-50, default 10", 1, 50)},
              ("query",), True, lambda m, a: m.find_nodes(a["query"], limit=a.get("limit", 10))),
    Operation("validate_edge", "Confirm an edge as a person: it becomes active (if the write gate allows), and "
              "rebuilds and replays keep it.",
              {"id": _EDGE_ID, "reason": _s("why (kept in its audit log)")},
              ("id",), False, lambda m, a: m.validate_edge(a["id"], reason=a.get("reason", ""))),
    Operation("kill_edge", "Reject an edge as a person: a tombstone no rebuild, re-parse or replay brings back.",
              {"id": _EDGE_ID, "reason": _s("why (kept in its audit log)")},
              ("id",), False, lambda m, a: m.kill_edge(a["id"], reason=a.get("reason", "")), destructive=True),
    Operation("weaken_edge", "Lower an edge's strength (×factor, not below floor); below 0.1 it drops to candidate.",
              {"id": _EDGE_ID, "reason": _s("why (kept in its audit log)"),
               "factor": _unit("0-1, default 0.5"), "floor": _unit("0-1, default 0")},
              ("id",), False,
              lambda m, a: m.weaken_edge(a["id"], reason=a.get("reason", ""), factor=a.get("factor", 0.5),
                                         floor=a.get("floor", 0.0))),
    Operation("action_record", "Record a side effect the agent caused in the action ledger (Mneme's `action "
              "record`). A side-effectful action (side_effect_level other than none) needs a provider handle: "
              "tool_call_id or external_ref. Its verify block {sense_type, terms, check_after: 1d, expires: 3d} "
              "spawns the prediction that checks it happened.",
              {"action": {"type": "object", "required": ["action_type", "title"], "additionalProperties": False,
                          "properties": _ACTION, "allOf": _ACTION_RULES,
                          "description": '{"action_type", "title", "side_effect_level": "none" (default), '
                          '"local", "external" or "financial", "tool_call_id" or "external_ref", "tool_name", '
                          '"reversibility", "assertion_ids", "verify", "metadata"}; id, actor, source_path: '
                          f'{schema_keywords.KEY_RULE}'}},
              ("action",), False, lambda m, a: m.action_record(a["action"])),
    Operation("predict_add", "Add a deterministic expectation about future sense evidence (Mneme's `predict add`); "
              "it is checked without an LLM by the world tick. Without an id, the id is a hash of the content, so "
              "adding the same prediction again changes nothing.",
              {"prediction": {"type": "object", "required": ["title", "check_after", "expires_at"],
                              # its match, under either name the library reads (match_json, or match)
                              "anyOf": [{"required": ["match_json"]},
                                        {"required": ["match"], "properties": {"match": {"not": {"type": "null"}}}}],
                              "additionalProperties": False, "properties": _PREDICTION,
                              "description": '{"title", "match_json", "check_after" and "expires_at" (RFC 3339; '
                              'expires_at not before check_after), "prediction_type", "confidence", '
                              '"subject_assertion_id"}; id, subject_assertion_id, source_path: '
                              f'{schema_keywords.KEY_RULE}'}},
              ("prediction",), False, lambda m, a: m.predict_add(a["prediction"])),
    Operation("sense_add", "Record external evidence (an email, a calendar event) as sense events, what predictions "
              "are checked against (Mneme's `sense add`); all or nothing. An event dated more than a day after the "
              "clock is refused: evidence is dated when it was perceived.",
              {"events": {"type": "array", "minItems": 1,
                          "items": {"type": "object", "required": ["sense_type", "observed_at"],
                                    "additionalProperties": False, "properties": _SENSE_EVENT,
                                    "anyOf": _SENSE_RULES},
                          "description": '[{"sense_type" (e.g. gws, manual, agent), "title", "text", "observed_at" '
                                         '(RFC 3339: when it was perceived), "source_id", "source_uri", '
                                         '"event_type", "metadata", "id"}]: at least one of title, text or '
                                         f'source_id; id, source_uri: {schema_keywords.KEY_RULE}'}},
              ("events",), False, lambda m, a: m.sense_add(a["events"])),
    Operation("state_list", "World-state assertions (beliefs, open loops) with their validity at as_of and truth "
              "policy (Mneme's `state list`).",
              {"status": _choice("only this validity at as_of (default all)", ("all", *STATE_VALIDITIES)),
               "subject": _s("only subjects holding this text, in any case"),
               "predicate": _s("only this predicate, read as a write stores it (Lives In is lives_in)"),
               "type": _choice("only this kind of state", STATE_TYPES), "as_of": _AS_OF,
               "limit": _i("1-10000, default 200", 1, 10_000),
               "order_by": _choice("default subject", STATE_ORDERS)},
              (), True,
              lambda m, a: m.state_list(status=a.get("status"), subject=a.get("subject"),
                                        predicate=a.get("predicate"), state_type=a.get("type"),
                                        as_of=a.get("as_of"), limit=a.get("limit", 200),
                                        order_by=a.get("order_by", "subject"))),
    Operation("state_explain", "One world-state assertion with what it superseded and what superseded it, its "
              "linked predictions and audit events (Mneme's `state explain`).",
              {"id": _s("assertion id"), "as_of": _AS_OF}, ("id",), True,
              lambda m, a: m.state_explain(a["id"], as_of=a.get("as_of"))),
    Operation("predict_check", "Check one prediction (id) or every due open one against the stored sense events "
              "(Mneme's `predict check`); records the outcomes unless dry_run.",
              {"id": _s("prediction id (default: every due one)", not_blank=True),
               "as_of": {**_AS_OF, "description": "check at this ISO instant (default now; a future one only with "
                                                  "dry_run)"},
               "dry_run": _b("evaluate without recording outcomes")},
              (), False,
              lambda m, a: m.predict_check(prediction_id=a.get("id"), as_of=a.get("as_of"),
                                           dry_run=a.get("dry_run", False))),
    Operation("state_retract", "Mark one assertion as never true (a correction; Mneme's `state retract`): a value "
              "it had superseded is current again. Retracting it again changes nothing (already_retracted, with "
              "the first retraction).",
              {"id": _s("assertion id"), "reason": _s("why this value was never true")},
              ("id", "reason"), False, lambda m, a: m.state_retract(a["id"], reason=a["reason"]), destructive=True),
    Operation("alias_add", "Name a canonical subject for future world-state writes (Mneme's `alias add`); an alias "
              "naming another subject is re-pointed, and previous_canonical says which.",
              {"alias": _s("the other name", no_nul=True), "canonical": _s("the subject it stands for", no_nul=True),
               "source": _s("who says so (default manual)", no_nul=True),
               "confidence": _unit("0-1, default 1")},
              ("alias", "canonical"), False,
              lambda m, a: m.alias_add(a["alias"], a["canonical"], source=a.get("source", "manual"),
                                       confidence=a.get("confidence", 1.0))),
    Operation("note_add_bullet", "Add a bullet to the end of a heading's own list in a vault note (this server's "
              "vault, else the one the store was ingested from; the section is made when missing), unless the list "
              "has it already; the old text is backed up (Mneme's `note add-bullet`). What a thought card's "
              "vault_append_bullet suggests.",
              {"path": _s("the note's path in the vault, e.g. Projects/lighthouse.md"),
               "heading": _s("the heading (created when missing)"), "bullet": _s("one line"),
               "dry_run": _b("show the note as it would be; write nothing")},
              ("path", "heading", "bullet"), False,
              lambda m, a: m.note_add_bullet(None, a["path"], a["heading"], a["bullet"],
                                             dry_run=a.get("dry_run", False))),
    Operation("log", "The newest entries of the audit log (writes, forgets, prunes).",
              {"limit": _i("1-10000, default 20", 1, 10_000),
               "op": {"type": "string", "enum": list(LOG_OPS), "description": "only this operation"}}, (), True,
              lambda m, a: m.log(limit=a.get("limit", 20), op=a.get("op"))),
    Operation("receipt", "The audit log as a privacy-reduced export to share (schema mnemon.memory.receipt.v1): "
              "each row's operation and time, SHA-256 hashes of its node id and detail; no text, detail or id in "
              "clear. Writes nothing.",
              {"limit": _i("1-10000, default 20", 1, 10_000)}, (), True,
              lambda m, a: m.receipt(limit=a.get("limit", 20))),
)
BY_NAME: Mapping[str, Operation] = {op.name: op for op in OPERATIONS}

__all__ = ["BY_NAME", "OPERATIONS", "Operation", "check_args", "with_defaults"]
