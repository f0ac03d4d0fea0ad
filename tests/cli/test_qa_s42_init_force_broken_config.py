"""`mnemon init --vault V --force` ("Overwrite an existing config file") on a config file that is not valid JSON
refused with the same `invalid_input` every other command gives ("config file … is not valid JSON"), so the one
command meant to write a fresh config could not; `doctor` sends the user to `init`. Now --force replaces it, keeping
the old bytes beside it (`<name>.invalid`, said in `replaced_invalid`); without --force it is still refused and left
as it was."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from cli.test_qa_s39_init_full_disk import vault  # noqa: F401  (the fixture: a vault of one note)

Run = Callable[..., tuple[int, Any]]
BROKEN = '{"vault": "/old/notes", "hints": ["tax",]}\n'  # a trailing comma, as a hand edit leaves it


def test_force_replaces_a_config_that_is_not_json_and_keeps_its_bytes(cli_run: Run, tmp_path: Path,
                                                                       vault: Path) -> None:
    config = tmp_path / "cfg" / "config.json"
    config.parent.mkdir()
    config.write_text(BROKEN, encoding="utf-8")
    code, out = cli_run(["--config", config, "init", "--vault", vault, "--force"])
    assert code == 0, out
    assert out["written"] is True and out["vault"] == str(vault)
    kept = Path(out["replaced_invalid"])
    assert kept == config.with_name("config.json.invalid") and kept.read_text(encoding="utf-8") == BROKEN
    code, doctor = cli_run(["--config", config, "doctor"])
    assert code == 0 and doctor["settings"]["vault"] == str(vault), doctor


def test_without_force_it_is_still_refused_and_untouched(cli_run: Run, tmp_path: Path, vault: Path) -> None:
    config = tmp_path / "config.json"
    config.write_text(BROKEN, encoding="utf-8")
    code, out = cli_run(["--config", config, "init", "--vault", vault])
    assert code == 1 and out["error"]["code"] == "invalid_input" and "not valid JSON" in out["error"]["message"]
    assert config.read_text(encoding="utf-8") == BROKEN and not config.with_name("config.json.invalid").exists()


def test_doctor_names_the_init_that_replaces_it(cli_run: Run, tmp_path: Path) -> None:
    config = tmp_path / "config.json"
    config.write_text(BROKEN, encoding="utf-8")
    code, out = cli_run(["--config", config, "doctor"])
    assert code == 1 and out["error"]["code"] == "doctor_failed"
    assert "--force" in out["error"]["details"]["next"] and "config.json.invalid" in out["error"]["details"]["next"]
