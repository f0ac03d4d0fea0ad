"""Configuration for vault work: `init --vault --db --out`, `doctor`, and the settings other commands fall back to.

The config file is the one `--config PATH` names (default: `$MNEMON_CONFIG`, else `<user config dir>/mnemon/
config.json`). `app.config.load_config` already reads `db` and `vault` from it; the vault-only keys (`out`, `hints`,
`follow_symlinks`) are read here. A flag always wins over the file.
"""
from __future__ import annotations

import difflib
import json
import os
import shlex
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...core.errors import Conflict, HealthCheckFailed, InvalidInput, write_refused
from ...core.surface import typed
from ...core.vault.observations import DEFAULT_HINTS, hint_words
from ...render.cards import check_out_dir
from ..config import DB_URL_SCHEMES, SETTINGS_BY_NAME, Config, default_config_path, server_url


@dataclass(frozen=True)
class VaultSettings:
    vault: str | None
    out: str | None
    hints: tuple[str, ...]
    follow_symlinks: bool
    config_path: Path


def config_file(cfg: Config) -> Path:
    return cfg.config_path or default_config_path(cfg.environ)


def _read(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InvalidInput(f"config file {path} is not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise InvalidInput(f"config file {path} must hold a JSON object")
    return _checked(path, data)


def _checked(path: Path, data: dict[str, Any]) -> dict[str, Any]:
    """The vault-only keys as their types, refused as `app.config` refuses the others (naming the key and the file):
    an `out` that is not text was an `internal` TypeError, and `"follow_symlinks": "no"` read as true. A relative
    `out` is beside the file, as `vault` and `db` are: against the working directory it moved with every command."""
    def refused(key: str, wanted: str) -> InvalidInput:
        shown = json.dumps(data[key], ensure_ascii=False)
        return InvalidInput(f"setting {key} in config file {path} must be {wanted}, got {shown}", setting=key,
                            config=str(path))
    out, hints, follow = data.get("out"), data.get("hints"), data.get("follow_symlinks")
    if out is not None:
        if not isinstance(out, str):
            raise refused("out", "text (a folder path)")
        data["out"] = os.path.abspath(Path(os.path.abspath(path)).parent / Path(out).expanduser()) if out else out
    if hints is not None and not (isinstance(hints, str) or (isinstance(hints, list)
                                                             and all(isinstance(h, str) for h in hints))):
        raise refused("hints", "comma-separated words or a list of words")
    if follow is not None and not isinstance(follow, bool):
        raise refused("follow_symlinks", "true or false")
    return data


def parse_hints(value: Any) -> tuple[str, ...] | None:
    return None if value is None else tuple(h.lower() for h in hint_words(value))


def vault_settings(cfg: Config, *, vault: str | None = None, out: str | None = None, hints: Any = None,
                   follow_symlinks: bool | None = None) -> VaultSettings:
    """Flag > config file > default, for the keys vault commands need (the environment already fed `cfg.vault`)."""
    path = config_file(cfg)
    data = _read(path)
    chosen_hints = parse_hints(hints) or parse_hints(data.get("hints")) or DEFAULT_HINTS
    return VaultSettings(
        vault=vault or cfg.vault or data.get("vault"),
        out=out or data.get("out"),
        hints=tuple(chosen_hints),
        follow_symlinks=bool(follow_symlinks) if follow_symlinks is not None else bool(data.get("follow_symlinks", False)),
        config_path=path,
    )


def chosen_hints(cfg: Config, hints: Any = None) -> tuple[str, ...] | None:
    """The flag's hints, else the config file's, else None (each command's own default applies)."""
    return parse_hints(hints) or parse_hints(_read(config_file(cfg)).get("hints")) or None


def chosen_out(cfg: Config, out: str | None = None) -> str:
    """Where cards go: the flag, else the config file's `out` (refused naming the file when it is no folder), else
    `<home>/cards`."""
    if out is not None:  # (a blank one is refused where the folder is made, not passed over for the default)
        return out
    path = config_file(cfg)
    configured = _read(path).get("out")
    if configured:
        check_out_dir(configured, config=path)
    return configured or str(Path(cfg.home).expanduser() / "cards")


def _absolute(value: str) -> str:
    return str(Path(value).expanduser().resolve())


def _db_value(value: str) -> str:
    """A server URL is kept as given (as a path it would become a SQLite file named after the URL, password and
    all); a file path is made absolute."""
    return server_url(value, " (--db)") or _absolute(value)


def _shown(db: str) -> str:
    if db.startswith(DB_URL_SCHEMES):  # printed values never show the password
        from ...ports.store.postgres import redact

        return redact(db)
    return db


def _database_check(cfg: Config, db: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """A file: its folder must be writable. A server: it must answer (read-only session, nothing written). With what
    the store holds (`unfinished.store_facts`; `{"exists": False}` before the first write), which decides the next
    step: a store doctor did not mention left a user who ingested without `init` nothing of what it holds."""
    if not db.startswith(DB_URL_SCHEMES):
        path = Path(db)
        check: dict[str, Any] = {"ok": _writable_parent(path), "path": db, "exists": path.exists()}
        not_a_db = _not_a_database(path)
        if not_a_db:  # every command would fail on it (`store_error`) while doctor said ok
            check.update(ok=False, error=not_a_db)
            return check, {"exists": True}
        if not path.exists() or path.stat().st_size == 0:
            return check, {"exists": False}
    else:
        check = {"ok": True, "url": _shown(db), "reachable": True}
    from ...core.errors import NotFound
    from ...ports.embed.base import EmbedSettings
    from ...ports.embed.registry import get_provider
    from ..memory import open_store
    from ..unfinished import store_facts

    try:
        store = open_store(db, readonly=True, create=False, busy_wait_s=cfg.busy_wait_s,
                           busy_wait_set_by=cfg.sources.get("busy_wait_s"))
    except NotFound:  # a server schema no one has written to yet: what a SQLite file not created yet is
        return check, {"exists": False}
    except Exception as exc:  # any failure to reach or read the store is the finding itself
        message = _shown(str(getattr(exc, "message", None) or f"{type(exc).__name__}: {exc}"))
        if db.startswith(DB_URL_SCHEMES):
            return {"ok": False, "url": _shown(db), "error": message}, {"exists": None}
        return check, {"exists": True, "error": message}
    try:
        provider = get_provider(cfg.embed_provider, EmbedSettings.from_env(cfg.environ))
        return check, store_facts(store, provider.identity(), provider.produces_vectors)
    finally:
        store.close()


def init(cfg: Config, *, vault: str, db: str | None = None, out: str | None = None, hints: Any = None,
         follow_symlinks: bool = False, force: bool = False) -> dict[str, Any]:
    for flag, given in (("--vault", vault), ("--db", db), ("--out", out)):
        if given is not None and not given.strip():
            # a script's unset "$VAULT": made absolute, " " became "<working directory>/ " in the config file
            raise InvalidInput(f"init needs {flag} to name a {'file' if flag == '--db' else 'folder'}, "
                               "not be blank", setting=flag.lstrip("-"))
    if not vault:
        raise InvalidInput("init needs --vault")
    path = config_file(cfg)
    invalid: Path | None = None
    try:
        existing = _read(path)
    except InvalidInput:
        if not force or not path.is_file():
            raise
        # what a hand edit broke, replaced as --force asks: its bytes kept beside it
        existing, invalid = {}, path.with_name(path.name + ".invalid")
        try:
            invalid.write_bytes(path.read_bytes())
        except OSError as exc:
            raise write_refused(str(invalid), exc, "config file backup ", config=str(path)) from None
    if existing and not force:
        raise Conflict(f"config file {path} already exists; pass --force to overwrite it", config=str(path))
    data = dict(existing)
    data.update({
        "vault": _absolute(vault),
        "db": _db_value(db) if db else str(cfg.db_path),
        "out": _absolute(out) if out else str(Path(cfg.home).expanduser() / "out"),
        "hints": list(parse_hints(hints) or DEFAULT_HINTS),
        "follow_symlinks": bool(follow_symlinks),
    })
    if out:  # (what `thought`, `surface` and `run-once` would refuse on every run, refused once here)
        check_out_dir(data["out"])
    _write_json(path, data)
    return {"config": str(path), "vault": data["vault"], "db": _shown(data["db"]), "out": data["out"],
            "hints": data["hints"],
            "follow_symlinks": data["follow_symlinks"], "written": True,
            "vault_exists": Path(data["vault"]).is_dir(), **({"replaced_invalid": str(invalid)} if invalid else {})}


_SQLITE_HEADER = b"SQLite format 3\x00"


def _not_a_database(path: Path) -> str | None:
    """Why the file at `path` cannot be opened as a SQLite database, or None (absent, empty — SQLite makes a new
    database of an empty file — or a database). Read only: opening it with SQLite could write a journal."""
    if not path.exists():
        return None
    if not path.is_file():
        return f"{path} is not a file"
    try:
        with path.open("rb") as handle:
            head = handle.read(len(_SQLITE_HEADER))
    except OSError as exc:
        return f"{path} cannot be read: {exc.strerror or exc}"
    return None if head in (b"", _SQLITE_HEADER) else f"{path} is not a SQLite database"


def _write_json(path: Path, data: dict[str, Any]) -> None:
    """Write the config file whole (a temp file renamed into place), or the refusal saying why it cannot be written
    (`write_refused`: its folder is a file, no permission; a full disk): those were `internal` errors."""
    tmp: str | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=str(path.parent), prefix=".config-", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(data, handle, indent=2, ensure_ascii=False)
            handle.write("\n")
        os.replace(tmp, path)
    except OSError as exc:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)
        # a full disk is the machine's to remedy (store_error, as for every file a command writes), a path that
        # cannot hold the file the user's (invalid_input)
        raise write_refused(str(path), exc, "config file ", config=str(path)) from None


# the keys a config file holds beyond `app.config`'s settings: the vault commands' own (`init` writes them)
_VAULT_KEYS = frozenset({"vault", "out", "hints", "follow_symlinks"})


def _unknown_keys(path: Path) -> list[str]:
    """A key no command reads is ignored by all of them: a misspelled `vualt` quietly meant "no vault"."""
    try:
        data = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return []  # (reported as the config check's own failure)
    known = sorted(_VAULT_KEYS | set(SETTINGS_BY_NAME))
    out = []
    for key in sorted(k for k in data if k not in known) if isinstance(data, dict) else ():
        close = difflib.get_close_matches(key, known, n=1)
        out.append(f"unknown key {key!r} in config file {path} is ignored"
                   + (f" (did you mean {close[0]!r}?)" if close else ""))
    return out


def _writable_parent(path: Path) -> bool:
    """Whether `path` can be created: its nearest existing ancestor is a folder this user may write in. A file in
    the way passed (os.access says yes to a writable file), and every later command failed with `store_error`."""
    parent = path.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    return parent.is_dir() and os.access(parent, os.W_OK)


def _refused_origin(exc: InvalidInput, config_path: Path, environ: Mapping[str, str],
                    flags: Mapping[str, Any]) -> str:
    """Where the value `load` refused came from, by `app.config`'s precedence (flag > variable > file): "--db",
    "MNEMON_CARD_THEME", "config file PATH" — or "" when no setting is at fault (an unreadable active-store
    pointer). Doctor's advice said "fix the config file" for a bad MNEMON_CARD_THEME too."""
    if exc.details.get("config"):
        return f"config file {exc.details['config']}"
    setting = exc.details.get("setting")
    if setting not in SETTINGS_BY_NAME:
        return f"config file {config_path}" if exc.message.startswith("config file") else ""
    if flags.get(setting) is not None:
        return f"--{setting.replace('_', '-')}"
    if environ.get(SETTINGS_BY_NAME[setting].env) not in (None, ""):
        return SETTINGS_BY_NAME[setting].env
    try:
        in_file = setting in json.loads(config_path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, TypeError):
        in_file = False
    # a store name given nowhere was read from the active-store pointer, whose message gives its own advice
    return f"config file {config_path}" if in_file else ""


def _refusal_advice(origin: str, exc: InvalidInput, config_path: Path) -> str:
    if not origin:
        return exc.message  # (the active-store pointer's refusal says how to fix it)
    allowed = exc.details.get("allowed")
    wanted = f" (one of {', '.join(map(str, allowed))})" if allowed else ""
    if origin.startswith("--"):
        return f"give {origin} a valid value{wanted}, or leave it out"
    if origin.startswith("MNEMON_"):
        return f"set {origin} to a valid value{wanted}, or unset it"
    setting = exc.details.get("setting")
    if not setting:  # (the whole file unreadable: what `init --force` replaces)
        return typed(f"fix {config_path}, or replace it with `mnemon init --vault DIR --force` (the old file kept as"
                     f" {config_path.name}.invalid)")
    return typed(f"fix setting {setting} in {config_path}{wanted}, or remove the file and run "
                 "`mnemon init --vault DIR`")


def doctor(load: Callable[[], Config], config_path: Path, *, environ: Mapping[str, str] | None = None,
           flags: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Check the config without writing anything: config readable, vault present, notes countable, paths writable.
    A failing check raises `HealthCheckFailed` carrying the whole report. `load` reads the settings: a config file
    that does not load (not JSON, a value of the wrong type) is doctor's finding, reported as such, where every
    other command fails with `invalid_input`; `config_path` is the file it was reading; `environ` and `flags` are
    what `load` read too, so the advice names the variable or flag a refused value came from."""
    try:
        cfg = load()
    except InvalidInput as exc:
        problem = exc.message
        origin = _refused_origin(exc, config_path, os.environ if environ is None else environ, flags or {})
        check = {**exc.details, "ok": False, "path": str(config_path), "error": problem,
                 **({"origin": origin} if origin else {})}
        report = {"ok": False, "config": str(config_path), "checks": {"config": check},
                  "problems": [problem], "next": _refusal_advice(origin, exc, config_path)}
        raise HealthCheckFailed(f"doctor: {problem}", **report) from None
    path = config_file(cfg)
    problems: list[str] = []
    checks: dict[str, Any] = {"config": {"ok": path.exists(), "path": str(path)}}
    try:
        settings = vault_settings(cfg)  # a vault-only key of the wrong type is a problem to report, not a crash
    except InvalidInput as exc:
        problems.append(exc.message)
        checks["config"].update(exc.details, ok=False, path=str(path), error=exc.message)
        settings = VaultSettings(cfg.vault, None, DEFAULT_HINTS, False, path)
    config_ok = bool(checks["config"]["ok"])
    vault_ok = bool(settings.vault) and Path(str(settings.vault)).is_dir()
    checks["vault"] = {"ok": vault_ok, "path": settings.vault}
    count = 0
    if vault_ok:
        from .ingest import walk_vault

        _root, entries, skipped = walk_vault(str(settings.vault), follow_symlinks=settings.follow_symlinks)
        count = len(entries)
        checks["markdown_notes"] = {"ok": count > 0, "count": count, "skipped": len(skipped)}
    else:
        checks["markdown_notes"] = {"ok": False, "count": 0}
    db = str(cfg.db_path)
    db_check, store = _database_check(cfg, db)
    notes = store.get("notes", 0 if store.get("exists") is False else None)
    checks["db_parent" if not db.startswith(DB_URL_SCHEMES) else "database"] = db_check
    # without `out` cards go to `<home>/cards`, as `chosen_out` has it: a config naming only the vault failed this
    # check with no problem to show
    out = settings.out or str(Path(cfg.home).expanduser() / "cards")
    checks["out_parent"] = {"ok": _writable_parent(Path(out) / "x"), "path": out,
                            **({} if settings.out else {"default": True})}
    try:  # (a card file named as the folder: every card command refuses it)
        if checks["out_parent"]["ok"]:
            check_out_dir(out, config=path if settings.out else None)
    except InvalidInput as exc:
        checks["out_parent"].update(ok=False, error=exc.message)
    if not path.exists():  # (the vault the store's notes came from, when it recorded one: the command as it is)
        vault = shlex.quote(store["vault"]) if store.get("vault") else "DIR"  # a folder with a space stays one word
        problems.append(typed(f"no config at {path}: run `mnemon init --vault {vault}`"))
    if config_ok and not vault_ok:
        vault_var = SETTINGS_BY_NAME["vault"].env
        if settings.vault and cfg.sources.get("vault") == vault_var:
            # the variable overrules the file `init` writes: that advice would change nothing
            problems.append(f"vault {settings.vault!r} (from {vault_var}) is not a directory: create it, or point "
                            f"{vault_var} at your vault (it overrules the config file's `vault`)")
        else:
            problems.append(typed(f"vault {settings.vault!r} is not a directory: create it, or name your vault with "
                                  "`mnemon init --vault DIR --force`" if settings.vault else
                                  f"no vault is set: run `mnemon init --vault DIR --force`, or add `vault` to {path}"))
    elif vault_ok and count == 0:
        problems.append(f"vault {settings.vault!r} holds no Markdown notes (*.md): is it the right folder?")
    if db_check.get("error") and not db.startswith(DB_URL_SCHEMES):
        problems.append(f"database {db_check['error']}: move it aside, or name another database with `--db`")
    elif not db_check["ok"] and not db.startswith(DB_URL_SCHEMES):
        problems.append(f"database {db} cannot be created (a file in its path, or a folder you may not write): "
                        "name another with `--db`")
    elif not db_check["ok"]:
        problems.append(f"database server: {db_check.get('error')}")
    if checks["out_parent"].get("error"):
        problems.append(checks["out_parent"]["error"])
    elif not checks["out_parent"]["ok"]:
        problems.append(f"output folder {out} cannot be created (a file in its path, or a folder you may not "
                        f"write): set `out` in {path}")
    warnings = _unknown_keys(path)
    ok = all(c.get("ok") for c in checks.values())
    if not ok:
        next_step = problems[0] if problems else "fix the failing checks"
    elif store.get("unfinished"):
        next_step = store["unfinished"][0]["message"]
    elif notes == 0:
        next_step = typed("run `mnemon ingest` to build the graph")
    else:
        next_step = typed("run `mnemon update` after editing notes; `mnemon retrieve --prompt …` to use it")
    report = {"ok": ok, "config": str(path),
              "settings": {"vault": settings.vault, "db": _shown(db), "out": settings.out,
                           "hints": list(settings.hints), "follow_symlinks": settings.follow_symlinks},
              "checks": checks, "store": store, "problems": problems, "next": next_step,
              **({"warnings": warnings} if warnings else {})}
    if not ok:  # a health check in a script or cron job must fail loudly, as `contract check` does
        raise HealthCheckFailed(f"doctor: {next_step}", **report)
    return report
