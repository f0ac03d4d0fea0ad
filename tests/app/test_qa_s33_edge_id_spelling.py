"""An edge id is written in ASCII digits. Python's `int()` also reads "5_0" as 50 and "٥٠" (Arabic-Indic digits) as
50, so `kill-edge 5_0` — a typo, or an id an agent copied with a stray character — killed edge 50, a tombstone
nothing revives. Such spellings are refused as `invalid_input` and no edge changes."""
from __future__ import annotations

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.errors import InvalidInput

ARABIC_INDIC = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")


def test_an_edge_id_spelt_other_than_in_ascii_digits_names_no_edge(example_vault_mem: Mnemon) -> None:
    mem = example_vault_mem
    candidates = mem.rt.store.vault.edges_with_status("candidate")  # type: ignore[attr-defined]
    edge_id = max(int(e.id or 0) for e in candidates)
    assert edge_id >= 10
    digits = str(edge_id)
    for spelt in (f"{digits[0]}_{digits[1:]}", digits.translate(ARABIC_INDIC), f"-{digits[0]}_{digits[1:]}"):
        for act in (mem.kill_edge, mem.explain_edge, mem.weaken_edge, mem.validate_edge):
            with pytest.raises(InvalidInput) as refused:
                act(spelt)
            assert "integer" in refused.value.message
    edge = mem.rt.store.get_edge(edge_id)
    assert edge is not None and edge.status == "candidate" and edge.weight > 0
    assert mem.explain_edge(f" {digits} ")["edge"]["id"] == edge_id  # the plain spelling, spaces around it, is read
    assert mem.explain_edge(f"+{digits}")["edge"]["id"] == edge_id
