"""`ingest --append` adds another folder's notes beside the store's vault (README: "or --append: beside it"); it
does not make that folder the store's vault. It did: the append recorded its folder as the one the store was
ingested from, so a later plain `ingest --vault <appended folder>` went ahead without a word and removed every note
of the real vault (the refusal of "another vault than the store's" never fired), and the refusal of a third folder
named the appended one as where the store came from."""
from __future__ import annotations

from pathlib import Path

import pytest

from mnemon.core.errors import Conflict


def _vault(root: Path, notes: dict[str, str]) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    for name, text in notes.items():
        (root / name).write_text(text, encoding="utf-8")
    return root


def _notes(mem) -> set[str]:  # type: ignore[no-untyped-def]
    return set(mem.rt.store.vault.files())


def test_a_plain_ingest_of_the_appended_folder_is_refused_as_another_vault(mem, tmp_path: Path) -> None:
    a = _vault(tmp_path / "a", {"alpha.md": "# Alpha\n\n- Risk: the vendor may slip\n",
                                "gamma.md": "# Gamma\n\nsee [[Alpha]]\n", "delta.md": "# Delta\n\n- a fact\n"})
    b = _vault(tmp_path / "b", {"beta.md": "# Beta\n\n- blocked by the permit\n"})
    mem.ingest(str(a))
    assert mem.ingest(str(b), mode="append")["notes_removed"] == 0
    assert mem.ingest(str(b), mode="append")["notes_read"] == 0  # appended again: its note unchanged
    with pytest.raises(Conflict) as refused:
        mem.ingest(str(b))
    assert refused.value.details["ingested_from"] == str(a.resolve())
    assert refused.value.details["would_remove"] == 3
    assert _notes(mem) == {"alpha.md", "gamma.md", "delta.md", "beta.md"}
    assert mem.recall("vendor may slip")["results"]


def test_a_third_folder_is_refused_naming_the_store_s_own_vault(mem, tmp_path: Path) -> None:
    a = _vault(tmp_path / "a", {"alpha.md": "# Alpha\n", "gamma.md": "# Gamma\n"})
    b = _vault(tmp_path / "b", {"beta.md": "# Beta\n"})
    c = _vault(tmp_path / "c", {"omega.md": "# Omega\n"})
    mem.ingest(str(a))
    mem.ingest(str(b), mode="append")
    with pytest.raises(Conflict) as refused:
        mem.ingest(str(c))
    assert refused.value.details["ingested_from"] == str(a.resolve())
