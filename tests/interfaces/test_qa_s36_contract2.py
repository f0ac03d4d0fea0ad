"""QA session 36, the interfaces' contract (second round): a missing prompt is a usage error as a missing query is,
every option's help says what it does and its real default, `link` takes the same arguments everywhere, a read-only
server's cards carry only calls it offers, and the servers' schemas refuse what the library refuses inside an
object."""
from __future__ import annotations

import io
import json
from collections.abc import Callable
from typing import Any

import pytest

CliRun = Callable[..., tuple[int, Any]]


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


# ── a missing required argument: usage, exit 2, on every command ───────────────────────────────────────────────
@pytest.mark.parametrize("stdin", ["terminal", "empty pipe"])
def test_retrieve_without_a_prompt_is_a_usage_error_as_recall_without_a_query(
        cli_run: CliRun, monkeypatch: pytest.MonkeyPatch, stdin: str) -> None:
    """`mnemon retrieve` with no prompt answered invalid_input (exit 1, "--prompt must be a non-empty string") where
    `mnemon recall` and `mnemon search` with no query answer usage (exit 2)."""
    for argv in (["recall"], ["search"], ["retrieve"]):
        monkeypatch.setattr("sys.stdin", _Terminal() if stdin == "terminal" else io.StringIO(""))
        code, doc = cli_run(argv)
        assert (code, doc["error"]["code"]) == (2, "usage"), (argv, doc)
    assert "--prompt" in doc["error"]["message"]
    # a prompt given but empty is bad input, as `recall ""` is
    for argv in (["recall", ""], ["retrieve", ""], ["retrieve", "--prompt", ""]):
        code, doc = cli_run(argv)
        assert (code, doc["error"]["code"]) == (1, "invalid_input"), (argv, doc)
    code, doc = cli_run(["retrieve"], input="payments\n")
    assert code == 0 and doc["prompt"] == "payments"


@pytest.mark.parametrize("stdin", ["terminal", "empty pipe"])
def test_a_document_left_out_is_a_usage_error_on_every_command(cli_run: CliRun, monkeypatch: pytest.MonkeyPatch,
                                                                stdin: str) -> None:
    """`action record` and `resolve` with no --file and nothing piped answered invalid_input (exit 1) where
    `predict add` and `sense add` without --file answer usage (exit 2)."""
    for argv in (["predict", "add"], ["sense", "add"], ["action", "record"], ["resolve"]):
        monkeypatch.setattr("sys.stdin", _Terminal() if stdin == "terminal" else io.StringIO(""))
        code, doc = cli_run(argv)
        assert (code, doc["error"]["code"]) == (2, "usage") and "--file" in doc["error"]["message"], (argv, doc)
    # given, and empty: bad input, as before
    code, doc = cli_run(["action", "record", "--file", "-"], input="")
    assert (code, doc["error"]["code"]) == (1, "invalid_input"), doc
    code, doc = cli_run(["action", "record"], input='{"action_type": "email", "title": "Sent the invoice"}')
    assert code == 0 and doc["created"] is True


# ── every option's help says what it does and its real default ────────────────────────────────────────────────
def _options() -> list[tuple[str, Any]]:
    import click

    from mnemon.interfaces.cli.main import cli, register_all

    register_all()
    ctx = click.Context(cli)
    found: list[tuple[str, Any]] = []

    def walk(command: Any, path: list[str]) -> None:
        if isinstance(command, click.Group):
            for name in command.list_commands(ctx):
                walk(command.get_command(ctx, name), [*path, name])
            return
        found.extend((" ".join([*path, *param.opts]), param) for param in command.params
                     if isinstance(param, click.Option) and not param.hidden)

    walk(cli, [])
    return found


def test_every_option_says_what_it_does() -> None:
    """`--hints` of surface, thought, debug-candidates and run-once, and some 60 other options (every note command's
    --vault and --dry-run, --limit, --hops …) showed no help at all in `--help`."""
    bare = [name for name, option in _options() if not (option.help or "").strip()]
    assert not bare, bare


def test_every_hints_option_names_the_config_then_mnemes_list() -> None:
    """`candidates --hints` said its default was "Mneme's hint list", though the config file's `hints` apply
    first; retrieve's named the config's and not what applies without one."""
    from mnemon.core.vault.observations import DEFAULT_HINTS

    hints = {name: option.help for name, option in _options() if "--hints" in name and not name.startswith("init")}
    assert {"candidates --hints", "surface --hints", "thought --hints", "debug-candidates --hints",
            "run-once --hints", "retrieve --hints", "agent preflight --hints", "ingest --hints"} <= set(hints)
    for name, text in hints.items():
        assert "config's `hints`" in text and ", ".join(DEFAULT_HINTS) in text, (name, text)


def test_the_servers_hints_name_the_same_default() -> None:
    from mnemon.core.vault.observations import DEFAULT_HINTS
    from mnemon.interfaces.operations import OPERATIONS

    for op in OPERATIONS:
        if "hints" in op.properties:
            text = op.properties["hints"]["description"]
            assert "config's `hints`" in text and ", ".join(DEFAULT_HINTS) in text, op.name


# ── the same call takes the same arguments everywhere ─────────────────────────────────────────────────────────
def _mcp(mem: Any, name: str, args: dict[str, Any], **options: Any) -> dict[str, Any]:
    from mnemon.interfaces.mcp import handle

    reply = handle(lambda: mem, {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                                 "params": {"name": name, "arguments": args}}, **options)
    assert reply is not None
    return dict(reply["result"]["structuredContent"])


def _http(mem: Any, name: str, args: dict[str, Any], **options: Any) -> tuple[int, dict[str, Any]]:
    from mnemon.interfaces.http.server import Api

    reply = Api(lambda: mem, **options).handle("POST", f"/api/{name}", {"host": "localhost",
                                                                       "content-type": "application/json"},
                                               json.dumps(args).encode())
    return reply.status, json.loads(reply.body)


def test_link_takes_its_metadata_over_mcp_and_http_as_on_the_command_line(mem: Any, cli_run: CliRun) -> None:
    """`mnemon link A B --meta '{"why": …}'` kept the metadata on the edge; MCP's and HTTP's link had no such
    argument, and `meta` was refused as unknown."""
    from mnemon.app import curation
    from mnemon.interfaces import operations

    a, b = (mem.remember(text)["id"] for text in ("Alpha deploys with ArgoCD", "Beta reviews ArgoCD changes"))
    meta = {"why": "same tool", "seen": 2}
    assert _mcp(mem, "link", {"source_id": a, "target_id": b, "meta": meta})["metadata"] == {**meta,
                                                                                          "created_by": "agent"}
    status, doc = _http(mem, "link", {"source_id": b, "target_id": a, "edge_type": "causal", "meta": meta},
                        allow_writes=True)
    assert status == 200 and doc["metadata"] == {**meta, "created_by": "agent"}
    edges = [e for e in mem.show(a)["edges"] if e.get("type", e.get("edge_type")) == "causal"]
    assert edges and all(e["metadata"].get("why") == "same tool" for e in edges), edges
    # refused as the CLI refuses it: not an object, or too many keys
    for bad, said in (("x", "must be an object"), ({f"k{i}": i for i in range(21)}, "21 keys; the limit is 20")):
        error = _mcp(mem, "link", {"source_id": a, "target_id": b, "meta": bad})["error"]
        assert error["code"] == "invalid_input" and said in error["message"], error
    assert operations.MAX_META_KEYS == curation.MAX_META_KEYS


# ── a read-only server's cards carry only calls it offers ─────────────────────────────────────────────────────
def _store_with_every_card(mem: Any, tmp_path: Any) -> None:
    """A vault note (a follow-up bullet), an open prediction (its check), a payload scope (keep or forget) and
    candidate edges (validate or kill)."""
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "lighthouse.md").write_text("# Lighthouse\n\n- The lighthouse battery supplier is late\n", "utf-8")
    mem.ingest(str(vault))
    mem.predict_add({"title": "Lighthouse battery delivered", "check_after": "2026-01-01", "expires_at": "2027-02-01",
                     "match_json": {"sense_type": "manual", "observation_terms_all": ["lighthouse", "battery"]}})
    mem.remember_payload({"source_path": "mneme://agent/s36", "nodes": [{"ref": "a", "name": "Lighthouse battery"},
                                                                          {"ref": "b", "name": "Acme supplier"}],
                          "observations": [{"node": "a", "text": "The lighthouse battery supplier is Acme"}]})
    shipped = mem.remember("The lighthouse battery supplier Acme ships on Fridays")["id"]
    for edge in mem.show(shipped)["edges"]:  # weakened into candidates
        mem.weaken_edge(edge["id"], factor=0.05)


def _calls(cards: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [call for card in cards for action in card["suggested_actions"]
            for call in ([action["call"]] if "call" in action else list(action.get("calls", {}).values()))]


def test_a_read_only_servers_cards_carry_only_calls_it_offers(mem: Any, tmp_path: Any) -> None:
    """`mnemon --readonly mcp serve` and `mnemon serve` without --allow-writes handed out cards whose calls were
    `predict_check` (dry_run), `validate_edge`, `kill_edge`, `forget_source`, `note_add_bullet`: tools the MCP
    server did not list and routes the HTTP server refused (403 readonly). There the calls are left out, `no_call`
    says what they need, and the card's words say it too."""
    from mnemon.interfaces.mcp import handle
    from mnemon.interfaces.operations import OPERATIONS

    _store_with_every_card(mem, tmp_path)
    prompt = {"prompt": "lighthouse battery supplier", "limit": 20}
    writing = _calls(_mcp(mem, "surface", prompt)["thoughts"])  # a writable server: every call is there
    assert {"predict_check", "note_add_bullet", "forget_source", "validate_edge", "kill_edge"} <= {
        call["operation"] for call in writing}
    listed = handle(lambda: mem, {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, read_only=True)
    assert listed is not None
    offered = {tool["name"] for tool in listed["result"]["tools"]}
    assert offered == {op.name for op in OPERATIONS if op.read_only}
    status, http = _http(mem, "surface", prompt)
    assert status == 200
    for cards in (_mcp(mem, "surface", prompt, read_only=True)["thoughts"], http["thoughts"]):
        calls = _calls(cards)
        assert calls and {call["operation"] for call in calls} <= offered, calls
        for call in calls:  # each runs there
            assert "error" not in _mcp(mem, call["operation"], call["arguments"], read_only=True), call
            assert _http(mem, call["operation"], call["arguments"])[0] == 200, call
        said = [action["no_call"] for card in cards for action in card["suggested_actions"] if "no_call" in action]
        assert len(said) >= 4 and all("started read-only" in text for text in said), said
        for card in cards:
            if "predict_check" in card["action"]:
                assert "started read-only" in card["action"], card["action"]


# ── the schemas refuse what the library refuses inside an object: the optional fields' types too ─────────────────
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_SPACE = " \t\u3000\u00a0"
_WORDS = ("fact", "blocked", "done", "risk", "correction", "active", "candidate", "killed")
# what an agent may put in an optional field: null, other JSON types, texts with a NUL or only spaces, and the
# choices of kind and status in other cases, between spaces (the Kelvin sign lower-cases to k)
_FIELD = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 3), st.floats(-2, 2), st.lists(st.text(max_size=3), max_size=2),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    st.text(st.sampled_from(f"ab\x00{_SPACE}é日"), max_size=6),
    st.builds(lambda w, case, pad: pad + {"lower": w, "upper": w.upper(), "title": w.title(),
                                         "kelvin": w.replace("k", "\u212a")}[case] + pad,
              st.sampled_from(_WORDS), st.sampled_from(["lower", "upper", "title", "kelvin"]),
              st.sampled_from(["", " ", "\u3000"])))


def _accepted(call: Callable[[], Any]) -> bool:
    from mnemon.core.errors import InvalidInput

    try:
        call()
    except InvalidInput:
        return False
    return True


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(field=st.sampled_from([("nodes", "name"), ("nodes", "type"), ("nodes", "summary"), ("edges", "status"),
                              ("edges", "evidence"), ("observations", "kind")]), value=_FIELD)
def test_a_payloads_optional_field_the_schema_takes_is_one_the_library_takes(mem: Any, field: tuple[str, str],
                                                                             value: Any) -> None:
    """A payload node's `name: 5`, an observation's `kind: 7` or `kind: "nope"`, an edge's `status: ["x"]` passed
    the schema a client checks (tools/list) and were refused by the library: optional fields were any value."""
    from jsonschema import Draft202012Validator

    from mnemon.interfaces.operations import BY_NAME, check_args

    items = {"nodes": [{"ref": "a"}, {"ref": "b"}], "edges": [{"src": "a", "dst": "b", "relation": "uses"}],
             "observations": [{"node": "a", "text": "Mira is out next week"}]}
    where, key = field
    items[where][0][key] = value
    args = {"payload": {"source_path": "mneme://agent/s36", **items}, "dry_run": True}
    op = BY_NAME["remember_payload"]
    valid = Draft202012Validator(op.schema()).is_valid(args)
    assert _accepted(lambda: mem.remember_payload(args["payload"], dry_run=True)) == valid, (field, value)
    assert _accepted(lambda: check_args(op, args)) == valid, (field, value)


_GWS = {"sense_type": "gws", "observation_terms_all": ["invoice"]}


@pytest.mark.parametrize("match", [5, True, ["gws"], _GWS, json.dumps(_GWS)])
@pytest.mark.parametrize("name", ["match_json", "match"])
def test_a_predictions_match_is_an_object_or_its_json_text(mem: Any, name: str, match: Any) -> None:
    """`match_json: 5` passed the schema and was refused by the library."""
    from jsonschema import Draft202012Validator

    from mnemon.interfaces.operations import BY_NAME, check_args

    args = {"prediction": {"title": "Invoice paid", "check_after": "2026-01-01", "expires_at": "2026-02-01",
                           name: match}}
    op = BY_NAME["predict_add"]
    valid = Draft202012Validator(op.schema()).is_valid(args)
    assert valid == isinstance(match, (dict, str))
    assert _accepted(lambda: mem.predict_add(dict(args["prediction"]))) == valid
    assert _accepted(lambda: check_args(op, args)) == valid


def test_the_payload_choices_and_the_lower_case_letters_are_the_librarys() -> None:
    from mnemon.app.vault import payload
    from mnemon.interfaces import operations

    from mnemon.core.world import ledger, predictions, senses

    assert operations.OBSERVATION_KINDS == payload.OBSERVATION_KINDS
    assert (operations.SENSE_TYPES, operations.PREDICTION_TYPES, operations.ACTION_STATUSES) == (
        senses.SENSE_TYPES, predictions.PREDICTION_TYPES, ledger.ACTION_STATUSES)
    # every field the library reads, and no other (a prediction's source_path the app moves into its metadata)
    ops = operations.BY_NAME
    assert set(ops["action_record"].properties["action"]["properties"]) == ledger.ACTION_FIELDS
    assert set(ops["action_record"].properties["action"]["properties"]["verify"]["properties"]) == \
        ledger.VERIFY_FIELDS
    assert set(ops["predict_add"].properties["prediction"]["properties"]) == predictions.PREDICTION_FIELDS | {
        "source_path"}
    assert set(ops["sense_add"].properties["events"]["items"]["properties"]) == senses.SENSE_EVENT_FIELDS
    letters = {c for word in operations.OBSERVATION_KINDS + operations.SENSE_TYPES for c in word if c.isalpha()}
    others: dict[str, str] = {}
    for code in range(0x110000):  # what else `str.lower` makes one of their letters (the choices read in any case)
        char = chr(code)
        if char.lower() in letters and char not in (char.lower(), char.lower().upper()):
            others[char.lower()] = others.get(char.lower(), "") + f"\\u{code:04x}"
    assert others == operations._LOWERS_TO


_WORLD_OBJECTS = {  # each operation's object: a base that is accepted, with a fresh title or source id per call
    "predict_add": ("prediction", lambda tag: {"title": f"Invoice {tag} paid", "check_after": "2026-01-01",
                                               "expires_at": "2026-02-01", "match_json": _GWS}),
    "action_record": ("action", lambda tag: {"action_type": "email", "title": f"Sent invoice {tag}",
                                             "side_effect_level": "external", "tool_call_id": f"call-{tag}",
                                             "external_ref": f"ref-{tag}"}),  # (either handle may be drawn)
    "sense_add": ("events", lambda tag: [{"sense_type": "gws", "observed_at": "2026-01-01T09:00:00Z",
                                          "title": "Invoice paid", "source_id": f"msg-{tag}"}]),
}
# fields whose refusals no schema can state: a stored row they must name (and metadata or a match given as a text
# that is not the JSON of an object, drawn below only as one that is)
_NAMES_A_ROW = {"subject_assertion_id", "source_action_id", "assertion_ids", "verified_by_prediction",
                "prediction_id"}
_FIELD_OR_TIME = st.one_of(_FIELD, st.sampled_from(["2026-01-01", "2026-01-01T09:30:00Z", "1d", "gws", " Manual "]),
                           st.lists(st.sampled_from(["a", " ", ""]), max_size=2), st.just(_GWS))


@st.composite
def _world_call(draw: Any) -> tuple[str, str, Any]:
    from mnemon.interfaces.operations import BY_NAME

    op_name = draw(st.sampled_from(sorted(_WORLD_OBJECTS)))
    argument, base = _WORLD_OBJECTS[op_name]
    spec = BY_NAME[op_name].properties[argument]
    fields = (spec.get("items") or spec)["properties"]
    key = draw(st.sampled_from(sorted(set(fields) - _NAMES_A_ROW)))
    value = draw(_FIELD_OR_TIME)
    if key.startswith(("metadata", "match")) and isinstance(value, str):  # what a text must hold is no type
        value = json.dumps(_GWS)
    return op_name, key, value


_TAGS = iter(range(10**9))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(call=_world_call())
def test_a_world_objects_field_the_schema_takes_is_one_the_library_takes(mem: Any, call: tuple[str, str, Any]) -> None:
    """predict_add's, action_record's and sense_add's objects stated a few required fields and no types: a
    prediction's `title: 5`, `confidence: "high"`, an action's `user_confirmed: "yes"`, `assertion_ids: "a"`, a
    sense event's `sense_type: "email"`, `observed_at: 5` or a misspelt field passed the schema and were refused
    by the library."""
    from jsonschema import Draft202012Validator

    from mnemon.interfaces.operations import BY_NAME, check_args

    op_name, key, value = call
    argument, base = _WORLD_OBJECTS[op_name]
    obj = base(next(_TAGS))
    if key == "match":  # Mneme's spelling, read when match_json is not given
        del obj["match_json"]
    (obj[0] if isinstance(obj, list) else obj)[key] = value
    op = BY_NAME[op_name]
    # (every rule as check_args reads it: the alias match stated in full, where tools/list says it is match_json's)
    valid = Draft202012Validator(op.schema(full=True)).is_valid({argument: obj})
    assert _accepted(lambda: check_args(op, {argument: obj})) == valid, (key, value)
    assert _accepted(lambda: op.call(mem, {argument: json.loads(json.dumps(obj))})) == valid, (key, value)


def test_remember_recall_and_search_take_the_clis_options_over_the_servers(mem: Any, cli_run: CliRun) -> None:
    """`remember --no-diff --entity-mode provided`, `recall --brief --excerpt-chars N` and `search --brief
    --excerpt-chars N` had no arguments over MCP and HTTP: an agent could not skip the diff, keep only its own
    entities, or get search's brief excerpts."""
    text = "Mira Chen moved the Lisbon office launch to March because the lease was delayed by the landlord"
    done = _mcp(mem, "remember", {"content": text, "entities": ["Lighthouse"], "entity_mode": "provided",
                                  "no_diff": True})
    assert "error" not in done, done
    assert mem.show(done["id"])["entities"] == ["Lighthouse"]
    assert _mcp(mem, "remember", {"content": text + "!"})["diff_matches"]  # the diff names the first
    assert _mcp(mem, "remember", {"content": text + ".", "no_diff": True})["diff_matches"] == []
    for name in ("recall", "search"):
        reply = _mcp(mem, name, {"query": "Lisbon office launch", "brief": True, "excerpt_chars": 20})
        assert reply["results"][0]["excerpt"] == "Mira Chen moved the…", (name, reply)
        status, doc = _http(mem, name, {"query": "Lisbon office launch", "excerpt_chars": 20})
        assert status == 400 and doc["error"]["code"] == "invalid_input", doc
        assert "needs 'brief' true" in doc["error"]["message"], doc


@pytest.mark.parametrize(("argv", "args"), [
    (["related", "nope", "--direction", "sideways"], ("related", {"id": "nope", "direction": "sideways"})),
    (["related", "nope", "--depth", "11"], ("related", {"id": "nope", "depth": 11})),
    (["link", "nope", "gone", "--sub-type", "enables"], ("link", {"source_id": "nope", "target_id": "gone",
                                                                   "sub_type": "enables"}))])
def test_a_bad_argument_beside_an_unknown_id_is_the_same_refusal_everywhere(mem: Any, cli_run: CliRun,
                                                                           argv: list[str],
                                                                           args: tuple[str, dict[str, Any]]) -> None:
    """`mnemon related nope --direction sideways` answered not_found (the memory) where MCP and HTTP answered
    invalid_input (the direction): the library looked the memory up before it read its arguments."""
    code, doc = cli_run(argv)
    assert (code, doc["error"]["code"]) == (1, "invalid_input"), doc
    assert _mcp(mem, *args)["error"]["code"] == "invalid_input"


@pytest.mark.parametrize(("argv", "call"), [
    (["show", " "], ("show", {"id": " "})),
    (["related", ""], ("related", {"id": ""})),
    (["link", "", "x"], ("link", {"source_id": "", "target_id": "x"})),
    (["state", "explain", ""], ("state_explain", {"id": ""})),
    (["state", "retract", "", "--reason", "typo"], ("state_retract", {"id": "", "reason": "typo"})),
    (["predict", "check", "--id", "", "--dry-run"], ("predict_check", {"id": "", "dry_run": True}))])
def test_a_blank_id_is_invalid_input_everywhere(mem: Any, cli_run: CliRun, argv: list[str],
                                                call: tuple[str, dict[str, Any]]) -> None:
    """`mnemon show ''` (state explain, predict check --id '' …) answered not_found, as if a memory could have no id,
    where MCP and HTTP, whose schemas refuse a blank id, answered invalid_input; predict_check's schema took a blank
    id, which the library then looked up."""
    code, doc = cli_run(argv)
    assert (code, doc["error"]["code"]) == (1, "invalid_input") and "blank" in doc["error"]["message"], doc
    assert _mcp(mem, *call)["error"]["code"] == "invalid_input"
