"""A restore of an export with vectors and `embed --all` on a store large enough for the approximate vector index:
the new vectors are found by meaning at once and the index built over the saved matrix stays in use in the next
process. Before, neither told this process's vector index what it wrote, so the saved matrix was left stale: the
next process read every vector from the database, saved the matrix whole anew under a new token and dropped the
approximate index until a background process rebuilt it from scratch."""
from __future__ import annotations

import pytest

from mnemon.ports import vector_ann

pytest.importorskip("usearch.index")

TOPICS = ["the billing service", "the Kubernetes upgrade", "the onboarding emails", "the search ranking",
          "the rate limiter", "the nightly batch job", "the mobile release", "the data export"]
PEOPLE = ["Alice", "Bob", "Priya", "Marta", "Diego", "Yuki"]
NEW = [f"Zebrafish tank {k} moved to the quokka lab in week {k}" for k in range(3)]


def _text(k: int) -> str:
    return f"{PEOPLE[k % 6]} reviewed {TOPICS[(k // 6) % 8]} in week {k % 52} after note {k}"


@pytest.fixture
def large(make_mem, tmp_path, monkeypatch):
    """A store of 400 memories counted as large (thresholds lowered), its approximate index built, and the token of
    its saved matrix."""
    db = tmp_path / "ann.db"
    monkeypatch.setenv("MNEMON_ANN", "off")  # built below, in the foreground
    m = make_mem("hash", db=db)
    m.import_json({"schema_version": "1", "insights": [{"content": _text(k)} for k in range(400)]})
    m.close()
    assert vector_ann.build(f"{db}-vectors", min_rows=300)["built"] is True
    monkeypatch.setenv("MNEMON_ANN_MIN_ROWS", "300")
    monkeypatch.setenv("MNEMON_ANN_COLD_MIN_ROWS", "300")
    look = make_mem("hash", db=db)
    look.rt.index.version()
    token = look.rt.index._token
    look.close()
    assert token is not None
    return db, token


def _found_by_meaning(m, node_id: str) -> bool:
    vec = m.rt.index.vector(node_id)
    return vec is not None and node_id in {i for i, _ in m.rt.index.search(vec, 3)}


def _keeps_the_index(db, token, make_mem, ids: list[str]) -> None:
    again = make_mem("hash", db=db)
    assert all(_found_by_meaning(again, i) for i in ids)
    assert again.rt.index._token == token, "the saved matrix was appended to, not saved whole anew"
    assert again.rt.index._ann_view is not None, "the approximate index is still used"
    assert again.recall("zebrafish tank 1 quokka lab", limit=3)["results"][0]["insight"]["id"] == ids[1]


def test_a_restore_with_vectors_keeps_the_index(make_mem, large, tmp_path):
    db, token = large
    source = make_mem("hash", db=tmp_path / "source.db")
    ids = [source.remember(text, no_diff=True)["id"] for text in NEW]
    export = source.export_json()
    assert all(row.get("vector") for row in export["insights"] if row["id"] in ids)
    m = make_mem("hash", db=db)
    out = m.import_json(export)
    assert out["imported"] >= 3 and out["embedded"] == 0  # (the file's vectors, none made anew)
    m.close()
    _keeps_the_index(db, token, make_mem, ids)


def test_embed_all_keeps_the_index(make_mem, large):
    db, token = large
    plain = make_mem("none", db=db)
    ids = [plain.remember(text, no_diff=True)["id"] for text in NEW]
    plain.close()
    m = make_mem("hash", db=db)
    assert m.embed_all()["succeeded"] == 3
    m.close()
    _keeps_the_index(db, token, make_mem, ids)
