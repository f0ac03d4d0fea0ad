"""An evidence pack is a note in the user's vault, and users write in it: a "## My notes" section added under the
claims vanished the next time the same research was resolved (an agent replaying its writeback), the pack rewritten
from the payload alone — the text only in a backup, the reply saying nothing of it. A section of the pack that
`resolve` does not write is now carried into the new pack, above its payload comment, and named in the reply."""
from __future__ import annotations

from pathlib import Path

from mnemon.app.memory import Mnemon

from app.test_qa_s34_resolve_wikilink_names import mem  # noqa: F401  (the store on a fixed clock)

CLAIM = {"subject": "Acme", "subject_type": "organisation", "predicate": "located_in", "object": "Porto",
         "object_type": "place", "confidence": 0.95, "certainty": "confirmed", "source_type": "document",
         "evidence": "The lease names the Porto warehouse."}
PAYLOAD = {"slug": "warehouse", "title": "Warehouse", "date": "2026-05-02", "claims": [CLAIM],
           "unresolved": ["Who signs the renewal?"]}
MINE = "## My notes\n\n- Risk: the Porto lease renewal needs the landlord's signature\n\n### Calls\nAna, Tuesday.\n"


def test_a_section_the_user_wrote_in_a_pack_survives_resolving_again(mem: Mnemon, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    pack = vault / mem.resolve(str(vault), PAYLOAD)["note_path"]
    pack.write_bytes((pack.read_text(encoding="utf-8") + "\n" + MINE).replace("\n", "\r\n").encode("utf-8"))
    again = mem.resolve(str(vault), PAYLOAD)
    text = pack.read_text(encoding="utf-8")
    assert MINE in text and text.count("## My notes") == 1
    assert again["kept_sections"] == ["My notes"]
    assert text.index(MINE) < text.index("<!-- mneme-research-resolution-b64:")  # the comment stays last
    more = {**PAYLOAD, "claims": [CLAIM, {**CLAIM, "object": "Braga", "evidence": "A second depot in Braga."}]}
    assert mem.resolve(str(vault), more)["kept_sections"] == ["My notes"]
    text = pack.read_text(encoding="utf-8")
    assert MINE in text and "[[Braga]]" in text and text.count("## My notes") == 1
    assert not mem.resolve(str(vault), more)["pack_changed"]  # the same research again: nothing to rewrite
    mem.ingest(str(vault))
    assert mem.search("landlord signature")["results"]  # the user's section is a part of the note like any
