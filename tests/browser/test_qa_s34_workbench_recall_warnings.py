"""A search in the workbench on a server whose embedding model cannot be reached: recall answered by keywords and
the graph and said so in its `warnings` ("query embedding skipped: cannot reach Ollama …"), but the page listed the
results as any others and its status said only "N results (recall)". The results panel now shows what recall
warned, and the status line says there is a warning.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest
from ports.fake_servers import refusing_port

from .test_workbench import Page, Store, _get, _ingested_store, _start, _stop, _text, browser, page

__all__ = ["browser", "page"]  # the fixtures, shared with test_workbench.py


@pytest.fixture(scope="module")
def no_model_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The example vault, served with the Ollama provider pointed at a port where nothing listens."""
    store: Store = _ingested_store(tmp_path_factory, "workbench-recall-warnings")
    with refusing_port() as port:
        env = {**store.env, "MNEMON_EMBED_PROVIDER": "ollama", "MNEMON_EMBED_ENDPOINT": f"http://127.0.0.1:{port}"}
        proc, url = _start(replace(store, env=env))
        yield url
        _stop(proc)


def test_a_search_shows_what_recall_warned(page: Page, no_model_server: str) -> None:
    warnings = _get(no_model_server + "api/recall?query=deadline&limit=20")["warnings"]
    assert any("cannot reach Ollama" in w for w in warnings), warnings
    page.open(no_model_server)
    page.enter("#q", "deadline")
    page.wait("s.status.kind !== 'busy' && s.status.text.includes('for “deadline”')")
    assert page.page.locator("#results li button").count() >= 1  # still answered, by keywords and the graph
    shown = page.page.locator("#results li.warning").all_inner_texts()
    assert shown == warnings
    assert "warning" in page.state()["status"]["text"]
    assert "cannot reach Ollama" in _text(page, "#results-box")
    assert page.console_errors == []
