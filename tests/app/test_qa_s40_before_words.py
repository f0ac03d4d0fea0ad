"""`predict due --before 3days` (or `world tick --before tomorrow`) answered "before is not a valid ISO-8601
date/time", though the option takes a duration as well: the refusal said nothing of the form the user was reaching
for. It now names both forms."""
from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mnemon.app.memory import Mnemon
from mnemon.app.world.common import instant_from
from mnemon.core.errors import InvalidInput

NOW = datetime(2026, 12, 7, 9, 0, tzinfo=timezone.utc)


@pytest.mark.parametrize("before", ["3days", "tomorrow", "0s", "-1d", "1 day"])
def test_a_before_that_is_neither_form_names_both(mem: Mnemon, before: str) -> None:
    for call in (lambda: mem.predict_due(before=before), lambda: mem.world_tick(before=before, dry_run=True)):
        with pytest.raises(InvalidInput) as caught:
            call()
        assert caught.value.details["field"] == "before"
        assert "ISO-8601" in caught.value.message and "4h" in caught.value.message, caught.value.message
        assert repr(before) in caught.value.message


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="0123456789mhdwsyT -:.Z+", min_size=1, max_size=14))
def test_before_is_read_or_refused_with_its_field(before: Any) -> None:
    try:
        moment = instant_from(NOW, before, "before")
    except InvalidInput as error:
        assert error.details["field"] == "before"
        assert "4h" in error.message or "out of range" in error.message or "beyond" in error.message, error.message
    else:
        assert moment.tzinfo is not None
