"""A store written before world keys were NFC, upgraded (migration m060 + `app/world/keys.py`), on SQLite and
PostgreSQL (`make_mem` under tests/app): rows an earlier version wrote — subjects and alias keys in the spelling they
were typed in — are written here with SQL, and the next open makes the two spellings of a subject one subject, with
one value in force and the other its history; nothing is deleted, and the upgrade runs once."""
from __future__ import annotations

import json
import unicodedata
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.world.values import iso

from conftest import FakeClock

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=timezone.utc)
NFC, NFD = unicodedata.normalize("NFC", "José"), unicodedata.normalize("NFD", "José")
STEP = "m060_world_nfc_keys"


def legacy_key(name: str) -> str:
    """The key an earlier version stored: whitespace and case folded, the spelling kept."""
    return " ".join(name.split()).casefold()


def old_assertion(row_id: str, subject: str, predicate: str, obj: str, days: int) -> dict[str, Any]:
    at = iso(T0 + timedelta(days=days))
    return {"id": row_id, "subject_name": subject, "subject_type": "entity", "predicate": predicate,
            "object_name": obj, "object_value": None, "state_type": "belief", "status": "current",
            "confidence": 0.95, "certainty": "confirmed", "evidence_text": "lease (fictional)",
            "source_path": f"mneme://r/{row_id}", "source_type": "research", "valid_from": None,
            "valid_until": None, "supersedes_id": None, "superseded_by_id": None, "superseded_at": None,
            "metadata": {}, "prediction_misses": [], "created_at": at, "updated_at": at}


def old_alias(name: str, canonical: str, days: int) -> tuple[Any, ...]:
    at = iso(T0 + timedelta(days=days))
    return (legacy_key(name), name, canonical, legacy_key(canonical), "manual", 1.0, at, at)


ASSERTIONS = [
    old_assertion("lisbon", NFC, "lives_in", "Lisbon", 0),  # typed composed...
    old_assertion("porto", NFD, "lives_in", "Porto", 1),  # ...and a day later decomposed: both "current"
    old_assertion("choir", NFD, "member_of", "Choir", 0),  # multi-valued: another object stays current
    old_assertion("cafe-old", NFD, "member_of", unicodedata.normalize("NFD", "Café Society"), 1),
    old_assertion("cafe-new", NFC, "member_of", "Café Society", 2),  # the same membership again: one chain
    old_assertion("bob", "Bob", "lives_in", "Oslo", 0),  # nothing to respell
]
ALIASES = [old_alias(unicodedata.normalize("NFD", "Zé"), NFD, 0), old_alias("Zé", "Joseph", 1),
           old_alias(unicodedata.normalize("NFD", "Mamá"), "Ana", 0)]


def write_old_rows(mem: Mnemon) -> None:
    """As the code before m060 left a store: its rows, and the step not applied yet."""
    conn = mem.rt.store.world.conn  # type: ignore[attr-defined]  # (qmark SQL on both backends)
    for data in ASSERTIONS:
        conn.execute("INSERT INTO world_state_assertions(id, subject_norm, predicate, status, state_type,"
                     " source_path, data, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?)",
                     (data["id"], legacy_key(data["subject_name"]), data["predicate"], "current", "belief",
                      data["source_path"], json.dumps(data), data["created_at"], data["updated_at"]))
    for alias in ALIASES:
        conn.execute("INSERT INTO entity_aliases(alias_norm, alias_name, canonical_name, canonical_norm, source,"
                     " confidence, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?)", alias)
    conn.execute("DELETE FROM migrations WHERE name = ?", (STEP,))


@pytest.fixture
def upgraded(make_mem: Callable[..., Mnemon]) -> tuple[Mnemon, Callable[[], Mnemon]]:
    clock = FakeClock(T0 + timedelta(days=30))
    old = make_mem("hash", clock=clock)
    assert old.rt.store.world.events("store", "nfc_keys") == []  # type: ignore[attr-defined]  # (no rows: no mark)
    write_old_rows(old)
    old.close()

    def reopen() -> Mnemon:
        return make_mem("hash", clock=clock)  # the same store (file or schema), migrated on open
    return reopen(), reopen


def views(mem: Mnemon, **filters: Any) -> dict[str, tuple[str, str, str, str | None]]:
    """id → (subject, object, validity now, superseded by) of every assertion."""
    return {a["id"]: (a["subject_name"], a["object"], a["validity"], a["superseded_by_id"])
            for a in mem.state_list(**filters)["assertions"]}


def test_two_spellings_of_a_subject_become_one_subject_with_one_value_in_force(
        upgraded: tuple[Mnemon, Callable[[], Mnemon]]) -> None:
    mem, _ = upgraded
    assert views(mem) == {
        "lisbon": (NFC, "Lisbon", "superseded", "porto"),  # history of the later value, not deleted
        "porto": (NFC, "Porto", "current", None),
        "choir": (NFC, "Choir", "current", None),
        "cafe-old": (NFC, "Café Society", "superseded", "cafe-new"),
        "cafe-new": (NFC, "Café Society", "current", None),
        "bob": ("Bob", "Oslo", "current", None),
    }
    assert mem.contract_check()["status"] == "pass"  # no pair with two values in force
    assert mem.state_conflicts()["count"] == 0
    assert set(views(mem, subject=NFD)) == set(views(mem, subject=NFC)) == {"lisbon", "porto", "choir", "cafe-old",
                                                                             "cafe-new"}
    explained = mem.state_explain("lisbon")
    assert [step["id"] for step in explained["superseded_by_chain"]] == ["porto"]
    assert explained["assertion"]["superseded_at"] == iso(T0 + timedelta(days=1))  # from when Porto took effect
    # a value written now supersedes the one in force, whichever spelling it is typed in
    later = mem.state_assert({"subject": NFD, "predicate": "lives_in", "object": "Faro", "confidence": 0.95,
                              "certainty": "confirmed", "evidence": "lease (fictional)",
                              "source_path": "mneme://r/faro"})
    assert later["superseded_ids"] == ["porto"]


def test_alias_keys_are_respelled_and_the_later_alias_of_one_name_wins(
        upgraded: tuple[Mnemon, Callable[[], Mnemon]]) -> None:
    mem, _ = upgraded
    assert sorted((a["alias"], a["canonical"]) for a in mem.alias_ls()["aliases"]) == [
        (unicodedata.normalize("NFD", "Mamá"), "Ana"), ("Zé", "Joseph")]
    out = mem.state_assert({"subject": "Mamá", "predicate": "lives_in", "object": "Braga", "confidence": 0.95,
                            "certainty": "confirmed", "evidence": "lease (fictional)", "source_path": "mneme://r/m"})
    assert out["subject"] == "Ana"  # the alias is found under its NFC key
    done = mem.rt.store.world.events("store", "nfc_keys")  # type: ignore[attr-defined]
    assert [e["event"] for e in done] == ["upgrade_pending", "upgraded"]
    detail = done[1]["detail"]
    assert detail["merged_pairs"] == [["josé", "lives_in"], ["josé", "member_of"]]
    assert [a["canonical_name"] for a in detail["aliases_displaced"]] == [NFD]  # the displaced alias, kept


def test_the_upgrade_runs_once(upgraded: tuple[Mnemon, Callable[[], Mnemon]]) -> None:
    mem, reopen = upgraded
    first = views(mem)
    events = mem.rt.store.world.events("store", "nfc_keys")  # type: ignore[attr-defined]
    mem.close()
    again = reopen()
    assert views(again) == first
    assert again.rt.store.world.events("store", "nfc_keys") == events  # type: ignore[attr-defined]
    assert STEP in again.rt.store.migrations()  # type: ignore[attr-defined]
