"""A fixed-size filter of keys seen (a Bloom filter): "not seen" is certain, "seen" may be wrong, so a caller asks
the store before acting on it.

A restore uses it for the edge keys it wrote, to tell which of a file's later edges may repeat one: asking the
store of every edge both of whose ends earlier batches wrote cost a statement each (thousands at 10k memories),
and a set of the keys themselves would hold ~100 bytes an edge (~400 MB for a 100k store's 4M edges)."""
from __future__ import annotations

from collections.abc import Hashable, Iterable

_BITS = 1 << 25  # 4 MB: at 4M keys, two probes each, ~5 % of the unseen keys read as seen (~0.1 % at 400k)
_MASK = _BITS - 1


class KeyFilter:
    def __init__(self) -> None:
        self._bits: bytearray | None = None  # (allocated by the first key: most restores of a draft write none)

    def update(self, keys: Iterable[Hashable]) -> None:
        bits = self._bits
        for key in keys:
            if bits is None:
                bits = self._bits = bytearray(_BITS >> 3)
            h = hash(key)
            for at in (h & _MASK, (h >> 25) & _MASK):
                bits[at >> 3] |= 1 << (at & 7)

    def __contains__(self, key: Hashable) -> bool:
        bits = self._bits
        if bits is None:
            return False
        h = hash(key)
        return all(bits[at >> 3] >> (at & 7) & 1 for at in (h & _MASK, (h >> 25) & _MASK))
