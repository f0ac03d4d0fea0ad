"""`status` and `doctor` say what a run left unfinished and the command that finishes it, from what the store records.
After an ingest stopped before it embedded what it wrote (a `kill -9`, the embedding server gone), `mnemon status`
showed `embedding.coverage: "10%"` and nothing else: no word that a run was cut short, nor that `ingest` or
`embed --all` finishes it; `mnemon doctor` without a config file did not mention the store at all. The state is built
here as such a run leaves it (the provider failing mid-ingest), not by killing a process."""
from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mnemon.app.config import load_config
from mnemon.app.memory import Mnemon
from mnemon.app.vault.setup import doctor
from mnemon.core.errors import HealthCheckFailed, ProviderUnavailable


def _ingest_cut_short(mem: Mnemon, vault: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """An ingest whose notes were stored but whose embedding stopped: what a run killed while embedding leaves."""
    def down(texts: Any) -> Any:
        raise ProviderUnavailable("the embedding server stopped answering")

    with monkeypatch.context() as patched:
        patched.setattr(mem.rt.provider, "embed_documents", down)
        return mem.ingest(str(vault))


def test_status_names_an_ingest_cut_short_and_what_finishes_it(make_mem: Callable[..., Mnemon], example_vault: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    mem = make_mem("hash")
    assert mem.status()["unfinished"] == []  # an empty store has nothing left to do
    out = _ingest_cut_short(mem, example_vault, monkeypatch)
    assert out["vectors"]["left"] > 0, out["vectors"]
    status = mem.status()
    [left] = status["unfinished"]
    assert left["what"] == "vectors" and left["ingest_interrupted"] is True
    assert left["vault"] == str(example_vault.resolve())
    assert (left["missing"], left["total"]) == (status["embedding"]["total"] - status["embedding"]["embedded"],
                                                status["embedding"]["total"])
    assert "`mnemon ingest`" in left["message"] and "`mnemon embed --all`" in left["message"], left["message"]
    assert left["next"] == "mnemon embed --all"
    mem.ingest(str(example_vault))  # the next ingest finishes it
    assert mem.status()["unfinished"] == []


def test_status_names_memories_stored_without_vectors_without_guessing_a_cut_short_run(
        make_mem: Callable[..., Mnemon], example_vault: Path) -> None:
    mem = make_mem("hash")
    mem.ingest(str(example_vault), embed=False)  # `ingest --no-embed`: finished, its vectors left for later on purpose
    [left] = mem.status()["unfinished"]
    assert left["ingest_interrupted"] is False and "vault" not in left
    assert "stopped" not in left["message"] and "`mnemon embed --all`" in left["message"], left["message"]
    mem.embed_all()
    assert mem.status()["unfinished"] == []


def test_a_store_without_vectors_by_choice_has_nothing_unfinished(make_mem: Callable[..., Mnemon],
                                                                  example_vault: Path) -> None:
    mem = make_mem("none")  # embeddings off: no vector is missing, none is ever made
    mem.ingest(str(example_vault))
    assert mem.status()["unfinished"] == []


def test_doctor_without_a_config_file_reports_the_store_and_its_vault(make_mem: Callable[..., Mnemon],
                                                                      example_vault: Path, tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    mem = make_mem("hash")
    _ingest_cut_short(mem, example_vault, monkeypatch)
    db = str(mem.rt.store.path)
    mem.close()
    config = tmp_path / "xdg-config" / "mnemon" / "config.json"
    assert not config.exists()
    with pytest.raises(HealthCheckFailed) as failed:  # (no config: the vault commands need one, as before)
        doctor(lambda: load_config(dict(os.environ), db=db), config)
    report = failed.value.details
    store = report["store"]
    assert store["exists"] is True and store["memories"] > 0 and store["notes"] == 13
    assert store["vault"] == str(example_vault.resolve())
    [left] = store["unfinished"]
    assert left["ingest_interrupted"] is True and "`mnemon embed --all`" in left["message"]
    # the vault the store was built from, not a placeholder: the command to run as it is
    assert f"`mnemon init --vault {example_vault.resolve()}`" in report["next"], report["next"]


def test_doctor_with_a_config_names_what_is_unfinished_as_its_next_step(make_mem: Callable[..., Mnemon],
                                                                         example_vault: Path, tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from mnemon.app.vault.setup import init

    mem = make_mem("hash")
    _ingest_cut_short(mem, example_vault, monkeypatch)
    db = str(mem.rt.store.path)
    mem.close()
    config = tmp_path / "xdg-config" / "mnemon" / "config.json"
    init(load_config(dict(os.environ), db=db), vault=str(example_vault), db=db, out=str(tmp_path / "out"))
    report = doctor(lambda: load_config(dict(os.environ)), config)
    assert report["ok"] is True and report["store"]["unfinished"][0]["ingest_interrupted"] is True
    assert "`mnemon embed --all`" in report["next"], report["next"]


def test_doctor_says_a_store_not_made_yet_is_not_there(home: Path, tmp_path: Path) -> None:
    config = tmp_path / "xdg-config" / "mnemon" / "config.json"
    with pytest.raises(HealthCheckFailed) as failed:
        doctor(lambda: load_config(dict(os.environ)), config)
    assert failed.value.details["store"] == {"exists": False}
    assert "`mnemon init --vault DIR`" in failed.value.details["next"]


def test_embed_all_finishes_a_cut_short_ingest_for_good(make_mem: Callable[..., Mnemon], example_vault: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """`embed --all` adds what the ingest left; the ingest's mark goes with it, so a memory stored later without a
    vector (its provider down for that write) is not blamed on an ingest that was finished long ago."""
    mem = make_mem("hash")
    _ingest_cut_short(mem, example_vault, monkeypatch)
    mem.embed_all()
    assert mem.status()["unfinished"] == []
    with monkeypatch.context() as patched:
        patched.setattr(mem.rt.provider, "embed_documents",
                        lambda texts: (_ for _ in ()).throw(ProviderUnavailable("the embedding server is down")))
        mem.remember("The crane inspection moved to Friday")
    [left] = mem.status()["unfinished"]
    assert left["missing"] == 1 and left["ingest_interrupted"] is False, left
