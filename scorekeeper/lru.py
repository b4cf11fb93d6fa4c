"""One process-local cache: a bounded, least-recently-used map that threads may share.

Under gunicorn's threads two requests may touch one map at once: a bare ``OrderedDict``
asked ``if k in d: d.move_to_end(k)`` can lose ``k`` to another thread's eviction between
the two steps (a ``KeyError``, a 500). Every read-modify here runs under one lock, and a
miss is answered by a default, never by an exception. Pure Python: no Flask, so the rules'
neighbours and the tests can use it as they are.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")
_MISSING: object = object()


class LocalLRU(Generic[K, V]):
    """At most ``size`` entries; the least recently read or written goes first."""

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError("a LocalLRU keeps at least one entry")
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K, default: V | None = None) -> V | None:
        with self._lock:
            value = self._items.get(key, _MISSING)
            if value is _MISSING:
                return default
            self._items.move_to_end(key)
            return value  # type: ignore[return-value]

    def put(self, key: K, value: V) -> None:
        with self._lock:
            if key not in self._items:
                self._make_room()
            self._items[key] = value
            self._items.move_to_end(key)

    def _make_room(self) -> None:
        # Evict before a new entry goes in, never after: a len() read without the lock (by a test
        # or a log line) never sees size + 1 entries.
        while len(self._items) >= self.size:
            self._items.popitem(last=False)

    __setitem__ = put

    def setdefault(self, key: K, make: Callable[[], V]) -> V:
        """The entry for ``key``, made by ``make()`` (under the lock, so keep it cheap) when missing."""
        with self._lock:
            value = self._items.get(key, _MISSING)
            if value is _MISSING:
                made = make()
                self._make_room()
                value = self._items[key] = made
            self._items.move_to_end(key)
            return value  # type: ignore[return-value]

    def pop(self, key: K, default: V | None = None) -> V | None:
        with self._lock:
            return self._items.pop(key, default)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, key: object) -> bool:
        # An answer for tests and logs only: between this and a get, another thread may evict.
        return key in self._items
