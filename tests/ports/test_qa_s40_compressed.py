"""`ports/compressed.TextOf` gives back the text exactly, in reads of any size, gzip-compressed or not: a read
boundary inside a character, or inside the byte-order mark, loses or doubles nothing; `gzipped` writes what
gzip reads back."""
from __future__ import annotations

import gzip
import io

from hypothesis import given, settings, strategies as st

from mnemon.ports.compressed import TextOf, gzipped

TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=300)


@settings(max_examples=200, deadline=None)
@given(text=TEXT, bom=st.booleans(), packed=st.booleans(), sizes=st.lists(st.integers(1, 40), min_size=1, max_size=20),
       pieces=st.integers(1, 7))
def test_text_reads_back_whole_in_reads_of_any_size(text: str, bom: bool, packed: bool, sizes: list[int],
                                                    pieces: int) -> None:
    data = ("\ufeff" if bom else "").encode() + text.encode()
    if packed:
        step = max(1, len(data) // pieces)
        data = b"".join(gzipped(data[k: k + step] for k in range(0, len(data), step)))
        assert gzip.decompress(data).decode("utf-8-sig") == text
    reader = TextOf(io.BytesIO(data))
    assert reader.compressed is packed
    got, k = "", 0
    while part := reader.read(sizes[k % len(sizes)]):
        assert len(part) <= sizes[k % len(sizes)]
        got += part
        k += 1
    assert got == text and reader.read(5) == ""
