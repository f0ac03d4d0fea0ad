"""`mnemon --db 'postgresql://ann:p@ss@db.internal/memory' status` printed the URL as
`postgresql://ann:***@ss@db.internal/memory`: a password holding a raw `@` kept its tail. The whole password is
masked, whatever it holds."""
from __future__ import annotations

from hypothesis import given, strategies as st

from mnemon.ports.store.postgres import redact


def test_a_password_with_a_raw_at_sign_is_masked_whole() -> None:
    assert redact("postgresql://ann:p@ss@db.internal/memory") == "postgresql://ann:***@db.internal/memory"
    plain = redact("postgresql://ann:plain@db/memory?sslmode=require")
    assert plain == "postgresql://ann:***@db/memory?sslmode=require"
    assert redact("postgresql://db/memory?password=s3cr@t&x=1") == "postgresql://db/memory?password=***&x=1"


@given(st.text(alphabet=st.characters(blacklist_characters="\n", blacklist_categories=("Cs",)), min_size=1))
def test_no_part_of_any_password_is_shown(password: str) -> None:
    assert redact(f"postgresql://ann:{password}@db.internal/memory") == "postgresql://ann:***@db.internal/memory"
