"""The one serialiser: JSON-ready dicts out, the error envelope for failures. CLI, MCP and HTTP all use it."""
from __future__ import annotations

import errno
import json
import math
import os
import sqlite3
import sys
from typing import Any

from ..core.errors import MACHINE_ERRNOS, MnemonError, write_refused
from ..core.surface import step, typed


def dumps(payload: Any, *, pretty: bool = False) -> str:
    """Standard JSON only: a NaN or infinity (which JSON has no word for; `JSON.parse` and jq refuse Python's `NaN`)
    is written as null."""
    options: dict[str, Any] = {"ensure_ascii": False, "indent": 2 if pretty else None, "default": str,
                               "separators": None if pretty else (",", ":"), "allow_nan": False}
    try:
        return json.dumps(payload, **options)
    except ValueError:
        return json.dumps(_finite(payload), **options)


def _finite(value: Any) -> Any:
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


def error_envelope(code: str, message: str, details: dict[str, Any] | None = None) -> dict[str, Any]:
    err: dict[str, Any] = {"code": code, "message": message}
    if details:
        err["details"] = details
    return {"ok": False, "error": err}


def from_exception(exc: BaseException) -> tuple[dict[str, Any], int]:
    if isinstance(exc, MnemonError):
        return error_envelope(exc.code, exc.message, exc.details or None), exc.exit_code
    if _busy(exc):  # another process's write held the store past this call's wait: the same call may be retried
        # (the stores say the wait and the setting that chose it; here neither is known, so neither is guessed)
        shows = typed("`mnemon config` shows")
        return error_envelope("store_busy", "the store is busy: another process held its write lock longer than this "
                                            f"call waits (setting busy_wait, MNEMON_BUSY_WAIT; {shows} it, as "
                                            f"busy_wait_s): try again ({exc})", {"retryable": True}), 1
    if _not_granted(exc):  # a role granted less than a command needs: the server's administrator decides
        return error_envelope("store_error", f"the database refused the operation: {str(exc).strip()} (a role that"
                                             " may only read answers with --readonly, which writes nothing, not even"
                                             " a recall's access counts)"), 1
    if _refused_by_database(exc):  # disk full, read-only file, I/O: not a bug of ours
        return error_envelope("store_error", f"the database refused the operation: {exc}{_way_out(exc)}"), 1
    if _damaged_file(exc):  # a page the open did not read is broken: the file's fault, and the user's to repair
        return error_envelope("store_error", f"the store file is damaged ({exc}): restore it from a copy or an "
                                             + step("export (`mnemon import`) into a new store",
                                                    "export into a new store (whoever runs this server can)")), 1
    if isinstance(exc, RecursionError) and "JSON" in str(exc):
        # '[[[[…]]]]' thousands deep: valid JSON that Python's parser will not recurse into, in a --file, a payload,
        # an import, a request body
        return error_envelope("invalid_input", "the JSON document is nested too deeply (arrays or objects inside "
                                               "each other past about 1,000 levels)"), 1
    if type(exc) is ValueError and "integer string conversion" in str(exc):
        # a number of thousands of digits in a JSON document, which Python will not read
        return error_envelope("invalid_input", "a number in the input has more digits than can be read (over "
                                               f"{sys.get_int_max_str_digits():,})"), 1
    if isinstance(exc, OSError) and exc.errno in MACHINE_ERRNOS:
        # a full disk (quota, I/O error) took the output as it was written — stdout redirected to a file, a cache —
        # no bug of ours, and the machine's to remedy, as a full disk under `--out` is (`write_refused`)
        if exc.filename is not None:
            refusal = write_refused(str(exc.filename), exc)
            return error_envelope(refusal.code, refusal.message, refusal.details), 1
        return error_envelope("store_error", f"cannot write the command's output: {exc.strerror or exc}: free some"
                                             " space on the disk it goes to (where its stdout was sent), or send it"
                                             " elsewhere"), 1
    refused = _refused_path(exc)
    if refused is not None:
        return refused, 1
    if isinstance(exc, UnicodeEncodeError) and exc.encoding.replace("-", "").lower() == "utf8":
        # text that cannot be UTF-8: a lone surrogate (an undecodable argument, a JSON "\ud800")
        return error_envelope("invalid_input", f"input is not valid UTF-8 text ({exc.reason} at"
                                               f" {exc.start})"), 1
    return error_envelope("internal", f"{type(exc).__name__}: {exc}"), 1


# what the system answers about a path the user gave (a name over 255 bytes, a folder where a file goes, no right
# to it): not a bug of ours, and the user's to correct
_PATH_ERRNOS = {errno.ENAMETOOLONG: "invalid_input", errno.ENOTDIR: "invalid_input", errno.EISDIR: "invalid_input",
                errno.ELOOP: "invalid_input", errno.EACCES: "invalid_input", errno.EPERM: "invalid_input",
                errno.EROFS: "invalid_input", errno.ENOENT: "not_found"}


def _refused_path(exc: BaseException) -> dict[str, Any] | None:
    """The envelope for a path the system refused (`OSError` naming its file) or could not be given (a NUL byte,
    which no file name holds: `ValueError: embedded null byte`); None for any other exception."""
    if isinstance(exc, OSError) and exc.filename is not None and exc.errno in _PATH_ERRNOS:
        return error_envelope(_PATH_ERRNOS[exc.errno], f"cannot use {exc.filename}: {exc.strerror}",
                              {"path": str(exc.filename)})
    if type(exc) is ValueError and str(exc) == "embedded null byte":
        return error_envelope("invalid_input", "a path holds a NUL byte, which no file or folder name can")
    return None


def _damaged_file(exc: BaseException) -> bool:
    """SQLite's SQLITE_CORRUPT and SQLITE_NOTADB arrive as the base DatabaseError (its subclasses are our statements'
    faults: a constraint, a binding), told apart by the message only; FTS5 reports its own damaged pages as a
    table constructor that failed."""
    message = str(exc)
    return type(exc) is sqlite3.DatabaseError and any(
        sign in message for sign in ("malformed", "not a database", "vtable constructor failed"))


def _busy(exc: BaseException) -> bool:
    """SQLite's SQLITE_BUSY / SQLITE_LOCKED after the busy wait, or PostgreSQL's lock_not_available (by name)."""
    if isinstance(exc, sqlite3.OperationalError):
        message = str(exc).lower()
        return "database is locked" in message or "database table is locked" in message or "busy" in message
    return any(cls.__module__.startswith("psycopg") and cls.__name__ == "LockNotAvailable" for cls in type(exc).__mro__)


def _refused_by_database(exc: BaseException) -> bool:
    """SQLite's OperationalError (and PostgreSQL's, by name: psycopg may not be installed), whose causes lie in the
    database's environment, not in a statement we wrote wrong."""
    if isinstance(exc, sqlite3.OperationalError):
        message = str(exc).lower()
        return any(cause in message for cause in ("locked", "busy", "disk", "full", "readonly", "read-only",
                                                  "i/o", "unable to open", "out of memory"))
    # by class and base class: a session the server ended (AdminShutdown, a restart) is an OperationalError too
    return any(cls.__module__.startswith("psycopg") and cls.__name__ in {"OperationalError", "DiskFull",
                                                                         "ConnectionTimeout"}
               for cls in type(exc).__mro__)


def _way_out(exc: BaseException) -> str:
    """What to do about a refusal SQLite words without a place or a remedy ("database or disk is full" when the
    temporary folder it sorts in filled, not the store's disk; "attempt to write a readonly database")."""
    code = getattr(exc, "sqlite_errorcode", 0) & 0xFF  # the primary code of an extended one
    if code == sqlite3.SQLITE_FULL:
        # SQLite's own choice of folder (tempfile's would pass over a full one, naming another)
        temp = os.environ.get("SQLITE_TMPDIR") or os.environ.get("TMPDIR") or "/var/tmp or /tmp"
        return (f" (no room left on the disk holding the store, or in the temporary folder SQLite sorts in, {temp}):"
                " free some space there, or set TMPDIR to a folder with room, and run it again")
    if code == sqlite3.SQLITE_READONLY:
        return (" (the store's file or its folder cannot be written: --readonly reads it without writing, not even a"
                " recall's access counts)")
    return ""


def _not_granted(exc: BaseException) -> bool:
    """PostgreSQL's insufficient_privilege (by name: psycopg may not be installed): SQLite's read-only file, on a
    server."""
    return any(cls.__module__.startswith("psycopg") and cls.__name__ == "InsufficientPrivilege"
               for cls in type(exc).__mro__)
