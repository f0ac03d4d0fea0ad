"""A thought card's suggested actions reach an agent over MCP and HTTP too: each command an operation of the servers
also does carries that operation and its arguments (`call`, or `calls` beside `commands`), so a tool caller — who
cannot type `mnemon validate-edge 12` — can make the call the card suggests. Every call names an operation the
servers offer, with arguments its schema accepts, and runs there."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from mnemon.app.memory import Mnemon
from mnemon.app.suggested_actions import suggested_actions
from mnemon.interfaces.mcp import handle
from mnemon.interfaces.operations import BY_NAME, check_args

# the suggestion types whose every command has an operation beside it (a note edit too: note_add_bullet, in the
# vault the store was ingested from)
CALLED = {"synapse_review": ("validate", "kill"), "graph_memory_review": None, "inspect": None,
          "vault_append_bullet": None}


def _calls(action: dict[str, Any]) -> list[dict[str, Any]]:
    return list(action["calls"].values()) if "calls" in action else [action["call"]] if "call" in action else []


def test_a_cards_suggestions_carry_the_operation_a_tool_caller_can_make(mem: Mnemon, example_vault: Path) -> None:
    mem.ingest(str(example_vault))
    mem.remember_payload({"source_path": "mneme://agent/lighthouse", "nodes": [{"ref": "b", "name": "Battery"}],
                          "observations": [{"node": "b", "text": "Battery supply is the Lighthouse risk"}]})
    cards = [*mem.surface(prompt="lighthouse battery risk firmware", limit=10)["thoughts"], *mem.surface()["thoughts"]]
    seen: set[str] = set()
    for card in cards:
        for action in card["suggested_actions"]:
            calls = _calls(action)
            if action["type"] in CALLED:
                seen.add(action["type"])
                want = CALLED[action["type"]]
                assert (sorted(action["calls"]) == sorted(want)) if want else len(calls) == 1, action
            for made in calls:
                op = BY_NAME[made["operation"]]
                check_args(op, made["arguments"])  # what the server's schema check would refuse, it refuses here
                if op.read_only:  # run it as a tool caller would
                    reply = handle(lambda: mem, {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                                                 "params": {"name": op.name, "arguments": made["arguments"]}})
                    assert reply is not None and not reply["result"].get("isError"), reply
    assert {"inspect", "graph_memory_review"} <= seen


def test_a_candidate_edges_review_calls_validate_and_kill_it(mem: Mnemon, example_vault: Path) -> None:
    mem.ingest(str(example_vault))
    edge = next(e for e in mem.rt.store.iter_edges(statuses=("candidate",)) if e.type == "links_to")
    [review, inspect] = suggested_actions({"item_type": "edge", "candidate_only": True, "edge_id": edge.id})
    assert inspect["call"] == {"operation": "explain_edge", "arguments": {"id": edge.id}}
    made = review["calls"]["validate"]
    reply = handle(lambda: mem, {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                                 "params": {"name": made["operation"], "arguments": made["arguments"]}})
    assert reply is not None and not reply["result"].get("isError"), reply
    assert mem.rt.store.get_edges([int(edge.id or 0)])[0].status == "active"
