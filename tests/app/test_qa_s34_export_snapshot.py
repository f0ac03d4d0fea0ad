"""An export is one point in time (session 34 QA): memories and edges were read by separate queries, so a `forget`
by another process in between exported the memory without its edges. It also stays readable while it runs: the
forget is not blocked by it."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from mnemon.app.memory import Mnemon


def _content(doc: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in doc.items() if k != "exported_at"}


def test_a_forget_while_exporting_leaves_the_export_as_before(make_mem: Callable[..., Mnemon],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    mem = make_mem("hash")
    ids = [mem.remember(text)["id"] for text in ("Mira owns the billing service",
                                                  "Mira moved the billing service to Frankfurt",
                                                  "The billing service deploys on Tuesdays")]
    before = mem.export_json()
    assert any(ids[1] in (e["source_id"], e["target_id"]) for e in before["edges"])
    other = make_mem("hash")  # another connection, as another process
    read_edges = mem.rt.store.iter_edges
    forgotten: list[dict[str, Any]] = []

    def forget_then_read(*args: Any, **kwargs: Any) -> Any:
        if not forgotten:  # between the memories' read and the edges'
            forgotten.append(other.forget(ids[1]))
        return read_edges(*args, **kwargs)

    with monkeypatch.context() as m:  # (monkeypatch.undo() would undo the test's own home too)
        m.setattr(mem.rt.store, "iter_edges", forget_then_read)
        during = mem.export_json()
    assert forgotten, "the forget ran while the export was reading"
    assert _content(during) == _content(before)
    after = mem.export_json()
    assert ids[1] not in {i["id"] for i in after["insights"]}
    assert not any(ids[1] in (e["source_id"], e["target_id"]) for e in after["edges"])
