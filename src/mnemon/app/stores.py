"""Named stores under <home>/data/<name>/mnemon.db, and the active-store pointer <home>/active."""
from __future__ import annotations

import os
import re
import shutil
from pathlib import Path
from typing import Any

from ..core.errors import Conflict, InvalidInput, NotFound, StoreError
from .config import Config, active_store, refuse_url_as_store, shown_db

_NAME = re.compile(r"[a-zA-Z0-9][a-zA-Z0-9_-]*")


def _check(name: str) -> str:
    if not _NAME.fullmatch(name or ""):  # fullmatch: `$` would let a name end in a newline
        refuse_url_as_store(name)
        raise InvalidInput(f"invalid store name {name!r}: letters, digits, '-' and '_', starting with a letter or digit")
    return name


def list_stores(cfg: Config) -> dict[str, Any]:
    """The stores under the home, the one its pointer makes active, and the database the commands use (`in_use`, and
    what named it): a --db, MNEMON_DB or a config file's `db` (what `init --db` writes) is none of these stores."""
    data = cfg.home / "data"
    names = sorted(p.name for p in data.iterdir() if p.is_dir()) if data.exists() else []
    active = active_store(cfg.home)
    used = shown_db(cfg.db_path)
    return {"active": active, "in_use": {"path": used, "named_by": cfg.sources.get("db", "home and store")}, "stores": [
        {"name": n, "active": n == active, "path": str(data / n / "mnemon.db"),
         "exists": (data / n / "mnemon.db").exists(), "in_use": _same_file(str(data / n / "mnemon.db"), used)}
        for n in sorted(set(names) | {active})]}


def _same_file(a: str, b: str) -> bool:
    return os.path.abspath(a) == os.path.abspath(b)


def create_store(home: Path, name: str) -> dict[str, Any]:
    _check(name)
    d = home / "data" / name
    if d.exists():
        raise Conflict(f"store {name!r} already exists")
    d.mkdir(parents=True)
    from ..ports.store.sqlite import SQLiteStore

    SQLiteStore(str(d / "mnemon.db")).close()
    return {"status": "created", "name": name, "path": str(d / "mnemon.db")}


def set_store(home: Path, name: str, cfg: Config | None = None) -> dict[str, Any]:
    """Point <home>/active at the store. With the settings of this call (`cfg`), the reply says when the pointer
    does not decide which database the commands use — a `db` or `store` named by a flag, the environment or the
    config file (`init` writes the store's path there as `db`) overrules it — with that database (`in_use`)."""
    _check(name)
    if name != "default" and not (home / "data" / name).exists():  # `default` is made by its first use
        raise NotFound(f"store {name!r} does not exist; create it with `mnemon store create {name}`")
    home.mkdir(parents=True, exist_ok=True)
    from ..ports.array_file import write_atomic

    # renamed into place once whole: a pointer cut short by a crash would name a store nobody made, and the next
    # write would make it there
    try:
        write_atomic(str(home / "active"), [(name + "\n").encode("utf-8")], durable=True)
    except OSError as exc:
        raise StoreError(f"cannot write the active-store pointer {home / 'active'} ({exc.strerror or exc}); it still"
                         f" names {active_store(home)!r}", path=str(home / "active")) from None
    out: dict[str, Any] = {"status": "active", "name": name}
    if cfg is not None and not _same_file(str(home / "data" / name / "mnemon.db"), shown_db(cfg.db_path)):
        named = [(key, cfg.sources[key]) for key in ("db", "store")
                 if cfg.sources.get(key) not in (None, "default", "home and store", str(home / "active"))]
        if named:
            key, named_by = named[0]
            out["in_use"] = {"path": shown_db(cfg.db_path), "named_by": named_by}
            if named_by.startswith("--"):
                why = f"this call's {named_by} overrules it"
            elif named_by.startswith("config file"):
                why = (f"the {named_by} sets `{key}`, which overrules the active store: take it out of that file,"
                       f" or pass --store {name}")
            else:
                why = f"while {named_by} is set, it overrules the active store"
            out["note"] = f"the commands use {shown_db(cfg.db_path)}, not store {name!r}: {why}"
    return out


def _held(db: Path) -> tuple[int, int]:
    """(live memories, live nodes of any kind: notes, entities, …) of a store file, read without writing to it."""
    from ..ports.store.sqlite import SQLiteStore

    store = SQLiteStore(str(db), readonly=True)
    try:
        return store.count_active(), sum(1 for _ in store.iter_nodes(kind=None))
    finally:
        store.close()


def remove_store(home: Path, name: str, *, in_use: Path | str | None = None, force: bool = False) -> dict[str, Any]:
    """`in_use` is the database this very call runs on: a store picked by --store or MNEMON_STORE is in use as much
    as the one <home>/active names. A store holding anything (or one that cannot be read to tell) is removed only
    with `force`: removing deletes its files for good, so it is never done to a user's memories by a slip."""
    _check(name)
    d = home / "data" / name
    # what `store list` says of it, in the same words: `--db postgresql://… store remove default` answered "in use"
    # of a store the list showed in_use false, exists false — nothing there to remove, and the URL in use
    used = in_use is not None and _same_file(str(d / "mnemon.db"), shown_db(in_use))
    if not d.exists():
        raise NotFound(f"store {name!r} does not exist", store=name)
    if used:
        raise Conflict(f"store {name!r} is in use: this call runs on it; switch with `mnemon store set <other>` (and"
                       " drop --store or MNEMON_STORE naming it) first", store=name, in_use=True)
    if name == active_store(home):
        where = f" (this call uses {shown_db(in_use)})" if in_use is not None else ""
        raise Conflict(f"store {name!r} is the active store: {home / 'active'} names it, so every command without"
                       f" --db or --store uses it{where}; switch with `mnemon store set <other>` first",
                       store=name, active=True, in_use=False)
    from ..ports.store.sqlite import opened_elsewhere

    if opened_elsewhere(str(d / "mnemon.db")):  # removed under it, it would go on acknowledging writes into nothing
        raise Conflict(f"store {name!r} is open in another process (a `mnemon serve`, `mnemon mcp`, the daemon or a "
                       "script): stop it first (`mnemon daemon stop` for the daemon), then remove the store")
    memories = nodes = 0
    if (d / "mnemon.db").exists():
        try:
            memories, nodes = _held(d / "mnemon.db")
        except StoreError as exc:
            if not force:
                raise Conflict(f"store {name!r} cannot be read to check what it holds ({exc}); `mnemon store"
                               f" remove {name} --force` deletes it anyway") from exc
    if nodes and not force:
        raise Conflict(f"store {name!r} holds {memories} memories ({nodes} nodes in all) and removing it deletes"
                       f" them for good; keep a copy first (`mnemon --store {name} export --out {name}.json`), then"
                       f" `mnemon store remove {name} --force`", memories=memories, nodes=nodes)
    shutil.rmtree(d)
    return {"status": "removed", "name": name, "memories": memories, "nodes": nodes}
