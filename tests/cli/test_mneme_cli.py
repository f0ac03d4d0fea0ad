"""The `mneme` console script: Mneme's documented command lines run the same commands."""
from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from mnemon.interfaces.mneme_cli import main, translate


@pytest.fixture
def mneme(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch):
    def run(args: list[Any], input: str | None = None) -> tuple[int, Any]:
        capsys.readouterr()
        if input is not None:
            monkeypatch.setattr(sys, "stdin", io.StringIO(input))
        code = main([str(a) for a in args])
        out, err = capsys.readouterr()
        assert "Traceback" not in out + err
        return code, json.loads(out)
    return run


def test_translation_is_thin() -> None:
    assert translate(["ingest", "--vault", "v", "--db", "d.sqlite"]) == ["--db", "d.sqlite", "ingest", "--vault", "v"]
    assert translate(["remember", "add", "--db", "d", "--file", "p.json", "--dry-run"]) == \
        ["--db", "d", "remember", "--payload", "p.json", "--dry-run"]
    assert translate(["remember", "add", "--db=d"]) == ["--db", "d", "remember", "--payload", "-"]
    assert translate(["remember", "remove", "--source-path", "mneme://x"]) == ["forget", "--source", "mneme://x"]
    assert translate(["--config", "c.json", "run-once"]) == ["--config", "c.json", "run-once"]
    assert translate(["explain-edge", "7", "--db", "d"]) == ["--db", "d", "explain-edge", "7"]
    assert translate(["note", "read", "a.md", "--vault", "v"]) == ["note", "read", "a.md", "--vault", "v"]


def test_documented_command_lines_work(mneme, tmp_path: Path, example_vault: Path) -> None:
    db = tmp_path / "mneme.sqlite"
    code, out = mneme(["ingest", "--vault", example_vault, "--db", db])
    assert code == 0 and out["notes_read"] == 13 and out["db"] == str(db)
    code, out = mneme(["update", "--vault", example_vault, "--db", db])
    assert code == 0 and out["mode"] == "update"
    code, out = mneme(["explain-edge", "2", "--db", db])
    assert code == 0 and out["edge"]["id"] == 2
    code, out = mneme(["promote-candidates", "--db", db, "--dry-run"])
    assert code == 0 and out["mode"] == "validated-only"
    payload = {"source_path": "mneme://test/validation", "nodes": [{"ref": "t", "name": "Task"}],
               "observations": [{"node": "t", "kind": "fact", "text": "Validate retrieval before trusting output."}]}
    file = tmp_path / "agent-memory.json"
    file.write_text(json.dumps(payload))
    code, out = mneme(["remember", "add", "--db", db, "--file", file])
    assert code == 0 and out["source_path"] == "mneme://test/validation"
    code, out = mneme(["remember", "remove", "--db", db, "--source-path", "vault:x.md"])
    assert code != 0 and out["ok"] is False
    code, out = mneme(["remember", "remove", "--db", db, "--source-path", "mneme://test/validation"])
    assert code == 0 and out["removed"]["observations"] == 1


def test_config_flow_and_part_b_commands_route(mneme, tmp_path: Path, example_vault: Path) -> None:
    config = tmp_path / "mneme.json"
    code, out = mneme(["--config", config, "init", "--vault", example_vault, "--db", tmp_path / "m.sqlite",
                       "--out", tmp_path / "out"])
    assert code == 0 and out["written"]
    code, out = mneme(["--config", config, "doctor"])
    assert code == 0 and out["ok"] is True
    code, out = mneme(["--config", config, "ingest"])
    assert code == 0 and out["notes_read"] == 13
    code, out = mneme(["--config", config, "retrieve", "--prompt", "vendor contract", "--json"])
    assert code == 0 and "items" in out


def test_mnemes_defaults_and_flags_translate() -> None:
    assert translate(["forget", "--db", "d", "--dry-run", "--json"]) == \
        ["--db", "d", "forget", "--dry-run", "--days-threshold", "30"]  # Mneme's forget is by date, 30 days
    assert translate(["forget", "abc"]) == ["forget", "abc"]
    assert translate(["forget", "--days-threshold", "7"]) == ["forget", "--days-threshold", "7"]
    assert translate(["agent", "preflight", "--prompt", "p"])[-2:] == ["--surface-limit", "5"]
    assert translate(["agent", "preflight", "--prompt", "p", "--surface-limit", "0"])[-1] == "0"
    assert translate(["note", "write", "a.md", "--vault", "v", "--force"]) == ["note", "write", "a.md", "--vault", "v"]


@pytest.mark.parametrize("line", [["tick", "--json"], ["--db", "x.sqlite", "feedback", "t1", "--accept"],
                                  ["sense", "run", "md"], ["sense", "list"], ["path", "ls"],
                                  ["brain", "report"]])
def test_mneme_commands_mnemon_lacks_are_a_clear_error(mneme, line: list[str]) -> None:
    code, out = mneme(line)
    assert code == 2 and out["ok"] is False and out["error"]["code"] == "unsupported"
    assert out["error"]["details"]["command"] in " ".join(line)


def test_agent_paths_take_mnemes_flags_and_the_configs_out_and_hints(mneme, tmp_path: Path,
                                                                     example_vault: Path) -> None:
    config, out_dir = tmp_path / "mneme.json", tmp_path / "cards-from-config"
    assert mneme(["--config", config, "init", "--vault", example_vault, "--db", tmp_path / "m.sqlite",
                  "--out", out_dir, "--hints", "supplier"])[0] == 0
    assert mneme(["--config", config, "ingest"])[0] == 0
    code, out = mneme(["--config", config, "retrieve", "--prompt", "battery", "--hints", "overdue,invoice"])
    # (the words given; the stemmed terms the items are scored by are `hint_terms`)
    assert code == 0 and out["hints"] == ["overdue", "invoice"] and out["hint_terms"] == ["invoic", "overdu"]
    hinted = [i for i in out["items"] if i.get("matched_hints")]
    assert hinted and all(i["score_factors"]["hints"] > 1.0 for i in hinted)
    code, out = mneme(["--config", config, "retrieve", "--prompt", "what should I do here?"])
    assert code == 0 and out["tokens"] == ["supplier"] and out["items"]  # stop words only: the config's hints
    code, out = mneme(["--config", config, "agent", "preflight", "--prompt", "battery supplier", "--hints", "invoice",
                       "--no-candidates"])
    assert code == 0 and out["surface"]["count"] >= 1 and out["world"]["as_of"] and out["failures"] == []
    assert not any(i.get("candidate_only") for i in out["context"]["items"])
    code, out = mneme(["--config", config, "thought"])
    assert code == 0 and Path(out["image"]).parent == out_dir  # the config's `out`, not <home>/cards
    code, out = mneme(["--config", config, "state", "list", "--order-by", "created_at_desc"])
    assert code == 0 and out["assertions"] == []
    code, out = mneme(["--config", config, "state", "list", "--order-by", "sideways"])
    assert code != 0 and out["error"]["code"] == "invalid_input"


def test_mnemes_card_theme_variable_picks_the_theme(mneme, example_vault: Path, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The seed: the theme is "selectable via the MNEME_CARD_THEME env var"; MNEMON_CARD_THEME, when set, wins."""
    db = tmp_path / "m.sqlite"
    assert mneme(["ingest", "--vault", example_vault, "--db", db])[0] == 0
    monkeypatch.setenv("MNEMON_CARD_THEME", "")  # (unset, as far as mnemon is concerned; restored afterwards)
    monkeypatch.setenv("MNEME_CARD_THEME", "light")
    code, out = mneme(["thought", "--db", db, "--out", tmp_path / "light"])
    assert code == 0 and 'fill="#eef2f7"' in Path(out["image"]).with_suffix(".svg").read_text(encoding="utf-8")
    monkeypatch.setenv("MNEMON_CARD_THEME", "dark")
    code, out = mneme(["thought", "--db", db, "--out", tmp_path / "dark"])
    assert code == 0 and 'fill="#0b1020"' in Path(out["image"]).with_suffix(".svg").read_text(encoding="utf-8")


@pytest.mark.parametrize("line", [
    ["remember", "list"], ["remember", "ls", "--file", "x.json"], ["remember"],  # Mneme has `remember add|remove` only
    ["retrieve", "--db", "--prompt", "hello"], ["retrieve", "--prompt", "hello", "--db"],
    ["retrieve", "--prompt", "hello", "--db="], ["--config", "--db", "x", "doctor"],
    ["remember", "add", "--file"], ["remember", "remove", "--source-path="],
])
def test_a_line_that_cannot_mean_anything_is_a_usage_error_and_writes_nothing(
        mneme, line: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MNEMON_HOME", str(tmp_path / "home"))
    code, out = mneme(line)
    assert code == 2 and out["ok"] is False and out["error"]["code"] == "usage"
    assert list(tmp_path.iterdir()) == []  # no store was created, at the default place or at "--prompt"


def test_unsupported_envelopes_are_printed_like_every_other(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tick"]) == 2
    assert capsys.readouterr().out.startswith('{"ok":false,"error":{"code":"unsupported"')


def test_mnemes_own_config_is_read_where_mneme_keeps_it(mneme, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        example_vault: Path) -> None:
    xdg = tmp_path / "xdg"
    (xdg / "mneme").mkdir(parents=True)
    (xdg / "mneme" / "config.json").write_text(json.dumps({"vault": str(example_vault),
                                                          "db": str(tmp_path / "m.sqlite"),
                                                          "out": str(tmp_path / "out")}))
    monkeypatch.delenv("MNEMON_CONFIG", raising=False)
    monkeypatch.delenv("MNEME_CONFIG", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(xdg))
    code, out = mneme(["doctor"])
    assert code == 0 and out["config"] == str(xdg / "mneme" / "config.json")
    assert out["checks"]["markdown_notes"]["count"] == 13
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_text(json.dumps({"vault": str(tmp_path / "missing")}))
    monkeypatch.setenv("MNEME_CONFIG", str(elsewhere))  # Mneme's variable names its config, as in Mneme
    code, out = mneme(["doctor"])
    assert code == 1 and out["error"]["code"] == "doctor_failed"
    assert out["error"]["details"]["config"] == str(elsewhere)
    (xdg / "mnemon").mkdir()
    (xdg / "mnemon" / "config.json").write_text("{}")
    monkeypatch.delenv("MNEME_CONFIG")
    code, out = mneme(["doctor"])  # mnemon's own config wins once there is one
    assert out["error"]["details"]["config"] == str(xdg / "mnemon" / "config.json")


def test_note_extras_translate() -> None:
    assert translate(["note", "delete", "a.md", "--vault", "v", "--force"]) == ["note", "delete", "a.md", "--vault", "v"]
    assert translate(["note", "daily", "append", "--content", "x"]) == \
        ["note", "daily", "append", "--content", "x", "--pattern", "memory/YYYY-MM-DD.md"]  # where Mneme keeps them
    assert translate(["note", "daily", "read", "--pattern", "Daily/YYYY-MM-DD"])[-1] == "Daily/YYYY-MM-DD"
    assert translate(["note", "move", "a.md", "--to", "b.md", "--update-links", "--force", "--json"]) == \
        ["note", "move", "a.md", "--to", "b.md", "--update-links"]
    assert translate(["note", "search-content", "x", "--folder", "P", "--max-results", "3", "--context", "1"]) == \
        ["note", "search-content", "x", "--folder", "P", "--max-results", "3", "--context", "1"]


def test_mnemes_note_editor_extras_run(mneme, tmp_path: Path, example_vault: Path) -> None:
    v = ["--vault", example_vault]
    code, out = mneme(["note", "list", "People", *v, "--pattern", "*a*"])
    assert code == 0 and {n["path"] for n in out["notes"]} == {"People/ada-quill.md", "People/bram-okafor.md",
                                                               "People/cleo-marsh.md"}
    code, out = mneme(["note", "search", "kickoff", *v, "--folder", "Meetings"])
    assert code == 0 and out["matches"][0]["path"] == "Meetings/2026-03-04 Kickoff.md"
    code, out = mneme(["note", "search-content", "battery", *v, "--max-results", "1", "--context", "0", "--json"])
    assert code == 0 and out["count"] == 1 and out["truncated"]
    code, out = mneme(["note", "status", *v])
    assert code == 0 and out["notes"] == 13 and out["broken_links"]["count"] == 1
    code, out = mneme(["note", "daily", "create", *v, "--date", "2026-03-01", "--content", "- standup"])
    assert code == 0 and out["path"] == "memory/2026-03-01.md" and (example_vault / "memory/2026-03-01.md").exists()
    code, out = mneme(["note", "move", "Decisions/2026-02-choose-lora.md", *v, "--to", "Decisions/lora.md",
                       "--update-links"])
    assert code == 0 and out["links_rewritten"] == 1
    assert "(../Decisions/lora.md)" in (example_vault / "Projects/lighthouse.md").read_text(encoding="utf-8")
    code, out = mneme(["note", "delete", "Decisions/lora.md", *v])  # Mneme's confirmation is missing
    assert code == 2 and out["error"]["code"] == "usage" and (example_vault / "Decisions/lora.md").exists()
    code, out = mneme(["note", "delete", "Decisions/lora.md", *v, "--force"])  # confirmed, but still linked
    assert code != 0 and out["error"]["code"] == "conflict" and (example_vault / "Decisions/lora.md").exists()
    code, out = mneme(["note", "delete", "memory/2026-03-01.md", *v, "--force"])
    assert code == 0 and out["deleted"] and out["backup"]


def test_mneme_refusing_a_linked_delete_names_the_command_that_deletes_it(mneme, example_vault: Path) -> None:
    """Through `mneme` the --force given is Mneme's confirmation and is dropped: "pass --force" cannot be followed,
    so the refusal names the mnemon command instead."""
    code, out = mneme(["note", "delete", "Projects/tidewatch.md", "--vault", example_vault, "--force"])
    assert code == 1 and out["error"]["code"] == "conflict"
    instead = out["error"]["details"]["instead"]
    assert instead.startswith("mnemon note delete Projects/tidewatch.md") and instead.endswith(" --force")
    assert f"`{instead}`" in out["error"]["message"] and "pass --force" not in out["error"]["message"]
    assert out["error"]["details"]["linked_from"]["count"] == 1
    assert (example_vault / "Projects/tidewatch.md").exists()
    from mnemon.interfaces.cli.main import main as mnemon_main
    import shlex

    assert mnemon_main(shlex.split(instead)[1:]) == 0  # the advice works as given
    assert not (example_vault / "Projects/tidewatch.md").exists()
