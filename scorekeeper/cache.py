"""The shared cache: what a game's version determines is computed once and kept.

Flask-Caching, in-process (:class:`LocalCache`) by default, or Redis when
``CACHE_REDIS_URL`` is set (config or environment), so every worker and every
machine shares it. Keys name the game's id and version: a write bumps the
version, so nothing is ever invalidated by hand; old entries simply expire.

The key prefix carries a hash of the code and templates (a release never
reads what an older one rendered) and of the database URL (two sites sharing
one Redis never read each other's games). A cache that fails (Redis down) is
a miss: the page is computed as if there were no cache.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import pickle
import time
import zlib
from collections.abc import Callable, Sequence
from datetime import timedelta
from functools import cache as once
from pathlib import Path
from typing import Any, TypeVar, cast

from flask import Flask, current_app, g, has_app_context
from flask_caching import Cache
from flask_caching.backends.base import BaseCache
from markupsafe import Markup

from . import stores
from .lru import LocalLRU
from .paths import PACKAGE, ROOT
from .rules import GameResult

T = TypeVar("T")
LOCAL = f"{__name__}.LocalCache"
log = logging.getLogger(__name__)

cache = Cache(with_jinja2_ext=False)
# An entry lives a day at most: a game's version changes far more often than that when it is played.
TIMEOUT = 24 * 3600
_MISSING = object()


class LocalCache(BaseCache):
    """Flask-Caching's in-process cache, the least recently used entry out first.

    cachelib's SimpleCache, once full, scans every entry on each set and sorts them all to drop
    the oldest: with a crowd's thousands of games, that was a tenth of a worker's time. Here a
    set costs the same however full. Strings are kept as they are (nobody can change them);
    anything else is pickled, as SimpleCache did, so no reader changes another's copy.
    """

    def __init__(self, threshold: int = 1000, default_timeout: int = 300) -> None:
        super().__init__(default_timeout=default_timeout)
        self._entries: LocalLRU[str, tuple[float, bool, Any]] = LocalLRU(max(1, threshold))

    @classmethod
    def factory(cls, app, config, args, kwargs):
        return cls(int(config.get("CACHE_THRESHOLD", 1000)), int(kwargs.get("default_timeout", 300)))

    def _entry(self, key: str) -> tuple[float, bool, Any] | None:
        entry = self._entries.get(key)
        if entry is not None and entry[0] and entry[0] <= time.time():
            self._entries.pop(key)  # expired
            return None
        return entry

    def get(self, key: str) -> Any:
        entry = self._entry(key)
        if entry is None:
            return None
        _expires, pickled, value = entry
        return pickle.loads(value) if pickled else value

    def set(self, key: str, value: Any, timeout: int | timedelta | None = None) -> bool:
        timeout = self._normalize_timeout(timeout)
        expires = time.time() + timeout if timeout else 0.0
        pickled = not isinstance(value, (str, bytes))
        self._entries.put(key, (expires, pickled, pickle.dumps(value) if pickled else value))
        return True

    def add(self, key: str, value: Any, timeout: int | timedelta | None = None) -> bool:
        if self.has(key):
            return False
        return self.set(key, value, timeout)

    def delete(self, key: str) -> bool:
        return self._entries.pop(key) is not None

    def has(self, key: str) -> bool:
        return self._entry(key) is not None

    def clear(self) -> bool:
        self._entries.clear()
        return True


def request_memo(name: str) -> dict[Any, Any]:
    """This request's memo called ``name`` (on ``flask.g``): what the request computed, once.

    The innermost of the caches (a result or view scored once per request, whatever asks for it
    again); outside an app context, a fresh dict that keeps nothing."""
    if not has_app_context():
        return {}
    memo = g.get(name)
    if memo is None:
        memo = {}
        setattr(g, name, memo)
    return memo


# Not a registered store: one constant per process, bounded by nature.
@once
def code_hash() -> str:
    """A short hash of the package's code and the templates: what a cached view or region was made by."""
    digest = hashlib.sha256()
    # The templates as the factory's site_folder finds them (in a wheel: inside the package); named
    # here from the package's place, not imported from the factory that this module serves.
    templates = PACKAGE / "templates"
    roots = [PACKAGE, templates if templates.is_dir() else ROOT / "templates"]
    for root in roots:
        for path in sorted(root.rglob("*")):
            if path.suffix in (".py", ".html", ".po") and path.is_file():
                digest.update(str(path.relative_to(root)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:10]


def init_app(app: Flask) -> None:
    url = app.config.get("CACHE_REDIS_URL") or os.environ.get("CACHE_REDIS_URL") or ""
    database = hashlib.sha256(str(app.config["SQLALCHEMY_DATABASE_URI"]).encode()).hexdigest()[:8]
    config = {
        "CACHE_DEFAULT_TIMEOUT": TIMEOUT,
        "CACHE_KEY_PREFIX": app.config.get("CACHE_KEY_PREFIX") or f"sk:{code_hash()}:{database}:",
    }
    if url:
        config.update(CACHE_TYPE="RedisCache", CACHE_REDIS_URL=url)
    else:
        # Per process: enough entries for a club's evening of games (views, regions, QR codes).
        config.update(CACHE_TYPE=LOCAL, CACHE_THRESHOLD=app.config.get("CACHE_THRESHOLD", 1000))
    app.config.setdefault("CACHE_TYPE", config["CACHE_TYPE"])
    cache.init_app(app, config)
    app.jinja_env.globals["cached"] = cached_fragment
    app.jinja_env.globals["cached_row"] = row_fragment


def key(*parts: Any) -> str:
    return ":".join(str(p) for p in parts)


def get(name: str) -> Any:
    """The cached value, or ``_MISSING`` (also when the cache fails)."""
    if not has_app_context() or "cache" not in current_app.extensions:
        return _MISSING
    try:
        value = cache.get(name)
    except Exception:  # a cache that fails must never fail the page
        log.warning("cache get failed", exc_info=True)
        return _MISSING
    return _MISSING if value is None else value


def put(name: str, value: Any) -> None:
    if not has_app_context() or "cache" not in current_app.extensions:
        return
    try:
        cache.set(name, value)
    except Exception:
        log.warning("cache set failed", exc_info=True)


def remember(name: str, compute: Callable[[], T], objects: bool = False) -> T:
    """``compute()`` once per ``name``, shared by every request (and worker, with Redis).

    ``objects``: the value is a big frozen object (a scored game, a view): this process
    also keeps it as it is, so a request reuses it without unpickling it again.
    """
    local = _local() if objects else None
    if local is not None:
        found = local.get(name, _MISSING)
        if found is not _MISSING:
            # Kept under ``name`` from compute() or the shared cache: a T, but a LocalLRU
            # of every kind of value cannot say so.
            return cast(T, found)
    value = get(name)
    if value is _MISSING:
        value = compute()
        if local is not None:
            keep(name, value)  # pickled for the shared cache only: this process keeps it as it is
            return value
        put(name, value)
    if local is not None:
        _keep_local(name, value)
    return value


def keep(name: str, value: Any) -> None:
    """``put``, and keep ``value`` as it is in this process too (``remember(..., objects=True)`` finds it).

    With the in-process cache there is nobody else to share with: the object kept here is
    enough, and pickling it (a long game's whole result) would be the write's dearest step.
    """
    if has_app_context() and current_app.config.get("CACHE_TYPE") != LOCAL:
        put(name, value)
    _keep_local(name, value)


def _keep_local(name: str, value: Any) -> None:
    local = _local()
    if local is not None:
        local.put(name, value)


# Objects kept as they are in each process, most recently used last: a few dozen games' views.
LOCAL_SIZE = 256
OBJECTS = stores.store("objects", LOCAL_SIZE, doc="scored results and views kept as objects")
# Per game, its board's drawn rows (compressed): a game's rows are a plain dict inside.
ROWS = stores.store("rows", "LOCAL_GAMES", doc="drawn board rows per game")


def _local() -> LocalLRU | None:
    if not has_app_context():
        return None
    # Per app: each app (a test's) has its own database, and so its own games.
    return OBJECTS()


def cached_fragment(*parts: Any, caller: Callable[[], str]) -> Markup:
    """``{% call cached("board", game.id, game.version, ...) %}…{% endcall %}``: the block's HTML, rendered once per key.

    The key must name everything the block shows besides the game's facts (the version stands for those).
    """
    return Markup(remember(key("html", *parts), lambda: str(caller())))


def row_fragment(
    game_id: str, players: Sequence[str], result: Any, deal: Any, *parts: Any, caller: Callable[[], str]
) -> Markup:
    """``{% call cached_row(game.id, game.players, result, deal, ...) %}…{% endcall %}``: a board row.

    Drawn once per process while the setup and the facts up to this deal are the same (the rules
    are pure: this deal, and the one before it that a row may show something of, such as Spades'
    bags held, score as they did), and so are the players and the sides. A board after one more
    deal draws one row, not all of them; a corrected deal changes its row and every later one's,
    so those are drawn again. ``parts``: what else the row is drawn by (language, role).
    """
    # A game's rows: a plain dict, whose single gets and sets are atomic; the LRU around it is locked.
    rows = ROWS().setdefault(game_id, dict)
    slot = (deal.index, *parts)
    keys = deal_keys(result, players)
    # Kept by digest, not by the scored deals themselves: thousands of games' deals kept as objects
    # were a million objects for the garbage collector to scan (see scoring._keep_latest). A pair
    # of bytes is no object it scans (a Markup is, as a tuple holding a tuple can stay).
    drawn_by = keys[deal.index] if deal.index < len(keys) else None
    kept = rows.get(slot)
    if kept is not None and kept[0] == drawn_by:
        return Markup(zlib.decompress(kept[1]).decode())
    html = str(caller())
    if drawn_by is not None:
        # Compressed (zlib's fastest level): a Spades row is 2 KB of HTML and under 0.5 KB so, for
        # about 15 us to keep and 2 us to read. A quarter of the memory lets a worker keep the rows
        # of a crowd of 10,000 tables (LOCAL_GAMES): with fewer kept, every deal's drawing drew its
        # whole board again (5.5 ms instead of 3 in-process; benchmarks/edge.py --tables 10000).
        rows[slot] = (drawn_by, zlib.compress(html.encode(), 1))
    return Markup(html)


def deal_keys(result: Any, players: Sequence[str]) -> tuple[bytes, ...]:
    """Per deal of ``result``, a digest of the players, the sides, the setup and every deal's facts
    up to it: what the rules score that deal (and the ones before it) from, and what else its row
    shows. Once per result and request.

    A result the read side changed after the rules scored it (a redacted one: its figures depend
    on more than the facts, and become whole at the game's end) is digested by what its deals
    show instead: every field but the rules' state."""
    memo = request_memo("deal_keys")
    names = tuple(players)
    found = memo.get((id(result), names))
    if found is not None and found[0] is result:
        return found[1]
    scored = type(result) is GameResult
    chain = hashlib.blake2b(repr((scored, names, result.sides, result.setup)).encode(), digest_size=16)
    digests = []
    for deal in result.deals:
        shown = json.dumps(deal.facts, sort_keys=True, default=repr) if scored else repr(deal)
        chain.update(shown.encode())
        digests.append(chain.digest())
    keys = tuple(digests)
    memo[id(result), names] = (result, keys)  # the result kept with its keys: its id is not reused
    return keys


def games_kept() -> int:
    """How many games this process keeps drawn rows and latest results of (``LOCAL_GAMES``)."""
    return max(1, int(current_app.config["LOCAL_GAMES"]))  # settings.defaults gives it


def instance_file(*parts: str) -> Path:
    return Path(current_app.instance_path, *parts)
