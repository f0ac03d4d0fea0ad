"""A blocked item a later note says is unblocked is a closed loop, as one a later closed task rewords is.

"Pilot blocked until the vendor contract is signed" (examples/vault, Projects/lighthouse.md) stayed an open loop in
every context pack though the later Meetings/2026-04-01 Review.md says "Vendor contract signed; the pilot is
unblocked" — a line of section text, not a task. Such a line now closes a blocked item when it says so with an
explicit cue ("unblocked", "no longer blocked", "resolved", "is/was/has been signed"), hedges nothing ("still",
"not", "once", "will", a question …) and rewords the item under the closed tasks' shared-words rule.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable

import pytest
from hypothesis import given, strategies as st

from mnemon.app.closed_loops import unblocks

DAY = 86400.0
BASE = 1_767_225_600.0  # 2026-01-01
BLOCKED = "Pilot blocked until the vendor contract is signed"
CliRun = Callable[..., tuple[int, Any]]


def _note(vault: Path, rel: str, body: str, mtime: float = BASE) -> None:
    path = vault / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(body, encoding="utf-8")
    os.utime(path, (mtime, mtime))


def _pack_item(cli_run: CliRun, vault: Path, prompt: str, text: str) -> dict[str, Any]:
    code, _ = cli_run(["ingest", "--vault", vault])
    assert code == 0
    code, pack = cli_run(["retrieve", prompt])
    assert code == 0
    return next(i for i in pack["items"] if i["text"] == text)


def test_the_example_vaults_pilot_is_closed_by_the_later_review(cli_run: CliRun, example_vault: Path) -> None:
    os.utime(example_vault / "Projects/lighthouse.md", (BASE, BASE))
    os.utime(example_vault / "Meetings/2026-04-01 Review.md", (BASE + 90 * DAY, BASE + 90 * DAY))
    item = _pack_item(cli_run, example_vault, "is the lighthouse pilot blocked on the vendor contract?", BLOCKED)
    assert item["closed_later_in"] == "Meetings/2026-04-01 Review.md"
    assert item["score_factors"]["closed_later"] == 0.25
    code, debug = cli_run(["debug-candidates", "--include-skipped", "--limit", "30"])
    assert code == 0  # the proactive pass no longer offers it either
    assert [c["skip_reasons"] for c in debug["skipped"] if c["observation"]["text"] == BLOCKED] == [
        ["closed later in Meetings/2026-04-01 Review.md"]]
    assert BLOCKED not in [c["observation"]["text"] for c in debug["candidates"]]


def _two_notes(tmp_path: Path, later_line: str, *, later: bool = True) -> Path:
    vault = tmp_path / "vault"
    _note(vault, "Daily/2026-03-01.md", f"# 2026-03-01\n\n## Status\n- {BLOCKED}\n- Order the sensor housings\n")
    _note(vault, "Daily/2026-03-10.md" if later else "Daily/2026-02-20.md",
          f"# Update\n\nSome prose first.\n{later_line}\nMore prose after.\n")
    return vault


@pytest.mark.parametrize("later_line", [
    "Vendor contract signed; the pilot is unblocked",
    "The pilot is no longer blocked: the vendor contract is signed.",
    "- Pilot blocker resolved, vendor contract signed",
    "- Project pilot unblocked: the vendor contract is signed",  # a kept bullet (the hint word), not section text
    "The vendor contract was signed, so the pilot is unblocked",
])
def test_a_later_unblocking_line_closes_the_blocked_item(cli_run: CliRun, tmp_path: Path, later_line: str) -> None:
    item = _pack_item(cli_run, _two_notes(tmp_path, later_line), "pilot vendor contract", BLOCKED)
    assert item.get("closed_later_in") == "Daily/2026-03-10.md"


@pytest.mark.parametrize("later_line", [
    "The pilot is still blocked until the vendor contract is signed",
    "Pilot still blocked although the vendor contract is signed",
    "Vendor contract not signed yet; the pilot is not unblocked",
    "The pilot isn't unblocked: the vendor contract is signed by them only",
    "The pilot will be unblocked once the vendor contract is signed",
    "Is the vendor contract signed? Then the pilot is unblocked",
    "- [ ] Check the pilot is unblocked once the vendor contract is signed",
    "Battery contract signed; the pilot is unblocked",  # another contract
    "Vendor contract signed; the pilot starts Monday",  # no cue: the pilot may wait on something else
    "The vendor contract is unresolved; pilot blocked",
    "Pilot blocked until the vendor contract is signed",  # the item again
])
def test_a_later_line_that_does_not_say_unblocked_closes_nothing(cli_run: CliRun, tmp_path: Path,
                                                                 later_line: str) -> None:
    item = _pack_item(cli_run, _two_notes(tmp_path, later_line), "pilot vendor contract", BLOCKED)
    assert "closed_later_in" not in item
    assert "closed_later" not in item["score_factors"]


def test_an_unblocking_line_in_an_earlier_note_closes_nothing(cli_run: CliRun, tmp_path: Path) -> None:
    vault = _two_notes(tmp_path, "Vendor contract signed; the pilot is unblocked", later=False)
    item = _pack_item(cli_run, vault, "pilot vendor contract", BLOCKED)
    assert "closed_later_in" not in item


_WORDS = st.sampled_from(["vendor", "contract", "pilot", "is", "signed", "unblocked", "resolved", "the", "now", ";"])


@given(st.lists(_WORDS, max_size=6), st.sampled_from(["still", "not", "blocked", "once", "will", "isn't", "yet"]),
       st.lists(_WORDS, max_size=6))
def test_a_line_that_keeps_it_blocked_or_hedges_never_unblocks(before: list[str], hedge: str,
                                                                after: list[str]) -> None:
    assert not unblocks(" ".join([*before, hedge, *after, "unblocked"]))
