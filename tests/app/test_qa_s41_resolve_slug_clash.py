"""Two researches whose titles spell the same file name: "C++ vs Rust" and "C# vs Rust" are both
`Sources/c-vs-rust.md`, as are two long titles that differ only after the slug's 80 characters. The second `resolve`
took the first one's pack for an earlier run of its own research: it overwrote the pack and demoted the first
research's active claims (`dropped_edges`). It is now refused (`conflict`) before anything is written, naming the
other research; the payload's own `slug` (or the same title again) still replaces the pack."""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.errors import Conflict

from conftest import FakeClock

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=timezone.utc)
LONG = "Supplier relationship review between Acme and Globex covering pricing, delivery and support in 2026"


def claim(obj: str) -> dict[str, object]:
    return {"subject": "Acme", "predicate": "compared_with", "object": obj, "confidence": 0.95,
            "certainty": "confirmed", "source_type": "web", "evidence": f"benchmarks of {obj}"}


@pytest.fixture
def mem(make_mem: Callable[..., Mnemon]) -> Mnemon:
    return make_mem("hash", clock=FakeClock(T0))


@pytest.mark.parametrize(("first", "second"), [("C++ vs Rust", "C# vs Rust"),
                                               (f"{LONG}: part one", f"{LONG}: part two")])
@pytest.mark.parametrize("dry_run", [False, True])
def test_another_research_with_the_same_file_name_is_refused(mem: Mnemon, tmp_path: Path, first: str, second: str,
                                                             dry_run: bool) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    written = mem.resolve(str(vault), {"title": first, "claims": [claim("Rust")]})
    pack = vault / written["note_path"]
    before = pack.read_bytes()
    with pytest.raises(Conflict, match="another research") as caught:
        mem.resolve(str(vault), {"title": second, "claims": [claim("Go")]}, dry_run=dry_run)
    assert first in caught.value.message and caught.value.details["path"] == written["note_path"]
    assert pack.read_bytes() == before
    assert mem.rt.store.get_edge(written["edges"][0]["id"]).status == "active"
    assert not (vault / ".mnemon-backups").exists()


def test_the_same_research_again_or_its_slug_still_replaces_the_pack(mem: Mnemon, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    first = mem.resolve(str(vault), {"title": "C++ vs Rust", "claims": [claim("Rust")]})
    # the same title re-spaced and re-cased is the same research: its corrected claims replace the earlier ones
    again = mem.resolve(str(vault), {"title": "c++  VS rust", "claims": [claim("Zig")]})
    assert again["note_path"] == first["note_path"] and again["dropped_edges"] == [first["edges"][0]["id"]]
    # a payload naming the slug says which pack it is: another title may take it over
    taken = mem.resolve(str(vault), {"title": "C# vs Rust", "slug": "c-vs-rust", "claims": [claim("Go")]})
    assert taken["note_path"] == first["note_path"] and taken["overwrites"]
    assert len(list((vault / "Sources").iterdir())) == 1
