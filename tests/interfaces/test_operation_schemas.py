"""The operation schemas (what MCP and HTTP clients read) against what the server and the library accept: a client
that checks its arguments with the published schema — by any standard JSON Schema validator — is never refused, and
anything the schema rules out is refused with `invalid_input`, never half-done."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import unicodedata
from datetime import datetime
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from mnemon.core.errors import Conflict, InvalidInput, NotFound
from mnemon.core.intent import VALID_INTENTS
from mnemon.core.model import CATEGORIES, MNEMON_EDGE_TYPES
from mnemon.core import validation
from mnemon.interfaces import operations, schema_keywords
from mnemon.interfaces.operations import BY_NAME, OPERATIONS, check_args

from interfaces.test_qa_s37_contract5 import as_written  # tests/ is on sys.path

# the characters each regex dialect counts as space: Python's `str.isspace` (the facade's `strip`) and
# ECMA-262's WhiteSpace and LineTerminator (a JavaScript client's `\s`)
PYTHON_SPACE = {chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace()}
ECMA_SPACE = {"\t", "\v", "\f", "\ufeff", "\n", "\r", "\u2028", "\u2029"} | {
    chr(c) for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c)) == "Zs"}


def test_every_schema_is_one_a_standard_validator_takes() -> None:
    for op in OPERATIONS:
        Draft202012Validator.check_schema(op.schema())


def test_the_bounds_are_the_librarys_own() -> None:
    from mnemon.app import context, recall
    from mnemon.app.world import preflight

    spec = {op.name: op.schema()["properties"] for op in OPERATIONS}
    remember = spec["remember"]
    assert remember["category"]["enum"] == list(CATEGORIES)
    assert spec["link"]["edge_type"]["enum"] == spec["related"]["edge_type"]["enum"] == list(MNEMON_EDGE_TYPES)
    # any case, as `parse_intent` reads it (test_qa_s33_intent_case.py); the canonical spellings are its examples
    assert spec["recall"]["intent"]["examples"] == list(VALID_INTENTS)
    assert spec["recall"]["intent"]["pattern"] == operations.INTENT
    assert remember["content"]["maxLength"] == validation.MAX_CONTENT_CHARS
    assert remember["source"]["maxLength"] == validation.MAX_SOURCE_CHARS
    assert (remember["tags"]["maxItems"], remember["tags"]["items"]["maxLength"]) == (validation.MAX_TAGS,
                                                                                      validation.MAX_TAG_CHARS)
    assert (remember["entities"]["maxItems"], remember["entities"]["items"]["maxLength"]) == (
        validation.MAX_ENTITIES, validation.MAX_ENTITY_CHARS)
    # mirrored, not imported (they would load recall and numpy into `mcp serve`)
    assert spec["recall"]["query"]["maxLength"] == spec["search"]["query"]["maxLength"] == recall.MAX_QUERY_CHARS
    for name in ("retrieve", "surface", "agent_preflight"):
        assert spec[name]["prompt"]["maxLength"] == context.MAX_PROMPT_CHARS == preflight.MAX_PROMPT_CHARS
    assert (spec["link"]["weight"]["minimum"], spec["link"]["weight"]["maximum"]) == (0, 1)
    from mnemon.app.world import state
    from mnemon.core.world.assertions import STATE_TYPES

    assert spec["state_list"]["type"]["enum"] == list(STATE_TYPES)
    assert spec["state_list"]["status"]["enum"] == ["all", *state.VALIDITIES]
    assert spec["state_list"]["order_by"]["enum"] == list(state.STATE_ORDERS)
    for name in ("factor", "floor"):
        assert (spec["weaken_edge"][name]["minimum"], spec["weaken_edge"][name]["maximum"]) == (0, 1)


def test_the_causal_sub_types_are_the_ones_the_library_takes(mem) -> None:
    """app/curation.py's CAUSAL_SUB_TYPES, read by behaviour: what the library takes is the reference."""
    a = mem.remember("Chose Qdrant as the vector database", category="decision")["id"]
    b = mem.remember("Qdrant runs on the staging cluster", category="fact")["id"]
    for sub_type in operations.CAUSAL_SUB_TYPES:
        assert mem.link(a, b, "causal", sub_type=sub_type)["sub_type"] == sub_type
    with pytest.raises(InvalidInput):
        mem.link(a, b, "causal", sub_type="correlates")


# ── blank, in every regex dialect ────────────────────────────────────────────
def test_blank_is_one_set_of_characters_whatever_the_regex_dialect() -> None:
    """The schema's blank class holds what either dialect calls space, spelt in escapes both read alike."""
    space = re.compile(operations.BLANK_ONLY)
    assert {chr(c) for c in range(sys.maxunicode + 1) if space.search(chr(c))} == PYTHON_SPACE | ECMA_SPACE
    assert "\\s" not in operations.BLANK_ONLY and "\\S" not in operations.BLANK_ONLY


@pytest.mark.parametrize("text", ["\ufeff", "\x1c", " \ufeff\x1f\u3000\n"])
def test_a_text_blank_in_either_dialect_is_refused_by_the_schema_and_the_server(text: str) -> None:
    """"\\ufeff" (a space to JavaScript, not to Python) was taken as a query, "\\x1c" (the reverse) refused."""
    validator = Draft202012Validator(BY_NAME["recall"].schema())
    assert not validator.is_valid({"query": text})
    with pytest.raises(InvalidInput, match="blank"):
        check_args(BY_NAME["recall"], {"query": text})
    assert check_args(BY_NAME["recall"], {"query": text + "x"}) == {"query": text + "x"}


@pytest.mark.skipif(shutil.which("node") is None, reason="no JavaScript engine here")
def test_a_javascript_client_reads_the_patterns_as_the_server_does() -> None:
    """The patterns run in a real ECMA-262 engine (as JSON Schema defines them, with the `u` flag)."""
    samples = sorted(PYTHON_SPACE | ECMA_SPACE | {"", "x", "\x00", "a\x00b", "\u200b", "\u180e", " a ", "\x1c\x1d"})
    # every pattern but the `\\S` hint, which the two dialects read apart: the `not` beside it is the rule
    patterns = sorted({p for op in OPERATIONS for spec in op.schema()["properties"].values()
                       for p in (spec.get("not", {}).get("pattern"), spec.get("pattern"))
                       if p and p != operations.NOT_BLANK})
    samples += ["mneme://", "mneme://a", "mneme://a/ \u3000", "mneme://a b", "mneme:///", "mneme://a\x00",
                "mneme://a\u2028b", "2026-05-01T09:30:00Z", "2026-05-01 9:30", "2026-05-01\n", "\n",
                "why", " WHY\u3000", "wHeN", "whyy", "WHY\n", "entity\ufeff"]
    assert patterns
    script = ("const [patterns, samples] = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
              "console.log(JSON.stringify(patterns.map(p => samples.map(s => new RegExp(p, 'u').test(s)))));")
    done = subprocess.run(["node", "-e", script], input=json.dumps([patterns, samples]), capture_output=True,
                          text=True, timeout=60, check=True)
    assert json.loads(done.stdout) == [[bool(schema_keywords.ecma(p).search(s)) for s in samples] for p in patterns]


# ── integers as JSON Schema counts them ──────────────────────────────────────
def test_an_integral_number_is_an_integer_as_json_schema_says() -> None:
    recall = BY_NAME["recall"]
    assert Draft202012Validator(recall.schema()).is_valid({"query": "x", "limit": 5.0})
    checked = check_args(recall, {"query": "x", "limit": 5.0})
    assert checked["limit"] == 5 and type(checked["limit"]) is int  # the facade takes ints only
    for refused in (5.5, True, "5.5", " 5", "05", 1e300):
        with pytest.raises(InvalidInput):
            check_args(recall, {"query": "x", "limit": refused})
    # beyond the schema, a number's JSON text is read as the number (tests/interfaces/test_qa_s37_contract5.py)
    assert check_args(recall, {"query": "x", "limit": "5"})["limit"] == 5


def test_an_edge_id_is_never_zero() -> None:
    """A negative id is real (a note's edge to an item of its own); 0 is none, and the schema says so."""
    for name in ("explain_edge", "validate_edge", "kill_edge", "weaken_edge"):
        op = BY_NAME[name]
        assert not Draft202012Validator(op.schema()).is_valid({"id": 0})
        with pytest.raises(InvalidInput, match="must not be 0"):
            check_args(op, {"id": 0})
        assert check_args(op, {"id": -3.0}) == {"id": -3}


# ── schema-valid ⇔ accepted, generated ───────────────────────────────────────
SPECIAL = "\x00\x1c\x1f\t \u00a0\u3000\ufeff\u200bxé日"
TEXT = st.text(st.one_of(st.sampled_from(SPECIAL), st.characters(codec="utf-8")), max_size=12)
OTHER_TYPES = st.one_of(st.booleans(), st.integers(-3, 3), st.floats(-2, 2), TEXT, st.lists(TEXT, max_size=2))
# texts a number or a boolean may be mistaken for: none is JSON's own spelling of one
NOT_SCALAR_TEXTS = st.sampled_from(["05", " 5", "5 ", "+1", "1e2", ".5", "1.", "-", "٥", "yes", "True", "NaN", ""])


def _values(spec: dict[str, Any]) -> tuple[st.SearchStrategy[Any], st.SearchStrategy[Any]]:
    """JSON values for one property: (mostly) ones the schema takes, and ones just past one of its bounds or of
    another type. (No NaN or infinity: JSON has neither, and the schema cannot speak of them.)"""
    kind = spec.get("type")
    if kind == "integer":
        low, high = spec["minimum"], spec["maximum"]
        whole = st.one_of(st.integers(low, min(high, low + 3)), st.integers(max(low, high - 3), high),
                          st.integers(low, high))
        good = st.one_of(whole, whole.map(float))
        bad = st.one_of(st.integers(low - 3, low - 1), st.integers(high + 1, high + 3),
                        st.floats(low - 1, high + 1, allow_nan=False, allow_infinity=False))
    elif kind == "number":
        low, high = spec["minimum"], spec["maximum"]
        good = st.one_of(st.floats(low, high), st.sampled_from([low, high]), st.integers(low, high))
        bad = st.one_of(st.floats(high, high + 1, exclude_min=True), st.floats(low - 1, low, exclude_max=True),
                        st.integers(high + 1, high + 3))
    elif kind == "string" and "enum" in spec:
        good = st.sampled_from(spec["enum"])
        bad = st.one_of(good.map(str.swapcase), good.map(lambda v: f" {v}"), TEXT)
    elif kind == "string":
        limit = spec.get("maxLength", 30)
        good = st.one_of(TEXT, st.text(st.sampled_from(SPECIAL[:8]), max_size=3),
                         st.builds(lambda n, c: (c * n)[:n], st.integers(limit - 2, limit), st.sampled_from("yé ")))
        bad = st.builds(lambda n, c: (c * n)[:n], st.integers(limit + 1, limit + 2), st.sampled_from("yé\x00"))
        if "maxLength" not in spec:
            bad = st.nothing()
    elif kind == "array":
        item_good, item_bad = _values(spec["items"])
        good = st.lists(item_good, max_size=spec["maxItems"])
        bad = st.one_of(st.lists(st.one_of(item_good, item_bad), min_size=1, max_size=3),
                        st.lists(st.text("abc", min_size=1, max_size=4), min_size=spec["maxItems"] + 1,
                                 max_size=spec["maxItems"] + 2))
    elif kind == "boolean":
        good, bad = st.booleans(), st.nothing()
    elif kind == "object" and "properties" not in spec:  # a free object (link's meta): its number of keys bounded
        high = spec["maxProperties"]
        entries = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), TEXT, st.lists(TEXT, max_size=2))
        good = st.dictionaries(TEXT, entries, max_size=high)
        bad = st.dictionaries(st.text("abcdefgh", min_size=4, max_size=6), entries, min_size=high + 1,
                              max_size=high + 2)
    else:
        raise AssertionError(f"no values for {spec}")
    if kind in ("integer", "number", "boolean"):  # their JSON texts, past the schema: read as the value by the server
        bad = st.one_of(bad, st.one_of(good, bad).map(json.dumps), NOT_SCALAR_TEXTS)
    return good, st.one_of(bad, OTHER_TYPES)


@st.composite
def _arguments(draw: Any, op_name: str, given: dict[str, st.SearchStrategy[Any]]) -> dict[str, Any]:
    """The operation's arguments with at most one of them off the schema (every bound gets its turn)."""
    op = BY_NAME[op_name]
    props = op.schema()["properties"]
    off = draw(st.sampled_from([None, *props]))
    chosen = {}
    for name, spec in props.items():
        good, bad = _values(spec)
        chosen[name] = bad if name == off else given.get(name, good)
    return draw(st.fixed_dictionaries({name: chosen[name] for name in op.required},
                                      optional={name: v for name, v in chosen.items() if name not in op.required}))


def _edge_id(ids: dict[str, Any]) -> st.SearchStrategy[Any]:
    return st.one_of(st.just(ids["edge"]), _values(BY_NAME["explain_edge"].schema()["properties"]["id"])[0])


@pytest.fixture
def store_with_an_edge(mem) -> tuple[Any, dict[str, Any]]:
    a = mem.remember("Chose Qdrant as the vector database", category="decision")["id"]
    b = mem.remember("Qdrant runs on the staging cluster", category="fact")["id"]
    mem.link(a, b, "semantic")
    return mem, {"a": a, "b": b, "edge": mem.rt.store.find_edge(a, b, "semantic").id}


# a time the schema's pattern admits is one the library reads (a month 13 would be a refusal no pattern states)
def _times_until(latest: datetime) -> st.SearchStrategy[str]:
    return st.one_of(st.just(""), st.datetimes(min_value=datetime(1971, 1, 1), max_value=latest).map(
        lambda d: d.isoformat(sep=" " if d.second % 2 else "T") + ("Z" if d.minute % 2 else "")))


_times = _times_until(datetime(2999, 1, 1))
# a memory dated in the future is refused against the clock, which no schema can state: a created_at is drawn from
# the past (up to 2999 it passed only while the draws happened to stay before the day the suite ran)
_past_times = _times_until(datetime(2025, 12, 31))


# each operation, with what its arguments that name things in the store are drawn from: memory ids are the store's
# own (two equal ones would be a refusal no schema can state: an edge from a memory to itself)
CASES = {
    "remember": lambda ids: {"created_at": _past_times}, "recall": lambda ids: {}, "search": lambda ids: {},
    "surface": lambda ids: {},
    "related": lambda ids: {"id": st.just(ids["a"])},
    "link": lambda ids: {"source_id": st.just(ids["a"]), "target_id": st.just(ids["b"])},
    "weaken_edge": lambda ids: {"id": _edge_id(ids)}, "explain_edge": lambda ids: {"id": _edge_id(ids)},
    # as_of was any text to the schema and an ISO instant to both tools (agent_preflight also took "1d")
    "retrieve": lambda ids: {"as_of": _times}, "agent_preflight": lambda ids: {"as_of": _times},
    "show": lambda ids: {"id": st.sampled_from([ids["a"], ids["b"]])}, "forget": lambda ids: {},
    "status": lambda ids: {}, "find_nodes": lambda ids: {}, "log": lambda ids: {},
    # a focus and a folder together were refused by the facade while the schema took them
    "graph": lambda ids: {"focus": st.one_of(st.just(ids["a"]), st.just(""), TEXT)},
    "validate_edge": lambda ids: {"id": _edge_id(ids)}, "kill_edge": lambda ids: {"id": _edge_id(ids)},
    # "^mneme://" alone took "mneme://" and "mneme://a b", which the facade refuses
    "forget_source": lambda ids: {"source_path": st.builds(lambda t: "mneme://" + t, TEXT)},
    "state_list": lambda ids: {"as_of": _times}, "state_retract": lambda ids: {},
    # an alias of itself is a refusal no schema can state (as a link from a memory to itself)
    "alias_add": lambda ids: {"alias": st.builds(lambda t: "Ana " + t, TEXT),
                              "canonical": st.builds(lambda t: "Bo " + t, TEXT)},
}


@pytest.mark.parametrize("op_name", sorted(CASES))
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow])
@given(data=st.data())
def test_schema_valid_is_exactly_what_the_server_and_the_library_accept(store_with_an_edge, op_name: str,
                                                                         data: st.DataObject) -> None:
    """By a standard validator: valid ⇒ the call runs (a missing id is `not_found`, not a refusal); invalid ⇒
    `invalid_input`, from `check_args` (HTTP and MCP) before the facade is reached — except a number or a boolean
    given as its JSON text, which is read as the value it writes (the servers' one leniency beyond the schema)."""
    mem, ids = store_with_an_edge
    op = BY_NAME[op_name]
    args = data.draw(_arguments(op_name, CASES[op_name](ids)))
    validator = Draft202012Validator(op.schema())
    valid = validator.is_valid(args)
    # what the server reads: each number or boolean given as its JSON text as the value it writes
    read = {name: as_written(_kinds(op.parameters[name]), value) for name, value in args.items()}
    assert not valid or read == args
    try:
        op.call(mem, check_args(op, args))
        refusal = None
    except (NotFound, Conflict):  # no such row, or a tombstone an earlier example left: the call ran
        refusal = None
    except InvalidInput as exc:
        refusal = str(exc)
    assert (refusal is None) == validator.is_valid(read), (args, refusal)


def _kinds(spec: dict[str, Any]) -> set[str]:
    return set(spec["type"]) if isinstance(spec["type"], list) else {spec["type"]}


def test_remember_backdates_and_recall_filters_as_the_cli_does(mem) -> None:
    """An agent on MCP or HTTP can write history (`created_at`) and keep recall to a category or a source."""
    remember, recall = BY_NAME["remember"], BY_NAME["recall"]
    old = remember.call(mem, check_args(remember, {"content": "Mira lives in Lisbon", "category": "fact",
                                                   "created_at": "2024-03-01T09:00:00Z"}))
    remember.call(mem, check_args(remember, {"content": "Mira prefers tea over coffee", "category": "preference",
                                             "source": "diary"}))
    assert mem.show(old["id"])["created_at"].startswith("2024-03-01T09:00:00")
    with pytest.raises(InvalidInput, match="created_at"):
        check_args(remember, {"content": "x", "created_at": "yesterday"})
    facts = recall.call(mem, check_args(recall, {"query": "Mira", "category": "fact"}))["results"]
    assert [r["insight"]["content"] for r in facts] == ["Mira lives in Lisbon"]
    diary = recall.call(mem, check_args(recall, {"query": "Mira", "source": "diary"}))["results"]
    assert [r["insight"]["content"] for r in diary] == ["Mira prefers tea over coffee"]


def test_brief_and_verbose_together_are_refused_by_the_schema_and_the_server() -> None:
    recall = BY_NAME["recall"]
    both = {"query": "x", "brief": True, "verbose": True}
    assert not Draft202012Validator(recall.schema()).is_valid(both)
    with pytest.raises(InvalidInput, match="'brief' and 'verbose' cannot both be true"):
        check_args(recall, both)
    assert Draft202012Validator(recall.schema()).is_valid({**both, "verbose": False})


@pytest.mark.parametrize("op_name, name, value, words", [
    ("retrieve", "as_of", "yesterday", "must be an RFC 3339 / ISO-8601 date or time"),
    ("agent_preflight", "as_of", "1d", "must be an RFC 3339 / ISO-8601 date or time"),
    ("remember", "created_at", "last week", "must be an RFC 3339 / ISO-8601 date or time"),
    ("forget_source", "source_path", "agent/session-1", "must be a mneme:// scope")])
def test_a_text_off_its_pattern_is_told_in_words(op_name: str, name: str, value: str, words: str) -> None:
    op = BY_NAME[op_name]
    required = {n: "x" for n in op.required if n != name}
    assert not Draft202012Validator(op.schema()).is_valid({**required, name: value})
    with pytest.raises(InvalidInput, match=words) as refused:
        check_args(op, {**required, name: value})
    assert "^" not in str(refused.value)  # the rule in words, not the regex
