"""Session 33's QA of `mnemon serve` as a script meets it: arguments a request carries where the route does not read
them are refused, never dropped (a POST's `?dry_run=true` was ignored and the removal ran), and a token no client
can send is refused when the server starts instead of answering every request 401."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mnemon.core.errors import InvalidInput
from mnemon.interfaces.http.server import Api
from mnemon.interfaces.operations import BY_NAME, check_args

from interfaces.test_http import _env, serve  # noqa: F401  (a fixture)

SCOPE = "mneme://agent/session-1"
PAYLOAD = {"source_path": SCOPE, "nodes": [{"ref": "n", "name": "Nora", "type": "person"}],
           "observations": [{"node": "n", "kind": "fact", "text": "Nora prefers tea"}]}


def _scope_rows(mem) -> int:
    return mem.forget_source(SCOPE, dry_run=True)["removed"]["observations"]


# ── arguments come from one place ────────────────────────────────────────────
def test_a_post_with_a_query_string_is_refused_and_nothing_is_removed(serve, mem) -> None:
    """`POST /api/forget_source?dry_run=true` with the scope in the body answered `"dry_run": false` and removed the
    scope: the query string was never read, so the safety flag a script passed was dropped without a word."""
    mem.remember_payload(PAYLOAD)
    assert _scope_rows(mem) == 1
    call = serve(allow_writes=True)
    status, err, _ = call("/api/forget_source?dry_run=true", body={"source_path": SCOPE})
    assert (status, err["error"]["code"]) == (400, "invalid_input"), err
    assert "dry_run" in err["error"]["message"] and "body" in err["error"]["message"]
    assert _scope_rows(mem) == 1  # nothing was removed
    status, done, _ = call("/api/forget_source", body={"source_path": SCOPE, "dry_run": True})
    assert status == 200 and done["dry_run"] is True and _scope_rows(mem) == 1
    for empty in ("?", "?&"):  # a query string without an argument is none
        assert call("/api/status" + empty, body={})[0] == 200



def test_a_get_with_a_json_body_is_refused_not_answered_without_it(serve, mem) -> None:
    """`GET /api/search?query=Qdrant` with `{"limit": 1}` as its body answered every match: the body was read off
    the connection and thrown away."""
    mem.remember("Chose Qdrant as the vector database")
    mem.remember("Qdrant runs on the staging cluster")
    call = serve()
    status, err, _ = call("/api/search?query=Qdrant", raw=b'{"limit": 1}', method="GET")
    assert (status, err["error"]["code"]) == (400, "invalid_input"), err
    assert "query string" in err["error"]["message"]
    status, found, _ = call("/api/search?query=Qdrant&limit=1")
    assert status == 200 and len(found["results"]) == 1
    status, found, _ = call("/api/search", body={"query": "Qdrant", "limit": 1})
    assert status == 200 and len(found["results"]) == 1


# ── a token a client can send ────────────────────────────────────────────────
@pytest.mark.parametrize("token", ["sekret ", " sekret", "sekret\t", "sek\nret", "sekret\x00", "sek\x7fret"])
def test_a_token_no_header_can_carry_is_refused_when_the_server_is_made(serve, mem, token: str) -> None:
    """A header's value loses its surrounding spaces and cannot hold a control character: a server started with
    "sekret " (an environment file's trailing space) announced `"auth": "token"` and answered 401 to every client.
    Spaces inside a token, and other scripts, a header carries."""
    with pytest.raises(InvalidInput, match="token"):
        Api(lambda: mem, token=token)
    call = serve(token="two words-日本")
    sent = "Bearer two words-日本".encode().decode("latin-1")  # (urllib sends a header's text as ISO-8859-1)
    assert call("/api/status", headers={"Authorization": sent})[0] == 200


def test_mnemon_serve_refuses_a_token_with_a_trailing_space(tmp_path: Path) -> None:
    env = {**_env(tmp_path), "MNEMON_HTTP_TOKEN": "sekret "}
    proc = subprocess.run([sys.executable, "-m", "mnemon", "--db", str(tmp_path / "m.db"), "serve", "--port", "0",
                           "--allow-writes"], capture_output=True, text=True, env=env, timeout=30)
    assert proc.returncode != 0 and "Traceback" not in proc.stderr
    error = json.loads(proc.stdout)["error"]
    assert error["code"] == "invalid_input" and "MNEMON_HTTP_TOKEN" in error["message"]


@pytest.mark.parametrize(("value", "named"), [({"a": 1}, "object"), ([1], "array"), (True, "boolean"),
                                              ("five", "the string 'five'"), (1.5, "number")])
def test_a_wrong_type_is_named_as_json_names_it(value: object, named: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        check_args(BY_NAME["recall"], {"query": "x", "limit": value})
    assert refused.value.message.endswith(f"got {named}"), refused.value.message
