"""Front matter a person added to an evidence pack (`tags: [research, x]`, `owner: Ana`) was dropped when the same
research was resolved again (only the backup kept it): a property resolve does not write, or one whose value the
person changed and the payload does not decide, is carried into the rewritten pack; title and date stay the
payload's."""
from __future__ import annotations

from pathlib import Path

from mnemon.app.memory import Mnemon

from conftest import FakeClock

_CLAIM = {"subject": "Mira", "predicate": "works_at", "object": "Acme"}


def test_front_matter_a_person_added_to_a_pack_survives_a_rerun(world: tuple[Mnemon, FakeClock],
                                                                 tmp_path: Path) -> None:
    mem, _ = world
    mem.resolve(str(tmp_path), {"slug": "acme", "title": "Acme", "date": "2026-06-01", "claims": [_CLAIM]})
    pack = tmp_path / "Sources" / "2026-06-01-acme.md"
    text = pack.read_text(encoding="utf-8")
    pack.write_text(text.replace("tags: [research]", "tags:\n  - research\n  - x\nowner: Ana"), encoding="utf-8")
    out = mem.resolve(str(tmp_path), {"slug": "acme", "title": "Acme, again", "date": "2026-06-01", "claims": [_CLAIM]})
    written = pack.read_text(encoding="utf-8")
    assert "tags:\n  - research\n  - x\n" in written and "owner: Ana" in written
    assert 'title: "Acme, again"' in written and written.count("tags:") == 1
    assert out["pack_changed"] is True and out["kept_properties"] == ["tags", "owner"]
    # the same run again changes nothing more
    again = mem.resolve(str(tmp_path), {"slug": "acme", "title": "Acme, again", "date": "2026-06-01",
                                        "claims": [_CLAIM]})
    assert again["pack_changed"] is False
