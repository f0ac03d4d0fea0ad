"""The hint on a repeat of a corrected fact counts its corrections. `mnemon remember "Mira lives in Lisbon"` again,
after one correction ("Mira moved from Lisbon to Porto"), answered "… is superseded by <id>, and recall ranks it
below them: if it is true again, `mnemon forget <id>` (the correction) …" — "them" of one. One correction is "that
correction"; several are "them", and each is named to forget, since forgetting one leaves the others."""
from __future__ import annotations

from mnemon.app.memory import Mnemon


def test_one_correction_is_spoken_of_in_the_singular(mem: Mnemon) -> None:
    old = mem.remember("Mira lives in Lisbon", created_at="2026-01-01T09:00:00Z")
    new = mem.remember("Mira moved from Lisbon to Porto", created_at="2026-02-01T09:00:00Z")
    hint = mem.remember("Mira lives in Lisbon")["hint"]
    assert f"{old['id']} is superseded by {new['id']}, and recall ranks it below that correction:" in hint
    assert "below them" not in hint and f"`mnemon forget {new['id']}` (the correction)" in hint


def test_several_corrections_are_plural_and_each_is_named(mem: Mnemon) -> None:
    old = mem.remember("The billing service runs on Postgres")
    first = mem.remember("The billing service moved to MySQL")["id"]
    second = mem.remember("The billing service runs on MySQL 8 since March")["id"]
    for newer in (first, second):
        mem.link(newer, old["id"], "supersedes")
    again = mem.remember("The billing service runs on Postgres")
    assert sorted(again["superseded_by"]) == sorted([first, second])
    assert "recall ranks it below them:" in again["hint"] and "(the corrections)" in again["hint"]
    assert all(f"`mnemon forget {i}`" in again["hint"] for i in (first, second))
