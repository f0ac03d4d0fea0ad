"""An incremental ingest leaves the same graph a fresh ingest of the same files would build — whatever was added,
edited, renamed or deleted before — and never loses what a person decided about an edge (killed, validated).

The differential check is the point: every earlier incremental bug (an edit deleting the note's own new edges, a
link lost when another note claimed its name, a self-link resolved differently) showed up as a difference between
the two graphs."""
from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from mnemon.app.config import load_config
from mnemon.app.memory import Mnemon

NAMES = ("Ada", "Bob", "Meeting", "Plan", "Ada Quill", "X/Meeting", "Y/Plan", "zeta")
PATHS = ("ada.md", "bob.md", "meeting.md", "X/meeting.md", "Y/plan.md", "People/ada-quill.md", "hub.md",
         "z/zeta.md", "plan.md")


def _open(db: Path) -> Mnemon:
    env = {"MNEMON_HOME": str(db.parent), "HOME": str(db.parent), "MNEMON_EMBED_PROVIDER": "none",
           "XDG_CONFIG_HOME": str(db.parent / "xdg"), "MNEMON_DAEMON": "off"}
    return Mnemon.open(load_config(env, db=str(db)))


def _graph(mem: Mnemon) -> tuple[set[tuple[str, str, str, str]], set[str]]:
    """(live edges as (src, dst, type, status), live non-placeholder node ids): what a reader of the graph sees."""
    store = mem.rt.store
    live = {n.id for kind in ("note", "memory", "heading", "date", "email", "tag", "placeholder")
            for n in store.iter_nodes(kind=kind)}
    edges = {(e.src, e.dst, e.type, e.status) for e in store.iter_edges()
             if e.status != "killed" and e.src in live and e.dst in live}
    return edges, {n for n in live if not n.startswith("placeholder:")}


def _note(draw: Any) -> str:
    front = f"---\naliases: [{draw(st.sampled_from(NAMES))}]\n---\n" if draw(st.booleans()) else ""
    title = f"# {draw(st.sampled_from(NAMES))}\n" if draw(st.booleans()) else ""
    links = " ".join(f"[[{n}]]" for n in draw(st.lists(st.sampled_from(NAMES), max_size=3)))
    md_link = f"[see]({draw(st.sampled_from(PATHS))})" if draw(st.booleans()) else ""
    day, body = draw(st.integers(1, 3)), draw(st.integers(0, 3))
    heading = f"## Part {draw(st.integers(0, 1))}\n" if draw(st.booleans()) else ""
    extra = draw(st.sampled_from(("", "#ops ", "mail ops@example.org ", "- waiting on the vendor reply\n")))
    return (f"{front}{title}body {body} {links} {md_link}\n{heading}{extra}"
            f"- [ ] task {draw(st.integers(0, 2))} deadline 2024-01-0{day}\n")


@st.composite
def _histories(draw: Any) -> tuple[dict[str, str], list[tuple[str, str, str]]]:
    first = {p: _note(draw) for p in draw(st.lists(st.sampled_from(PATHS), min_size=1, max_size=4, unique=True))}
    # "move": the vault folder renamed (mtimes kept); "copy": copied elsewhere with new mtimes, the old folder left
    steps = [(draw(st.sampled_from(("write", "write", "delete", "move", "copy"))), draw(st.sampled_from(PATHS)),
              _note(draw)) for _ in range(draw(st.integers(1, 5)))]
    return first, steps


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_histories())
def test_incremental_ingest_builds_the_graph_a_fresh_ingest_builds(history: tuple[dict[str, str], list]) -> None:
    first, steps = history
    work = Path(tempfile.mkdtemp(prefix="mnemon-incremental-"))
    try:
        vault = work / "vault"
        for rel, text in first.items():
            (vault / rel).parent.mkdir(parents=True, exist_ok=True)
            (vault / rel).write_text(text, encoding="utf-8")
        incremental = _open(work / "inc" / "mnemon.db")
        try:
            incremental.ingest(str(vault), embed=False)
            for n, (action, rel, text) in enumerate(steps):
                if action in ("move", "copy"):
                    elsewhere = work / f"vault{n}"
                    if action == "move":
                        vault.rename(elsewhere)
                    else:
                        shutil.copytree(vault, elsewhere, copy_function=shutil.copy)
                    vault = elsewhere
                target = vault / rel
                if action == "write":
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_text(text, encoding="utf-8")
                elif action == "delete" and target.exists():
                    target.unlink()
                out = incremental.ingest(str(vault), embed=False, allow_empty=True)  # (deleting every note)
                if "nodes" in out:  # (a run that changed nothing reports no counts)
                    live = incremental.rt.store.conn.execute(
                        "SELECT COUNT(*) FROM nodes WHERE deleted_at IS NULL").fetchone()[0]
                    assert out["nodes"] == live, (first, steps[: n + 1])
                fresh = _open(work / f"fresh{n}" / "mnemon.db")
                try:
                    fresh.ingest(str(vault), embed=False)
                    assert _graph(incremental) == _graph(fresh), (first, steps[: n + 1])
                finally:
                    fresh.close()
        finally:
            incremental.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _write(vault: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (vault / rel).parent.mkdir(parents=True, exist_ok=True)
        (vault / rel).write_text(text, encoding="utf-8")


@pytest.mark.parametrize("decision", ["kill", "validate", "promote"])
def test_a_decided_link_survives_its_target_leaving_and_coming_back(mem, tmp_path: Path, decision: str) -> None:
    vault = tmp_path / "vault"
    _write(vault, {"A/meeting.md": "# Meeting\nfirst\n", "B/meeting.md": "# Meeting\nsecond\n",
                   "hub.md": "# Hub\nLinks: [[Meeting]] and [[B/Meeting]]\n"})
    mem.ingest(str(vault), embed=False)
    decided = mem.rt.store.find_edge("note:hub.md", "note:A/meeting.md", "links_to")
    assert decided is not None and decided.id is not None
    if decision == "kill":
        mem.kill_edge(decided.id, reason="wrong meeting")
    elif decision == "validate":
        mem.validate_edge(decided.id, reason="right meeting")
    else:
        mem.promote_candidates(mode="all")
    moved = vault.parent / "meeting-away.md"
    (vault / "A" / "meeting.md").rename(moved)
    mem.ingest(str(vault), embed=False)  # [[Meeting]] now names B/meeting, which the hub already links to
    kept = mem.rt.store.get_edge(decided.id)
    assert kept is not None and (kept.src, kept.dst) == ("note:hub.md", "note:A/meeting.md")
    assert mem.explain_edge(decided.id)["edge"]["status"] == ("killed" if decision == "kill" else "active")
    moved.rename(vault / "A" / "meeting.md")
    mem.ingest(str(vault), embed=False)
    _write(vault, {"hub.md": "# Hub\nLinks: [[Meeting]] and [[B/Meeting]], edited\n"})
    mem.ingest(str(vault), embed=False)
    edges = [e for e in mem.rt.store.iter_edges() if (e.src, e.dst, e.type) == ("note:hub.md", "note:A/meeting.md",
                                                                                  "links_to")]
    assert [e.id for e in edges] == [decided.id]  # the decision stands: not deleted, not recreated as a candidate
    assert edges[0].status == ("killed" if decision == "kill" else "active")


def test_a_link_parked_on_a_placeholder_and_killed_keeps_blocking_when_its_note_appears(mem, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    _write(vault, {"hub.md": "# Hub\nSee [[Budget 2027]]\n"})
    mem.ingest(str(vault), embed=False)
    parked = mem.rt.store.find_edge("note:hub.md", "placeholder:budget 2027", "links_to")
    assert parked is not None and parked.id is not None
    mem.kill_edge(parked.id, reason="not that budget")
    _write(vault, {"budget.md": "# Budget 2027\nnumbers\n"})
    out = mem.ingest(str(vault), embed=False)
    assert out["notes_relinked"] == 1  # the hub was planned again with the new name
    edges = [e for e in mem.rt.store.iter_edges() if e.src == "note:hub.md" and e.type == "links_to"]
    assert [(e.id, e.dst, e.status) for e in edges] == [(parked.id, "note:budget.md", "killed")]


def test_an_edit_keeps_the_notes_new_edges(mem, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    _write(vault, {"alpha.md": "# Alpha\nalpha text\n",
                   "zulu.md": "# Zulu\nzulu text\n- [ ] call the plumber about the leak deadline 2024-01-03\n"})
    mem.ingest(str(vault), embed=False)
    _write(vault, {"zulu.md": "# Zulu\nzulu text edited\n- [ ] call the plumber about the leak deadline 2024-01-04\n"})
    out = mem.ingest(str(vault), embed=False)
    types = sorted(e.type for e in mem.rt.store.iter_edges() if e.src.startswith(("note:zulu.md", "vault:zulu.md")))
    assert types == ["has_blocked", "has_section", "mentions_date"]  # edge ids freed by the edit were not deleted twice
    assert out["edges"] == len(list(mem.rt.store.iter_edges()))


def test_a_vault_moved_to_another_folder_keeps_its_notes_and_reads_nothing_twice(mem, tmp_path: Path,
                                                                                monkeypatch) -> None:
    # (the store used to drop every note of a vault ingested from a new folder, then record them as ingested)
    from mnemon.app.vault import ingest as ingest_module

    vault = tmp_path / "vault"
    _write(vault, {"hub.md": "# Hub\nSee [[Plan]]\n- [ ] call the vendor deadline 2024-01-03\n",
                   "plan.md": "# Plan\nsteps\n"})
    before = mem.ingest(str(vault), embed=False)
    reads: list[str] = []
    real_read = ingest_module._read
    monkeypatch.setattr(ingest_module, "_read", lambda entry: reads.append(entry.rel) or real_read(entry))
    moved = tmp_path / "moved"
    shutil.copytree(vault, moved, copy_function=shutil.copy)  # new mtimes: each note is read and found the same
    out = mem.ingest(str(moved), embed=False)
    assert (out["notes_read"], out["notes_removed"], out["notes_unchanged"]) == (0, 0, 2)
    assert (out["notes_total"], out["nodes"], out["edges"]) == (2, before["nodes"], before["edges"])
    assert sorted(reads) == ["hub.md", "plan.md"]
    reads.clear()
    again = mem.ingest(str(moved), embed=False)
    assert reads == [] and again["notes_unchanged"] == 2  # the new folder and mtimes were recorded
    _write(moved, {"plan.md": "# Plan\nsteps, revised\n"})
    (moved / "hub.md").unlink()
    edited = mem.ingest(str(moved), embed=False)
    assert (edited["notes_read"], edited["notes_removed"], edited["notes_total"]) == (1, 1, 1)


def test_a_run_that_changes_nothing_reports_the_same_fields_as_one_that_does(mem, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    _write(vault, {"hub.md": "# Hub\nSee [[Plan]]\n"})
    changed = mem.ingest(str(vault), embed=False)
    unchanged = mem.ingest(str(vault), embed=False)
    assert unchanged["notes_read"] == 0 and set(unchanged) == set(changed)


def test_renaming_a_folder_relinks_the_notes_naming_its_notes_and_rewrites_nothing_else(mem, example_vault: Path,
                                                                                      tmp_path: Path) -> None:
    # the folder's notes get new ids, so each note linking to one by its title is relinked: its links alone are
    # resolved again (its bytes did not change), and the graph is the one a fresh ingest of the new layout builds
    mem.ingest(str(example_vault), embed=False)
    conn = mem.rt.store.conn
    outside = ("SELECT * FROM nodes WHERE source NOT LIKE 'vault:People/%' AND id NOT LIKE '%:People/%'"
               " AND kind IN ('note', 'memory', 'heading') ORDER BY seq")
    rows_before = conn.execute(outside).fetchall()
    (example_vault / "People").rename(example_vault / "Crew")
    out = mem.ingest(str(example_vault), embed=False)
    assert (out["notes_read"], out["notes_removed"]) == (3, 3) and out["notes_relinked"] >= 4
    assert conn.execute(outside.replace("People", "Crew")).fetchall() == rows_before
    fresh = _open(tmp_path / "fresh" / "mnemon.db")
    try:
        fresh.ingest(str(example_vault), embed=False)
        assert _graph(mem) == _graph(fresh)
    finally:
        fresh.close()
    assert any(e.dst.startswith("note:Crew/") for e in mem.rt.store.iter_edges() if e.type == "links_to")


def test_the_task_and_bullet_texts_of_notes_read_on_both_backends(mem, example_vault: Path) -> None:
    # what a replaced note's sense events keep (app/world/note_text.py): one statement valid on SQLite and PostgreSQL
    mem.ingest(str(example_vault), embed=False)
    store = mem.rt.store
    sources = sorted(f"vault:{path}" for path in store.vault.files())
    got = store.vault.observation_texts(sources)
    assert len(got) > 10 and all(":task:" in i or ":observation:" in i for i, _source, _meta, _text in got)
    assert {source for _i, source, _meta, _text in got} <= set(sources) and all(text for *_rest, text in got)


def test_forgetting_a_vault_memory_says_it_lives_as_long_as_its_line(mem, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    _write(vault, {"ops.md": "# Ops\n- waiting on the vendor reply about the pump\n"})
    mem.ingest(str(vault), embed=False)
    bullet = next(n.id for n in mem.rt.store.iter_nodes(kind="memory") if ":observation:" in n.id)
    out = mem.forget(bullet)
    assert out["status"] == "deleted" and "ops.md" in out["vault_note"]
    mem.ingest(str(vault), embed=False)
    assert mem.rt.store.get_node(bullet) is None  # the note did not change: still forgotten
    _write(vault, {"ops.md": "# Ops\n- waiting on the vendor reply about the pump\n\nmore\n"})
    mem.ingest(str(vault), embed=False)
    assert mem.rt.store.get_node(bullet) is not None  # read again from the note, as the reply said
    own = mem.remember("The pump was serviced on Monday")
    assert "vault_note" not in mem.forget(own["id"])


@pytest.mark.parametrize("how", ["same bytes", "rebased links"])
def test_decisions_follow_a_moved_note(mem, tmp_path: Path, how: str) -> None:
    """A kill, a validation and a killed bullet edge of a note moved to another folder (a `note move`, a folder
    rename) used to stay on the removed note while the same links and bullet came back undecided."""
    vault = tmp_path / "vault"
    _write(vault, {"Projects/hub.md": "# Hub\nSee [[Plan]] and [[Bob]] and [x](../ext.md)\n"
                                      "- Risk: the vendor may slip\n",
                   "plan.md": "# Plan\nsteps\n", "bob.md": "# Bob\nperson\n", "ext.md": "# Ext\n", "other.md":
                   "# Other\nabout [[Hub]]\n"})
    mem.ingest(str(vault), embed=False)
    store = mem.rt.store
    killed = store.find_edge("note:Projects/hub.md", "note:plan.md", "links_to")
    validated = store.find_edge("note:Projects/hub.md", "note:bob.md", "links_to")
    inbound = store.find_edge("note:other.md", "note:Projects/hub.md", "links_to")
    risk = next(e for e in store.iter_edges() if e.src == "note:Projects/hub.md" and e.type == "has_risk")
    mem.kill_edge(killed.id, reason="not that plan")
    mem.validate_edge(validated.id, reason="checked")
    mem.kill_edge(inbound.id, reason="not about the hub")
    mem.kill_edge(risk.id, reason="not a risk")
    text = (vault / "Projects/hub.md").read_text(encoding="utf-8")
    (vault / "Projects/hub.md").unlink()
    _write(vault, {"Archive/2025/hub.md": text if how == "same bytes" else text.replace("../ext.md", "../../ext.md")})
    out = mem.ingest(str(vault), embed=False)
    assert out["notes_moved"] == 1 and out["decisions_moved"] == 4
    new = "note:Archive/2025/hub.md"
    by_key = {(e.src, e.dst, e.type): e for e in store.iter_edges()}
    assert by_key[(new, "note:plan.md", "links_to")].status == "killed"
    assert by_key[(new, "note:plan.md", "links_to")].id == killed.id  # the same edge, its audit trail with it
    assert by_key[(new, "note:bob.md", "links_to")].status == "active"
    assert by_key[("note:other.md", new, "links_to")].status == "killed"
    risks = [e for e in store.iter_edges() if e.src == new and e.type == "has_risk"]
    assert [(e.status, e.dst.startswith("vault:Archive/2025/hub.md:")) for e in risks] == [("killed", True)]
    assert not [e for e in store.iter_edges() if "Projects/hub.md" in e.src or "Projects/hub.md" in e.dst]
    assert mem.ingest(str(vault), embed=False)["notes_read"] == 0  # and nothing is left to redo


@pytest.mark.parametrize("how", ["note moved", "placeholder joined"])
def test_a_weakened_edge_keeps_its_weakening_when_its_ends_change(mem, tmp_path: Path, how: str) -> None:
    """`weaken-edge` is a decision, but it lives in the edge's strength: a weakened link parked on a placeholder came
    back at full strength when its note appeared, and the weakened links and bullet edges of a moved note did too."""
    vault = tmp_path / "vault"
    _write(vault, {"Projects/hub.md": "# Hub\nSee [[Plan]] and [[Budget]]\n- Risk: the vendor may slip\n",
                   "plan.md": "# Plan\nsteps\n"})
    mem.ingest(str(vault), embed=False)
    store = mem.rt.store
    hub = "note:Projects/hub.md"
    weakened = [store.find_edge(hub, "note:plan.md", "links_to"),
                store.find_edge(hub, "placeholder:budget", "links_to"),
                next(e for e in store.iter_edges() if e.src == hub and e.type == "has_risk")]
    strengths = [mem.weaken_edge(e.id, reason="too loose")["strength"] for e in weakened]
    if how == "note moved":
        (vault / "Projects/hub.md").rename(vault / "hub.md")
        hub = "note:hub.md"
        ends = [(hub, "note:plan.md", "links_to"), (hub, "placeholder:budget", "links_to")]
    else:
        _write(vault, {"budget.md": "# Budget\nnumbers\n"})
        ends = [(hub, "note:plan.md", "links_to"), (hub, "note:budget.md", "links_to")]
    mem.ingest(str(vault), embed=False)
    by_key = {(e.src, e.dst, e.type): e for e in store.iter_edges()}
    risk = next(e for e in store.iter_edges() if e.src == hub and e.type == "has_risk")
    assert [by_key[k].weight for k in ends] + [risk.weight] == pytest.approx(strengths)
    assert mem.ingest(str(vault), embed=False)["notes_read"] == 0
    _write(vault, {hub[5:]: (vault / hub[5:]).read_text(encoding="utf-8") + "more\n"})  # a re-parse keeps it too
    mem.ingest(str(vault), embed=False)
    assert store.find_edge(*ends[1]).weight == pytest.approx(strengths[1])
