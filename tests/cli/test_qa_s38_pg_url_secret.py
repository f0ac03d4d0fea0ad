"""A database URL libpq cannot parse is refused without its password. libpq quotes some malformed URIs whole in its
error ('… in IPv6 host address in URI: "postgres://a:SECRET@[::1:5432/x"'), and `store_error` printed that text after
the redacted URL: `mnemon --db 'postgres://a:SECRET@[::1:5432/x' status` showed the password it had just masked."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("psycopg")

Run = Callable[..., tuple[int, Any]]


@pytest.mark.parametrize("url", [
    "postgres://ann:Hunter2pw@[::1:5432/memory",  # an IPv6 host without its closing bracket
    "postgresql://ann:Hunter2pw@[]/memory",  # an empty IPv6 host
    "postgresql://ann:Hunter2pw@[::1]x/memory",  # a character libpq does not expect after the host
])
def test_a_malformed_url_is_refused_without_its_password(cli_run: Run, url: str) -> None:
    for command in (["status"], ["remember", "a note"], ["recall", "note"]):
        code, out = cli_run(["--db", url, *command])
        assert code == 1 and out["error"]["code"] == "store_error", out
        message = out["error"]["message"]
        assert "Hunter2pw" not in message and "***" in message, message
        assert message.startswith("cannot connect to PostgreSQL at postgres"), message  # it still names the URL
