"""Real HTTP servers on 127.0.0.1 (port 0) that speak just enough of the Ollama and OpenAI embedding APIs.

Vectors come from the `hash` provider over the exact text the server received, so a test can tell
whether task prefixes were applied and whether rows came back in input order. Every request is recorded.
"""
from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, TypeVar

import numpy as np

from mnemon.ports.embed import EmbedSettings, get_provider


def server_vector(text: str, dimensions: int) -> list[float]:
    """What the fakes return for `text`: deliberately NOT unit length, so client normalisation is visible."""
    vector = get_provider("hash", EmbedSettings(dimensions=dimensions)).embed_query(text)
    # (never all zero, whatever prefix a width keeps: a real model never answers a zero vector, and mnemon refuses one)
    return [float(x) * 3.0 + (0.25 if k == 0 else 0.0) for k, x in enumerate(vector)]


def expected_row(text: str, dimensions: int) -> np.ndarray:
    vector = np.asarray(server_vector(text, dimensions), dtype=np.float32)
    norm = np.linalg.norm(vector)
    return vector / norm if norm else vector


@dataclass
class Recorded:
    method: str
    path: str
    headers: dict[str, str]
    body: Any


@dataclass
class FakeConfig:
    models: dict[str, int] = field(default_factory=lambda: {"nomic-embed-text:latest": 768})
    legacy_only: bool = False  # an Ollama older than 0.3: no /api/embed route
    required_key: str | None = None
    reverse_order: bool = False  # the spec orders by `index`, not by position
    models_route: bool = True
    embeddings_route: bool = True  # False: a server that is no embedding server (POST answers 405)


class _Handler(BaseHTTPRequestHandler):
    server: _FakeServer

    def log_message(self, *args: Any) -> None:  # keep pytest output clean
        pass

    def _reply(self, status: int, payload: Any, content_type: str = "application/json") -> None:
        data = payload.encode() if isinstance(payload, str) else json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _record(self, body: Any) -> None:
        self.server.requests.append(Recorded(self.command, self.path, dict(self.headers.items()), body))

    def _model_dims(self, name: str) -> int | None:
        models = self.server.config.models
        if name in models:
            return models[name]
        return models.get(f"{name}:latest")

    def do_GET(self) -> None:
        self._record(None)
        self.server.handle_get(self)

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", "0"))
        body = json.loads(self.rfile.read(length) or b"null")
        self._record(body)
        self.server.handle_post(self, body)


class _FakeServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, config: FakeConfig) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.config = config
        self.requests: list[Recorded] = []

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    def posts(self, path: str) -> list[Recorded]:
        return [r for r in self.requests if r.method == "POST" and r.path == path]

    def handle_get(self, handler: _Handler) -> None:
        raise NotImplementedError

    def handle_post(self, handler: _Handler, body: Any) -> None:
        raise NotImplementedError


class FakeOllama(_FakeServer):
    def handle_get(self, handler: _Handler) -> None:
        if handler.path == "/api/tags":
            handler._reply(200, {"models": [{"name": name} for name in self.config.models]})
        elif handler.path == "/api/version":
            handler._reply(200, {"version": "0.2.8" if self.config.legacy_only else "0.6.5"})
        else:
            handler._reply(404, "404 page not found", "text/plain")

    def handle_post(self, handler: _Handler, body: Any) -> None:
        if handler.path == "/api/embed" and not self.config.legacy_only:
            dims = handler._model_dims(body["model"])
            if dims is None:
                handler._reply(404, {"error": f'model "{body["model"]}" not found, try pulling it first'})
                return
            inputs = body["input"] if isinstance(body["input"], list) else [body["input"]]
            width = body.get("dimensions") or dims
            handler._reply(200, {"model": body["model"],
                                 "embeddings": [server_vector(t, dims)[:width] for t in inputs]})
        elif handler.path == "/api/embeddings":
            dims = handler._model_dims(body["model"])
            if dims is None:
                handler._reply(404, {"error": f'model "{body["model"]}" not found, try pulling it first'})
                return
            handler._reply(200, {"embedding": server_vector(body["prompt"], dims)})
        else:
            handler._reply(404, "404 page not found", "text/plain")


class FakeOpenAI(_FakeServer):
    def _authorised(self, handler: _Handler) -> bool:
        if self.config.required_key is None:
            return True
        if handler.headers.get("Authorization") == f"Bearer {self.config.required_key}":
            return True
        handler._reply(401, {"error": {"message": "Incorrect API key provided", "type": "invalid_request_error"}})
        return False

    def handle_get(self, handler: _Handler) -> None:
        if handler.path == "/v1/models" and self.config.models_route:
            if self._authorised(handler):
                handler._reply(200, {"object": "list", "data": [{"id": m} for m in self.config.models]})
        else:
            handler._reply(404, {"error": {"message": "not found"}})

    def handle_post(self, handler: _Handler, body: Any) -> None:
        if not self.config.embeddings_route:
            handler._reply(405, "Method Not Allowed", "text/plain")
            return
        if handler.path != "/v1/embeddings":
            handler._reply(404, {"error": {"message": f"no route {handler.path}"}})
            return
        if not self._authorised(handler):
            return
        dims = self.config.models.get(body["model"])
        if dims is None:
            handler._reply(404, {"error": {"message": f"The model `{body['model']}` does not exist"}})
            return
        width = body.get("dimensions") or dims
        items = [{"object": "embedding", "index": i, "embedding": server_vector(t, dims)[:width]}
                 for i, t in enumerate(body["input"])]
        if self.config.reverse_order:
            items.reverse()
        handler._reply(200, {"object": "list", "model": body["model"], "data": items})


ServerT = TypeVar("ServerT", bound=_FakeServer)


@contextmanager
def running(server: ServerT) -> Iterator[ServerT]:
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@contextmanager
def refusing_port() -> Iterator[int]:
    """A port that refuses connections for as long as the block runs: bound but never listening, so no other
    server started meanwhile (another test worker's, a PostgreSQL) can take it and answer instead."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        yield int(sock.getsockname()[1])
