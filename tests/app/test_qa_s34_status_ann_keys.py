"""`status` says the same keys on both backends: `embedding.approximate_index` and `cache_bytes.vector_ann` were
missing on PostgreSQL (and with save_caches off), where no index can exist; they now say so, with an exact scan's
values. Once per backend (`make_mem`)."""
from __future__ import annotations

from collections.abc import Callable

from mnemon.app.memory import Mnemon

KEYS = {"rows", "matrix_token", "building", "min_rows", "builds", "unavailable"}


def test_status_names_the_approximate_index_on_every_backend(make_mem: Callable[..., Mnemon],
                                                            facade_backend: str) -> None:
    mem = make_mem("hash")
    mem.remember("Kubernetes runs the API")
    st = mem.status()
    ann = st["embedding"]["approximate_index"]
    assert set(ann) == KEYS and st["cache_bytes"]["vector_ann"] == 0
    if facade_backend == "postgres":
        assert ann["builds"] is False and ann["rows"] == 0 and "exact scan" in ann["unavailable"]
    else:
        assert ann["unavailable"] is None and ann["builds"] is True


def test_status_says_why_there_is_no_index_when_caches_are_not_saved(make_mem: Callable[..., Mnemon]) -> None:
    mem = make_mem("hash")
    mem.rt.save_caches = False
    ann = mem.status()["embedding"]["approximate_index"]
    assert set(ann) == KEYS and ann["builds"] is False and "exact scan" in ann["unavailable"]
