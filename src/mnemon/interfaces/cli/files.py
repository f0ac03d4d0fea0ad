"""The documents commands read from a path (`--file`, `--payload`, `resolve --file`, `import FILE`), or stdin for '-'.

A pipe, `/dev/stdin` or a process substitution `<(…)` is a file too: only a regular file used to count, so
`sense add --file /dev/stdin` answered `not_found "no file /dev/stdin"` for a file that was right there. What exists
but holds no document (a directory, a socket, `/dev/null`, an empty pipe) is `invalid_input` saying so.
"""
from __future__ import annotations

import stat
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from ...core.errors import InvalidInput, NotFound

# a character device other than a terminal may never end (/dev/zero, /dev/urandom): read this much of it at most
DEVICE_LIMIT = 64 * 1024 * 1024


def _empty(what: str, path: str) -> InvalidInput:
    where = "on stdin" if path == "-" else f"in {path}"
    return InvalidInput(f"the {what} {where} is empty; expected a JSON document",
                        **({"path": path} if path != "-" else {}))


def _opened(path: str, what: str, *, binary: bool = False) -> tuple[IO[Any], bool]:
    """The file at `path` open for text (or bytes), and whether it is a device to read only `DEVICE_LIMIT` of."""
    if not path.strip():  # a script's unset "$FILE": the empty path is the working directory, a folder nobody named
        raise InvalidInput(f"the {what} file's path is blank: give the path of a JSON file (or '-' for stdin)",
                           path=path)
    p = Path(path).expanduser()
    try:
        mode = p.stat().st_mode  # (follows links: /dev/stdin is a link to the process's own descriptor)
    except FileNotFoundError:
        raise NotFound(f"no {what} file {path}", path=path) from None
    except OSError as exc:
        raise InvalidInput(f"cannot read {what} file {path}: {exc.strerror or exc}", path=path) from None
    if stat.S_ISDIR(mode):
        raise InvalidInput(f"{what} file {path} is a directory; give a JSON file (or '-' for stdin)", path=path)
    if not (stat.S_ISREG(mode) or stat.S_ISFIFO(mode) or stat.S_ISCHR(mode)):
        raise InvalidInput(f"{what} file {path} is not a file or a pipe (a socket or block device); give a JSON "
                           "file (or '-' for stdin)", path=path)
    try:
        # a byte-order mark (Windows Notepad writes one) is no JSON: passed over
        fh = p.open("rb") if binary else p.open(encoding="utf-8-sig")
    except OSError as exc:
        raise InvalidInput(f"cannot read {what} file {path}: {exc.strerror or exc}", path=path) from None
    return fh, stat.S_ISCHR(mode) and not fh.isatty()


# how most commands take a document; `remember --payload` and `import FILE` say their own way (`give`)
BY_FILE = "with --file PATH"


def _stdin(what: str, give: str = BY_FILE) -> IO[str]:
    if sys.stdin is None:
        raise InvalidInput(f"give the {what} {give}: there is no stdin to read")
    return sys.stdin


def _read_all(fh: IO[str], what: str, path: str, device: bool) -> str:
    try:
        text = fh.read(DEVICE_LIMIT + 1) if device else fh.read()
    except UnicodeDecodeError:
        raise InvalidInput(f"{what} file {path} is not UTF-8 text", path=path) from None
    except OSError as exc:
        raise InvalidInput(f"cannot read {what} file {path}: {exc.strerror or exc}", path=path) from None
    if device and len(text) > DEVICE_LIMIT:
        raise InvalidInput(f"{what} file {path} is a device that does not end (read {DEVICE_LIMIT} characters); "
                           "give a JSON file (or '-' for stdin)", path=path)
    return text


def text_or_stdin(text: str, give: str) -> str:
    """`text`, or for '-' the text on stdin without its last line end, as `$(…)` gives it (`echo supplier |`):
    `remember -`, `recall -`, `retrieve --prompt -`, `surface --prompt -`, `agent preflight --prompt -` alike."""
    if text != "-":
        return text
    if sys.stdin is None:  # closed (`<&-`)
        raise InvalidInput(f"give {give} ('-' reads stdin, and there is none)")
    return stdin_text("the text").rstrip("\r\n")


def stdin_text(what: str) -> str:
    """All of stdin as text, refused in words when its bytes are not UTF-8 (a Latin-1 file piped in): the stream
    hands such bytes on as lone surrogates, refused later as "surrogates not allowed at 3"."""
    try:
        text = sys.stdin.read()
        text.encode("utf-8")
        return text
    except (UnicodeDecodeError, UnicodeEncodeError) as exc:
        data = exc.object if isinstance(exc, UnicodeDecodeError) else exc.object[:exc.end].encode(
            "utf-8", "surrogateescape")
        start = exc.start if isinstance(exc, UnicodeDecodeError) else len(data) - 1
        line, byte = data.count(b"\n", 0, start) + 1, f"0x{data[start]:02x}"
        raise InvalidInput(f"{what} on stdin is not UTF-8 (byte {byte} on line {line}; Latin-1 or "
                           "Windows-1252?): convert it first, e.g. iconv -f WINDOWS-1252 -t UTF-8", line=line,
                           byte=byte) from None


def read_stdin(what: str, give: str = BY_FILE) -> str:
    """Everything on stdin, perhaps nothing, read as `read_document('-')` reads it (UTF-8, failures in words)."""
    return _read_all(_stdin(what, give), what, "-", False)


def read_document(path: str, what: str, give: str = BY_FILE) -> str:
    """The whole text of the document at `path` ('-': stdin); `invalid_input` when it holds nothing but space."""
    if path == "-":
        text = _read_all(_stdin(what, give), what, "-", False)
        if not text.strip():
            raise _empty(what, "-")
        return text
    fh, device = _opened(path, what)
    with fh:
        text = _read_all(fh, what, path, device)
    if not text.strip():
        raise _empty(what, path)
    return text


class _Resumed:
    """A text stream whose first chunk was read ahead (to see that it is not empty), handed on from the start."""

    def __init__(self, head: str, rest: IO[str]) -> None:
        self._head, self._rest = head, rest

    def read(self, n: int = -1) -> str:
        if not self._head:
            return self._rest.read(n)
        if n is None or n < 0:
            text, self._head = self._head + self._rest.read(), ""
            return text
        text, self._head = self._head[:n], self._head[n:]
        return text


@contextmanager
def open_document(path: str, what: str, give: str = BY_FILE) -> Iterator[Any]:
    """The document at `path` ('-': stdin) as a stream to read as it is parsed (`import` of an export of any size),
    gzip-compressed or not (`ports/compressed.TextOf`: told by its first bytes); `invalid_input` when nothing but
    space comes before its end."""
    from ...ports.compressed import TextOf

    if path == "-":
        raw, device, owned = _stdin(what, give), False, False
        binary = getattr(raw, "buffer", None)  # (a test's stdin may be text only)
    else:
        (raw, device), owned = _opened(path, what, binary=True), True
        binary = raw
    try:
        fh: Any = TextOf(binary) if binary is not None else raw
        head = ""
        while not head.strip():
            try:
                chunk = fh.read(65536)
            except UnicodeDecodeError:
                raise InvalidInput(f"{what} file {path} is not UTF-8 text", path=path) from None
            if not chunk:
                raise _empty(what, path)
            if device and len(head) > DEVICE_LIMIT:
                raise InvalidInput(f"{what} file {path} is a device that gives only space", path=path)
            head += chunk
        try:
            yield _Resumed(head, fh)
        except InvalidInput:
            if isinstance(fh, TextOf):
                fh.check_rest()  # a damaged gzip stream is the fault, not the garbled text it gave
            raise
    finally:
        if owned:
            raw.close()
