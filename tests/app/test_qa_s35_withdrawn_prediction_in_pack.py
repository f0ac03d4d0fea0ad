"""A prediction its research withdrew (a re-run of `resolve` no longer states it) is no item of a context pack, as it
is no attention item of the preflight: the pack served it as an `unverifiable_prediction` — a check that could not
be made — ranked above most memories, for something nobody expects any more. Before its withdrawal (`--as-of`) it
is the open prediction it was."""
from __future__ import annotations

from pathlib import Path

from mnemon.app.memory import Mnemon

from conftest import FakeClock
from .test_qa_s35_resolve_rerun_withdraws import _prediction, _research


def test_a_withdrawn_prediction_is_no_pack_item(world: tuple[Mnemon, FakeClock], tmp_path: Path) -> None:
    mem, clock = world
    first = mem.resolve(str(tmp_path), _research())
    [prediction] = first["predictions"]
    pid = prediction["prediction"]["id"]
    before = clock().isoformat()

    def predictions(**kw: object) -> list[tuple[str, str]]:
        pack = mem.retrieve("parcel arrives", budget=4000, **kw)
        return [(i["id"], i["status"]) for i in pack["items"] if i.get("item_type") == "world_prediction"]

    assert predictions() == [(pid, "open")]
    clock.advance(hours=1)
    mem.resolve(str(tmp_path), _research(predictions=[_prediction("Invoice arrives")]))
    assert pid not in dict(predictions())  # (the run's new "Invoice arrives" may well be there)
    assert dict(predictions(as_of=before)) == {pid: "open"}
