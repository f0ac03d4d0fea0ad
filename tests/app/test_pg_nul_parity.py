"""Text PostgreSQL cannot store (a NUL) and words its keyword index cannot hold (over 2 KB) behave alike on both
backends: a vault note's NUL is stored as U+FFFD with a warning, an interactive write holding one is refused as
`invalid_input` naming the field, a draft import refuses that row only, and a very long word is found on both."""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from mnemon.app.memory import Mnemon
from mnemon.core.errors import InvalidInput
from mnemon.core.validation import validate_memory

PASTED = b"# Pasted\nIntro line.\nText pasted from a PDF \x00 with a quarantined byte.\n"


def _vault(root: Path) -> Path:
    vault = root / "vault"
    vault.mkdir()
    (vault / "Good.md").write_text("# Good\n- Blocked: waiting on the supplier deadline 2026-01-01\n")
    (vault / "Pasted.md").write_bytes(PASTED)
    return vault


def test_a_note_with_a_nul_is_ingested_with_a_warning_and_blocks_nothing(make_mem: Callable[..., Mnemon],
                                                                        tmp_path: Path) -> None:
    mem = make_mem()
    vault = _vault(tmp_path)
    out = mem.ingest(str(vault))
    assert out["notes_read"] == 2
    assert {"path": "Pasted.md", "code": "nul_replaced", "line": 3} == {
        k: v for w in out["warnings"] if w.get("code") == "nul_replaced" for k, v in w.items() if k != "message"}
    assert len(mem.search("supplier")["results"]) == 1
    found = mem.search("quarantined")["results"]
    assert len(found) == 1 and "\ufffd" in mem.show(found[0]["id"])["content"]
    assert (vault / "Pasted.md").read_bytes() == PASTED  # the note itself is never rewritten
    # a later change elsewhere in the vault goes in as usual
    (vault / "Good.md").write_text("# Good\n- Risk: new appeal deadline 2026-02-02\n")
    mem.ingest(str(vault))
    assert len(mem.search("appeal")["results"]) == 1


@pytest.mark.parametrize("field", ["entities", "tags", "source"])
def test_remember_refuses_a_nul_in_entities_tags_or_source(make_mem: Callable[..., Mnemon], field: str) -> None:
    mem = make_mem()
    value = ["Acme\x00Corp"] if field != "source" else "ag\x00ent"
    with pytest.raises(InvalidInput) as refused:
        mem.remember("met the supplier", **{field: value})
    assert refused.value.details.get("field") == field and "NUL" in refused.value.message
    assert mem.status()["total_insights"] == 0


@given(before=st.text(max_size=5), after=st.text(max_size=5))
def test_validation_refuses_a_nul_wherever_it_sits(before: str, after: str) -> None:
    nul = before + "\x00" + after
    for field, value in (("entities", [nul]), ("tags", nul), ("source", nul)):  # (a list or a comma-separated str)
        with pytest.raises(InvalidInput) as refused:
            validate_memory("text", **{field: value})
        assert refused.value.details.get("field") == field


def test_a_payload_observation_with_a_nul_is_refused_whole(make_mem: Callable[..., Mnemon]) -> None:
    mem = make_mem()
    payload = {"source_path": "mneme://t/nul", "nodes": [{"ref": "a", "type": "agent", "name": "Agent"}],
               "observations": [{"node": "a", "kind": "fact", "text": "Observation with \x00 nul", "score": 5}]}
    with pytest.raises(InvalidInput) as refused:
        mem.remember_payload(json.dumps(payload))
    assert refused.value.details.get("field") == "text"
    with pytest.raises(InvalidInput):
        mem.remember_payload({**payload, "source_path": "mneme://t/\x00", "observations": []})
    assert mem.status()["nodes_by_kind"].get("agent", 0) == 0


def test_a_draft_import_refuses_only_the_row_with_a_nul(make_mem: Callable[..., Mnemon]) -> None:
    mem = make_mem()
    out = mem.import_json({"schema_version": "1", "insights": [
        {"content": "ok one"}, {"content": "fine two", "entities": ["E\x00x"]}, {"content": "ok three"}]})
    assert (out["imported"], out["errors"]) == (2, 1)
    assert out["results"][1]["error"]["code"] == "invalid_input"
    assert mem.status()["total_insights"] == 2


def test_a_word_longer_than_postgresql_lexemes_is_found_on_both(make_mem: Callable[..., Mnemon]) -> None:
    mem = make_mem()
    long_word, other = "é" * 1500, "é" * 1499 + "a"  # 3,000 bytes, past the 2,046 a lexeme may have; same start
    mem.remember(f"word {long_word} end")
    mem.remember(f"another {other} tail")
    hits = mem.search(long_word)["results"]
    assert [h["content"] for h in hits] == [f"word {long_word} end"]


def _older_store_with_a_nul_payload_text(make_mem: Callable[..., Mnemon], db: Path) -> Mnemon:
    """A SQLite store an older mnemon wrote, whose payload stored a NUL (payloads refuse one now): written with a
    space, which tokenises alike, then given the NUL in place by SQL."""
    src = make_mem(db=db)
    src.remember_payload(json.dumps({"source_path": "mneme://agent", "nodes": [{"ref": "n"}],
                                     "observations": [{"node": "n", "text": "before after"}]}))
    conn = src.rt.store.conn  # type: ignore[attr-defined]
    conn.execute("UPDATE nodes SET content = replace(content, 'before after', 'before' || char(0) || 'after')")
    conn.commit()
    return src


def test_an_older_stores_nul_payload_text_restores_on_sqlite_and_is_refused_by_row_on_postgres(
        make_mem: Callable[..., Mnemon], tmp_path: Path, facade_backend: str) -> None:
    doc = _older_store_with_a_nul_payload_text(make_mem, tmp_path / "src.db").export_json()
    assert [i["content"] for i in doc["insights"] if "\x00" in i["content"]] == ["before\x00after"]
    dst = make_mem(db=tmp_path / "dst.db")
    assert dst.import_json(json.dumps(doc))["errors"] == 0
    if facade_backend == "postgres":  # the row is refused by its index, not with a database error
        out = make_mem().import_json(json.dumps(doc))
        bad = [r for r in out["results"] if r["action"] == "error"]
        assert len(bad) == 1 and "NUL" in bad[0]["error"]["message"] and out["imported"] == 1
