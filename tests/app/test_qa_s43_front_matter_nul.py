"""A note whose front matter spells a NUL with YAML's escape (`title: "a\\0b"`) stopped the whole ingest: the sense
event refused the title (`invalid_input`), and no note of the vault was stored. A NUL the file holds was already read
as U+FFFD with a warning; one YAML decodes from an escape is now read the same way, in every front-matter value."""
from __future__ import annotations

from pathlib import Path

from mnemon.app.memory import Mnemon


def test_a_nul_escaped_in_front_matter_reads_as_the_replacement_character(mem: Mnemon, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "n.md").write_text('---\ntitle: "Pump\\0 room"\naliases: ["x\\0y"]\n---\n# Pump\n\n- waiting on the'
                                " vendor\n", encoding="utf-8")
    (vault / "o.md").write_text("# Other\n\nplain text about the harbour\n", encoding="utf-8")
    out = mem.ingest(str(vault), embed=False)
    assert out["notes_read"] == 2
    notes = {n.id: n for n in mem.rt.store.iter_nodes(kind="note")}
    assert set(notes) == {"note:n.md", "note:o.md"}
    assert notes["note:n.md"].title == "Pump\ufffd room"
    assert "\x00" not in repr(notes["note:n.md"].metadata)
    assert mem.search("harbour")["results"]
