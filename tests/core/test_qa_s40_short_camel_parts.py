"""A brand name of two short halves ("LoRa", "IoT", "DeFi") is one word: its halves matched unrelated text."""
from __future__ import annotations

from mnemon.app.memory import Mnemon
from mnemon.core.text import stem, tokens


def test_a_camel_word_of_parts_shorter_than_three_letters_stays_whole() -> None:
    assert tokens("LoRa gateways") == [stem("lora"), stem("gateways")]
    assert tokens("IoT DeFi WiFi") == [stem("iot"), stem("defi"), stem("wifi")]


def test_a_camel_word_with_one_real_word_in_it_still_gives_its_words() -> None:
    assert tokens("iPhone") == tokens("i phone iphone")
    assert tokens("macOS") == tokens("mac os macos")
    assert tokens("onClick") == tokens("on click onclick")


def test_a_search_for_lora_does_not_match_text_holding_lo_or_ra(mem: Mnemon) -> None:
    mem.remember("Picked LoRa for the sensor uplink", entities=[])
    mem.remember("The RA signed off the lab budget", entities=[])
    hits = mem.search("LoRa")
    assert [h["content"] for h in hits["results"]] == ["Picked LoRa for the sensor uplink"]
