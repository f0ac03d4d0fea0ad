"""`mnemon serve --help` names what `--allow-writes` lets in: it said "Accept remember, link and forget", while a server
started with it takes every operation that writes (`validate_edge`, `kill_edge`, `weaken_edge` — the workbench's own
buttons — `remember_payload`, `action_record`, `predict_add`, `note_add_bullet`, …), as the README says."""
from __future__ import annotations

import re
from collections.abc import Callable

from mnemon.interfaces.operations import OPERATIONS


def _allow_writes_help(cli_raw: Callable[..., tuple[int, str, str]]) -> str:
    code, out, _err = cli_raw(["serve", "--help"])
    assert code == 0
    text = " ".join(out.split())
    return text[text.index("--allow-writes"):text.index("--token")]


def test_allow_writes_help_names_every_kind_of_write_the_server_then_takes(
        cli_raw: Callable[..., tuple[int, str, str]]) -> None:
    said = _allow_writes_help(cli_raw)
    words = set(re.findall(r"[a-z]+", said.lower()))
    writes = [op.name for op in OPERATIONS if not op.read_only]
    assert {"kill_edge", "weaken_edge", "validate_edge", "note_add_bullet"} <= set(writes)
    for name in writes:
        # each write by its command's words: kill_edge as "kill … an edge", predict_check as "predict … check"
        assert set(name.split("_")) - {"edge", "payload", "source", "dated"} <= words, (name, said)
