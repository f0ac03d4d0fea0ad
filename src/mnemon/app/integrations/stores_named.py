"""Which store the mnemon command lines a host's files hold name: their options compared by what they resolve to
— the database file's real path or a server URL, as `app.config` reads them — not by their text, so the default
store, `--store default` and `--db <its path>` (through a link or not) are one store. Options that cannot be
resolved here (a config file gone) are compared as written."""
from __future__ import annotations

import os
import shlex
from collections.abc import Mapping, Sequence
from pathlib import Path

from ...core.errors import MnemonError
from ..config import load_config, shown_db

LOCATING = ("--db", "--store", "--home", "--config")


def store_of(words: Sequence[str]) -> tuple[str, ...]:
    """The options of a mnemon command line that say which store it uses (not its program, nor --embed)."""
    return tuple(w for option, value in zip(words, words[1:]) if option in LOCATING for w in (option, value))


def resolved(options: Sequence[str], environ: Mapping[str, str]) -> Path | str | None:
    """The database `options` (`store_of`'s) name in `environ`: a file's real path or a server URL; None when the
    config layer refuses them."""
    given = dict(zip(options[::2], options[1::2]))
    try:
        cfg = load_config(dict(environ), config_path=given.get("--config"), db=given.get("--db"),
                          store=given.get("--store"), home=given.get("--home"))
    except MnemonError:
        return None
    return cfg.db_path if isinstance(cfg.db_path, str) else Path(os.path.realpath(cfg.db_path))


def same(a: Sequence[str], b: Sequence[str], environ: Mapping[str, str]) -> bool:
    """Whether two commands' options name one store."""
    a, b = store_of(a), store_of(b)
    if a == b:
        return True
    first, second = resolved(a, environ), resolved(b, environ)
    return first is not None and first == second


def described(options: Sequence[str], environ: Mapping[str, str]) -> str:
    """The store as the user named it, and the database that is when the name does not say it."""
    options = store_of(options)
    named = shlex.join(options) if options else "the default store"
    db = resolved(options, environ)
    where = shown_db(db) if db is not None else None
    return named if where is None or options == ("--db", where) else f"{named} ({where})"
