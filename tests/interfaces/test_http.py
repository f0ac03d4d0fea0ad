"""The HTTP API over real sockets: a server on a free loopback port, called with urllib as any script would."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mnemon.interfaces.http.server import Api, make_server
from mnemon.interfaces.operations import BY_NAME, OPERATIONS

SRC = Path(__file__).resolve().parents[2] / "src"

Call = Callable[..., tuple[int, Any, dict[str, str]]]


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None  # a redirect is an answer the tests look at


_OPENER = urllib.request.build_opener(_NoRedirect)


def _request(base: str, path: str, *, body: Any = None, raw: bytes | None = None, method: str | None = None,
             headers: dict[str, str] | None = None) -> tuple[int, Any, dict[str, str]]:
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    hdrs = {"Content-Type": "application/json"} if data is not None else {}
    hdrs.update(headers or {})
    req = urllib.request.Request(base + path, data=data, method=method or ("POST" if data is not None else "GET"),
                                 headers=hdrs)
    try:
        with _OPENER.open(req, timeout=30) as resp:
            status, payload, got = resp.status, resp.read(), dict(resp.headers)
    except urllib.error.HTTPError as err:
        status, payload, got = err.code, err.read(), dict(err.headers)
    kind = got.get("Content-Type", "")
    return status, json.loads(payload) if kind.startswith("application/json") else payload, got


@pytest.fixture
def serve(mem) -> Iterator[Callable[..., Call]]:
    servers = []

    def start(**options: Any) -> Call:
        server = make_server(Api(lambda: mem, **options), "127.0.0.1", 0)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        base = f"http://127.0.0.1:{server.server_address[1]}"
        return lambda path, **kw: _request(base, path, **kw)

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


def test_operations_answer_with_the_facade_payloads(serve, mem) -> None:
    a = mem.remember("Chose Qdrant as the vector database", category="decision")["id"]
    b = mem.remember("Qdrant runs on the staging cluster", category="fact")["id"]
    mem.link(a, b, "causal", sub_type="enables")
    call = serve()
    status, listing, _ = call("/api")
    assert status == 200 and listing["read_only"] is True
    assert [op["name"] for op in listing["operations"]] == [op.name for op in OPERATIONS]
    assert listing["operations"][0]["parameters"]["required"] == ["content"]

    status, graph, headers = call("/api/graph?max_nodes=10&include_candidates=false")
    assert status == 200 and headers["Content-Type"].startswith("application/json")
    assert graph == mem.graph(max_nodes=10, include_candidates=False)
    status, shown, _ = call(f"/api/show?id={a}")
    assert status == 200 and shown["id"] == a and shown["content"].startswith("Chose Qdrant")
    status, found, _ = call("/api/recall?query=vector+database&limit=1")
    assert status == 200 and [r["insight"]["id"] for r in found["results"]] == [a]
    status, posted, _ = call("/api/recall", body={"query": "vector database", "limit": 1})
    assert status == 200 and posted["results"][0]["insight"]["id"] == a
    edge = mem.rt.store.find_edge(a, b, "causal")
    status, why, _ = call(f"/api/explain_edge?id={edge.id}")
    assert status == 200 and why["edge"]["relation"] == "causal"


def test_a_read_only_server_refuses_writes_and_a_writable_one_takes_them(serve, mem) -> None:
    read_only = serve()
    status, err, _ = read_only("/api/remember", body={"content": "the lease ends in May"})
    assert status == 403 and err["error"]["code"] == "readonly"
    assert mem.recall("lease")["results"] == []
    status, err, headers = read_only("/api/remember?content=x")
    assert status == 405 and err["error"]["code"] == "method_not_allowed"  # a write is never a GET
    assert headers["Allow"] == "POST, OPTIONS"

    writable = serve(allow_writes=True)
    status, done, _ = writable("/api/remember", body={"content": "The office lease ends in May", "tags": ["office"]})
    assert status == 200 and done["action"] == "added"
    assert mem.show(done["id"])["tags"] == ["office"]
    status, gone, _ = writable("/api/forget", body={"id": done["id"]})
    assert status == 200 and gone["status"] == "deleted"


@pytest.mark.parametrize("path, kwargs, status, code", [
    ("/api/nope", {}, 404, "not_found"),
    ("/elsewhere", {}, 404, "not_found"),
    ("/api/recall", {}, 400, "invalid_input"),  # its query is required
    ("/api/recall?query=x&limit=ten", {}, 400, "invalid_input"),
    ("/api/recall?query=x&query=y", {}, 400, "invalid_input"),
    ("/api/recall?query=x&limt=3", {}, 400, "invalid_input"),  # a typo'd argument is not silently ignored
    ("/api/recall?query=x&brief=maybe", {}, 400, "invalid_input"),
    ("/api/recall", {"body": {"query": "x", "limit": "three"}}, 400, "invalid_input"),
    ("/api/recall", {"body": {"query": "x", "limit": True}}, 400, "invalid_input"),
    ("/api/recall", {"body": ["x"]}, 400, "invalid_input"),
    ("/api/recall", {"raw": b"{not json"}, 400, "invalid_input"),
    ("/api/recall", {"raw": b'{"query": "x"}', "headers": {"Content-Type": "text/plain"}}, 415,
     "unsupported_media_type"),
    ("/api/recall?query=x", {"method": "DELETE"}, 405, "method_not_allowed"),
    ("/api/show?id=missing", {}, 404, "not_found"),
    ("/api/graph?max_nodes=0", {}, 400, "invalid_input"),
    ("/static/../server.py", {}, 404, "not_found"),
    ("/static/%2e%2e%2fserver.py", {}, 404, "not_found"),
    ("/static/nothing.js", {}, 404, "not_found"),
    # found by fuzzing the OpenAPI document (schemathesis): each was a 500 before
    ("/api/log?limit=89132426750661836800", {}, 400, "invalid_input"),
    ("/api/explain_edge", {"body": {"id": 3009289333626470791261454336}}, 400, "invalid_input"),
    ("/api/search", {"body": {"query": "x", "limit": 16350719444158534123520}}, 400, "invalid_input"),
    ("/api/recall?query=x", {"method": "TRACE"}, 405, "method_not_allowed"),
    ("/api/recall?query=x", {"method": "PATCH"}, 405, "method_not_allowed"),
])
def test_bad_requests_get_the_envelope_and_a_matching_status(serve, path: str, kwargs: dict, status: int,
                                                             code: str) -> None:
    got, err, headers = serve()(path, **kwargs)
    assert (got, err["ok"], err["error"]["code"]) == (status, False, code)
    assert "Traceback" not in err["error"]["message"] and "Access-Control-Allow-Origin" not in headers


def test_token_host_and_size_guards(serve, mem) -> None:
    call = serve(token="s3cret")
    assert call("/api/status")[0] == 401
    assert call("/api/status", headers={"Authorization": "Bearer wrong"})[0] == 401
    assert call("/api/status", headers={"Authorization": "Bearer s3cret"})[0] == 200
    status, err, _ = call("/api/status", headers={"Authorization": "Bearer s3cret", "Host": "evil.example:80"})
    assert status == 403 and err["error"]["code"] == "forbidden_host"  # DNS rebinding cannot reach the memory
    open_call = serve(allow_writes=True)
    status, err, _ = open_call("/api/remember", raw=b'{"content": "' + b"x" * (1 << 20) + b'"}')
    assert status == 413 and err["error"]["code"] == "too_large"
    assert mem.status()["total_insights"] == 0


def test_the_workbench_is_served_under_its_mount(serve) -> None:
    call = serve(mount="/mnemon")
    status, _, headers = call("/mnemon")
    assert status == 308 and headers["Location"] == "/mnemon/"
    status, page, headers = call("/mnemon/")
    assert status == 200 and headers["Content-Type"].startswith("text/html") and b"<html" in page.lower()
    assert "default-src 'self'" in headers["Content-Security-Policy"]
    assert call("/mnemon/api/status")[0] == 200
    assert call("/api/status")[0] == 404


@pytest.mark.parametrize("mount", ["/my space/ü", "/日本"])
def test_a_mount_with_spaces_or_other_scripts_redirects_to_a_url_that_works(serve, mount: str) -> None:
    """The redirect sent the mount raw: "/日本" failed mid-answer, "/my space/ü" landed on a 404."""
    call = serve(mount=mount)
    status, _, headers = call(quote(mount))
    assert status == 308 and headers["Location"] == quote(mount + "/")
    status, page, _ = call(headers["Location"])
    assert status == 200 and b"<html" in page.lower()
    assert call(quote(mount + "/") + "api/status")[0] == 200


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(sorted(BY_NAME)), query=st.text(max_size=40))
def test_no_query_string_gets_a_traceback_or_a_500(serve, name: str, query: str) -> None:
    status, payload, _ = serve()(f"/api/{name}?{quote(query, safe='=&')}")
    assert status < 500, payload
    if status >= 400:
        assert payload["ok"] is False and payload["error"]["code"]


def _env(tmp_path: Path) -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(SRC), MNEMON_EMBED_PROVIDER="hash", MNEMON_HOME=str(tmp_path / "home"),
                HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path / "cfg"))


def test_mnemon_serve_prints_where_it_listens_and_stops_on_sigterm(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    env = _env(tmp_path)
    subprocess.run([sys.executable, "-m", "mnemon", "--db", str(db), "remember", "The pilot starts in June"],
                   env=env, check=True, capture_output=True, timeout=60)
    proc = subprocess.Popen([sys.executable, "-m", "mnemon", "--db", str(db), "serve", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        ready = json.loads(proc.stdout.readline())  # type: ignore[union-attr]
        assert ready["ok"] is True and ready["read_only"] is True and ready["url"].startswith("http://127.0.0.1:")
        assert "remember" not in ready["operations"] and "recall" in ready["operations"]
        status, found, _ = _request(ready["url"].rstrip("/"), "/api/recall?query=pilot")
        assert status == 200 and found["results"][0]["insight"]["content"] == "The pilot starts in June"
    finally:
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0 and out == "" and "Traceback" not in err


@pytest.mark.parametrize("args, code", [
    (["serve", "--host", "0.0.0.0", "--port", "0"], "invalid_input"),  # off loopback without a token
    (["serve", "--mount", "/a/../b", "--port", "0"], "invalid_input"),
])
def test_mnemon_serve_refuses_unsafe_or_bad_settings(tmp_path: Path, args: list[str], code: str) -> None:
    proc = subprocess.run([sys.executable, "-m", "mnemon", "--db", str(tmp_path / "m.db"), *args],
                          capture_output=True, text=True, env=_env(tmp_path), timeout=60)
    assert proc.returncode != 0 and json.loads(proc.stdout)["error"]["code"] == code
    assert "Traceback" not in proc.stderr


def test_a_read_only_server_needs_an_existing_store(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "mnemon", "--db", str(tmp_path / "none.db"), "serve", "--port", "0"],
                          capture_output=True, text=True, env=_env(tmp_path), timeout=60)
    # not_found, as every read of a database the user named that does not exist (README: Where data lives)
    assert proc.returncode != 0 and json.loads(proc.stdout)["error"]["code"] == "not_found"
    assert not (tmp_path / "none.db").exists()


def test_a_first_read_only_serve_says_how_to_make_the_store(tmp_path: Path) -> None:
    # it said "writing to it without --readonly" to a person who never typed --readonly
    proc = subprocess.run([sys.executable, "-m", "mnemon", "serve", "--port", "0"], capture_output=True, text=True,
                          env=_env(tmp_path), timeout=60)
    error = json.loads(proc.stdout)["error"]
    assert proc.returncode != 0 and error["code"] == "store_error"
    assert "--allow-writes" in error["message"] and "mnemon remember" in error["message"]
    assert not (tmp_path / "home").exists()


def test_the_cli_graph_command_prints_the_same_view(cli_run, mem) -> None:
    a = mem.remember("Chose Qdrant as the vector database", category="decision")["id"]
    code, out = cli_run(["--db", mem.rt.store.path, "graph", "--focus", a])
    assert code == 0 and out["focus"] == a and [n["id"] for n in out["nodes"]][0] == a
    code, out = cli_run(["--db", mem.rt.store.path, "graph", "--max-nodes", "0"])
    assert code != 0 and out["error"]["code"] == "invalid_input"


def test_surface_over_http_is_the_facade_call(serve, mem) -> None:
    mem.remember("Battery supplier overdue, risk to the June launch", category="fact")
    status, cards, _ = serve()("/api/surface?prompt=battery+supplier&limit=2")
    assert status == 200 and cards == mem.surface(prompt="battery supplier", limit=2)
    assert all("image" not in t for t in cards["thoughts"])  # no card files written by a read-only call


def test_agent_preflight_over_http(serve, mem) -> None:
    mem.remember("Mira moved to Lisbon in March", category="fact")
    status, pack, _ = serve()("/api/agent_preflight", body={"prompt": "where does Mira live now?"})
    assert status == 200 and pack["ok"] is True and pack["contract"]["ok"] is True
    from mnemon.core.surface import tools

    with tools():  # as the server runs it: its rules name tools, not commands (core.surface)
        direct = mem.agent_preflight("where does Mira live now?")
    assert pack["context"] == direct["context"] and pack["agent_rules"] == direct["agent_rules"]
    assert any("Lisbon" in str(item.get("text")) for item in pack["context"]["items"])
    status, err, _ = serve()("/api/agent_preflight?prompt=%20")
    assert status == 400 and err["error"]["code"] == "invalid_input"


def test_edge_decisions_over_http_need_a_writable_server(serve, mem, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "a.md").write_text("# A\n\nSee [[B]].\n")
    (vault / "b.md").write_text("# B\n")
    mem.ingest(str(vault))
    edge = mem.rt.store.find_edge("note:a.md", "note:b.md", "links_to")
    status, err, _ = serve()("/api/kill_edge", body={"id": edge.id})
    assert status == 403 and err["error"]["code"] == "readonly"
    writable = serve(allow_writes=True)
    status, done, _ = writable("/api/validate_edge", body={"id": edge.id, "reason": "checked in the workbench"})
    assert status == 200 and mem.rt.store.get_edge(edge.id).status == "active"
    status, done, _ = writable("/api/kill_edge", body={"id": edge.id, "reason": "wrong link"})
    assert status == 200 and mem.rt.store.get_edge(edge.id).status == "killed"
    events = [e["event"] for e in mem.explain_edge(edge.id)["debug_log"]]
    assert "validated" in events and "killed" in events
    status, err, _ = writable("/api/kill_edge", body={"id": "seven"})
    assert status == 400 and err["error"]["code"] == "invalid_input"


@pytest.mark.postgres
def test_a_read_only_server_on_postgresql_sees_other_writers(pg_db_url: str, make_mem, tmp_path: Path) -> None:
    writer = make_mem(db=pg_db_url)
    first = writer.remember("The pilot starts in June", category="fact")["id"]
    reader = make_mem(db=pg_db_url, readonly=True)
    server = make_server(Api(lambda: reader), "127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        second = writer.remember("The pilot budget was approved by finance", category="fact")["id"]
        status, found, _ = _request(base, "/api/recall?query=pilot&limit=5")
        assert status == 200 and {r["insight"]["id"] for r in found["results"]} == {first, second}
        status, graph, _ = _request(base, "/api/graph")
        assert status == 200 and {n["id"] for n in graph["nodes"]} == {first, second}
        status, err, _ = _request(base, "/api/remember", body={"content": "x"})
        assert status == 403  # the server refuses before the store would
    finally:
        server.shutdown()
        server.server_close()


def test_the_openapi_document_is_valid_and_follows_the_operation_table(serve) -> None:
    from openapi_spec_validator import validate

    status, doc, _ = serve(mount="/mnemon", token="t", allow_writes=True)("/mnemon/api/openapi.json",
                                                                          headers={"Authorization": "Bearer t"})
    assert status == 200
    validate(doc)
    assert doc["servers"] == [{"url": "/mnemon"}] and doc["security"] == [{"token": []}]
    for op in OPERATIONS:
        item = doc["paths"][f"/api/{op.name}"]
        assert item["post"]["requestBody"]["content"]["application/json"]["schema"] == op.schema()
        assert ("get" in item) is op.read_only  # a write is never offered as a GET
    # two codes share a status: the description names both (a dict keyed by status used to keep only the last)
    responses = doc["paths"]["/api/status"]["get"]["responses"]
    assert responses["503"]["description"] == "provider_unavailable or too_many_connections or aborted or store_busy"
    assert responses["500"]["description"] == "store_error or internal"


def test_a_json_null_is_an_argument_not_given(serve, mem) -> None:
    mem.remember("The pilot starts in June", category="fact")
    status, out, _ = serve()("/api/log", body={"limit": None, "op": None})
    assert status == 200 and out["entries"] == mem.log()["entries"]
    status, err, _ = serve()("/api/recall", body={"query": None})
    assert status == 400 and "missing argument 'query'" in err["error"]["message"]


@pytest.mark.parametrize("args", [["search", "x", "--limit", "99999999999999999999999"],
                                  ["log", "--limit", "99999999999999999999999"],
                                  ["explain-edge", "99999999999999999999999"]])
def test_huge_numbers_on_the_command_line_are_invalid_input(cli_run, mem, args: list[str]) -> None:
    code, out = cli_run(["--db", mem.rt.store.path, *args])
    assert code != 0 and out["error"]["code"] == "invalid_input"


def test_a_number_must_be_finite(serve) -> None:
    status, err, _ = serve(allow_writes=True)("/api/link", raw=b'{"source_id": "a", "target_id": "b", "weight": NaN}')
    assert status == 400 and "finite" in err["error"]["message"]


def test_schema_ranges_are_the_facade_ranges() -> None:
    from mnemon.app.context import MAX_BUDGET
    from mnemon.interfaces import operations

    assert operations.MAX_BUDGET == MAX_BUDGET
    limit = BY_NAME["recall"].properties["limit"]
    assert (limit["minimum"], limit["maximum"]) == (1, 100)


def test_a_chunked_body_is_refused_not_read_as_the_next_request(mem) -> None:
    import http.client

    server = make_server(Api(lambda: mem), "127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        conn = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=30)
        conn.request("POST", "/api/recall", body=iter([b'{"query": "x"}']),
                     headers={"Content-Type": "application/json", "Transfer-Encoding": "chunked"})
        resp = conn.getresponse()
        assert resp.status == 411 and json.loads(resp.read())["error"]["code"] == "length_required"
    finally:
        server.shutdown()
        server.server_close()


def test_a_blank_required_text_is_refused_and_the_schema_says_so(serve) -> None:
    status, err, _ = serve()("/api/recall?query=%20%20")
    assert status == 400 and "blank" in err["error"]["message"]
    assert BY_NAME["recall"].schema()["properties"]["query"]["pattern"] == r"\S"


def test_recall_explains_itself_over_http(serve, mem) -> None:
    mem.remember("Chose Qdrant as the vector database because it filters well", category="decision")
    status, out, _ = serve()("/api/recall?query=why+Qdrant&explain=true&verbose=true")
    direct = mem.recall("why Qdrant", explain=True, verbose=True)
    assert status == 200 and out.keys() == direct.keys() and "results" in out
    assert [r["insight"]["id"] for r in out["results"]] == [r["insight"]["id"] for r in direct["results"]]
    status, err, _ = serve()("/api/recall?query=x&brief=true&verbose=true")
    assert status == 400 and err["error"]["code"] == "invalid_input"  # the facade's rule, not the interface's


# ── found by the QA pass on the interfaces (/tmp/hunt/interfaces.md #7–#12) ──
@pytest.mark.parametrize("path, kwargs, status, code", [
    ("/api/search", {"raw": b"[" * 100_000}, 400, "invalid_input"),  # nested past the parser's recursion limit
    ("/api/search", {"raw": b'{"query": "x", "limit": ' + b"9" * 5000 + b"}"}, 400, "invalid_input"),  # digit limit
    ("/api/search", {"raw": b'{"query": "\xff"}'}, 400, "invalid_input"),  # not UTF-8
    ("/static/a%00b", {}, 404, "not_found"),
])
def test_malformed_input_is_the_callers_error_not_a_500(serve, capsys: pytest.CaptureFixture[str], path: str,
                                                        kwargs: dict, status: int, code: str) -> None:
    got, err, _ = serve()(path, **kwargs)
    assert (got, err["error"]["code"]) == (status, code)
    assert "internal error" not in capsys.readouterr().err


def _raw(port: int, method: str, path: str, headers: dict[str, str] | None = None,
         host: str = "127.0.0.1") -> tuple[int, bytes, dict[str, str]]:
    import http.client

    conn = http.client.HTTPConnection(host, port, timeout=30)
    try:
        conn.request(method, path, headers=headers or {})
        resp = conn.getresponse()
        return resp.status, resp.read(), {k.lower(): v for k, v in resp.getheaders()}
    finally:
        conn.close()


@pytest.fixture
def server(mem) -> Iterator[Callable[..., Any]]:
    """A server object to start with options; its request threads are joined on the way out (so what they wrote on
    stderr is there to check)."""
    started = []

    def start(timeout: float | None = None, host: str = "127.0.0.1", max_connections: int | None = None,
              **options: Any) -> Any:
        extra: dict[str, Any] = {} if timeout is None else {"timeout": timeout}
        if max_connections is not None:
            extra["max_connections"] = max_connections
        srv = make_server(Api(lambda: mem, **options), host, 0, **extra)
        srv.daemon_threads = False  # joined by server_close below
        threading.Thread(target=srv.serve_forever, daemon=True).start()
        started.append(srv)
        return srv

    yield start
    for srv in started:
        srv.shutdown()
        srv.server_close()


def test_head_answers_where_get_does(server) -> None:
    port = server().server_address[1]
    for path in ("/api", "/api/openapi.json", "/api/status", "/api/recall?query=x", "/"):
        got, body, headers = _raw(port, "GET", path)
        head, nothing, head_headers = _raw(port, "HEAD", path)
        assert (got, head, nothing) == (200, 200, b""), path
        assert head_headers["content-type"] == headers["content-type"]
        assert int(head_headers["content-length"]) == len(body) > 0
    status, _, headers = _raw(port, "HEAD", "/api/remember?content=x")  # a write is never a GET, nor a HEAD
    assert status == 405 and headers["allow"] == "POST, OPTIONS"
    status, _, headers = _raw(port, "DELETE", "/api/status")
    assert status == 405 and headers["allow"] == "GET, HEAD, POST, OPTIONS"


def test_a_401_names_its_scheme_and_the_scheme_is_read_as_rfc_9110_says(server) -> None:
    port = server(token="s3cret").server_address[1]
    status, _, headers = _raw(port, "GET", "/api/status")
    assert status == 401 and headers["www-authenticate"].startswith("Bearer")
    for good in ("Bearer s3cret", "bearer s3cret", "BEARER  s3cret", " Bearer s3cret "):
        assert _raw(port, "GET", "/api/status", {"Authorization": good})[0] == 200, good
    for bad in ("Basic s3cret", "Bearers3cret", "Bearer s3cre", "Bearer s3cret2", "s3cret", "Bearer"):
        status, _, headers = _raw(port, "GET", "/api/status", {"Authorization": bad})
        assert status == 401 and "www-authenticate" in headers, bad


def test_an_idle_or_stalled_connection_is_dropped_after_the_timeout(server, capsys: pytest.CaptureFixture[str]) -> None:
    import socket
    import time

    port = server(timeout=0.3).server_address[1]
    for opening in (b"", b"GET /api HTTP/1.1\r\n",
                    b"POST /api/recall HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    b"Content-Length: 40\r\n\r\n{\"query\""):
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.sendall(opening)
            t0 = time.monotonic()
            while sock.recv(1 << 16):  # whatever the server says (a 408-like nothing, or nothing): then it closes
                pass
            assert time.monotonic() - t0 < 5
    assert _raw(port, "GET", "/api/status")[0] == 200  # the server itself goes on
    assert "Traceback" not in capsys.readouterr().err


def test_a_client_that_goes_away_leaves_no_traceback(server, capsys: pytest.CaptureFixture[str]) -> None:
    import socket
    import struct

    srv = server()
    for _ in range(5):
        sock = socket.create_connection(("127.0.0.1", srv.server_address[1]))
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # close = reset
        # the reset comes while the server waits for the body: it has said "100 Continue", so it read the headers
        sock.sendall(b"POST /api/recall HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 100\r\nExpect: 100-continue\r\n\r\n")
        assert sock.recv(100).startswith(b"HTTP/1.1 100")
        sock.close()
    srv.shutdown()
    srv.server_close()  # joins the request threads: all they would print is printed
    err = capsys.readouterr().err
    assert "Traceback" not in err and "Exception" not in err


def _ipv6_loopback() -> bool:
    import socket

    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
        return True
    except OSError:
        return False


@pytest.mark.skipif(not _ipv6_loopback(), reason="no IPv6 loopback here")
@pytest.mark.parametrize("host", ["::1", "[::1]"])
def test_mnemon_serve_listens_on_an_ipv6_address(tmp_path: Path, host: str) -> None:
    db = tmp_path / "m.db"
    env = _env(tmp_path)
    subprocess.run([sys.executable, "-m", "mnemon", "--db", str(db), "remember", "The pilot starts in June"],
                   env=env, check=True, capture_output=True, timeout=60)
    proc = subprocess.Popen([sys.executable, "-m", "mnemon", "--db", str(db), "serve", "--host", host, "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        ready = json.loads(proc.stdout.readline())  # type: ignore[union-attr]
        assert ready["ok"] is True and ready["url"].startswith("http://[::1]:"), ready
        status, found, _ = _request(ready["url"].rstrip("/"), "/api/status")
        assert status == 200 and found["total_insights"] == 1
    finally:
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0 and "Traceback" not in err


# ── OPTIONS, and the bound on open connections ───────────────────────────────
@pytest.mark.parametrize("path, allow", [
    ("/api", "GET, HEAD, OPTIONS"),
    ("/api/openapi.json", "GET, HEAD, OPTIONS"),
    ("/api/recall", "GET, HEAD, POST, OPTIONS"),  # a read-only operation
    ("/api/remember", "POST, OPTIONS"),  # a write: never a GET
    ("/", "GET, HEAD, OPTIONS"),
    ("/static/workbench.js", "GET, HEAD, OPTIONS"),
    ("*", "GET, HEAD, POST, OPTIONS"),  # the server as a whole (RFC 9110 §9.3.7)
])
def test_options_answers_204_with_the_methods_the_path_accepts(server, path: str, allow: str) -> None:
    import http.client

    port = server().server_address[1]
    preflight = {"Origin": "http://elsewhere.example", "Access-Control-Request-Method": "POST",
                 "Access-Control-Request-Headers": "content-type, authorization"}
    for headers in ({}, preflight):
        status, body, got = _raw(port, "OPTIONS", path, headers)
        assert (status, body, got["allow"]) == (204, b"", allow)
        assert "content-length" not in got  # a 204 has no content (RFC 9110 §8.6)
        # a browser's preflight from another origin is not granted: no CORS header at all
        assert not [name for name in got if name.startswith("access-control-")], got
    if path != "*":  # a method the path does not take: the 405 lists the same methods
        status, _, got = _raw(port, "DELETE", path)
        assert (status, got["allow"]) == (405, allow)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)  # the 204 leaves the connection in step
    try:
        conn.request("OPTIONS", path)
        first = conn.getresponse()
        assert (first.status, first.read()) == (204, b"")
        conn.request("GET", "/api/status")
        second = conn.getresponse()
        assert second.status == 200 and json.loads(second.read())["total_insights"] == 0
    finally:
        conn.close()


def test_options_keeps_every_guard_of_the_path(server) -> None:
    port = server(token="s3cret").server_address[1]
    status, _, headers = _raw(port, "OPTIONS", "/api/status")
    assert status == 401 and "allow" not in headers
    assert _raw(port, "OPTIONS", "/api/status", {"Authorization": "Bearer s3cret"})[0] == 204
    assert _raw(port, "OPTIONS", "/api/nope", {"Authorization": "Bearer s3cret"})[0] == 404
    assert _raw(port, "OPTIONS", "/static/nothing.js")[0] == 404
    status, body, _ = _raw(port, "OPTIONS", "/api/status", {"Authorization": "Bearer s3cret",
                                                            "Host": "evil.example"})
    assert status == 403 and json.loads(body)["error"]["code"] == "forbidden_host"


def test_connections_over_the_bound_get_a_prompt_503_and_no_thread(server) -> None:
    import socket
    import time

    srv = server(max_connections=2)
    port = srv.server_address[1]
    threads = threading.active_count()
    # two idle connections hold both slots (the server takes connections in the order they came: both are being
    # served before the third is looked at)
    held = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(2)]
    try:
        t0 = time.monotonic()
        with socket.create_connection(("127.0.0.1", port), timeout=10) as third:
            third.sendall(b"GET /api/status HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            answer = b""
            while chunk := third.recv(1 << 16):  # the server closes it after the answer
                answer += chunk
        assert time.monotonic() - t0 < 5  # not after the 30 s an idle connection may last
        head, _, body = answer.partition(b"\r\n\r\n")
        lines = head.decode().split("\r\n")
        fields = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
        assert lines[0] == "HTTP/1.1 503 Service Unavailable"
        assert fields["retry-after"] == "1" and fields["content-type"].startswith("application/json")
        envelope = json.loads(body)
        assert envelope["ok"] is False and envelope["error"]["code"] == "too_many_connections"
        assert threading.active_count() == threads + 2  # one thread for each held connection, none for the third

        # a held connection that ends gives its slot back: the next caller is served
        held[0].sendall(b"GET /api/status HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        while held[0].recv(1 << 16):
            pass
        assert _raw(port, "GET", "/api/status")[0] == 200
    finally:
        for sock in held:
            sock.close()


def test_the_connection_bound_must_be_positive(mem) -> None:
    from mnemon.core.errors import InvalidInput

    with pytest.raises(InvalidInput, match="max_connections"):
        make_server(Api(lambda: mem), "127.0.0.1", 0, max_connections=0)
