"""Dates written with slashes or dots, and "the 5th of March 2024", are dates a note mentions: 'Paid on 2024/03/05',
'Signed 05.03.2024' and 'Due the 5th of March 2024' made no date node and no mentions_date edge ('mnemon ingest
--vault V' then 'mnemon show note:N.md' answered none), where 'March 5th, 2024' and '2024-03-05' made one.

The order of a numeric date is read where it cannot be mistaken, as the month-name forms are: year first is year,
month, day (as ISO); dots with the year last are day first (as every locale writing dots reads them); slashes with
the year last are read only when one order is impossible or both agree. A version number is never a date."""
from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any, Callable

from hypothesis import given, settings, strategies as st

from mnemon.core.vault.dates import dated_days
from mnemon.core.vault.parser import parse_note


def _days(text: str) -> list[str]:
    return [f"{d.year:04d}-{d.month:02d}-{d.day:02d}" for d in parse_note("n.md", text).dates]


def test_each_form_names_its_day() -> None:
    assert _days("Paid on 2024/03/05.") == ["2024-03-05"]
    assert _days("Paid on 2024/3/5.") == ["2024-03-05"]
    assert _days("Released 2024.03.05, at last.") == ["2024-03-05"]
    assert _days("Signed 05.03.2024.") == ["2024-03-05"]
    assert _days("Signed 5.3.2024 in Berlin.") == ["2024-03-05"]
    assert _days("Due the 5th of March 2024.") == ["2024-03-05"]
    assert _days("Due the 5th of March, 2024.") == ["2024-03-05"]
    assert _days("Due March 5th, 2024.") == ["2024-03-05"]
    assert _days("Due 25/03/2024 and 03/25/2024 and 05/05/2024.") == ["2024-03-25", "2024-03-25", "2024-05-05"]


def test_what_may_be_read_two_ways_or_is_no_day_names_none() -> None:
    assert _days("Due 03/05/2024.") == []  # (the 3rd of May or March 5th)
    assert _days("Upgrade to 1.2.3, then v2.10.2024 and 10.1.2.2024; IP 10.12.2024.1; 2024.3.5 is a version.") == []
    assert _days("Impossible: 31.02.2024, 2024/13/01, 2024/02/30.") == []
    assert _days("See docs/2024/03/05 and 1/2 of 2024.") == []
    assert _days("The 5th of May is yearless, as 5 May is.") == []


def test_a_front_matter_value_in_these_forms_is_a_mention() -> None:
    note = parse_note("n.md", "---\nsigned: 05.03.2024\n---\nText.\n")
    assert [(d.year, d.month, d.day, d.line) for d in note.dates] == [(2024, 3, 5, 2)]


@settings(max_examples=200, deadline=None)
@given(st.dates(min_value=dt.date(1000, 1, 1), max_value=dt.date(9999, 12, 31)),
       st.sampled_from(["{y}/{m:02d}/{d:02d}", "{y}/{m}/{d}", "{y}.{m:02d}.{d:02d}", "{d:02d}.{m:02d}.{y}",
                        "{d}.{m}.{y}", "the {d}{th} of {month} {y}", "{month} {d}{th}, {y}"]))
def test_every_day_reads_back_in_every_form(day: dt.date, form: str) -> None:
    th = {1: "st", 2: "nd", 3: "rd", 21: "st", 22: "nd", 23: "rd", 31: "st"}.get(day.day, "th")
    written = form.format(y=day.year, m=day.month, d=day.day, th=th, month=day.strftime("%B"))
    assert dated_days(f"Due {written}.") == [day.isoformat()]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=99), min_size=2, max_size=4), st.sampled_from(["", "v"]))
def test_a_version_number_is_no_day(parts: list[int], prefix: str) -> None:
    assert dated_days(f"Upgrade to {prefix}{'.'.join(map(str, parts))} now.") == []


def test_ingest_makes_the_date_edges(cli_run: Callable[..., tuple[int, Any]], tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "N.md").write_text("# Lease\n\nPaid on 2024/03/05. Signed 06.03.2024. Due the 7th of March 2024.\n",
                                encoding="utf-8")
    assert cli_run(["ingest", "--vault", vault, "--no-embed"])[0] == 0
    code, shown = cli_run(["show", "note:N.md"])
    assert code == 0
    assert sorted(edge["target_id"] for edge in shown["edges"] if edge["edge_type"] == "mentions_date") == [
        "date:2024-03-05", "date:2024-03-06", "date:2024-03-07"]
