"""gzip for export files: written as the export is read, read back as text whatever the file is named.

A big store's export is ≈ 900 MB of JSON and ≈ 20 times less as gzip. Both directions go chunk by chunk, so neither
holds the document (nor its compressed form) whole. The reader tells gzip by its first two bytes, not by a name: a
pipe has none, and a renamed file keeps its bytes.
"""
from __future__ import annotations

import codecs
import gzip
import zlib
from collections.abc import Iterable, Iterator
from typing import IO, cast

from ..core.errors import InvalidInput

GZIP_MAGIC = b"\x1f\x8b"
GZIP_SUFFIX = ".gz"
# zlib's usual level: a 325 MB export (20k memories) compresses in ≈ 4 s to ≈ 4 %; level 9 is slower and barely smaller
GZIP_LEVEL = 6


def gzipped(chunks: Iterable[bytes], level: int = GZIP_LEVEL) -> Iterator[bytes]:
    """The chunks as one gzip member (no file name, time 0: the same text makes the same bytes)."""
    packer = zlib.compressobj(level, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    for chunk in chunks:
        if packed := packer.compress(chunk):
            yield packed
    yield packer.flush()


class _Prefixed:
    """A binary stream whose first bytes were read ahead (to tell gzip from text), handed on from the start."""

    def __init__(self, head: bytes, rest: IO[bytes]) -> None:
        self._head, self._rest = head, rest

    def read(self, n: int = -1) -> bytes:
        if not self._head:
            return self._rest.read(n)
        if n is None or n < 0:
            data, self._head = self._head + self._rest.read(), b""
            return data
        data, self._head = self._head[:n], self._head[n:]
        return data


class TextOf:
    """UTF-8 text read from a binary stream, gzip-compressed or not; a leading byte-order mark passed over (Windows
    Notepad writes one). `read(n)` gives at most `n` characters, '' only at the end. Bytes that are not UTF-8 raise
    `UnicodeDecodeError` (the caller names the file); a gzip stream cut short or damaged raises `InvalidInput`
    saying so, at the read that meets it: a restore reading it inside its transaction writes nothing."""

    def __init__(self, binary: IO[bytes]) -> None:
        head = b""
        while len(head) < len(GZIP_MAGIC) and (more := binary.read(len(GZIP_MAGIC) - len(head))):
            head += more
        self.compressed = head == GZIP_MAGIC
        source = _Prefixed(head, binary)
        self._bytes: gzip.GzipFile | _Prefixed = source
        if self.compressed:
            self._bytes = gzip.GzipFile(fileobj=cast(IO[bytes], source), mode="rb")
        self._decoder = codecs.getincrementaldecoder("utf-8-sig")()
        self._text = ""
        self._done = False
        self._failed = False

    def read(self, n: int = -1) -> str:
        if n is None or n < 0:
            parts = [self._text]
            self._text = ""
            while part := self._decoded(1 << 20):
                parts.append(part)
            return "".join(parts)
        while len(self._text) < n and (part := self._decoded(max(n - len(self._text), 4))):
            self._text += part
        text, self._text = self._text[:n], self._text[n:]
        return text

    def check_rest(self) -> None:
        """Read the rest of a gzip stream, raising `InvalidInput` when it is cut short or damaged: a damaged block
        decodes to garbled text, which a JSON reader refuses before the damage is found (the checksum is at the
        end), and "not valid JSON at line 1022" hid the file's real fault."""
        while self.compressed and not self._failed and self._raw(1 << 20):
            pass

    def _decoded(self, size: int) -> str:
        """The next decoded text, '' at the end (a chunk holding only part of a character reads on)."""
        while not self._done:
            data = self._raw(size)
            self._done = not data
            if text := self._decoder.decode(data, final=self._done):
                return text
        return ""

    def _raw(self, size: int) -> bytes:
        try:
            return self._bytes.read(size)
        except EOFError:
            self._failed = True  # (read again, a failed stream says it was cut short, whatever it was)
            raise InvalidInput("import file is gzip that ends before its compressed stream does: the file was cut "
                               "short (an interrupted export, copy or download); nothing of it was imported",
                               compression="gzip", reason="cut_short") from None
        except (gzip.BadGzipFile, zlib.error) as exc:
            self._failed = True
            raise InvalidInput(f"import file is gzip but damaged ({exc}): nothing of it was imported; "
                               "`gzip -t FILE` tests it", compression="gzip", reason="damaged") from None


def is_gzip_name(path: str) -> bool:
    return path.lower().endswith(GZIP_SUFFIX)
