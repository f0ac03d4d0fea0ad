"""The link index an ingest keeps between runs (`vault_state` `link_index`, app/vault/ingest.py): stored compressed,
reused while no note's names changed, rebuilt when one did, and a state written uncompressed before still read."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from mnemon.core.vault.links import LinkIndex


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    real = LinkIndex.build.__func__  # type: ignore[attr-defined]
    monkeypatch.setattr(LinkIndex, "build", classmethod(lambda cls, ids: (calls.append(1), real(cls, ids))[1]))
    return calls


def _state(mem) -> str:  # type: ignore[no-untyped-def]
    return mem.rt.store.vault.get_state("link_index")


def test_the_link_index_is_kept_compressed_and_reused_until_a_name_changes(make_mem, example_vault: Path,
                                                                            builds: list[int]) -> None:
    mem = make_mem("none")
    mem.ingest(str(example_vault))
    stored = _state(mem)
    assert stored.startswith("z:") and len(builds) == 1
    note = next(example_vault.rglob("*.md"))
    note.write_text(note.read_text(encoding="utf-8") + "\n- one more line\n", encoding="utf-8")
    mem.ingest(str(example_vault))
    assert len(builds) == 1  # the same names: the stored index served
    (example_vault / "Brand new note.md").write_text("# Brand new note\n\nlinks to [[Tidewatch]]\n", encoding="utf-8")
    out = mem.ingest(str(example_vault))
    assert len(builds) == 2 and _state(mem) != stored and out["notes_read"] == 1


def test_a_state_written_uncompressed_before_is_still_read(make_mem, example_vault: Path, builds: list[int]) -> None:
    import base64
    import zlib

    mem = make_mem("none")
    mem.ingest(str(example_vault))
    plain = zlib.decompress(base64.b64decode(_state(mem)[2:])).decode("utf-8")
    assert json.loads(plain)["tiers"]
    vault = mem.rt.store.vault
    with mem.rt.store.transaction():
        vault.set_state("link_index", plain)
    note = next(example_vault.rglob("*.md"))
    note.write_text(note.read_text(encoding="utf-8") + "\n- one more line\n", encoding="utf-8")
    mem.ingest(str(example_vault))
    assert len(builds) == 1
