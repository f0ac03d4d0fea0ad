"""Claude Code sends a hook's event as UTF-8 JSON whatever the machine's locale, and the hook read it in the
locale's encoding: where stdin is not UTF-8 (Windows' code page for a pipe, or a C locale Python does not coerce)
"café at Zoë" arrived as "cafÃ© at ZoÃ«" and missed the memory, or as surrogates that failed the hook with a
`systemMessage` at every prompt. The event is now read as the UTF-8 it is."""
from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

CliProc = Callable[..., tuple[int, Any]]
CliRun = Callable[..., tuple[int, Any]]

LOCALES = {"code page": {"PYTHONIOENCODING": "cp1252"},
           "C locale": {"LC_ALL": "C", "LANG": "C", "PYTHONCOERCECLOCALE": "0", "PYTHONUTF8": "0",
                        "PYTHONIOENCODING": ""}}


@pytest.mark.parametrize("locale", sorted(LOCALES))
def test_an_event_beyond_ascii_is_read_as_utf8_whatever_the_locale(cli_run: CliRun, cli_proc: CliProc,
                                                                   locale: str) -> None:
    assert cli_run(["remember", "Zoë's café orders its beans from Kaffeerösterei Größ", "--cat", "fact"])[0] == 0
    event = json.dumps({"prompt": "Kaffeerösterei Größ für Zoë?"}, ensure_ascii=False)  # (no word of it ASCII)
    code, out = cli_proc(["hook", "claude-code", "prompt"], input=event, env=LOCALES[locale])
    assert code == 0
    assert "systemMessage" not in out, out
    assert "Kaffeerösterei Größ" in out["hookSpecificOutput"]["additionalContext"]
