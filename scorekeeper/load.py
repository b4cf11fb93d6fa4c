"""How busy this process is, and what it asks of the phones that follow games (issue 28).

Pure: no Flask, no database. One :class:`Load` per process. The WSGI layer
(:mod:`scorekeeper.web.live.shed`) asks it two things:

- whether a viewer's poll is refused (``503`` with ``Retry-After``) before any database work.
  Under ``scorekeeper serve`` the worker (:mod:`scorekeeper.serve.worker`) serves writes before polls
  and says how long each request waited for a thread: a poll that waited longer than
  ``max_wait`` is refused (the phone would rather hear "later" now than time out). Under
  another server, which cannot say, a poll is refused when every other thread of this process
  is busy and has mostly been lately (a queue, not a passing burst). A worker of one thread
  never refuses on that second rule (it has no other thread to keep free);
- how long a follower waits before its next poll (``X-Poll-After``): the pace. It is the
  configured seconds while requests find a thread at once; it grows by a quarter, at most every
  ``adjust_every`` seconds, while they queue (or a poll was refused), and comes back down half a
  second at a time once they no longer do. The phones follow it, so the polls a box answers
  settle near what it can serve, and a deal is seen as soon as that allows. A calm server asks
  a little less of a game that is changing (the next deal comes soon).
"""

from __future__ import annotations

import math
import random
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class PollPolicy:
    """The figures of the poll contract (docs/live-updates.md): waits asked in whole seconds."""

    base: int = 3  # a calm server: every 3 s, as before
    changing: int = 2  # the game changed in the last ``recent`` seconds: the next deal comes soon
    ceiling: int = 15  # the longest wait asked of a follower
    recent: int = 60
    # A poll that waited longer than this for a thread is refused: answered "later", not late.
    max_wait: float = 2.0
    # The pace: raised while requests wait more than ``wait_high`` for a thread (smoothed), lowered
    # once they wait less than ``wait_low``; one step per ``adjust_every`` seconds at most.
    wait_high: float = 0.2
    wait_low: float = 0.05
    adjust_every: float = 2.0
    # How much one request's view of the process moves its smoothed figures (1: no smoothing).
    # With 0.1 about seven requests in a row finding it full (a queue) count, never one alone.
    smoothing: float = 0.1


# What a follower polls: a game's followed regions (a seat's console's too), and an event's board,
# a player's page and a member's "where I sit" (htmx asks for them).
GAME_POLL = re.compile(r"/g/[A-Za-z0-9_-]{1,32}(?:/p/\d{1,4}/[A-Za-z0-9_-]{1,64})?/live")
BOARD_POLL = re.compile(r"/e/[A-Za-z0-9_-]{1,32}/(?:board|me|p/\d{1,5}/[A-Za-z0-9_-]{1,64})")


def follower_poll(method: str, path: str, htmx: bool) -> bool:
    """Whether a request is a follower's poll: the only kind ever refused, or served after others."""
    if method != "GET":
        return False
    return bool(GAME_POLL.fullmatch(path)) or (htmx and bool(BOARD_POLL.fullmatch(path)))


# What a thread serving a request knows of its wait, set by the worker before each request
# (scorekeeper.serve.worker.PriorityPool); None under a server that does not say.
_request = threading.local()


def set_waited(seconds: float | None) -> None:
    _request.waited = seconds


def waited() -> float | None:
    """The seconds the request on this thread waited for it, if the server said."""
    return getattr(_request, "waited", None)


def retry_ceiling(ceiling: int) -> int:
    """The longest wait a refused poll is asked for: twice the poll ceiling."""
    return 2 * ceiling


class Load:
    """This process's requests in flight (all threads), how long they wait, and the pace it asks."""

    def __init__(
        self, threads: int, policy: PollPolicy | None = None, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.threads = max(1, threads)
        self.policy = policy or PollPolicy()
        self._clock = clock
        self._lock = threading.Lock()
        self._in_flight = 0
        self._full = 0.0  # smoothed: how often a request lately found every other thread busy
        self._wait = 0.0  # smoothed: the seconds a request lately waited for a thread
        self._pace = float(self.policy.base)
        self._adjusted = float("-inf")

    @property
    def in_flight(self) -> int:
        return self._in_flight

    @property
    def pace(self) -> float:
        return self._pace

    def enter(self, waited: float | None = None) -> int:
        """A request begins (after ``waited`` seconds for a thread, if known); returns how many
        others are in flight beside it."""
        p = self.policy
        with self._lock:
            others = self._in_flight
            self._in_flight += 1
            if self.threads >= 2:
                full = 1.0 if others >= self.threads - 1 else 0.0
                self._full += p.smoothing * (full - self._full)
            if waited is not None:
                self._heard(waited)
            elif self._full < 0.25:  # a server that does not say: free threads mean no queue
                self._adjust(up=False)
            return others

    def waited_for(self, waited: float) -> None:
        """A poll answered without a thread after waiting ``waited`` seconds for its turn
        (scorekeeper/serve/worker.py: the event loop's polls past its time wait there for the next turns):
        counted in the waits that set the pace, as a poll that waited for a thread is."""
        with self._lock:
            self._heard(waited)

    def _heard(self, waited: float) -> None:
        """One request's wait in the smoothed figure, and the pace stepped by it (the lock is held)."""
        p = self.policy
        self._wait += p.smoothing * (waited - self._wait)
        if self._wait > p.wait_high:
            self._adjust(up=True)
        elif self._wait < p.wait_low:
            self._adjust(up=False)

    def leave(self) -> None:
        with self._lock:
            self._in_flight = max(0, self._in_flight - 1)

    def _adjust(self, up: bool) -> None:
        """One step of the pace, at most one per ``adjust_every`` seconds (the lock is held):
        the phones take a poll or two to follow, and the next step should see their answer."""
        p = self.policy
        now = self._clock()
        if now - self._adjusted < p.adjust_every:
            return
        before = self._pace
        self._pace = min(float(p.ceiling), self._pace * 1.25) if up else max(float(p.base), self._pace - 0.5)
        if self._pace != before:
            self._adjusted = now

    def should_shed(self, others: int, waited: float | None = None) -> bool:
        """Whether a poll is refused: it waited longer than ``max_wait`` for a thread; or, where the
        server does not say how long, every other thread is busy and has mostly been lately."""
        if waited is not None:
            refuse = waited > self.policy.max_wait
        else:
            refuse = self.threads >= 2 and others >= self.threads - 1 and self._full >= 0.5
        if refuse:
            with self._lock:
                self._adjust(up=True)  # a refusal: the followers are asked to come less often
        return refuse

    def refused(self, rng: random.Random | None = None) -> int:
        """A poll refused before it queued for a thread (scorekeeper/serve/worker.py: the polls queued
        before it wait longer than ``max_wait`` already): the followers are asked to come less
        often, as for a refusal in :meth:`should_shed`; returns the wait asked of this one."""
        with self._lock:
            self._adjust(up=True)
        return self.retry_after(rng)

    def busy(self, others: int) -> float:
        """0 (idle) to 1 (every other thread busy)."""
        if self.threads < 2:
            return 0.0
        return min(1.0, others / (self.threads - 1))

    def poll_after(self, others: int, changed_ago: float | None = None, waited: float | None = None) -> int:
        """The seconds a follower waits before its next poll."""
        p = self.policy
        pace = self._pace
        if waited is None:
            # A server that does not say how long requests wait: this process's threads say it.
            busy = self.busy(others)
            if busy >= 0.75:
                pace = max(pace, min(p.ceiling, p.base * 4))
            elif busy >= 0.5:
                pace = max(pace, min(p.ceiling, p.base * 2))
        if pace <= p.base and changed_ago is not None and 0 <= changed_ago < p.recent:
            return min(p.base, p.changing)
        return min(p.ceiling, round(pace))

    def spread(self, seconds: int, rng: random.Random | None = None) -> int:
        """A slowed pace spread a fifth either side (within the calm figure and the ceiling).

        Phones slowed together (a crowd refused at once, a server restarted under it) would
        otherwise keep asking together, in waves the server refuses again. The calm pace is
        asked as it is."""
        p = self.policy
        if seconds <= p.base:
            return seconds
        low = max(p.base, math.floor(seconds * 0.8))
        high = min(p.ceiling, math.ceil(seconds * 1.2))
        return (rng or random).randint(low, max(low, high))

    def retry_after(self, rng: random.Random | None = None) -> int:
        """The wait a refused poll is asked for: spread between the pace and the ceiling (from the
        pace to half as much again, once the pace is near the ceiling).

        Never sooner than the pace an answered phone is asked (with refused phones back sooner, a
        full server was asked more by its refused phones than it could refuse, and stayed full:
        benchmarks/run.py --sweep at 3,000 tables), but not beyond it either: asked for the ceiling
        to twice the ceiling (15 to 30 s) whatever the pace, a crowd of phones refused in a burst
        as it arrived saw its deals 25-33 s late (median; issue 58). Spread widely, so refused
        phones do not come back together (a wave that is refused again)."""
        p = self.policy
        low = max(p.base, math.ceil(self._pace))
        high = max(p.ceiling, math.ceil(low * 1.5))
        return (rng or random).randint(low, max(low, high))
