"""An Obsidian ``%%`` never closed hides the rest of the note (Obsidian shows nothing after it): ingest read it as
text — the task below it an open loop, its link an edge, its words found — and the note editor wrote bullets and
sections there, reported added, that neither Obsidian nor the graph showed."""
from __future__ import annotations

from pathlib import Path

import pytest

from mnemon.app import notes
from mnemon.core.errors import InvalidInput

NOTE = ("# Plan\n\n- [ ] ship the quasar beta by Friday\n\n## Later\n\nThe quasar review went well. %% unsure\n"
        "- [ ] call [[Ana]] about the quokka\n\n## Hidden\n\nmore private quokka words\n")


def test_ingest_hides_what_follows_and_cites_the_lines_before(make_mem, tmp_path: Path) -> None:
    vault = tmp_path / "v"
    vault.mkdir()
    (vault / "Plan.md").write_text(NOTE, encoding="utf-8")
    mem = make_mem()
    out = mem.ingest(str(vault))
    assert {"path": "Plan.md", "code": "unclosed_comment", "line": 7} in [
        {k: w.get(k) for k in ("path", "code", "line")} for w in out["warnings"]]
    assert mem.search("quokka")["results"] == []
    assert not [e for e in mem.rt.store.iter_edges() if e.type == "links_to"]
    tasks = [e for e in mem.rt.store.iter_edges() if e.type == "has_blocked" or e.rule == "observation:task"]
    assert [e.evidence for e in tasks] == ["- [ ] ship the quasar beta by Friday"]
    pack = mem.retrieve("quasar beta review", max_items=8, budget=4000)
    lines = {i["text"]: i.get("line") for i in pack["items"] if i["item_type"] == "memory"}
    assert lines.get("ship the quasar beta by Friday") == 3
    assert not any("quokka" in text or "unsure" in text for text in lines)


@pytest.mark.parametrize("edit", [
    lambda v: notes.add_bullet(v, "n.md", "Later", "call Bo"),  # its own content is hidden
    lambda v: notes.add_bullet(v, "n.md", "Elsewhere", "call Bo"),  # a new section after it
    lambda v: notes.upsert_section(v, "n.md", "Elsewhere", "call Bo"),
], ids=["own-bullet", "new-bullet", "new-section"])
def test_the_editor_adds_nothing_after_an_unclosed_opener(tmp_path: Path, edit) -> None:
    text = "## Tasks\n- pack\n\n## Later\nwords %% unsure\n"
    (tmp_path / "n.md").write_text(text, encoding="utf-8")
    with pytest.raises(InvalidInput) as refused:
        edit(tmp_path)
    assert refused.value.details["comment_line"] == 5 and (tmp_path / "n.md").read_text(encoding="utf-8") == text
    notes.add_bullet(tmp_path, "n.md", "Tasks", "call Bo")  # before the opener: a bullet like any other
    assert (tmp_path / "n.md").read_text(encoding="utf-8") == text.replace("- pack\n", "- pack\n- call Bo\n")


def test_the_editor_writes_no_opener_that_hides_the_rest(tmp_path: Path) -> None:
    text = "## Tasks\n- pack\n\n## Later\n- call\n"
    (tmp_path / "n.md").write_text(text, encoding="utf-8")
    with pytest.raises(InvalidInput) as refused:
        notes.add_bullet(tmp_path, "n.md", "Tasks", "100%% sure of the date")
    assert "comment_line" in refused.value.details
    with pytest.raises(InvalidInput):
        notes.upsert_section(tmp_path, "n.md", "Tasks", "first %% then the rest")
    assert (tmp_path / "n.md").read_text(encoding="utf-8") == text
    notes.add_bullet(tmp_path, "n.md", "Tasks", "pack %%not this%%")  # a comment that closes is the writer's own
    assert "- pack %%not this%%\n" in (tmp_path / "n.md").read_text(encoding="utf-8")
