"""The connections a worker keeps waiting (kept alive, or for their first bytes), as gunicorn's
gthread worker asks of its deques, with a removal that takes the same time however many wait."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator
from typing import Any


class Connections:
    """gunicorn's deque of connections waiting (kept alive, or for their first bytes), oldest first,
    whose ``remove`` takes the same time however many wait: the deque's scans every connection
    before the one removed, and each poll on a kept-alive connection removes it (with 6,000
    phones on a worker, about a quarter of a millisecond a poll). The connections go in with their
    deadlines in order (now plus the same time), so the oldest is the first to expire, as in the
    deque. What gunicorn asks of it: append, remove, popleft, [0], len, truth and iteration."""

    __slots__ = ("_conns",)

    def __init__(self) -> None:
        self._conns: OrderedDict[Any, None] = OrderedDict()

    def append(self, conn: Any) -> None:
        self._conns.pop(conn, None)
        self._conns[conn] = None

    def remove(self, conn: Any) -> None:
        try:
            del self._conns[conn]
        except KeyError:
            raise ValueError("connection not waiting") from None  # as deque.remove says it

    def popleft(self) -> Any:
        try:
            return self._conns.popitem(last=False)[0]
        except KeyError:
            raise IndexError("no connection waiting") from None

    def __getitem__(self, index: int) -> Any:
        if index != 0 or not self._conns:
            raise IndexError(index)
        return next(iter(self._conns))

    def __len__(self) -> int:
        return len(self._conns)

    def __iter__(self) -> Iterator[Any]:
        return iter(list(self._conns))  # a copy: gunicorn may close (remove) while it goes through them
