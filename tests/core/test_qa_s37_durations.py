"""QA session 37: a duration is ASCII digits and a unit (`1d`, `4h`, `1.5w`), as the CLI's help and the schemas say.
Python's `\\d` also read Arabic-Indic, Devanagari or full-width digits: an action's verify `check_after: "٥d"` was
five days to the library, where a client checking the tool's schema (or a person reading it) sees no duration."""
from __future__ import annotations

import pytest

from mnemon.app.config import parse_duration as config_duration
from mnemon.core.errors import InvalidInput
from mnemon.core.world.values import parse_duration

NOT_ASCII = ["٥d", "१h", "１d", "5.٥d", "𝟓w"]


@pytest.mark.parametrize("text", NOT_ASCII)
def test_a_duration_in_other_digits_is_refused(text: str) -> None:
    with pytest.raises(InvalidInput, match="duration"):
        parse_duration(text, "lead")
    with pytest.raises(InvalidInput, match="duration"):
        config_duration(text)


@pytest.mark.parametrize("text, seconds", [("5d", 432_000), (" 1.5h ", 5400), ("2W", 1_209_600), ("30 m", 1800)])
def test_an_ascii_duration_is_read_as_before(text: str, seconds: float) -> None:
    assert parse_duration(text, "lead").total_seconds() == seconds
    assert config_duration(text) == seconds
