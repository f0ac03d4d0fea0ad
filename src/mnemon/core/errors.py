"""One exception tree for the whole package, translated to a JSON envelope once, at the edge.

    MnemonError                  code            exit
    ├── InvalidInput             invalid_input   1
    ├── NotFound                 not_found       1
    ├── Conflict                 conflict        1
    ├── ReadOnly                 readonly        1
    ├── ProviderUnavailable      provider_unavailable 1
    ├── ProviderMismatch         provider_mismatch    1
    ├── PathRefused              path_refused    1
    ├── ContractViolation        contract_failed 1
    └── StoreError               store_error     1
        └── StoreBusy            store_busy      1

Messages say what to do next; `details` carries machine-readable context.
"""
from __future__ import annotations

import errno
import os
from typing import Any


class MnemonError(Exception):
    code = "error"
    exit_code = 1

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        self.details = details

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.details:
            out["details"] = self.details
        return out


class InvalidInput(MnemonError):
    code = "invalid_input"


class NotFound(MnemonError):
    code = "not_found"


class Conflict(MnemonError):
    code = "conflict"


class ReadOnly(MnemonError):
    code = "readonly"


class ProviderUnavailable(MnemonError):
    code = "provider_unavailable"


class ProviderMismatch(MnemonError):
    code = "provider_mismatch"


class PathRefused(MnemonError):
    code = "path_refused"


class ContractViolation(MnemonError):
    code = "contract_failed"


class HealthCheckFailed(MnemonError):
    """`doctor` found problems: the whole report rides in the details, and the exit is non-zero for scripts."""

    code = "doctor_failed"


class StoreError(MnemonError):
    code = "store_error"


class StoreBusy(StoreError):
    """Another process held the store's write lock longer than this call waits (the setting `busy_wait`): nothing of
    the call was written, and the same call may be made again."""
    code = "store_busy"

    def __init__(self, message: str, **details: object) -> None:
        super().__init__(message, retryable=True, **details)


class Aborted(MnemonError):
    """The command stopped before it finished (a worker process it needed was killed); what it had not committed is
    rolled back."""
    code = "aborted"


# what a disk answers when it cannot take what is written, whatever the path: the machine's condition to remedy, never
# the user's input (a folder, a missing parent or no permission is the path's fault: `InvalidInput`)
MACHINE_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.EFBIG})


def write_refused(path: str, exc: OSError, what: str = "", **details: Any) -> MnemonError:
    """The refusal of a file a command writes (`export --out`, `graph --out`, a config file): `StoreError` with what to
    do when the disk cannot take it, `InvalidInput` when the path given cannot hold a file. `what` names the file
    ("config file "); `details` go beside `path`."""
    reason = exc.strerror or str(exc)
    if exc.errno not in MACHINE_ERRNOS:
        return InvalidInput(f"cannot write {what}{path}: {reason}", **details, path=path)
    folder = os.path.dirname(os.path.abspath(path))
    remedy = {errno.EIO: f"the disk holding {folder} failed the write: check it, or write the file elsewhere",
              errno.EFBIG: f"the file would pass the largest one the disk holding {folder} or this process may write"
                           " (a FAT disk's 4 GB, `ulimit -f`): write it elsewhere"}.get(
        exc.errno, f"free some space on the disk holding {folder} (or raise its quota), or write the file elsewhere")
    return StoreError(f"cannot write {what}{path}: {reason}: {remedy}; nothing was written there", **details,
                      path=path)
