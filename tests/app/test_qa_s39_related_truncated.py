"""`related` says when its limit cut the neighbourhood short.

On a 50,000-memory store `mnemon related ID` and `mnemon related ID --depth 4` answered the same 50 memories, with
nothing saying that the walk stopped at a limit of 50: a deeper walk read as if the memory had no more neighbours.
The reply now says `truncated` (and the `limit` it stopped at), as `graph` and `find-nodes` do."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from mnemon.app.memory import Mnemon

HUB_LINKS = 55


@pytest.fixture
def hub(make_mem: Callable[..., Mnemon]) -> tuple[Mnemon, list[str]]:
    """Memory 0 linked by `causes` to 55 others; the last one linked to nothing else the walk can reach first."""
    m = make_mem("none")
    draft = {"schema_version": "1",
             "insights": [{"content": f"Harbour log entry {k}: crane {k} inspected by the {k}th shift",
                           "source": f"log-{k}"} for k in range(HUB_LINKS + 1)],
             "edges": [{"source_index": 0, "target_index": k, "edge_type": "causal"}
                       for k in range(1, HUB_LINKS + 1)]}
    out = m.import_json(draft)
    return m, [r["id"] for r in out["results"]]


def test_a_walk_cut_at_the_limit_says_so(hub: tuple[Mnemon, list[str]]) -> None:
    m, ids = hub
    for depth in (1, 4):
        reply = m.related(ids[0], depth=depth)
        assert len(reply["related"]) == 50 and reply["truncated"] is True and reply["limit"] == 50, depth


def test_a_whole_neighbourhood_is_not_marked_truncated(hub: tuple[Mnemon, list[str]]) -> None:
    m, ids = hub
    reply = m.related(ids[0], depth=1, edge_type="causal", direction="in")
    assert reply["related"] == [] and reply["truncated"] is False
    leaf = m.related(ids[7], depth=1, edge_type="causal")
    assert [r["id"] for r in leaf["related"]] == [ids[0]] and leaf["truncated"] is False


def test_the_cli_says_so(cli_run: Callable[..., tuple[int, Any]]) -> None:
    hub_id = cli_run(["remember", "The harbour crane schedule", "--source", "s0"])[1]["id"]
    for k in range(51):
        other = cli_run(["remember", f"Crane {k} failed its load test on pier {k}", "--source", f"s{k + 1}"])[1]["id"]
        assert cli_run(["link", hub_id, other, "--type", "causal"])[0] == 0
    code, doc = cli_run(["related", hub_id, "--depth", "1", "--type", "causal"])
    assert code == 0 and len(doc["related"]) == 50 and doc["truncated"] is True, doc
