"""Configuration for vault work: `init --vault --db --out`, `doctor`, and the settings other commands fall back to.

The config file is the one `--config PATH` names (default: `$MNEMON_CONFIG`, else `<user config dir>/mnemon/
config.json`). `app.config.load_config` already reads `db` and `vault` from it; the vault-only keys (`out`, `hints`,
`follow_symlinks`) are read here. A flag always wins over the file.
"""
from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...core.errors import Conflict, HealthCheckFailed, InvalidInput
from ...core.vault.observations import DEFAULT_HINTS, hint_words
from ..config import DB_URL_SCHEMES, Config, default_config_path


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
    except (OSError, json.JSONDecodeError) as exc:
        raise InvalidInput(f"config file {path} is not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise InvalidInput(f"config file {path} must hold a JSON object")
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
    """Where cards go: the flag, else the config file's `out`, else `<home>/cards`."""
    return out or _read(config_file(cfg)).get("out") or str(Path(cfg.home).expanduser() / "cards")


def _absolute(value: str) -> str:
    return str(Path(value).expanduser().resolve())


def _db_value(value: str) -> str:
    """A server URL is kept as given (as a path it would become a SQLite file named after the URL, password and
    all); a file path is made absolute."""
    return value if value.startswith(DB_URL_SCHEMES) else _absolute(value)


def _shown(db: str) -> str:
    if db.startswith(DB_URL_SCHEMES):  # printed values never show the password
        from ...ports.store.postgres import redact

        return redact(db)
    return db


def _database_check(db: str) -> tuple[dict[str, Any], int | None]:
    """A file: its folder must be writable. A server: it must answer (read-only session, nothing written). With the
    number of notes the store holds (None when unknown), which decides the next step."""
    if not db.startswith(DB_URL_SCHEMES):
        path = Path(db)
        return {"ok": _writable_parent(path), "path": db, "exists": path.exists()}, (None if path.exists() else 0)
    from ..memory import open_store

    try:
        store = open_store(db, readonly=True)
    except Exception as exc:  # any failure to reach or read the server is the finding itself
        message = getattr(exc, "message", None) or f"{type(exc).__name__}: {exc}"
        return {"ok": False, "url": _shown(db), "error": _shown(str(message))}, None
    try:
        notes = int(store.stats().get("nodes_by_kind", {}).get("note", 0))
    finally:
        store.close()
    return {"ok": True, "url": _shown(db), "reachable": True}, notes


def init(cfg: Config, *, vault: str, db: str | None = None, out: str | None = None, hints: Any = None,
         follow_symlinks: bool = False, force: bool = False) -> dict[str, Any]:
    if not vault:
        raise InvalidInput("init needs --vault")
    path = config_file(cfg)
    existing = _read(path)
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
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=str(path.parent), prefix=".config-", suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump(data, handle, indent=2, ensure_ascii=False)
        handle.write("\n")
    os.replace(tmp, path)
    return {"config": str(path), "vault": data["vault"], "db": _shown(data["db"]), "out": data["out"],
            "hints": data["hints"],
            "follow_symlinks": data["follow_symlinks"], "written": True,
            "vault_exists": Path(data["vault"]).is_dir()}


def _writable_parent(path: Path) -> bool:
    parent = path.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    return os.access(parent, os.W_OK)


def doctor(cfg: Config) -> dict[str, Any]:
    """Check the config without writing anything: config readable, vault present, notes countable, paths writable.
    A failing check raises `HealthCheckFailed` carrying the whole report."""
    path = config_file(cfg)
    problems: list[str] = []
    try:
        _read(path)  # a config that does not parse is a problem to report, not a crash
        config_ok = path.exists()
    except InvalidInput as exc:
        config_ok = False
        problems.append(exc.message)
    settings = vault_settings(cfg) if config_ok else VaultSettings(cfg.vault, None, DEFAULT_HINTS, False, path)
    checks: dict[str, Any] = {"config": {"ok": config_ok, "path": str(path)}}
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
    checks["db_parent" if not db.startswith(DB_URL_SCHEMES) else "database"], notes = _database_check(db)
    out_path = Path(settings.out) if settings.out else None
    checks["out_parent"] = {"ok": out_path is not None and _writable_parent(out_path / "x"), "path": settings.out}
    if not config_ok:
        problems.append(f"no config at {path}: run `mnemon init --vault DIR` (or mneme init)")
    if config_ok and not vault_ok:
        problems.append(f"vault {settings.vault!r} is not a directory")
    ok = all(c.get("ok") for c in checks.values())
    if not ok:
        next_step = problems[0] if problems else "fix the failing checks"
    elif notes == 0:
        next_step = "run `mnemon ingest` to build the graph"
    else:
        next_step = "run `mnemon update` after editing notes; `mnemon retrieve --prompt …` to use it"
    report = {"ok": ok, "config": str(path),
              "settings": {"vault": settings.vault, "db": _shown(db), "out": settings.out,
                           "hints": list(settings.hints), "follow_symlinks": settings.follow_symlinks},
              "checks": checks, "problems": problems, "next": next_step}
    if not ok:  # a health check in a script or cron job must fail loudly, as `contract check` does
        raise HealthCheckFailed(f"doctor: {next_step}", **report)
    return report
