"""A CVE id is one entity: 'mnemon remember "Patched CVE-2024-3094 in xz"' stored the entity CVE-2024 (the ticket
pattern stopped at its first number), so every memory about any CVE of 2024 was linked to every other."""
from __future__ import annotations

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.entities import extract_entities


def test_memories_about_two_cves_of_one_year_are_not_linked(mem: Mnemon) -> None:
    xz = mem.remember("Patched CVE-2024-3094 in xz on the build hosts")
    ssh = mem.remember("CVE-2024-6387 (regreSSHion) needs openssh 9.8 on the bastion")
    again = mem.remember("Rebuilt the base image so CVE-2024-3094 is gone from every container")
    assert mem.show(xz["id"])["entities"] == ["CVE-2024-3094"]
    links = {e["target_id"] if e["source_id"] == xz["id"] else e["source_id"]: e["metadata"]["entity"]
             for e in mem.show(xz["id"])["edges"] if e["edge_type"] == "entity"}
    assert ssh["id"] not in links
    assert links.get(again["id"]) == "CVE-2024-3094"


@pytest.mark.parametrize(("text", "expected"), [
    ("CVE-2021-44228, aka log4shell", ["CVE-2021-44228"]),
    ("JIRA-1234 and PAY-87", ["JIRA-1234", "PAY-87"]),
    ("see feature/PAY-87-refund", ["PAY-87"]),  # a word after the number is no part of the id
    ("Q3-2024-01 plan", []),
])
def test_an_id_of_several_numbers_is_taken_whole(text: str, expected: list[str]) -> None:
    assert extract_entities(text) == expected
