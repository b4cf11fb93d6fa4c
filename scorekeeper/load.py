"""How busy this process is, and what it asks of the phones that follow games (issue 28).

Pure: no Flask, no database. One :class:`Load` per process counts the requests in flight. The
WSGI layer (:mod:`scorekeeper.web.shed`) asks it two things:

- whether a viewer's poll should be refused (``503`` with ``Retry-After``) before any database
  work: when every other thread of this process is busy, and has mostly been for the last few
  requests (a queue, not a passing burst), a poll would take the thread a scorer's deal needs next. A worker of one thread never refuses (it has no other thread to
  keep free); there, ``Retry-After`` and ``X-Poll-After`` still spread the polls;
- how long a follower should wait before its next poll (``X-Poll-After``): the configured
  seconds when the process is calm, a little less while the game is changing, up to the
  ceiling when busy or after a refusal, so the load that would sink the box stops coming.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class PollPolicy:
    """The figures of the poll contract (docs/live-updates.md), all in whole seconds."""

    base: int = 3  # a calm server: every 3 s, as before
    changing: int = 2  # the game changed in the last ``recent`` seconds: the next deal comes soon
    ceiling: int = 15  # the longest wait asked of a follower
    recent: int = 60
    # After a refusal, every follower of this process is asked to wait longer for this long.
    cool_down: float = 10.0
    # How much one request's view of the process moves its smoothed fullness (1: no smoothing).
    # A poll is refused only while the process has been mostly full, not at a passing burst:
    # with 0.1, about seven requests in a row finding it full (a queue), never one alone.
    smoothing: float = 0.1


class Load:
    """This process's requests in flight (all threads), and its recent refusals."""

    def __init__(
        self, threads: int, policy: PollPolicy | None = None, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.threads = max(1, threads)
        self.policy = policy or PollPolicy()
        self._clock = clock
        self._lock = threading.Lock()
        self._in_flight = 0
        self._full = 0.0  # smoothed: how often a request lately found every other thread busy
        self._shed_at = float("-inf")

    @property
    def in_flight(self) -> int:
        return self._in_flight

    def enter(self) -> int:
        """A request begins; returns how many others are in flight beside it."""
        with self._lock:
            others = self._in_flight
            self._in_flight += 1
            if self.threads >= 2:
                full = 1.0 if others >= self.threads - 1 else 0.0
                self._full += self.policy.smoothing * (full - self._full)
            return others

    def leave(self) -> None:
        with self._lock:
            self._in_flight = max(0, self._in_flight - 1)

    def should_shed(self, others: int) -> bool:
        """Whether a poll that found ``others`` requests in flight is refused: every other thread
        is busy, and has mostly been lately (a one-thread worker never refuses)."""
        if self.threads < 2 or others < self.threads - 1 or self._full < 0.5:
            return False
        with self._lock:
            self._shed_at = self._clock()
        return True

    def busy(self, others: int) -> float:
        """0 (idle) to 1 (every other thread busy)."""
        if self.threads < 2:
            return 0.0
        return min(1.0, others / (self.threads - 1))

    def cooling(self) -> bool:
        """Whether this process refused a poll in the last ``cool_down`` seconds."""
        return self._clock() - self._shed_at < self.policy.cool_down

    def poll_after(self, others: int, changed_ago: float | None = None) -> int:
        """The seconds a follower waits before its next poll."""
        p = self.policy
        if self.cooling():
            return p.ceiling
        busy = self.busy(others)
        if busy >= 0.75:
            return min(p.ceiling, p.base * 4)
        if busy >= 0.5:
            return min(p.ceiling, p.base * 2)
        if changed_ago is not None and 0 <= changed_ago < p.recent:
            return min(p.base, p.changing)
        return p.base

    def retry_after(self, rng: random.Random | None = None) -> int:
        """The wait a refused poll is asked for: spread between half the ceiling and the ceiling,
        so refused phones do not come back all in the same second."""
        p = self.policy
        low = max(p.base, p.ceiling // 2)
        return (rng or random).randint(low, p.ceiling)
