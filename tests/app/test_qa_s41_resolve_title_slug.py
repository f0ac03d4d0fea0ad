"""A payload titled "..", "—" or "!!!" and naming no slug was refused with "needs a 'slug' made of letters or
digits": the user had given no slug, and the message did not say that the title was the trouble. It now says the
title has no letters or digits and how to name the pack (`"slug": "…"`); a slug given without any is still named."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mnemon.app.vault.resolve import validate_payload
from mnemon.core.errors import InvalidInput

_NO_LETTERS = st.text(st.sampled_from(".-_!?—…/ #*"), min_size=1).filter(lambda t: t.strip())


@settings(max_examples=40, deadline=None)
@given(title=_NO_LETTERS)
def test_a_title_without_letters_names_the_title_and_the_slug_to_pass(title: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        validate_payload({"title": title, "claims": []})
    message = str(caught.value)
    assert "title" in message and repr(title.strip()) in message
    assert '"slug"' in message
    assert caught.value.details["field"] == "title"


def test_a_slug_without_letters_is_named_as_the_slug() -> None:
    with pytest.raises(InvalidInput, match="'slug'") as caught:
        validate_payload({"title": "Acme research", "slug": "..", "claims": []})
    assert caught.value.details["field"] == "slug"
    assert "title" not in str(caught.value)


def test_such_a_title_with_a_slug_is_written_under_the_slug() -> None:
    assert validate_payload({"title": "..", "slug": "acme-notes", "claims": []})["slug"] == "acme-notes"
