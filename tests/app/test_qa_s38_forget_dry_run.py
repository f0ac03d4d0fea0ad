"""QA round (session 38): `mnemon forget ID --dry-run` previews the forget: the edges it would retire, nothing written.

It was a usage error ("--dry-run only applies to --source or --days-threshold"), so the one destructive command
without a preview was the one a user runs most. The dry run answers the real run's JSON, marked `dry_run`, status
`would_delete`, with the edges it would retire (`edges`) and their count (`edges_retired`, the real run's). The
operation table (MCP, HTTP) takes `dry_run` as `forget_source` does."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.errors import InvalidInput, NotFound
from mnemon.interfaces.operations import BY_NAME, check_args


def _chain(m: Mnemon) -> list[str]:
    ids = [m.remember(f"Step {i} of the harbour pilot's boarding", source="log")["id"] for i in range(3)]
    m.link(ids[1], ids[0], "causal", sub_type="causes")
    return ids


def _state(m: Mnemon) -> tuple[Any, ...]:
    edges = m.rt.store.iter_edges(statuses=("active", "candidate", "retired", "killed"))
    return (m.status()["total_insights"], sorted((e.src, e.dst, e.type, e.status, e.updated_at) for e in edges),
            len(m.log(limit=1000)["entries"]))


def test_the_dry_run_says_what_the_forget_does_and_writes_nothing(make_mem: Callable[..., Mnemon]) -> None:
    m = make_mem("hash")
    ids = _chain(m)
    before = _state(m)
    dry = m.forget(ids[1], dry_run=True)
    assert _state(m) == before
    assert (dry["dry_run"], dry["status"]) == (True, "would_delete")
    assert dry["edges_retired"] == len(dry["edges"]) > 0
    assert all(ids[1] in (e["source_id"], e["target_id"]) for e in dry["edges"])
    real = m.forget(ids[1])
    assert (real["dry_run"], real["status"]) == (False, "deleted")
    assert real["edges_retired"] == dry["edges_retired"]
    assert real["backbone_rejoined"] == dry["backbone_rejoined"] > 0  # its neighbours in the chain, joined
    retired = {e.id for e in m.rt.store.edges_of([ids[1]], statuses=("retired",), direction="both")}
    assert retired == {e["id"] for e in dry["edges"]}


def test_a_vault_note_s_dry_run_counts_what_the_forget_retires(example_vault_mem: Mnemon) -> None:
    m = example_vault_mem
    for kind in ("memory", "note"):
        node = next(n for n in m.rt.store.iter_nodes(kind=kind) if m.rt.store.edges_of(
            [n.id], statuses=("active", "candidate"), direction="both"))
        dry = m.forget(node.id, dry_run=True)
        assert m.forget(node.id)["edges_retired"] == dry["edges_retired"] > 0
        assert ("vault_note" in dry) == node.source.startswith("vault:")


def test_the_dry_run_refuses_what_the_forget_refuses(make_mem: Callable[..., Mnemon]) -> None:
    m = make_mem("hash")
    gone = m.remember("A memory forgotten already")["id"]
    m.forget(gone)
    with pytest.raises(NotFound, match="forgotten"):
        m.forget(gone, dry_run=True)
    with pytest.raises(NotFound):
        m.forget("no-such-id", dry_run=True)
    with pytest.raises(InvalidInput):
        m.forget("", dry_run=True)


def test_the_operation_takes_dry_run(make_mem: Callable[..., Mnemon]) -> None:
    m = make_mem("hash")
    ids = _chain(m)
    op = BY_NAME["forget"]
    args = {"id": ids[1], "dry_run": True}
    check_args(op, args)
    out = op.call(m, args)
    assert out["dry_run"] is True and m.status()["total_insights"] == 3


def test_the_cli_dry_run(cli_run: Callable[..., tuple[int, Any]]) -> None:
    code, first = cli_run(["remember", "The ferry leaves at nine", "--source", "log"])
    cli_run(["remember", "The ferry arrives at ten", "--source", "log"])
    code, dry = cli_run(["forget", first["id"], "--dry-run"])
    assert code == 0 and dry["dry_run"] is True and dry["edges_retired"] >= 1, dry
    code, status = cli_run(["status"])
    assert status["total_insights"] == 2
    code, real = cli_run(["forget", first["id"]])
    assert code == 0 and real["edges_retired"] == dry["edges_retired"]
