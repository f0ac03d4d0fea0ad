"""Settings: one declared table, read once at the composition root (the interfaces), passed down as values.

Precedence: command-line flag > environment variable > config file (JSON) > default. The database is named
either by `db` or by `store` (under `home`): a store given at a higher level than `db` names it, and so does a
`--home` flag; otherwise `db`.
"""
from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..core.errors import InvalidInput, NotFound
from ..core.surface import typed

_STORE_NAME = re.compile(r"[a-zA-Z0-9][a-zA-Z0-9_-]*")  # fullmatch: `$` would let a name end in a newline


@dataclass(frozen=True)
class Setting:
    name: str
    env: str
    default: Any
    help: str


SETTINGS: tuple[Setting, ...] = (
    Setting("home", "MNEMON_HOME", "~/.mnemon", "Base directory; stores live in <home>/data/<store>/mnemon.db."),
    Setting("store", "MNEMON_STORE", None, "Store name (flag > env > <home>/active > 'default')."),
    Setting("db", "MNEMON_DB", None, "Explicit database path or postgresql:// URL (overrides home/store)."),
    Setting("embed_provider", "MNEMON_EMBED_PROVIDER", "local",
            "Embedding provider: local (offline default), e5, use, ollama, openai, hash, none."),
    Setting("max_insights", "MNEMON_MAX_INSIGHTS", 1000, "Active-memory cap for auto-prune; 0 disables auto-prune."),
    Setting("prune_min_age", "MNEMON_AUTO_PRUNE_MIN_AGE", "24h", "Grace period before auto-prune may take a memory."),
    Setting("audit_content", "MNEMON_AUDIT_CONTENT", True, "Keep memory text in oplog details (false: hashes only)."),
    Setting("vault", "MNEMON_VAULT", None, "Default Markdown vault directory for ingest/note commands."),
    Setting("card_theme", "MNEMON_CARD_THEME", "dark", "Thought-card theme: dark or light."),
    Setting("save_caches", "MNEMON_SAVE_CACHES", True,
            "Save the recall graph and vector matrix beside a SQLite database for the next process (false: each "
            "process rebuilds them; no extra files)."),
    Setting("ann", "MNEMON_ANN", True,
            "Build the approximate vector index of a large store in a background process (false: never build one; "
            "an index already built is still used)."),
    Setting("ann_min_rows", "MNEMON_ANN_MIN_ROWS", 30000,
            "From how many vectors a store gets the approximate index and uses it."),
    Setting("ann_cold_min_rows", "MNEMON_ANN_COLD_MIN_ROWS", 250000,
            "From how many vectors a one-shot process (a CLI call) uses the index too; below, the exact scan costs "
            "it less than loading the index."),
    Setting("daemon", "MNEMON_DAEMON", True,
            "Let `remember`/`recall`/`search`/`retrieve`/`surface`/`agent preflight` CLI calls hand their command to "
            "a resident mnemon process that keeps the model and stores open (started by the first call that had to "
            "load them; false: every call runs alone)."),
    Setting("daemon_idle", "MNEMON_DAEMON_IDLE", "15m",
            "How long the resident process waits for a call before it exits."),
    Setting("busy_wait", "MNEMON_BUSY_WAIT", "60s",
            "How long a call waits for another process's write to the same store to finish before it gives up "
            "with store_busy (an agent that would rather retry than block: a few seconds)."),
)
SETTINGS_BY_NAME = {s.name: s for s in SETTINGS}
DB_URL_SCHEMES = ("postgresql://", "postgres://")
_URL_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*)://")


def server_url(db: Any, where: str) -> str | None:
    """`db` as a database server URL, its scheme spelt as libpq reads it (`POSTGRESQL://` is `postgresql://`), or None
    for a file path. Any other URL is `InvalidInput`: `postgresq://…` or `mysql://…` was a SQLite file path, and a
    write made it, under ./postgresq:/…, far from the server meant."""
    text = str(db)
    found = _URL_SCHEME.match(text)
    if found is None:
        return None
    scheme = found.group(1).lower()
    if f"{scheme}://" in DB_URL_SCHEMES:
        return scheme + text[found.end(1):]
    from ..ports.store.postgres import redact

    raise InvalidInput(f"{redact(text)!r}{where} is a {found.group(1)}:// URL: a database is a SQLite file (a path) or"
                       " a PostgreSQL server (postgresql://…)", setting="db")


def refuse_url_as_store(name: Any, where: str = "") -> None:
    """A URL given as a store name (`--store`, MNEMON_STORE, `store create`) is `InvalidInput` saying where a URL
    goes, printed without its password: the name check echoed it whole and said nothing of --db."""
    text = str(name)
    if _URL_SCHEME.match(text):
        from ..ports.store.postgres import redact

        raise InvalidInput(f"{redact(text)!r}{where} is a URL, not a store name: a store is a SQLite file under the"
                           " home, named by letters, digits, '-' and '_'; a database server goes in --db or MNEMON_DB",
                           setting="store")


def parse_duration(value: str | int | float) -> float:
    """Seconds from '24h', '7d', '30m', '90s', '0' or a number of seconds."""
    if isinstance(value, (int, float)):
        return float(value)
    text = str(value).strip().lower()
    m = re.fullmatch(r"([0-9]+(?:\.[0-9]+)?)\s*([smhdw]?)", text)  # ASCII digits: `\d` also took "٥d"
    if not m:
        raise InvalidInput(f"invalid duration {value!r}; use forms like 24h, 7d, 30m, 0")
    mult = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}[m.group(2)]
    return float(m.group(1)) * mult


_TRUE = ("1", "true", "yes", "on")
_DURATIONS = ("prune_min_age", "daemon_idle", "busy_wait")  # text like 24h, or a number of seconds
# read as paths: a relative one in a config file means beside that file, as wherever the command runs it would
# land somewhere else each time
_PATHS = ("home", "db", "vault")
_WHERE_STORES_LIVE = ("home", "db")  # (a blank `vault` is doctor's "no vault is set", not a path)
_ZERO_MEANS = {"max_insights": " (0 turns auto-prune off)"}  # said where 0 is the way to switch a setting off
_FLAGS = {"embed_provider": "--embed"}  # a setting whose command-line flag is not --<its name>


def flag_of(name: str) -> str:
    """The command-line flag that gives setting `name`."""
    return _FLAGS.get(name, f"--{name.replace('_', '-')}")


def check_setting(name: str, raw: Any) -> Any:
    """The value setting `name` takes from `raw` as a variable or the config file gives it, or `InvalidInput` saying
    why not (for a front end that names the value its own way: `mneme`'s MNEME_CARD_THEME)."""
    return _coerce(name, raw)


def _coerce(name: str, raw: Any, origin: str = "", file: Path | None = None) -> Any:
    """`raw` as the setting's type, or `InvalidInput` naming the setting and where its value came from (`origin`:
    " in config file …", " in MNEMON_…"): a config file with a list where a number belongs used to surface as an
    `internal` TypeError from whichever command first used the value."""
    default = SETTINGS_BY_NAME[name].default

    def refused(wanted: str, **details: Any) -> InvalidInput:
        shown = json.dumps(raw, ensure_ascii=False, default=str)  # as the file spells it: true, not True
        return InvalidInput(f"setting {name}{origin} must be {wanted}, got {shown}", setting=name,
                            **({"config": str(file)} if file is not None else {}), **details)
    if isinstance(default, bool):
        if isinstance(raw, bool):
            return raw
        if isinstance(raw, int) and raw in (0, 1):
            return bool(raw)
        if isinstance(raw, str):
            # (an unknown word stays false, as it always has been for the environment)
            return raw.strip().lower() in _TRUE
        raise refused("true or false")
    if isinstance(default, int):
        if isinstance(raw, bool) or not isinstance(raw, (int, float, str)):
            raise refused("an integer")
        try:
            number = int(raw.strip()) if isinstance(raw, str) else int(raw)
        except (ValueError, OverflowError):
            raise refused("an integer") from None
        if isinstance(raw, float) and number != raw:
            raise refused("an integer")
        if number < 0:
            # every integer setting is a count (a cap, a number of rows): a negative one means nothing, and a
            # negative cap used to switch auto-prune off without a word
            raise refused(f"an integer ≥ 0{_ZERO_MEANS.get(name, '')}")
        return number
    if name in _DURATIONS:
        if isinstance(raw, bool) or not isinstance(raw, (int, float, str)):
            raise refused("a duration like 24h, 7d, 30m or a number of seconds")
        try:
            seconds = parse_duration(raw)
        except InvalidInput:
            raise refused("a duration like 24h, 7d, 30m or a number of seconds") from None
        if not seconds >= 0:  # a number in the config file skips the text form's check; NaN fails too
            raise refused("a duration ≥ 0, like 24h, 7d, 30m or a number of seconds")
        return raw
    if name in _PATHS and isinstance(raw, os.PathLike):
        return os.fspath(raw)
    if name in _WHERE_STORES_LIVE and isinstance(raw, str) and not raw.strip():
        # a script's unset "$DB": `--db ""` fell back to the default store, `--db "  "` made a database named by
        # two spaces in the working directory, `--home ""` a store under it (an empty variable stays "not set")
        raise refused("a path" + (" or a postgresql:// URL" if name == "db" else "") + ", not blank")
    if name == "embed_provider" and isinstance(raw, str) and not raw.strip():
        # a script's unset "$PROVIDER": `--embed ""` fell back to the variable, the config file or the default,
        # and embedded with another model than the one meant (an empty variable stays "not set")
        raise refused("a provider name (local, e5, use, ollama, openai, hash, none), not blank")
    if name == "card_theme":
        from ..render.cards import THEMES  # (only when a theme is given: the renderer is not every command's)

        theme = raw.strip().lower() if isinstance(raw, str) else None
        if theme not in THEMES:
            # an unknown theme rendered every card dark without a word
            raise refused("one of " + ", ".join(THEMES), allowed=list(THEMES))
        return theme
    if not isinstance(raw, str):
        raise refused("text")
    return raw


@dataclass(frozen=True)
class Config:
    home: Path
    store: str
    db_path: Path | str  # a file path, or a postgresql:// URL
    embed_provider: str
    max_insights: int
    prune_min_age_s: float
    audit_content: bool
    vault: str | None
    card_theme: str
    save_caches: bool = True
    ann: bool = True
    ann_min_rows: int = 30000
    ann_cold_min_rows: int = 250000
    daemon: bool = True
    daemon_idle_s: float = 900.0
    busy_wait_s: float = 60.0
    config_path: Path | None = None
    environ: Mapping[str, str] = field(default_factory=dict, repr=False)
    # who named the database, when the user did ("--db", "MNEMON_DB", "--store", "MNEMON_STORE", "config file PATH");
    # None for the default or active store (`app.memory.refuse_missing_db`: a read never creates a database someone
    # named)
    db_named_by: str | None = None
    # where each setting `show_settings` prints came from: "--db", "MNEMON_VAULT", "config file PATH", "default", …
    sources: Mapping[str, str] = field(default_factory=dict, repr=False)

    def with_overrides(self, **kw: Any) -> "Config":
        return replace(self, **kw)


def default_config_path(environ: Mapping[str, str]) -> Path:
    if environ.get("MNEMON_CONFIG"):
        return Path(environ["MNEMON_CONFIG"]).expanduser()
    base = environ.get("XDG_CONFIG_HOME") or str(Path(environ.get("HOME", str(Path.home()))) / ".config")
    return Path(base) / "mnemon" / "config.json"


def active_store(home: Path) -> str:
    """The store <home>/active names (`mnemon store set`), else `default`."""
    p = home / "active"
    if not p.exists():
        return "default"
    try:
        return p.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidInput(f"the active-store pointer {p} cannot be read ({exc}); fix it with"
                           " `mnemon --store default store set <name>`") from None


def load_config(environ: Mapping[str, str] | None = None, *, config_path: str | None = None,
                missing_ok: bool = False, unreadable_ok: bool = False, **flags: Any) -> Config:
    """The settings. A config file named on purpose (`config_path`, else `MNEMON_CONFIG`) that does not exist is
    `NotFound` — a typo must not quietly mean "defaults" — unless `missing_ok` (`init` is about to write it); one
    that is not a JSON object is `InvalidInput` unless `unreadable_ok` (`init --force` is about to replace it)."""
    env = dict(os.environ if environ is None else environ)
    if config_path is not None and not config_path.strip():
        # a script's unset "$CONFIG": `--config ""` read the user's own config file (another db, another store)
        raise InvalidInput(f"setting config (--config) must be a path, not blank, got {json.dumps(config_path)}",
                           setting="config")
    path = Path(config_path).expanduser() if config_path else default_config_path(env)
    file_named_by = "--config" if config_path else "MNEMON_CONFIG" if env.get("MNEMON_CONFIG") else None
    file_values: dict[str, Any] = {}
    if path.is_dir():  # it said "is not valid JSON: [Errno 21] Is a directory"
        raise InvalidInput(f"config file {path} is a folder, not a file: name the JSON file itself (e.g. "
                           f"{path / 'config.json'})", config=str(path))
    if path.exists():
        try:
            file_values = json.loads(path.read_text(encoding="utf-8"))
        except OSError as exc:  # no right to read it, or a disk error: not a matter of JSON
            raise InvalidInput(f"cannot read config file {path}: {exc.strerror or exc}", config=str(path)) from None
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            if not unreadable_ok:
                raise InvalidInput(f"config file {path} is not valid JSON: {exc}") from None
            file_values = {}
        if not isinstance(file_values, dict):
            if not unreadable_ok:
                raise InvalidInput(f"config file {path} must hold a JSON object")
            file_values = {}
    elif file_named_by and not missing_ok:
        raise NotFound(f"config file {path} ({file_named_by}) does not exist; create it with "
                       + typed("`mnemon init --vault DIR`"),
                       config=str(path))
    beside_file = Path(os.path.abspath(path)).parent

    def level(name: str) -> int:
        """Where a setting comes from: 3 a flag, 2 the environment, 1 the config file, 0 its default."""
        if flags.get(name) is not None:
            return 3
        if env.get(SETTINGS_BY_NAME[name].env) not in (None, ""):
            return 2
        return 1 if file_values.get(name) is not None else 0

    def pick(name: str) -> Any:
        given = level(name)
        if given == 3:
            return _coerce(name, flags[name], f" ({flag_of(name)})")
        if given == 2:
            return _coerce(name, env[SETTINGS_BY_NAME[name].env], f" in {SETTINGS_BY_NAME[name].env}")
        if given == 0:
            return SETTINGS_BY_NAME[name].default
        value = _coerce(name, file_values[name], f" in config file {path}", path)
        if name in _PATHS and not (name == "db" and server_url(value, f" in config file {path}")):
            value = os.path.abspath(beside_file / Path(value).expanduser())  # (an absolute one stays as it is)
        return value

    home = Path(str(pick("home"))).expanduser()
    store = pick("store")
    from_pointer = store is None
    if from_pointer:
        store = active_store(home)
    if not _STORE_NAME.fullmatch(str(store)):
        where = f" in {home / 'active'} (fix it with `mnemon --store default store set <name>`)" if from_pointer else ""
        refuse_url_as_store(store, where)
        raise InvalidInput(f"invalid store name {store!r}{where}: use letters, digits, '-' and '_' (start with a letter"
                           " or digit)", setting="store")
    # the database is one choice made two ways, a path or a store under a home: a store named by flag or
    # environment, or a --home flag, is not overruled by the db path `init` wrote into the config file; a
    # MNEMON_HOME (often set once in a profile) does not move a db the file names
    chosen_by_store = max(level("store"), 3 if level("home") == 3 else 0)
    db = pick("db") if level("db") >= chosen_by_store else None
    own_place = home / "data" / str(store) / "mnemon.db"
    def origin(name: str) -> str:
        return {3: flag_of(name), 2: SETTINGS_BY_NAME[name].env,
                1: f"config file {path}"}.get(level(name), "default")

    url = server_url(db, f" ({origin('db')})") if db else None
    # a server URL stays a string: Path would fold its '//'
    db_path: Path | str = url or (Path(str(db)).expanduser() if db else own_place)

    named_by: str | None = None
    # `init` writes the store's own path into the config file: naming it is the same as naming none
    if db and not (isinstance(db_path, Path) and os.path.abspath(db_path) == os.path.abspath(own_place)):
        named_by = origin("db")
    elif not db and store != "default" and (level("store") > 0 or from_pointer):
        # a store other than `default` exists once `store create` (or a write) made it, as `store set` has it; the
        # pointer names only a store that existed (`store set` refuses others): one not there was removed or moved
        # by hand, or the pointer was cut short
        named_by = str(home / "active") if from_pointer else origin("store")
    sources = {name: origin(name) for name in ("home", "embed_provider", "max_insights", "audit_content", "vault",
                                                "card_theme", "save_caches", "ann", "ann_min_rows",
                                                "ann_cold_min_rows", "daemon")}
    sources.update(prune_min_age_s=origin("prune_min_age"), daemon_idle_s=origin("daemon_idle"),
                   busy_wait_s=origin("busy_wait"),
                   store=origin("store") if not from_pointer else
                   str(home / "active") if store != "default" else "default",
                   db=origin("db") if db else "home and store")
    return Config(
        home=home, store=str(store), db_path=db_path, embed_provider=str(pick("embed_provider")),
        max_insights=int(pick("max_insights")), prune_min_age_s=parse_duration(pick("prune_min_age")),
        audit_content=bool(pick("audit_content")), vault=pick("vault"), card_theme=str(pick("card_theme")),
        save_caches=bool(pick("save_caches")), ann=bool(pick("ann")), ann_min_rows=int(pick("ann_min_rows")),
        ann_cold_min_rows=int(pick("ann_cold_min_rows")), daemon=bool(pick("daemon")),
        daemon_idle_s=parse_duration(pick("daemon_idle")), busy_wait_s=parse_duration(pick("busy_wait")),
        config_path=path if path.exists() else None, environ=env, db_named_by=named_by, sources=sources,
    )


def shown_db(db: Path | str) -> str:
    """A database as it may be printed: a path, or a server URL with its password masked."""
    if isinstance(db, str):  # a server URL: never print its password
        from ..ports.store.postgres import redact

        return redact(db)
    return str(db)


# the global options that choose the store or how it is read, in the order a suggested command gives them
_CHOOSING = ("config", "home", "store", "db", "embed")


def choosing_options(flags: Mapping[str, Any]) -> list[str]:
    """The options among a command line's global `flags` that chose its store (and the provider reading it), as
    the commands its reply suggests carry them (`core.surface.naming_store`): a suggestion without them acts on the
    default store. Only flags: a variable chose the same store for the next command of that shell. A path is made
    absolute (the suggestion may be run from another folder); a database URL's password is masked, never printed,
    so a pasted line fails to sign in, saying so, until the password is put back (or comes from ~/.pgpass)."""
    out: list[str] = []
    for name in _CHOOSING:
        value = flags.get(name)
        if not value or not isinstance(value, str):
            continue
        if _URL_SCHEME.match(value):  # a server (or a URL given as a store name, refused and printed masked too)
            from ..ports.store.postgres import redact

            value = redact(value)
        elif name in ("config", "home", "db"):
            value = os.path.abspath(os.path.expanduser(value))
        out += [f"--{name}", value]
    return out


def show_settings(cfg: Config) -> dict[str, Any]:
    return {
        "home": str(cfg.home), "store": cfg.store, "db": shown_db(cfg.db_path), "embed_provider": cfg.embed_provider,
        "max_insights": cfg.max_insights, "prune_min_age_s": cfg.prune_min_age_s, "audit_content": cfg.audit_content,
        "vault": cfg.vault, "card_theme": cfg.card_theme, "save_caches": cfg.save_caches, "ann": cfg.ann,
        "ann_min_rows": cfg.ann_min_rows, "ann_cold_min_rows": cfg.ann_cold_min_rows,
        "daemon": cfg.daemon, "daemon_idle_s": cfg.daemon_idle_s,
        "busy_wait_s": cfg.busy_wait_s, "config_path": str(cfg.config_path) if cfg.config_path else None,
        # which flag, variable or file gave each value: a setting that "does not take" is one given elsewhere too
        "sources": dict(cfg.sources),
    }
