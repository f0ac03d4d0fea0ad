"""The global options a host's hooks and MCP server run mnemon with (the store). Its own module: a hook reads them on
every prompt, and must not pay for what `setup` alone needs."""
from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from ...core.errors import InvalidInput

_LOCATING = (("db", "MNEMON_DB"), ("store", "MNEMON_STORE"), ("home", "MNEMON_HOME"))


def global_options(flags: Mapping[str, Any], environ: Mapping[str, str], db_path: str | Path) -> list[str]:
    """The global options hooks and servers run with: the very store this command uses, by its absolute path, when
    a flag or the environment chose it (a host may start its hooks with another environment, in another folder),
    and the config file and embedding provider when given. A database URL holding a password is refused: it would
    be written into files a project shares."""
    out: list[str] = []
    if any(flags.get(name) or environ.get(variable) for name, variable in _LOCATING):
        target = str(db_path)
        if "://" in target:
            if urlsplit(target).password:
                raise InvalidInput("the database URL holds a password, which setup would write into the host's "
                                   "settings (often committed with the project): put it in ~/.pgpass or PGPASSWORD "
                                   "and give the URL without it", path=_without_password(target))
            out += ["--db", target]
        else:
            out += ["--db", str(Path(target).expanduser().resolve())]
    config = flags.get("config") or environ.get("MNEMON_CONFIG")
    if config:
        out += ["--config", str(Path(config).expanduser().resolve())]
    embed = flags.get("embed") or environ.get("MNEMON_EMBED_PROVIDER")
    if embed:
        out += ["--embed", embed]
    return out


def shared_options(flags: Mapping[str, Any]) -> list[str]:
    """The global options of the commands `setup --shared` writes into the files a team commits: only what names the
    same store on every teammate's machine — a store's name, a database URL (without a password), the embedding
    provider — and only as given on this command line (each teammate's own environment applies on their machine).
    A path (--db FILE, --home, --config) is this machine's: refused, as a teammate would run a command that fails."""
    out: list[str] = []
    db = flags.get("db")
    if db and "://" not in db:
        raise InvalidInput("--db names a file of this machine, and --shared writes commands every teammate runs: "
                           "name a store (--store NAME) or a database URL, or set up without --shared", path=db)
    if db and urlsplit(db).password:
        raise InvalidInput("the database URL holds a password, which --shared would write into files the project "
                           "shares: put it in ~/.pgpass or PGPASSWORD and give the URL without it",
                           path=_without_password(db))
    for name in ("home", "config"):
        if flags.get(name):
            raise InvalidInput(f"--{name} names a path of this machine, and --shared writes commands every teammate "
                               "runs: leave it out, or set up without --shared", path=str(flags[name]))
    if db:
        out += ["--db", db]
    elif flags.get("store"):
        out += ["--store", flags["store"]]
    if flags.get("embed"):
        out += ["--embed", flags["embed"]]
    return out


def _without_password(url: str) -> str:
    parts = urlsplit(url)
    return url.replace(f":{parts.password}@", ":***@", 1) if parts.password else url
