"""Shared fixtures: every test runs against its own temporary home with a deterministic embedding provider.

- the runner's home: for the whole run HOME is an empty trap folder (the runner's MNEMON_* and XDG_CONFIG_HOME,
  XDG_DATA_HOME, XDG_CACHE_HOME set aside); a test or fixture that writes there fails — what a `monkeypatch.undo()`
  falls back to, so patch within `monkeypatch.context()` instead.
- autouse: HOME and `MNEMON_HOME` are fresh temp dirs, every other `MNEMON_*` variable is removed,
  `MNEMON_EMBED_PROVIDER=hash`, `MNEMON_DAEMON=off` (tests/interfaces/test_daemon.py turns it on),
  `MNEMON_CHECK_KEYWORDS=1` (the store checks every FTS body a writer hands it against its row) and the user config
  dir points into the temp dir,
  so nothing on the developer's machine leaks into a test.
- `example_vault`: a fresh, writable copy of the shipped example vault (`EXAMPLE_VAULT`, examples/vault) per test;
  tests/app/conftest.py adds `example_vault_mem`, `mem` with that copy ingested.
- `mem` / `mem_none`: a `Mnemon` facade on a temp SQLite store with provider `hash` / `none`.
- `make_mem(**settings)`: the same with overrides (provider, max_insights, prune_min_age, clock, db path …). Under
  tests/app these run once per backend: without an explicit db, the `postgres` run opens a fresh PostgreSQL schema.
- `cli_run(args)`: the real click entry point in-process → `(exit_code, parsed_json)`; fails the test if stdout is
  not exactly one JSON document or stderr shows a traceback.
- `cli_raw(args)`: the same but returns `(exit_code, stdout, stderr)` untouched.
- `cli_proc(args)`: `python -m mnemon` as a subprocess → `(exit_code, parsed_json)`.
- a new SQLite store opened in the test process is a copy of one migrated template (`store_template.py`): the
  migrations run once per process, not once per store; subprocesses and the migration tests run them for real.
- Hypothesis runs without deadlines or the too-slow health check (profile `mnemon`).
- `store`: a backend implementing the `Store` protocol, once per backend: SQLite, and PostgreSQL (`MNEMON_TEST_PG_URL`
  when set, else an embedded server started once per session by `tests/pg_server.py`; `pg_url`, `pg_store`).
"""
from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

# Hypothesis's default 200 ms deadline and its too-slow health check measure the machine, not the code: on a shared
# 2-core CI runner a first call (an import, a numpy warm-up) can pass them and fail a correct test
settings.register_profile("mnemon", deadline=None, suppress_health_check=[HealthCheck.too_slow],
                          derandomize=os.environ.get("MNEMON_HYPOTHESIS_EXPLORE") != "1")
# derandomized: every run tries the same examples (a seed per test), so a clean checkout's CI passes or fails the same
# way each time; MNEMON_HYPOTHESIS_EXPLORE=1 draws new ones — how the note-move bug of a fenced block was found
settings.load_profile("mnemon")

REPO = Path(__file__).resolve().parents[1]
SRC = REPO / "src"
EXAMPLE_VAULT = REPO / "examples" / "vault"  # the shipped example vault: read only (a test writes to `example_vault`)
if str(SRC) not in sys.path:
    sys.path.insert(0, str(SRC))

from mnemon.app.config import load_config  # noqa: E402
from mnemon.app.memory import Mnemon, open_store  # noqa: E402

import store_template  # noqa: E402

# Read before the autouse fixture scrubs MNEMON_* from the environment.
PG_URL = os.environ.get("MNEMON_TEST_PG_URL", "")
# the facade tests under tests/app run once per backend (`facade_backend`); elsewhere `mem` is SQLite
FACADE_SUITES = {REPO / "tests" / "app"}


def small_tmpfs(where: Path, size: str) -> Iterator[Path]:
    """A tmpfs of `size` mounted at `where` for a fixture to yield: a real filesystem that fills (skips where it
    cannot be mounted: not root, no mount(8), or a sandbox that refuses)."""
    where.mkdir()
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a small tmpfs needs root and mount(8)")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"mount is not permitted here: {done.stderr.decode(errors='replace').strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", str(where)], check=False)


class FakeClock:
    """A settable clock for Runtime: tests move time instead of sleeping."""

    def __init__(self, start: datetime | None = None) -> None:
        self.now = start or datetime(2026, 3, 1, 12, 0, 0, tzinfo=timezone.utc)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now = self.now + timedelta(**delta)


# The runner's own home is never a test's. For the whole run HOME names a trap, an empty folder, and the variables
# that could name the runner's store, config or data (MNEMON_*, XDG_CONFIG_HOME, XDG_DATA_HOME, XDG_CACHE_HOME) are
# put aside: `_isolated_env` gives each test a home of its own, and what a `monkeypatch.undo()` or a fixture running
# outside it falls back to is the trap, which must stay empty — a test that writes there fails, naming what it left.
_TRAP = Path(tempfile.mkdtemp(prefix="mnemon-tests-not-your-home-"))
_SET_ASIDE = ("HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME")
_KEPT = ("MNEMON_TEST_", "MNEMON_UPDATE_GOLDEN", "MNEMON_HYPOTHESIS_EXPLORE")  # read by the tests themselves
_runner_env: dict[str, str] = {}


def pytest_configure(config: pytest.Config) -> None:
    for key in [*_SET_ASIDE, *(k for k in os.environ if k.startswith("MNEMON_") and not k.startswith(_KEPT))]:
        if key in os.environ:
            _runner_env[key] = os.environ.pop(key)
    os.environ["HOME"] = str(_TRAP)
    store_template.install()


def pytest_unconfigure(config: pytest.Config) -> None:
    os.environ.pop("HOME", None)
    os.environ.update(_runner_env)
    shutil.rmtree(_TRAP, ignore_errors=True)
    store_template.uninstall()


def _check_trap(where: str) -> None:
    left = sorted(str(p.relative_to(_TRAP)) for p in _TRAP.rglob("*"))
    if left:
        shutil.rmtree(_TRAP)  # emptied, so the next test is judged on its own
        _TRAP.mkdir()
        pytest.fail(f"{where} wrote into the home a test must never touch (with the runner's environment this is "
                    f"~, ~/.mnemon or ~/.config): {', '.join(left[:10])}; a monkeypatch.undo() also undoes "
                    "_isolated_env: patch within monkeypatch.context() instead", pytrace=False)


@pytest.fixture(autouse=True)
def _isolated_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    _check_trap("an earlier fixture or test (outside any test's isolation)")
    for key in list(os.environ):
        if key.startswith("MNEMON_"):
            monkeypatch.delenv(key, raising=False)
    home = tmp_path / "mnemon-home"
    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # ~ of setup, hosts and anything else: the test's own
    monkeypatch.setenv("MNEMON_HOME", str(home))
    monkeypatch.setenv("MNEMON_EMBED_PROVIDER", "hash")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg-config"))
    # the note editor's locks: the test's own, beside (not in) the folder a test may compare before and after
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path.parent / f"{tmp_path.name}-run"))
    monkeypatch.setenv("MNEMON_DAEMON", "off")  # no test leaves a resident process behind unless it asks for one
    monkeypatch.setenv("MNEMON_CHECK_KEYWORDS", "1")  # every FTS body a writer hands the store is checked against its row
    yield home
    _check_trap("this test")


@pytest.fixture
def home(_isolated_env: Path) -> Path:
    return _isolated_env


@pytest.fixture
def example_vault(tmp_path: Path) -> Path:
    """A copy of the shipped example vault (13 notes) at `tmp_path / "vault"`, this test's own: it may edit, add or
    remove notes there without touching examples/vault or any other test's copy. Nothing is ingested yet."""
    target = tmp_path / "vault"
    shutil.copytree(EXAMPLE_VAULT, target)
    return target


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "make_mem" in metafunc.fixturenames and Path(metafunc.definition.path).parent in FACADE_SUITES:
        metafunc.parametrize("facade_backend", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)],
                             indirect=True)


@pytest.fixture
def facade_backend(request: pytest.FixtureRequest) -> str:
    """Where `make_mem` puts a store opened without an explicit db: a SQLite file, or a fresh PostgreSQL schema."""
    return str(getattr(request, "param", "sqlite"))


@pytest.fixture
def make_mem(tmp_path: Path, request: pytest.FixtureRequest, facade_backend: str) -> Iterator[Callable[..., Mnemon]]:
    opened: list[Mnemon] = []
    # the PostgreSQL schema made before the test runs: a test patching the code to an older release's (a keyword
    # recipe) would otherwise open the server with it, and an older recipe is refused a store a newer one indexed
    schemas: list[Any] = [request.getfixturevalue("pg_store")] if facade_backend == "postgres" else []

    def factory(provider: str = "hash", *, db: str | Path | None = None, max_insights: int | None = None,
                prune_min_age: str | None = None, clock: Callable[[], datetime] | None = None,
                readonly: bool = False) -> Mnemon:
        env = dict(os.environ)
        env["MNEMON_EMBED_PROVIDER"] = provider
        if max_insights is not None:
            env["MNEMON_MAX_INSIGHTS"] = str(max_insights)
        if prune_min_age is not None:
            env["MNEMON_AUTO_PRUNE_MIN_AGE"] = prune_min_age
        if db is None and facade_backend == "postgres":
            db = schemas[0].path
        cfg = load_config(env, db=str(db) if db else None)
        m = Mnemon.open(cfg, readonly=readonly)
        if clock is not None:
            m.rt.clock = clock
        opened.append(m)
        return m

    yield factory
    for m in opened:
        try:
            m.close()
        except Exception:
            pass


@pytest.fixture
def mem(make_mem: Callable[..., Mnemon]) -> Mnemon:
    return make_mem("hash")


@pytest.fixture
def mem_none(make_mem: Callable[..., Mnemon]) -> Mnemon:
    return make_mem("none")


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def local_tz(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[str], None]]:
    """Sets the process's local time zone (a POSIX TZ string: "UTC", "CST-8" for UTC+8), UTC to begin with, and
    restores the machine's after the test: "yesterday" in a recall query is the user's local day."""
    with monkeypatch.context() as own:  # undone on its own: monkeypatch.undo() would undo _isolated_env too
        def set_tz(tz: str) -> None:
            own.setenv("TZ", tz)
            time.tzset()

        set_tz("UTC")
        yield set_tz
    time.tzset()


def _assert_no_traceback(text: str, where: str) -> None:
    assert "Traceback (most recent call last)" not in text, f"traceback on {where}:\n{text}"


def _not_json(name: str) -> Any:
    raise ValueError(f"{name} is not standard JSON")


def parse_one_json(stdout: str) -> Any:
    """The contract: stdout holds exactly one JSON document (one line, or pretty-printed)."""
    text = stdout.strip()
    assert text, "nothing printed on stdout"
    try:
        return json.loads(text, parse_constant=_not_json)  # standard JSON: no NaN or Infinity
    except (json.JSONDecodeError, ValueError) as exc:
        pytest.fail(f"stdout is not exactly one JSON document ({exc}):\n{stdout[:2000]}")


def _in_process(main: Callable[[list[str]], int], capsys: pytest.CaptureFixture[str],
                monkeypatch: pytest.MonkeyPatch) -> Callable[..., tuple[int, str, str]]:
    """Run a console script's `main` in this process: (exit code, stdout, stderr)."""
    def run(args: list[Any], input: str | None = None) -> tuple[int, str, str]:
        capsys.readouterr()
        if input is not None:
            monkeypatch.setattr(sys, "stdin", io.StringIO(input))
        code = main([str(a) for a in args])
        out, err = capsys.readouterr()
        return code, out, err

    return run


def _one_json(raw: Callable[..., tuple[int, str, str]]) -> Callable[..., tuple[int, Any]]:
    """(exit code, the one JSON document printed), with no traceback on either stream."""
    def run(args: list[Any], input: str | None = None) -> tuple[int, Any]:
        code, out, err = raw(args, input=input)
        _assert_no_traceback(out, "stdout")
        _assert_no_traceback(err, "stderr")
        return code, parse_one_json(out)

    return run


@pytest.fixture
def cli_raw(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
            ) -> Callable[..., tuple[int, str, str]]:
    from mnemon.interfaces.cli.main import main

    return _in_process(main, capsys, monkeypatch)


@pytest.fixture
def cli_run(cli_raw: Callable[..., tuple[int, str, str]]) -> Callable[..., tuple[int, Any]]:
    return _one_json(cli_raw)


@pytest.fixture
def mneme_run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Callable[..., tuple[int, Any]]:
    """`cli_run` for the `mneme` console script (Mneme's command lines)."""
    from mnemon.interfaces.mneme_cli import main

    return _one_json(_in_process(main, capsys, monkeypatch))


@pytest.fixture
def cli_proc() -> Callable[..., tuple[int, Any]]:
    def run(args: list[str], input: str | None = None, env: dict[str, str] | None = None,
            timeout: float = 60.0) -> tuple[int, Any]:
        full_env = dict(os.environ)
        full_env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SRC), full_env.get("PYTHONPATH", "")]))
        if env:
            full_env.update(env)
        proc = subprocess.run([sys.executable, "-m", "mnemon", *map(str, args)], input=input, text=True,
                              capture_output=True, env=full_env, timeout=timeout)
        _assert_no_traceback(proc.stdout, "stdout")
        _assert_no_traceback(proc.stderr, "stderr")
        return proc.returncode, parse_one_json(proc.stdout)

    return run


_pg_session: dict[str, Any] = {}


def _start_pg() -> str:
    """MNEMON_TEST_PG_URL when set, else a throwaway embedded PostgreSQL started once for the session (see
    tests/pg_server.py); skips the PostgreSQL tests with the reason when neither is possible."""
    if PG_URL:
        return PG_URL
    if "url" in _pg_session or "skip" in _pg_session:
        if "skip" in _pg_session:
            pytest.skip(_pg_session["skip"])
        return str(_pg_session["url"])
    import importlib.util
    import time

    from pg_server import ServerUnavailable, start

    if importlib.util.find_spec("psycopg") is None:
        _pg_session["skip"] = "psycopg is not installed (pip install -e '.[test]')"
        pytest.skip(_pg_session["skip"])
    began = time.monotonic()
    try:
        server = start()
    except (ServerUnavailable, OSError, subprocess.SubprocessError) as exc:
        _pg_session["skip"] = f"the embedded PostgreSQL test server did not start: {exc}"
        pytest.skip(_pg_session["skip"])
    _pg_session.update(server=server, url=server.url, started_in=time.monotonic() - began)
    return server.url


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    """The PostgreSQL server of this test session (started on first use, stopped at the end)."""
    yield _start_pg()
    server = _pg_session.pop("server", None)
    if server is not None:
        server.stop()


def _pg_summary() -> tuple[str, bool] | None:
    """What this process's PostgreSQL tests ran on (or why they skipped: True), for the end of the run."""
    if "skip" in _pg_session:
        return f"PostgreSQL tests SKIPPED: {_pg_session['skip']}", True
    if "started_in" in _pg_session:
        return f"{_STARTED}{_pg_session['started_in']:.1f} s", False
    return ("PostgreSQL tests ran on MNEMON_TEST_PG_URL", False) if PG_URL else None


_worker_summaries: list[tuple[str, bool]] = []
_STARTED = "PostgreSQL tests ran on an embedded server started in "


def pytest_sessionfinish(session: pytest.Session) -> None:
    if left := sorted(str(p.relative_to(_TRAP)) for p in _TRAP.rglob("*")):  # a session fixture's teardown
        print(f"\na session fixture wrote into the home no test may touch: {', '.join(left[:10])}", file=sys.stderr)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
    if hasattr(session.config, "workeroutput"):  # a pytest-xdist worker: its summary goes to the controller
        session.config.workeroutput["mnemon_pg"] = _pg_summary()  # type: ignore[attr-defined]


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    if summary := getattr(node, "workeroutput", {}).get("mnemon_pg"):
        _worker_summaries.append(tuple(summary))  # type: ignore[arg-type]


def pytest_terminal_summary(terminalreporter: Any) -> None:
    # under pytest-xdist each worker starts its own server: a skip on any of them is said, as without workers
    own = _pg_summary()
    every = [*_worker_summaries, *([own] if own else [])]
    started = [line.rsplit(" in ", 1)[1] for line, _ in every if line.startswith(_STARTED)]
    said = list(dict.fromkeys(every))
    if len(started) > 1:  # one server per worker: said once (two started in the same time are still two)
        said = [s for s in said if not s[0].startswith(_STARTED)]
        said.append((f"PostgreSQL tests ran on {len(started)} embedded servers (one per worker) started in "
                     + ", ".join(started), False))
    for line, skipped in said:
        terminalreporter.write_line(line, yellow=skipped)


@pytest.fixture
def pg_store(pg_url: str) -> Iterator[Any]:
    """A PostgreSQL store switched to a fresh, empty schema of its own (dropped when the test ends)."""
    s = open_store(pg_url)
    s.reset_for_tests()  # type: ignore[attr-defined]
    yield s
    s.close()


@pytest.fixture
def pg_db_url(pg_store: Any) -> str:
    """A URL that opens `pg_store`'s fresh schema from anywhere (the CLI, a second connection)."""
    return str(pg_store.path)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Any]:
    """A fresh, empty store of each backend. The contract suite only speaks the `Store` protocol."""
    if request.param == "sqlite":
        s = open_store(tmp_path / "contract.db")
        yield s
        s.close()
    else:
        yield request.getfixturevalue("pg_store")
