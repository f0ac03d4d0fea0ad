"""A draft's edges whose ends are exact repeats: linked to the memory that holds the text, or said why not."""
from __future__ import annotations

from mnemon.app.memory import Mnemon


def test_an_edge_to_an_item_already_stored_links_the_stored_memory(mem: Mnemon) -> None:
    old = mem.remember("We use SQLite for storage", category="decision")["id"]
    out = mem.import_json({"insights": [{"content": "We use SQLite for storage"},
                                        {"content": "We moved from SQLite to PostgreSQL for storage"}],
                           "edges": [{"source_index": 1, "target_index": 0, "edge_type": "supersedes"}]})
    assert [r["action"] for r in out["results"]] == ["skipped", "added"] and out["results"][0]["id"] == old
    new = out["results"][1]["id"]
    # the correction the draft states used to be dropped: the old fact stayed in force and nothing said so
    assert mem.rt.store.find_edge(new, old, "supersedes") is not None
    assert out["edges_inserted"] == 1 and out["edges_skipped"] == 0


def test_an_edge_to_a_repeated_item_links_its_first_copy(mem: Mnemon) -> None:
    out = mem.import_json({"insights": [{"content": "cause thing"}, {"content": "effect thing"},
                                        {"content": "cause thing"}],
                           "edges": [{"source_index": 2, "target_index": 1, "edge_type": "causal"}]})
    cause, effect = out["results"][0]["id"], out["results"][1]["id"]
    assert out["results"][2]["id"] == cause
    assert mem.rt.store.find_edge(cause, effect, "causal") is not None and out["edges_inserted"] == 1


def test_edges_not_written_are_listed_with_their_reason(mem: Mnemon) -> None:
    out = mem.import_json({"insights": [{"content": "a a"}, {"content": "a a"}, {"content": ""}, {"content": "b b"}],
                           "edges": [{"source_index": 0, "target_index": 1, "edge_type": "causal"},
                                     {"source_index": 2, "target_index": 3, "edge_type": "causal"}]})
    assert out["edges_inserted"] == 0 and out["edges_skipped"] == 2
    assert [(r["index"], r["action"]) for r in out["edge_results"]] == [(0, "skipped"), (1, "skipped")]
    assert all(r["reason"] for r in out["edge_results"])


def test_a_draft_sent_again_keeps_the_edge_the_store_changed_since(mem: Mnemon) -> None:
    draft = {"insights": [{"content": "cause thing"}, {"content": "effect thing"}],
             "edges": [{"source_index": 0, "target_index": 1, "edge_type": "causal", "weight": 0.8}]}
    first = mem.import_json(draft)
    a, b = first["results"][0]["id"], first["results"][1]["id"]
    mem.link(a, b, "causal", weight=0.3)  # a later decision about the same edge
    again = mem.import_json(draft)
    edge = mem.rt.store.find_edge(a, b, "causal")
    assert edge is not None and edge.weight == 0.3
    assert again["edges_inserted"] == 0 and again["edge_results"][0]["reason"] == "exists"
