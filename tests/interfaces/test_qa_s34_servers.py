"""Session 34's QA of the servers as agents use them: `mnemon --readonly mcp serve`, the way to hand an agent a
memory it may read and not change; a server on PostgreSQL whose database session ended; predict_add's schema."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from interfaces.test_mcp import _env, _raw_session, call
from jsonschema import Draft202012Validator

from mnemon.app.config import load_config
from mnemon.app.memory import Mnemon
from mnemon.core.errors import InvalidInput
from mnemon.interfaces.http.server import Api, body_args
from mnemon.interfaces.mcp import handle
from mnemon.interfaces.operations import BY_NAME, OPERATIONS, check_args


def _readonly_session(tmp_path: Path, messages: list[dict]) -> dict:
    db = str(tmp_path / "m.db")
    seeded = subprocess.run([sys.executable, "-m", "mnemon", "--db", db, "remember", "The pilot starts in June"],
                            capture_output=True, env=_env(tmp_path), timeout=60)
    assert seeded.returncode == 0, seeded.stderr
    proc = subprocess.run([sys.executable, "-m", "mnemon", "--db", db, "--readonly", "mcp", "serve"],
                          input="".join(json.dumps(m) + "\n" for m in messages).encode(), capture_output=True,
                          env=_env(tmp_path), timeout=60)
    assert proc.returncode == 0 and b"Traceback" not in proc.stderr, proc.stderr
    return {reply["id"]: reply for reply in map(json.loads, proc.stdout.decode().splitlines())}


def test_a_read_only_mcp_server_offers_only_the_tools_that_can_work(tmp_path: Path) -> None:
    """It listed all 26 tools: an agent given a read-only memory was offered remember, forget, kill_edge and
    forget_source, each of which could only fail with `readonly`, and recall was not marked read-only though a
    read-only store counts no access. Now it lists the read-only tools, every one hinted read-only; a write tool
    called anyway still gets the `readonly` envelope."""
    replies = _readonly_session(tmp_path, [
        {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
        call(2, "remember", {"content": "The pilot moved to July"}),
        call(3, "recall", {"query": "pilot"}),
    ])
    tools = {tool["name"]: tool for tool in replies[1]["result"]["tools"]}
    assert set(tools) == {op.name for op in OPERATIONS if op.read_only}
    assert {"remember", "forget", "forget_source", "kill_edge"}.isdisjoint(tools)
    assert all(tool["annotations"]["readOnlyHint"] is True for tool in tools.values())
    refused = replies[2]["result"]
    assert refused["isError"] is True and refused["structuredContent"]["error"]["code"] == "readonly"
    assert replies[3]["result"]["structuredContent"]["results"][0]["insight"]["content"] == "The pilot starts in June"


@pytest.mark.postgres
def test_a_server_on_postgresql_outlives_a_lost_database_session(pg_db_url: str, pg_url: str,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """A PostgreSQL restart (or an idle timeout, a network cut) ended the server's one session, and `mnemon serve`
    and `mcp serve` answered every later call with an error until someone restarted them: the first as `internal`
    (AdminShutdown, and so in the HTTP server's log), the rest as `store_error: the connection is closed`. A call
    that meets the lost session is the database's refusal (since session 35 only when the server's goodbye had not
    reached the socket before the call: test_qa_s35_pg_sessions); the next one runs on a new session."""
    import psycopg

    mem = Mnemon.open(load_config(dict(os.environ), db=pg_db_url))

    def end_session() -> None:
        with psycopg.connect(pg_url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (mem.rt.store.conn.info.backend_pid,))

    try:
        def ask(i: int, name: str, args: dict) -> dict:
            return handle(lambda: mem, call(i, name, args))["result"]  # type: ignore[index]

        assert ask(1, "remember", {"content": "The pilot starts in June"})["isError"] is False
        end_session()
        met = ask(2, "search", {"query": "pilot"})
        assert not met["isError"] or met["structuredContent"]["error"]["code"] == "store_error", met
        found = ask(3, "search", {"query": "pilot"})
        assert found["isError"] is False, found
        assert [r["content"] for r in found["structuredContent"]["results"]] == ["The pilot starts in June"]
        assert ask(4, "remember", {"content": "The pilot moved to July"})["structuredContent"]["action"] == "added"
        assert mem.status()["total_insights"] == 2
        end_session()
        api = Api(lambda: mem)
        answers = [api.handle("GET", "/api/search?query=pilot", {"host": "localhost"}, b"") for _ in range(2)]
        assert answers[0].status in (200, 500) and answers[1].status == 200
        if answers[0].status == 500:
            assert json.loads(answers[0].body)["error"]["code"] == "store_error"
            assert "store_error on GET /api/search" in capsys.readouterr().err
    finally:
        mem.close()


@pytest.mark.postgres
def test_a_lost_session_holding_the_ingest_lock_is_not_replaced(pg_store: Any, pg_url: str) -> None:
    """The ingest lock is the session's own: with it gone, an ingest going on in a new session would run beside a
    second one. Inside the lock a lost session stays an error; after it, the next statement gets a new session."""
    import psycopg

    with pg_store.vault.ingest_lock():
        with psycopg.connect(pg_url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (pg_store.conn.info.backend_pid,))
        for _ in range(2):
            with pytest.raises(psycopg.OperationalError):
                pg_store.count_active()
    assert pg_store.count_active() == 0


# ── predict_add states that a prediction needs its match ──────────────────
PREDICTION = {"title": "Invoice paid", "check_after": "2025-01-10", "expires_at": "2025-02-01"}
MATCH = {"sense_type": "gws", "observation_terms_all": ["paid"]}


def test_predict_add_states_that_a_prediction_needs_match_json(mem: Mnemon) -> None:
    """Its schema required title, check_after and expires_at: a client that checked a prediction against it sent one
    without `match_json` and was refused by the library. Now the schema refuses it first, and `check_args` in the
    same words; `match`, the library's other name for it, is accepted by both."""
    op = BY_NAME["predict_add"]
    validator = Draft202012Validator(op.schema())
    assert not validator.is_valid({"prediction": PREDICTION})
    with pytest.raises(InvalidInput, match="missing 'match_json'"):
        check_args(op, {"prediction": PREDICTION})
    for name in ("match_json", "match"):
        args = {"prediction": {**PREDICTION, name: MATCH, "title": f"Invoice paid ({name})"}}
        assert validator.is_valid(args)
        assert op.call(mem, check_args(op, args))["created"] is True


# ── tool schemas an agent host accepts ──────────────────────────────────
ROOT_COMBINATORS = {"allOf", "anyOf", "oneOf", "not", "if", "then", "else", "enum", "const"}


def test_every_tool_schema_is_a_plain_object_at_its_root(tmp_path: Path) -> None:
    """recall's and graph's input schemas held a root `allOf` (their exclusive pairs). Anthropic's API refuses a
    tool whose input schema has `allOf`/`anyOf`/`oneOf` at the top level (Claude Code then drops the tool, or older
    versions fail every request of the session), and OpenAI's function tools refuse it too (Codex): an agent lost
    recall, the tool it needs most. The pairs are now said in the arguments' descriptions and still refused by the
    server, as a tool error the model can correct."""
    out = _raw_session(tmp_path, b"".join(json.dumps(m).encode() + b"\n" for m in [
        {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
        call(2, "recall", {"query": "pilot", "brief": True, "verbose": True}),
        call(3, "graph", {"focus": "x", "folder": "Projects"}),
    ]))
    by_id = {reply["id"]: reply for reply in out}
    tools = {tool["name"]: tool for tool in by_id[1]["result"]["tools"]}
    for name, tool in tools.items():
        schema = tool["inputSchema"]
        assert schema["type"] == "object" and not ROOT_COMBINATORS & set(schema), (name, sorted(schema))
        Draft202012Validator.check_schema(schema)
    assert "not with verbose" in tools["recall"]["inputSchema"]["properties"]["brief"]["description"]
    assert "not with brief" in tools["recall"]["inputSchema"]["properties"]["verbose"]["description"]
    assert "not with folder" in tools["graph"]["inputSchema"]["properties"]["focus"]["description"]
    for i, message in ((2, "'brief' and 'verbose' cannot both be true"), (3, "'focus' and 'folder' cannot both")):
        refused = by_id[i]["result"]
        assert refused["isError"] is True and message in refused["structuredContent"]["error"]["message"]


# ── a JSON body after a byte order mark ─────────────────────────────────────
def test_a_json_body_after_a_byte_order_mark_is_read_as_over_mcp(mem: Mnemon) -> None:
    """A body saved by Windows tools (PowerShell 5's `Set-Content -Encoding UTF8`, older Notepad) starts with a
    UTF-8 byte order mark, which RFC 8259 lets a parser ignore and the MCP server does: `mnemon serve` answered
    "the body is not JSON: Unexpected UTF-8 BOM (decode using utf-8-sig)". One leading mark is skipped; the text's
    own marks are kept; two are no JSON."""
    api = Api(lambda: mem, allow_writes=True)

    def post(name: str, body: bytes) -> tuple[int, dict]:
        answer = api.handle("POST", f"/api/{name}", {"host": "localhost", "content-type": "application/json"}, body)
        return answer.status, json.loads(answer.body)

    bom = "\ufeff".encode()
    status, added = post("remember", bom + json.dumps({"content": "\ufeffThe pilot starts in June"}).encode())
    assert (status, added["action"]) == (200, "added"), added
    status, found = post("search", bom + b'{"query": "pilot"}')
    assert status == 200 and [r["content"] for r in found["results"]] == ["\ufeffThe pilot starts in June"]
    status, refused = post("search", bom + bom + b'{"query": "pilot"}')
    assert (status, refused["error"]["code"]) == (400, "invalid_input")


def test_serve_refuses_allow_writes_on_a_store_opened_readonly(cli_run: Any, tmp_path: Path) -> None:
    """`mnemon --readonly serve --allow-writes` announced `"read_only": false` and listed every write operation,
    and the workbench offered them, each refused `readonly` by the store: the two flags contradict, and the
    server now says so before it listens."""
    code, out = cli_run(["--db", str(tmp_path / "m.db"), "--readonly", "serve", "--port", "0", "--allow-writes"])
    assert code != 0 and out["error"]["code"] == "invalid_input", out
    assert "--allow-writes" in out["error"]["message"] and "--readonly" in out["error"]["message"]


def test_an_mcp_server_that_cannot_start_says_why_on_stderr(tmp_path: Path) -> None:
    """With a config file that is not JSON, `mnemon mcp serve` printed its error envelope on stdout, where an MCP
    client expects JSON-RPC (it logged a parse failure at most), and nothing on stderr, the stream clients keep in
    their server logs: the user saw "failed to connect" and no reason. The reason is now on stderr too."""
    config = tmp_path / "config.json"
    config.write_text("{not json", encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "mnemon", "--config", str(config), "mcp", "serve"],
                          input=json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize"}).encode() + b"\n",
                          capture_output=True, env=_env(tmp_path), timeout=60)
    assert proc.returncode == 1
    assert json.loads(proc.stdout)["error"]["code"] == "invalid_input"  # the CLI's one JSON document, as ever
    err = proc.stderr.decode()
    assert "mnemon mcp serve: invalid_input" in err and "is not valid JSON" in err and "Traceback" not in err


# ── a store removed under a running server ──────────────────────────────────
def test_a_server_refuses_writes_to_a_store_removed_under_it(make_mem: Any, tmp_path: Path, cli_run: Any) -> None:
    """`mnemon store remove work` from another shell, while an agent's `mcp serve --store work` ran: every later
    remember was answered `added` and went into the unlinked file, lost for good when the server stopped. A write
    now finds the file gone (or another in its place) and is refused, so the agent and its user hear of it."""
    db = tmp_path / "work" / "mnemon.db"
    mem = make_mem(db=db)

    def remember(i: int, content: str) -> dict:
        return handle(lambda: mem, call(i, "remember", {"content": content}))["result"]  # type: ignore[index]

    assert remember(1, "The kiln fires at 1200 degrees")["structuredContent"]["action"] == "added"
    for leftover in db.parent.iterdir():  # what `store remove` does: the store's folder goes
        leftover.unlink()
    refused = remember(2, "Glaze batch 7 cracked")
    assert refused["isError"] is True and refused["structuredContent"]["error"]["code"] == "store_error", refused
    assert "removed or replaced" in refused["structuredContent"]["error"]["message"]
    # a new store made at the same place is not the one this server opened: still refused, and nothing lands there
    assert cli_run(["--db", str(db), "remember", "A new store's first memory"])[0] == 0
    assert remember(3, "Glaze batch 8 is fine")["structuredContent"]["error"]["code"] == "store_error"
    code, found = cli_run(["--db", str(db), "search", "glaze"])
    assert code == 0 and found["results"] == []


def test_tool_descriptions_speak_to_the_agent_not_of_the_codebase() -> None:
    """remember's description ended "Returns the seed's remember JSON": the seed is the design document this
    project grew from, which no agent reading its tools has seen. It now says what comes back."""
    for op in OPERATIONS:
        assert "seed" not in op.description.lower(), op.name
    assert "id" in BY_NAME["remember"].description and "added or skipped" in BY_NAME["remember"].description


def test_a_json_body_naming_a_key_twice_is_refused_as_a_repeated_query_argument_is(mem: Mnemon) -> None:
    """`?limit=1&limit=50` is refused (a repeated argument is never silently resolved), but a body giving a key twice
    was read with the last one winning, which a proxy or a logger in front may read as the first:
    `{"source_path": …, "dry_run": true, "dry_run": false}` removed the scope. Refused, at any depth, naming it."""
    mem.remember_payload({"source_path": "mneme://agent/s1", "nodes": [{"ref": "n", "name": "Nora", "type": "person"}]})
    api = Api(lambda: mem, allow_writes=True)
    headers = {"host": "localhost", "content-type": "application/json"}
    for name, body in (("forget_source", b'{"source_path": "mneme://agent/s1", "dry_run": true, "dry_run": false}'),
                       ("remember_payload", b'{"payload": {"source_path": "mneme://agent/s1", "nodes": [], '
                                            b'"source_path": "mneme://agent/s2"}}')):
        answer = api.handle("POST", f"/api/{name}", headers, body)
        error = json.loads(answer.body)["error"]
        assert (answer.status, error["code"]) == (400, "invalid_input"), error
        assert "'dry_run'" in error["message"] or "'source_path'" in error["message"]
    assert mem.forget_source("mneme://agent/s1", dry_run=True)["removed"]["nodes"] == 1  # nothing was removed


def test_a_store_opened_by_a_relative_path_still_writes_after_a_change_of_directory(
        make_mem: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check that the file is still the one opened must not take a new working directory for a removed file."""
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path)
    mem = make_mem(db="m.db")
    monkeypatch.chdir(tmp_path / "elsewhere")
    assert mem.remember("The pilot starts in June")["action"] == "added"


def test_the_openapi_server_url_is_a_url_for_a_mount_with_a_space() -> None:
    """`--mount "/my mem"`: the redirect and the ready line say /my%20mem/, but the OpenAPI document's server URL
    was "/my mem", which is no URL: a client generated from it built request URLs with a raw space."""
    api = Api(lambda: None, mount="/my mem")
    answer = api.handle("GET", "/my%20mem/api/openapi.json", {"host": "localhost"}, b"")
    assert answer.status == 200 and json.loads(answer.body)["servers"] == [{"url": "/my%20mem"}]
    assert json.loads(Api(lambda: None).handle("GET", "/api/openapi.json", {"host": "localhost"}, b"").body)[
        "servers"] == [{"url": "/"}]


_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                     lambda inner: (st.lists(inner, max_size=3)
                                    | st.dictionaries(st.text(max_size=3), inner, max_size=3)),
                     max_leaves=10)


@given(args=st.dictionaries(st.text(max_size=3), _JSON, max_size=4), bom=st.booleans())
def test_body_args_reads_every_object_without_repeated_keys_as_json_does(args: dict, bom: bool) -> None:
    body = ("\ufeff" if bom else "").encode() + json.dumps(args).encode()
    assert body_args(body) == args


@given(args=st.dictionaries(st.text(max_size=3), _JSON, min_size=1, max_size=4), data=st.data())
def test_body_args_refuses_a_key_repeated_at_any_depth(args: dict, data: st.DataObject) -> None:
    key = data.draw(st.sampled_from(sorted(args)))
    text = json.dumps(args)
    repeated = text[:-1] + ", " + json.dumps(key) + ": null}"  # the top level
    nested = json.dumps({"payload": args}).replace(text, repeated, 1)  # the same repeat one level down
    for body in (repeated, nested):
        with pytest.raises(InvalidInput, match=re.escape(f"gives {key!r} twice")):
            body_args(body.encode())


@pytest.mark.postgres
def test_closing_a_store_whose_session_was_lost_opens_no_new_one(pg_store: Any, pg_url: str) -> None:
    import psycopg

    lost = pg_store.conn
    with psycopg.connect(pg_url, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (lost.info.backend_pid,))
        while admin.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", (lost.info.backend_pid,)).fetchone():
            admin.execute("SELECT pg_sleep(0.01)")  # until the server's goodbye is on the session's socket
        pg_store.close()
        assert pg_store._conn is lost  # closed as it was, not replaced by a session opened only to be closed


def test_an_mcp_server_started_in_a_terminal_says_what_it_waits_for(tmp_path: Path) -> None:
    """Run by hand to try it, `mnemon mcp serve` printed nothing and seemed to hang. With a terminal on its stdin it
    now says on stderr what it waits for; stdout, the protocol stream, stays empty. (A client's pipe gets no line.)
    With its stdin closed it is a clear error, not `internal`."""
    import pty

    main, terminal = pty.openpty()
    try:
        proc = subprocess.Popen([sys.executable, "-m", "mnemon", "--db", str(tmp_path / "m.db"), "mcp", "serve"],
                                stdin=terminal, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_env(tmp_path))
        os.write(main, b"\x04")  # Ctrl-D: the end of its input
        out, err = proc.communicate(timeout=60)
    finally:
        os.close(main)
        os.close(terminal)
    assert proc.returncode == 0 and out == b""
    assert "JSON-RPC" in err.decode() and "MCP client" in err.decode()
    piped = subprocess.run([sys.executable, "-m", "mnemon", "--db", str(tmp_path / "m.db"), "mcp", "serve"],
                           input=b"", capture_output=True, env=_env(tmp_path), timeout=60)
    assert (piped.returncode, piped.stdout, piped.stderr) == (0, b"", b"")
    # with its standard input closed it said `internal: AttributeError: 'NoneType' object has no attribute 'buffer'`
    closed = subprocess.run(["sh", "-c", 'exec "$0" -m mnemon --db "$1" mcp serve <&-', sys.executable,
                             str(tmp_path / "m.db")], capture_output=True, env=_env(tmp_path), timeout=60)
    assert closed.returncode == 1 and json.loads(closed.stdout)["error"]["code"] == "invalid_input"
    assert b"mnemon mcp serve: invalid_input: standard input is closed" in closed.stderr


def test_an_mcp_message_that_gives_a_key_twice_is_refused_as_the_http_api_refuses_it(tmp_path: Path) -> None:
    """The HTTP API refuses a body that gives a key twice; the MCP server read the last one. Now a tool's arguments
    that do (at any depth) get the tool error, and a message or its params the JSON-RPC one, each with the id."""
    lines = [b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"forget_source","arguments":'
             b'{"source_path":"mneme://agent/s1","dry_run":true,"dry_run":false}}}',
             b'{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"remember_payload","arguments":'
             b'{"payload":{"source_path":"mneme://agent/s1","source_path":"mneme://agent/s2"}}}}',
             b'{"jsonrpc":"2.0","id":3,"method":"ping","method":"tools/list"}',
             b'{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"status","name":"log"}}',
             b'{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"search","arguments":'
             b'{"query":"x","limit":' + b"[" * 600 + b"]" * 600 + b"}}}",
             b'{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"search","arguments":{"query":"x"}}}']
    by_id = {reply["id"]: reply for reply in _raw_session(tmp_path, b"\n".join(lines) + b"\n")}
    for i, key in ((1, "dry_run"), (2, "source_path")):
        result = by_id[i]["result"]
        assert result["isError"] is True and result["structuredContent"]["error"]["code"] == "invalid_input"
        assert f"give {key!r} twice" in result["structuredContent"]["error"]["message"]
    assert by_id[3]["error"]["code"] == -32600 and "'method' is given twice" in by_id[3]["error"]["message"]
    assert by_id[4]["error"]["code"] == -32602 and "'name' is given twice" in by_id[4]["error"]["message"]
    assert by_id[5]["result"]["structuredContent"]["error"]["code"] == "invalid_input"  # deep, but no key twice
    assert by_id[6]["result"]["isError"] is False
