"""QA round (session 39): a refusal of an unknown id names the argument and the id it was given, and offers the
stored id a shortened one begins ('mnemon link 46b1a2cd …' answered "no active memory with id '46b1a2cd'" with no
details) without ever acting on it."""
from __future__ import annotations

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.errors import NotFound


def _refusal(call: object, *args: object, **kwargs: object) -> dict[str, object]:
    with pytest.raises(NotFound) as caught:
        call(*args, **kwargs)  # type: ignore[operator]
    return {"message": caught.value.message, **caught.value.details}


def test_a_shortened_id_is_offered_and_nothing_is_done(mem: Mnemon) -> None:
    kept = mem.remember("the backup runs at 02:00 every night")["id"]
    other = mem.remember("the backup is kept for 30 days")["id"]
    short = kept[:8]
    for call, args, field in ((mem.forget, (short,), "id"), (mem.show, (short,), "id"),
                              (mem.related, (short,), "id"), (lambda i: mem.gc(keep=i), (short,), "keep"),
                              (mem.link, (short, other, "semantic"), "source_id"),
                              (mem.link, (other, short, "semantic"), "target_id"),
                              (mem.undo_forget, ([short],), "id")):
        out = _refusal(call, *args)
        assert out["field"] == field and out["id"] == short and out["did_you_mean"] == kept, (call, out)
        assert kept in str(out["message"])
    assert mem.show(kept)["id"] == kept  # not forgotten
    assert not [e for e in mem.show(kept)["edges"] if e["origin"] == "agent"]  # nothing linked on a prefix
    graph = _refusal(mem.graph, focus=short)
    assert graph["field"] == "focus" and graph["did_you_mean"] == kept


def test_a_forgotten_memory_is_offered_to_undo_by_its_prefix(mem: Mnemon) -> None:
    node = mem.remember("the spare key is with the neighbour")["id"]
    mem.forget(node)
    out = _refusal(mem.undo_forget, [node[:10]])
    assert out["did_you_mean"] == node and out["reason"] == "unknown"
    plain = _refusal(mem.forget, node[:10])  # forget takes active memories only: nothing to offer
    assert "did_you_mean" not in plain and plain["id"] == node[:10]


def test_no_offer_for_a_short_or_shared_prefix_or_another_text(mem: Mnemon) -> None:
    first = mem.remember("a fact about the garden shed")["id"]
    out = _refusal(mem.show, first[:5])  # under six characters: too many ids begin so by chance
    assert "did_you_mean" not in out and out == {**out, "field": "id", "id": first[:5]}
    assert "did_you_mean" not in _refusal(mem.show, "nope")
    assert "did_you_mean" not in _refusal(mem.show, first[1:9])  # the middle of an id is not its start


def test_a_prefix_that_two_ids_share_offers_neither(mem: Mnemon) -> None:
    stored = mem.remember_payload({"source_path": "mneme://agent/s39", "nodes": [
        {"ref": "boiler1", "summary": "the old boiler"}, {"ref": "boiler2", "summary": "the new boiler"}]})
    one, two = (n["id"] for n in stored["nodes"])
    assert mem.show(one)["id"] == one and mem.show(two)["id"] == two
    assert "did_you_mean" not in _refusal(mem.show, "mneme://agent/s39#boiler")  # two ids begin so: neither
    assert _refusal(mem.show, one[:-1] + "1x").get("did_you_mean") is None  # longer than the id: no id begins so


def test_other_unknown_ids_name_their_field_and_value(mem: Mnemon) -> None:
    out = _refusal(mem.explain_edge, 987654)
    assert out["field"] == "id" and out["id"] == 987654
