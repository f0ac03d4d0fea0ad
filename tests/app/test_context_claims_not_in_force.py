"""A `resolve` claim's edge stays active in the graph after its belief is superseded by a later value or retracted as
never true. Context packs and thought walks must not serve that edge as an `active_validated_claim`: the world model no
longer holds it. And `resolve`'s base64 payload comment, ingested as part of the evidence pack's last section, never
reaches a pack's text."""
from __future__ import annotations

from pathlib import Path

from mnemon.app.memory import Mnemon


def _claim(slug: str, date: str, place: str, evidence: str) -> dict:
    return {"slug": slug, "title": f"Mira in {place}", "date": date, "sources_checked": ["email"],
            "claims": [{"subject": "Mira", "subject_type": "person", "predicate": "lives_in", "object": place,
                        "object_type": "place", "confidence": 0.95, "strength": 0.95, "certainty": "confirmed",
                        "source_type": "email", "evidence": evidence}]}


def _mira(mem: Mnemon, vault: Path) -> tuple[dict, dict]:
    vault.mkdir(exist_ok=True)
    (vault / "mira.md").write_text("# Mira\n- Mira is a friend from school\n", encoding="utf-8")
    mem.ingest(str(vault))
    old = mem.resolve(str(vault), _claim("mira-home", "2026-01-10", "Lisbon", "January email: she lives in Lisbon."))
    new = mem.resolve(str(vault), _claim("mira-move", "2026-03-10", "Porto", "March email: she moved to Porto."))
    return old, new


def _edge_views(pack: dict, edge_id: int) -> tuple[list[dict], list[dict]]:
    key = f"edge:{edge_id}"
    return [i for i in pack["items"] if i["id"] == key], [s for s in pack["skipped"] if s["id"] == key]


def test_a_superseded_claims_edge_is_history_not_an_active_validated_claim(mem: Mnemon, tmp_path: Path) -> None:
    old, new = _mira(mem, tmp_path / "vault")
    [old_edge], [old_assertion] = old["edges"], old["assertions"]
    pack = mem.retrieve("where does Mira live now?", max_items=12, budget=10000)
    [current] = [i for i in pack["items"] if i["item_type"] == "world_state"]
    assert current["title"] == "Mira lives_in Porto" and current["truth_policy"] == "current_state_assertion"
    shown, _ = _edge_views(pack, old_edge["id"])
    for item in shown:  # kept as history, labelled as the belief is, and ranked below what is current
        assert item["truth_policy"] == "superseded_state_assertion"
        assert item["assertion_id"] == old_assertion["id"] and item["assertion_validity"] == "superseded"
        assert item["superseded_by_id"] == new["assertions"][0]["id"]
        assert item["score"] < current["score"]
    assert all(i["truth_policy"] != "active_validated_claim" or "lisbon" not in i["title"].casefold()
               for i in pack["items"])


def test_a_retracted_claims_edge_is_left_out_and_the_walk_does_not_take_it(mem: Mnemon, tmp_path: Path) -> None:
    _old, new = _mira(mem, tmp_path / "vault")
    [new_edge], [new_assertion] = new["edges"], new["assertions"]
    mem.state_retract(new_assertion["id"], reason="misread the email")
    pack = mem.retrieve("where does Mira live now?", max_items=12, budget=10000)
    [current] = [i for i in pack["items"] if i["item_type"] == "world_state"]
    assert current["title"] == "Mira lives_in Lisbon"  # the value the retraction put back in force
    shown, left = _edge_views(pack, new_edge["id"])
    assert not shown
    assert [(s["reason"], s["truth_policy"], s["assertion_id"]) for s in left] == [
        ("retracted_state_assertion", "retracted_state_assertion", new_assertion["id"])]
    # a thought walk from Mira's note does not offer "lives_in Porto" as a connection
    for thought in mem.surface(prompt="where does Mira live")["thoughts"]:
        assert all(step.get("edge_id") != new_edge["id"] for step in thought["path"])
        assert "porto (lives in)" not in thought["insight"].casefold()


def test_an_edge_a_current_belief_still_rests_on_stays_an_active_validated_claim(mem: Mnemon, tmp_path: Path) -> None:
    _old, new = _mira(mem, tmp_path / "vault")
    [new_edge] = new["edges"]
    pack = mem.retrieve("Porto", max_items=12, budget=10000)
    shown, left = _edge_views(pack, new_edge["id"])
    assert [i["truth_policy"] for i in shown] in ([], ["active_validated_claim"])
    assert all(s["reason"] != "retracted_state_assertion" for s in left)


def test_the_resolution_payload_comment_never_reaches_a_pack(mem: Mnemon, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    _mira(mem, vault)
    pack_text = (vault / "Sources" / "2026-03-10-mira-move.md").read_text(encoding="utf-8")
    assert "mneme-research-resolution-b64" in pack_text  # the pack keeps it: a rebuild re-creates the edges from it
    mem.ingest(str(vault))
    pack = mem.retrieve("Mira moved sources checked email", max_items=20, budget=20000)
    assert pack["items"]
    for item in pack["items"]:
        assert "mneme-research-resolution" not in str(item.get("text")), item["id"]
    for thought in mem.surface(prompt="Mira moved sources checked email")["thoughts"]:
        assert "mneme-research-resolution" not in thought["insight"] + " ".join(thought["evidence"])


def test_a_world_rows_card_says_what_it_is_and_its_inspect_command_names_the_world_command(
        mem: Mnemon, tmp_path: Path) -> None:
    _mira(mem, tmp_path / "vault")
    mem.predict_add({"title": "Mira's new address card should arrive", "check_after": "2026-12-01T00:00:00Z",
                     "expires_at": "2099-12-20T00:00:00Z",
                     "match_json": {"sense_type": "gws", "observation_terms_all": ["mira", "address"]}})
    cards = {t["surface"]["kind"]: t for t in mem.surface(prompt="Mira lives where, new address card")["thoughts"]}
    state, prediction = cards["state_assertion"], cards["prediction"]
    assert state["title"] == "Current state: Mira lives in Porto"
    assert "holds “Mira lives in Porto” as current since 2026-03-10" in state["insight"]
    assert prediction["title"] == "Expected: Mira's new address card should arrive"
    assert "expectation, not a fact" in prediction["insight"]
    [inspect_state] = [a["command"] for a in state["suggested_actions"] if a["type"] == "inspect"]
    [inspect_prediction] = [a["command"] for a in prediction["suggested_actions"] if a["type"] == "inspect"]
    assert inspect_state[-3:] == ["state", "explain", state["surface"]["source_id"]]
    assert inspect_prediction[-5:] == ["predict", "check", "--id", prediction["surface"]["source_id"], "--dry-run"]
    assert mem.state_explain(state["surface"]["source_id"])["assertion"]["object"] == "Porto"
