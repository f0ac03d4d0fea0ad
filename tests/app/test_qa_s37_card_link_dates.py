"""A date inside a link's target names another note, not the bullet or note that holds the link.

`surface --prompt "Lighthouse pilot vendor contract"` on the example vault showed a card for
`Meetings/2026-04-01 Review.md` saying it held "Follow-up to 2026-03-04 Kickoff…", "dated 2026-03-04 (278 days ago)":
the day came from `[[2026-03-04 Kickoff]]`. The card, the proactive score (freshness, the days stored at ingest) and
retrieve's staleness read a text's own dates — the ones its date edges (`mentions_date`) and `forget --days-threshold`
read — never a link's target or a URL."""
from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime, timezone
from pathlib import Path

from hypothesis import given, settings, strategies as st

from mnemon.app.context import staleness
from mnemon.app.memory import Mnemon
from mnemon.app.thoughts import compose

from conftest import FakeClock

REVIEW = """# 2026-04-01 Review

Follow-up to [[2026-03-04 Kickoff]].

- Vendor contract signed; the pilot is unblocked
- Blocked until the [[2026-03-20 Audit]] findings are closed
- Waiting on the harbour office for the badges by 2026-04-15
"""
KICKOFF = "# 2026-03-04 Kickoff\n\n- Bram to send the vendor contract draft\n"


def _vault(tmp_path: Path) -> Path:
    root = tmp_path / "v"
    (root / "Meetings").mkdir(parents=True)
    (root / "Meetings" / "2026-04-01 Review.md").write_text(REVIEW, encoding="utf-8")
    (root / "Meetings" / "2026-03-04 Kickoff.md").write_text(KICKOFF, encoding="utf-8")
    return root


def test_a_card_is_not_dated_by_the_name_of_a_note_it_links_to() -> None:
    path = [{"id": "note:Meetings/2026-04-01 Review.md", "name": "2026-04-01 Review", "type": "note"}]
    card = compose(path, "Follow-up to [[2026-03-04 Kickoff]]. Vendor contract signed", "blocked", "2026-04-01 Review",
                   today=date(2026, 12, 7))
    assert "2026-03-04 Kickoff" in card["insight"]  # the link reads as its name
    assert "dated" not in card["insight"]
    own = compose(path, "Blocked until the [[2026-03-20 Audit]] closes, by 2026-04-15", "blocked", "Review",
                  today=date(2026, 4, 1))
    assert "dated 2026-04-15 (in 14 days)" in own["insight"] and "2026-03-20 (" not in own["insight"]


def test_the_example_cards_date_no_note_by_a_link_it_holds(make_mem: Callable[..., Mnemon], tmp_path: Path) -> None:
    mem = make_mem("hash", clock=FakeClock(datetime(2026, 12, 7, 12, tzinfo=timezone.utc)))
    mem.ingest(str(_vault(tmp_path)), embed=False)
    thoughts = mem.surface(prompt="vendor contract pilot badges audit findings", limit=8)["thoughts"]
    review = [t for t in thoughts if t["path"][0]["id"] == "note:Meetings/2026-04-01 Review.md"]
    assert review
    for card in review:
        assert "2026-03-04 (" not in card["insight"] and "2026-03-20 (" not in card["insight"], card["insight"]


def test_a_link_to_a_dated_note_is_no_date_of_the_bullet_in_its_score(make_mem: Callable[..., Mnemon],
                                                                       tmp_path: Path) -> None:
    """On 2026-03-01 the link's day is 19 days ahead: the bullet read as due within 30 days (freshness 0.8)."""
    mem = make_mem("hash", clock=FakeClock(datetime(2026, 3, 1, 12, tzinfo=timezone.utc)))
    mem.ingest(str(_vault(tmp_path)), embed=False)
    rows = {c["observation"]["text"]: c for c in mem.candidates(limit=20)["candidates"]}
    linked = rows["Blocked until the [[2026-03-20 Audit]] findings are closed"]
    assert not any("2026-03-20" in r for r in linked["reasons"]), linked["reasons"]
    assert linked["score_breakdown"]["freshness"] != 0.8
    own = rows["Waiting on the harbour office for the badges by 2026-04-15"]
    assert own["score_breakdown"]["freshness"] == 0.2  # its own date, 45 days ahead, still counts (undated: 0.3)
    dates = {n.content: (n.metadata or {}).get("dates") for n in mem.rt.store.get_nodes(
        [r["observation"]["id"] for r in rows.values()]).values()}
    assert dates["Blocked until the [[2026-03-20 Audit]] findings are closed"] == []
    assert dates["Waiting on the harbour office for the badges by 2026-04-15"] == ["2026-04-15"]


def test_retrieve_does_not_call_an_item_stale_by_a_link_it_holds() -> None:
    now = datetime(2026, 12, 7, tzinfo=timezone.utc)
    assert staleness("Follow-up to [[2025-01-04 Kickoff]]: contract signed", "fact", now) == (1.0, None)
    assert staleness("See https://example.org/2025/2025-01-04-notes for the contract", "fact", now) == (1.0, None)
    assert staleness("Contract signed on 2025-01-04 after [[Kickoff]]", "fact", now)[1] == 702


_PIECES = st.sampled_from(["2026-03-20", "30 Jun 2026", "Jun 30", "[[2026-04-11]]", "[[2026-04-11 Sync|sync]]",
                           "[[Plan|2026-05-01]]", "https://x.org/2026-01-02", "[a](2026-02-03.md)", "due", "by", "-"])


@settings(max_examples=150, deadline=None)
@given(st.lists(_PIECES, max_size=6).map(" ".join))
def test_a_texts_dates_are_the_days_its_date_edges_name(text: str) -> None:
    """The days the card and the score read from a text are those the parser makes `mentions_date` edges of."""
    from mnemon.app.thought_scores import text_dates
    from mnemon.core.vault.parser import parse_note

    parsed = parse_note("n.md", f"# N\n\n- {text}\n")
    edges = {d.iso for obs in parsed.observations for d in obs.dates if d.year is not None}
    if parsed.observations:
        assert {d.date().isoformat() for d in text_dates(text)} == edges
