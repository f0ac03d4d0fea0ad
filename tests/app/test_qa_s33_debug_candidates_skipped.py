"""`debug-candidates --include-skipped`: a skipped row named its seed note by the note's id, typed `note`
(`"name": "note:Projects/lighthouse.md"`), and nothing at its top said which item was skipped. Each row now names
the candidate itself — its id, its text, its own type and why it was skipped — and its seed as a kept row does."""
from __future__ import annotations

from mnemon.app.memory import Mnemon

PILOT = "Pilot blocked until the vendor contract is signed"
NOTE = "note:Projects/lighthouse.md"


def _kill_pilot(mem: Mnemon) -> str:
    """Kill the observation edge of Lighthouse's "Pilot blocked…" bullet; its observation's id."""
    [obs] = [c["observation"]["id"] for c in mem.debug_candidates(limit=50)["candidates"]
             if c["observation"]["text"] == PILOT]
    edge = mem.rt.store.find_edge(NOTE, obs, "has_blocked")
    assert edge is not None
    mem.kill_edge(edge.id, reason="not an open loop any more")
    return obs


def test_a_skipped_row_names_the_candidate_that_was_skipped(example_vault_mem: Mnemon) -> None:
    mem = example_vault_mem
    obs = _kill_pilot(mem)
    out = mem.debug_candidates(include_skipped=True, limit=50)
    assert PILOT not in [c["observation"]["text"] for c in out["candidates"]]
    [row] = [r for r in out["skipped"] if r["observation"]["id"] == obs]
    assert (row["id"], row["name"], row["type"], row["reason"]) == (obs, PILOT, "observation",
                                                                     "observation edge killed")
    assert row["skip_reasons"] == ["observation edge killed"]
    assert row["path"] == [{"id": obs, "name": PILOT, "type": "observation"}]


def test_a_skipped_rows_seed_is_named_as_a_kept_rows_is(example_vault_mem: Mnemon) -> None:
    mem = example_vault_mem
    obs = _kill_pilot(mem)
    out = mem.debug_candidates(include_skipped=True, limit=50)
    [row] = [r for r in out["skipped"] if r["observation"]["id"] == obs]
    kept_seed = next(c["seed"] for c in out["candidates"] if c["seed"]["id"] == NOTE)
    assert row["seed"] == kept_seed == {"id": NOTE, "name": "Lighthouse", "type": "project",
                                        "source_path": "Projects/lighthouse.md"}
