"""A call refused `store_busy` says how long it waited and which setting made it wait that long. `MNEMON_BUSY_WAIT=1
mnemon remember …` while an import held the writer answered "…longer than this call waits (setting busy_wait,
MNEMON_BUSY_WAIT: 60 s unless set)": the user had set 1 s and was told 60. The ingest lock's refusal already said
"has held it for 2 s"; every refusal now says the wait and where it came from, on both backends."""
from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.errors import StoreBusy
from mnemon.interfaces.payloads import from_exception


def _refusal_of_a_write_behind(stuck: Mnemon, waiting: Mnemon) -> StoreBusy:
    with stuck.rt.store.transaction():  # another process's write, held past the wait
        with pytest.raises(StoreBusy) as refused:
            waiting.remember("The crane inspection moved to Friday")
    return refused.value


def test_a_write_refused_says_the_wait_the_variable_set(make_mem: Callable[..., Mnemon],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MNEMON_BUSY_WAIT", "0.3")
    stuck, waiting = make_mem("hash"), make_mem("hash")
    stuck.remember("The harbour crane was fixed")
    refused = _refusal_of_a_write_behind(stuck, waiting)
    assert "0.3 s" in refused.message and "set by MNEMON_BUSY_WAIT" in refused.message, refused.message
    assert "60 s" not in refused.message
    assert refused.details["retryable"] is True
    assert waiting.remember("The crane inspection moved to Friday")["action"] == "added"  # the same call, once free


def test_a_write_refused_names_the_config_file_that_set_the_wait(make_mem: Callable[..., Mnemon], tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "xdg-config" / "mnemon" / "config.json"
    config.parent.mkdir(parents=True)
    config.write_text(json.dumps({"busy_wait": "0.4s"}))
    stuck, waiting = make_mem("hash"), make_mem("hash")
    stuck.remember("The harbour crane was fixed")
    refused = _refusal_of_a_write_behind(stuck, waiting)
    assert "0.4 s" in refused.message and f"set by config file {config}" in refused.message, refused.message


def test_an_ingest_refused_behind_another_says_where_its_wait_came_from(
        make_mem: Callable[..., Mnemon], example_vault: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MNEMON_BUSY_WAIT", "0.5")
    stuck, teammate = make_mem("hash"), make_mem("hash")
    outcome: dict[str, Any] = {}

    def ingest() -> None:
        try:
            teammate.ingest(str(example_vault))
        except BaseException as exc:  # reported to the test, never left in the thread
            outcome["error"] = exc

    with stuck.rt.store.vault.ingest_lock():  # type: ignore[attr-defined]
        worker = threading.Thread(target=ingest, daemon=True)
        worker.start()
        worker.join(30)
    refused = outcome.get("error")
    assert isinstance(refused, StoreBusy), outcome
    assert "0.5 s" in refused.message and "set by MNEMON_BUSY_WAIT" in refused.message, refused.message


def test_the_default_wait_is_said_to_be_the_default() -> None:
    from mnemon.ports.store.base import another_writer

    message = another_writer("/srv/m.db", 60_000, "default").message
    assert "60 s" in message and "busy_wait's default" in message and "MNEMON_BUSY_WAIT" in message, message


def test_a_busy_refusal_no_store_translated_claims_no_wait_it_cannot_know() -> None:
    """The interfaces' last resort (SQLite's 'database is locked' the store did not turn into its own refusal) knows
    no setting: it must not state 60 s to a user who set 1 s."""
    envelope, code = from_exception(sqlite3.OperationalError("database is locked"))
    assert code == 1 and envelope["error"]["code"] == "store_busy"
    assert "60 s" not in envelope["error"]["message"] and "busy_wait" in envelope["error"]["message"]
