"""`mnemon` vault commands end to end through the real click entry point: one JSON document each, errors as envelopes."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

PAYLOAD = {"source_path": "mneme://cli/test", "nodes": [{"ref": "a", "name": "Agent"}, {"ref": "b", "name": "Task"}],
           "edges": [{"src": "a", "dst": "b", "relation": "relates_to", "status": "active"}],
           "observations": [{"node": "b", "kind": "blocked", "text": "Waiting on the review of the task", "score": 4}]}


def test_ingest_update_and_explain_edge(cli_run, example_vault: Path) -> None:
    code, out = cli_run(["ingest", "--vault", example_vault])
    assert code == 0 and out["notes_read"] == 13 and out["thoughts_cleared"] == 0
    code, out = cli_run(["update", "--vault", example_vault])
    assert code == 0 and out["mode"] == "update" and out["notes_read"] == 0 and "thoughts" in out["preserved"]
    code, out = cli_run(["explain-edge", "1"])
    assert code == 0 and out["edge"]["id"] == 1 and out["debug_log"]
    code, out = cli_run(["explain-edge", "424242"])
    assert code != 0 and out["ok"] is False and out["error"]["code"] == "not_found"


def test_ingest_without_a_vault_is_a_clean_error(cli_run, tmp_path: Path) -> None:
    code, out = cli_run(["ingest"])
    assert code != 0 and out["error"]["code"] == "invalid_input"
    code, out = cli_run(["ingest", "--vault", tmp_path / "missing"])
    assert code != 0 and out["error"]["code"] == "not_found"


def test_an_empty_folder_removes_the_vault_only_when_asked(cli_run, example_vault: Path, tmp_path: Path) -> None:
    # an empty folder where the notes were is more often a wrong path or an unmounted drive than a wish to forget
    cli_run(["ingest", "--vault", example_vault])
    for note in example_vault.rglob("*.md"):
        note.unlink()
    code, out = cli_run(["ingest", "--vault", example_vault])
    assert code != 0 and out["error"]["code"] == "conflict" and "--allow-empty" in out["error"]["message"]
    code, status = cli_run(["status"])
    assert code == 0 and status["nodes_by_kind"].get("note") == 13  # nothing was changed
    empty = tmp_path / "elsewhere"
    empty.mkdir()
    assert cli_run(["ingest", "--vault", empty])[1]["error"]["code"] == "conflict"  # (another folder alike)
    code, out = cli_run(["ingest", "--vault", example_vault, "--allow-empty"])
    assert code == 0 and (out["notes_removed"], out["notes_total"]) == (13, 0)
    assert cli_run(["ingest", "--vault", example_vault])[0] == 0  # nothing left to remove: no refusal


def test_lifecycle_commands(cli_run, example_vault: Path) -> None:
    cli_run(["ingest", "--vault", example_vault])
    code, out = cli_run(["promote-candidates", "--dry-run", "--mode", "all"])
    assert code == 0 and out["dry_run"] and out["activated"] == 0 and out["would_activate"] > 0
    code, out = cli_run(["weaken-edge", "1", "--reason", "noise", "--factor", "0.5"])
    assert code == 0 and out["weakened"] and out["strength"] == pytest.approx(out["previous_strength"] * 0.5)
    code, out = cli_run(["kill-edge", "1"])
    assert code == 0 and out["status"] == "killed"
    code, out = cli_run(["weaken-edge", "1"])
    assert code != 0 and out["error"]["code"] == "invalid_input"


def test_payload_remember_and_scoped_forget(cli_run, tmp_path: Path) -> None:
    file = tmp_path / "payload.json"
    file.write_text(json.dumps(PAYLOAD))
    code, out = cli_run(["remember", "--payload", file, "--dry-run"])
    assert code == 0 and out["dry_run"] is True
    code, out = cli_run(["remember", "--payload", "-"], input=json.dumps(PAYLOAD))
    assert code == 0 and {e["status"] for e in out["edges"]} == {"candidate", "active"}
    code, out = cli_run(["remember", "plain", "text", "still", "works"])
    assert code == 0 and out["action"] == "added"
    code, out = cli_run(["forget", "--source", "vault:People/ada-quill.md"])
    assert code != 0 and out["error"]["code"] == "invalid_input"
    code, out = cli_run(["forget", "--source", "mneme://cli/test"])
    assert code == 0 and out["removed"]["observations"] == 1
    code, out = cli_run(["remember", "--dry-run", "x"])
    assert code != 0 and out["ok"] is False


def test_resolve_from_stdin(cli_run, example_vault: Path) -> None:
    cli_run(["ingest", "--vault", example_vault])
    payload = {"title": "Gateway count", "claims": [{"subject": "Lighthouse", "predicate": "has_part",
               "object": "Gateway Three", "confidence": 0.95, "certainty": "confirmed", "source_type": "survey",
               "evidence": "Site survey lists three gateways."}]}
    code, out = cli_run(["resolve", "--vault", example_vault, "--file", "-"], input=json.dumps(payload))
    assert code == 0 and out["edges"][0]["status"] == "active"
    assert (example_vault / "Sources" / "gateway-count.md").exists()
    code, out = cli_run(["resolve", "--vault", example_vault, "--file", "-"], input="{not json")
    assert code != 0 and out["error"]["code"] == "invalid_input"


def test_init_doctor_and_config_fallback(cli_run, example_vault: Path, tmp_path: Path) -> None:
    config = tmp_path / "project.json"
    db = tmp_path / "project.sqlite"
    code, out = cli_run(["--config", config, "doctor"])  # a failing check fails the command, report attached
    assert code == 1 and out["ok"] is False and out["error"]["code"] == "doctor_failed"
    assert out["error"]["details"]["problems"] and out["error"]["details"]["checks"]["config"]["ok"] is False
    code, out = cli_run(["--config", config, "init", "--vault", example_vault, "--db", db, "--out", tmp_path / "out",
                         "--hints", "pilot,vendor"])
    assert code == 0 and out["written"] and json.loads(config.read_text())["hints"] == ["pilot", "vendor"]
    code, out = cli_run(["--config", config, "init", "--vault", example_vault])
    assert code != 0 and out["error"]["code"] == "conflict"
    code, out = cli_run(["--config", config, "doctor"])
    assert code == 0 and out["ok"] is True and out["checks"]["markdown_notes"]["count"] == 13
    code, out = cli_run(["--config", config, "ingest"])  # vault and db come from the config
    assert code == 0 and out["notes_read"] == 13 and out["db"] == str(db)


@pytest.mark.postgres
def test_init_keeps_a_server_url_and_doctor_asks_the_server(cli_run, example_vault: Path, tmp_path: Path,
                                                           pg_db_url: str) -> None:
    """A postgresql:// --db used to become a SQLite file named after the URL (password included)."""
    config = tmp_path / "team.json"
    code, out = cli_run(["--config", config, "init", "--vault", example_vault, "--db", pg_db_url])
    assert code == 0 and json.loads(config.read_text())["db"] == pg_db_url
    password = pg_db_url.split("://", 1)[1].split("@", 1)[0].partition(":")[2]
    assert not password or password not in out["db"]
    code, out = cli_run(["--config", config, "doctor"])
    assert code == 0 and out["checks"]["database"] == {"ok": True, "url": out["settings"]["db"], "reachable": True}
    assert "ingest" in out["next"] and not list(tmp_path.glob("**/postgres*"))
    assert cli_run(["--config", config, "ingest"])[0] == 0
    assert "update" in cli_run(["--config", config, "doctor"])[1]["next"]
    config.write_text(json.dumps({**json.loads(config.read_text()), "db": "postgresql://nobody@127.0.0.1:1/none"}))
    code, out = cli_run(["--config", config, "doctor"])
    assert code == 1 and out["error"]["details"]["checks"]["database"]["ok"] is False


def test_ingest_without_vectors_now_and_embed_all_later(cli_run, example_vault: Path) -> None:
    code, out = cli_run(["ingest", "--vault", example_vault, "--no-embed"])
    assert code == 0 and out["vectors"]["embedded"] == 0 and "embed --all" in out["vectors"]["hint"]
    code, status = cli_run(["status"])
    assert status["embedding"]["embedded"] == 0 and status["embedding"]["total"] == status["total_insights"] > 0
    code, out = cli_run(["retrieve", "--prompt", "battery supplier overdue"])
    assert code == 0 and out["items"]  # keyword and graph recall need no vectors
    code, out = cli_run(["embed", "--all"])
    assert code == 0 and out["succeeded"] == status["embedding"]["total"]
    code, status = cli_run(["status"])
    assert status["embedding"]["coverage"] == "100%"


def test_ingest_and_backfill_ask_for_bulk_threads_and_say_how_many(cli_run, example_vault: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A CLI ingest or `embed --all` is a one-shot bulk job: it lets a local model take the cores (the hash test
    provider stands in for it here; `tests/ports/test_embed.py` checks the local model's rule)."""
    from mnemon.ports.embed.offline import HashingProvider

    asked: list[str] = []

    def bulk(self: HashingProvider) -> int:
        asked.append(self.name)
        return 3

    monkeypatch.setattr(HashingProvider, "prefer_bulk_threads", bulk)
    code, out = cli_run(["ingest", "--vault", example_vault])
    assert code == 0 and out["vectors"]["threads"] == 3 and asked == ["hash"]
    code, out = cli_run(["ingest", "--vault", example_vault, "--no-embed"])  # nothing to embed: nothing asked
    assert code == 0 and "threads" not in out["vectors"] and asked == ["hash"]
    code, out = cli_run(["embed", "--all"])
    assert code == 0 and asked == ["hash", "hash"]


def test_resolve_over_a_users_note_is_a_conflict_and_the_note_stays(cli_run, example_vault: Path) -> None:
    (example_vault / "Sources").mkdir()
    note = example_vault / "Sources" / "battery-research.md"
    note.write_text("# My battery research\n\nHand-written notes I care about.\n", encoding="utf-8")
    payload = json.dumps({"title": "Battery research", "claims": []})
    for extra in (["--dry-run"], []):
        code, out = cli_run(["resolve", "--vault", example_vault, "--file", "-", *extra], input=payload)
        assert code == 1 and out["error"]["code"] == "conflict"
        assert out["error"]["details"]["path"] == "Sources/battery-research.md"
    assert note.read_text(encoding="utf-8") == "# My battery research\n\nHand-written notes I care about.\n"
    assert not (example_vault / ".mnemon-backups").exists()
