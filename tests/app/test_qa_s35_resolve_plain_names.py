"""A claim's plain name was read as a link target: "C# Guild" as a link to a section of note "C" and "R&D | EMEA"
as a link to "R&D" shown as "EMEA", so in a vault holding C.md (the language) the research "C# Guild meets on
Friday" hung from the note about C, while the belief said "C# Guild". A plain name is now the name it is, whole; a
name given as a wikilink is still the note it links to."""
from __future__ import annotations

from pathlib import Path

from mnemon.app.memory import Mnemon


def _claim(subject: str, obj: str) -> dict[str, object]:
    return {"subject": subject, "predicate": "meets_on", "object": obj, "confidence": 0.95, "certainty": "confirmed",
            "source_type": "email", "evidence": "The invite."}


def test_a_plain_name_with_a_hash_or_bar_is_not_a_link(mem: Mnemon, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "C.md").write_text("# C\n\nThe C programming language.\n", encoding="utf-8")
    (vault / "R&D.md").write_text("# R&D\n", encoding="utf-8")
    mem.ingest(str(vault))
    research = {"slug": "guild", "title": "Guild", "date": "2026-05-02",
                "claims": [_claim("C# Guild", "Friday"), _claim("Ada", "R&D | EMEA"),
                           _claim("[[C#History]]", "Monday")]}
    out = mem.resolve(str(vault), research)
    assert [(e["src"], e["dst"]) for e in out["edges"]] == [
        ("placeholder:c# guild", "placeholder:friday"), ("placeholder:ada", "placeholder:r&d | emea"),
        ("note:C.md", "placeholder:monday")]
    mem.ingest(str(vault))  # the pack read back: the same edges
    assert [e["id"] for e in mem.resolve(str(vault), research)["edges"]] == [e["id"] for e in out["edges"]]
