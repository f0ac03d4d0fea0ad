"""A card's file name keeps the letters of its title in any script (`render/cards.write_card`): "Ωmega" was written
as `…_mega` and an all-Japanese title left only the prefix; the name stays safe on macOS, Windows and Linux."""
from __future__ import annotations

import unicodedata
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mnemon.render.cards import sample_thought, write_card

FORBIDDEN = set('/\\:*?"<>|')


def _write(out: Path, stamp: str) -> Path:
    return write_card(sample_thought(), out, stamp=stamp, png=False).svg


def test_greek_and_japanese_letters_stay_in_the_name(tmp_path: Path) -> None:
    assert _write(tmp_path, "surface_01_Ωmega release").name == "thought_surface_01_Ωmega_release.svg"
    assert _write(tmp_path, "surface_02_締め切りの確認").name == "thought_surface_02_締め切りの確認.svg"


def test_a_decomposed_title_is_named_in_nfc(tmp_path: Path) -> None:
    name = _write(tmp_path, "Cafe\u0301 plan").name
    assert name == unicodedata.normalize("NFC", name) == "thought_Café_plan.svg"


def test_two_cards_of_one_title_get_two_names_and_the_same_title_the_same_name(tmp_path: Path) -> None:
    first, second = _write(tmp_path / "a", "東京 notes"), _write(tmp_path / "a", "東京 notes")
    assert first != second and first.exists() and second.exists()
    assert _write(tmp_path / "b", "東京 notes").name == first.name


def test_a_long_title_in_a_wide_script_fits_a_255_byte_file_system(tmp_path: Path) -> None:
    name = _write(tmp_path, "締" * 300).name
    assert len(name.encode()) <= 255 - len(".tmp")  # room for the temporary file beside it
    assert name.startswith("thought_締")


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(st.characters(codec="utf-8"), max_size=300))
def test_any_title_gives_a_portable_name(tmp_path: Path, title: str) -> None:
    svg = _write(tmp_path, title)
    name = svg.name
    assert svg.parent == tmp_path
    assert not FORBIDDEN & set(name)
    assert not any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") for ch in name)
    assert unicodedata.normalize("NFC", name) == name
    assert len(name.encode()) <= 250
    stem = name.removesuffix(".svg")
    assert stem == stem.strip(" .") and stem.startswith("thought_")
    svg.unlink()
