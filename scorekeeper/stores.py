"""Every in-memory store of the process, by name: one registry of bounded, least-recently-used maps.

A module that keeps something it computed declares its store once, at import, with a name and a
bound (a number, or the setting that gives it)::

    RESULTS = stores.store("latest_results", "LOCAL_GAMES")
    ...
    RESULTS().get(game_id)

Calling the store gives the current app's :class:`~scorekeeper.lru.LocalLRU` (each app, a test's
too, has its own database and so its own entries); a ``process`` store is one map for the whole
process (what depends on no database: a message worded, a number formatted). Outside an app
context an app store keeps nothing (a fresh map of one entry each call).

:func:`listing` says what every store holds against its bound (``scorekeeper stores``, the
health page's ``stores``); :func:`clear_all` empties them (tests, ``scorekeeper stores --clear``).

Not here, and why: Flask-Caching's backend (:class:`scorekeeper.cache.LocalCache`, bounded by
``CACHE_THRESHOLD``, or Redis) is the shared cache, not a process's; ``functools.cache`` on a
function of no argument (a compiled template, a hash of the code) keeps one constant, bounded by
nature; the request memos (:func:`scorekeeper.cache.request_memo`) live and die with one request.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any, Literal

import click
from flask import Flask, current_app, has_app_context
from flask.cli import with_appcontext

from .lru import LocalLRU

Scope = Literal["app", "process"]
PREFIX = "scorekeeper."


@dataclass(eq=False)
class Store:
    """A named, bounded store; ``store()`` gives the map to use now."""

    name: str
    # Entries at most: a number, or the name of the app setting that gives it.
    bound: int | str
    scope: Scope = "app"
    doc: str = ""
    _process: LocalLRU[Any, Any] | None = field(default=None, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def max_entries(self, app: Flask | None = None) -> int:
        if isinstance(self.bound, int):
            return max(1, self.bound)
        config = (app or current_app).config
        return max(1, int(config[self.bound]))

    def __call__(self) -> LocalLRU[Any, Any]:
        if self.scope == "process":
            return self._for_process()
        if not has_app_context():
            return LocalLRU(1)
        return self.of(current_app._get_current_object())  # type: ignore[attr-defined]

    def of(self, app: Flask) -> LocalLRU[Any, Any]:
        """This store's map in ``app`` (a process store: the process's)."""
        if self.scope == "process":
            return self._for_process()
        key = PREFIX + self.name
        found = app.extensions.get(key)
        if not isinstance(found, LocalLRU):
            # setdefault keeps the first one made if two threads get here at once.
            found = app.extensions.setdefault(key, LocalLRU(self.max_entries(app)))
        assert isinstance(found, LocalLRU)  # the app's extensions hold this name for this store only
        return found

    def _for_process(self) -> LocalLRU[Any, Any]:
        if self._process is None:
            with self._lock:
                if self._process is None:
                    self._process = LocalLRU(self.max_entries())
        return self._process


_REGISTRY: dict[str, Store] = {}
_REGISTERING = threading.Lock()


def store(name: str, max_entries: int | str, scope: Scope = "app", doc: str = "") -> Store:
    """Declare the store ``name`` (once, at import) and return it. A name is one store: a second
    declaration must say the same, else it is a mistake (two modules sharing entries by chance)."""
    with _REGISTERING:
        found = _REGISTRY.get(name)
        if found is not None:
            if (found.bound, found.scope) != (max_entries, scope):
                raise ValueError(f"store {name!r} is declared twice, differently")
            return found
        made = _REGISTRY[name] = Store(name, max_entries, scope, doc)
        return made


def all_stores() -> list[Store]:
    return sorted(_REGISTRY.values(), key=lambda s: s.name)


def listing(app: Flask | None = None) -> list[dict[str, Any]]:
    """Every store with its entries and bound, in ``app`` (default: the current one)."""
    app = app or current_app._get_current_object()  # type: ignore[attr-defined]
    rows = []
    for found in all_stores():
        kept = found.of(app)
        rows.append(
            {"name": found.name, "scope": found.scope, "entries": len(kept), "max_entries": kept.size}
        )
    return rows


def clear_all(app: Flask | None = None) -> None:
    """Empty every store of ``app`` (default: the current one) and every process store."""
    app = app or current_app._get_current_object()  # type: ignore[attr-defined]
    for found in all_stores():
        found.of(app).clear()


@click.command("stores")
@click.option("--clear", is_flag=True, help="Empty every store of this process first.")
@with_appcontext
def stores_command(clear: bool) -> None:
    """What each in-memory store of this process holds against its bound."""
    if clear:
        clear_all()
    for row in listing():
        click.echo(f"{row['name']:<24} {row['scope']:<8} {row['entries']:>7} / {row['max_entries']}")
