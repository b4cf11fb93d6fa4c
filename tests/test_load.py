"""The process's load and the poll contract it asks of followers (scorekeeper/load.py, issue 28)."""

from __future__ import annotations

import math
import random
import threading

from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.load import Load, PollPolicy


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def full(load: Load, requests: int) -> None:
    """``requests`` requests in a row that each find every other thread busy."""
    for _ in range(requests):
        load.enter()
        load._in_flight = load.threads - 1  # the others stay in flight: a queue behind them


def test_a_poll_is_refused_only_when_every_other_thread_is_busy_and_has_been():
    load = Load(4)
    full(load, 1)
    # A passing burst: the process is full for this one request only.
    assert not load.should_shed(3)
    full(load, 10)
    assert not load.should_shed(0) and not load.should_shed(2)
    assert load.should_shed(3)  # this poll holds the last free thread: keep it for a write
    # Calm again: a few requests that find free threads bring the fullness down.
    load._in_flight = 0
    for _ in range(10):
        load.enter()
        load.leave()
    assert not load.should_shed(3)


def test_a_one_thread_worker_never_refuses_but_still_paces():
    load = Load(1)
    assert not any(load.should_shed(n) for n in range(10))
    assert load.poll_after(5) == 3


def test_the_wait_grows_with_the_load_and_shrinks_while_the_game_changes():
    clock = Clock()
    load = Load(5, PollPolicy(base=3, changing=2, ceiling=15), clock=clock)
    assert load.poll_after(0) == 3
    assert load.poll_after(0, changed_ago=10) == 2  # a deal just came: the next comes soon
    assert load.poll_after(0, changed_ago=600) == 3
    assert load.poll_after(2) == 6  # half the other threads busy
    assert load.poll_after(3, changed_ago=1) == 12  # load wins over a changing game
    # A refusal raises the pace by a quarter; calm requests bring it back, half a second a step.
    full(load, 10)
    assert load.should_shed(4)
    assert load.poll_after(0) == 4  # 3 x 1.25
    load._in_flight = 0
    for _ in range(10):
        clock.now += 2
        load.enter()
        load.leave()
    assert load.pace == 3 and load.poll_after(0) == 3


def test_the_pace_follows_how_long_requests_wait_for_a_thread():
    clock = Clock()
    policy = PollPolicy(base=3, changing=2, ceiling=15)
    load = Load(4, policy, clock=clock)
    paces = []
    for _ in range(24):  # requests queue a second each: a step every 2 s, at most
        clock.now += 1
        load.enter(waited=1.0)
        load.leave()
        paces.append(load.poll_after(0, waited=1.0))
    assert paces[0] < paces[-1] == 15 and paces == sorted(paces)
    assert len(set(paces[:4])) <= 3  # one step per 2 s, not one per request
    # The server says how long requests wait: busy threads alone no longer slow the phones.
    assert load.poll_after(3, waited=1.0) == 15
    for _ in range(120):  # requests find a thread at once again
        clock.now += 1
        load.enter(waited=0.0)
        load.leave()
    assert load.pace == 3
    assert load.poll_after(3, waited=0.0) == 3  # every thread busy, yet no queue
    assert load.poll_after(0, changed_ago=5, waited=0.0) == 2


def test_polls_answered_after_waiting_without_a_thread_set_the_pace_too():
    """scorekeeper/serve/worker.py answers polls past its event loop's time in its next turns: how long
    they waited there moves the pace as a wait for a thread does, and calm answers bring it back."""
    clock = Clock()
    load = Load(2, PollPolicy(base=3, ceiling=15), clock=clock)
    for _ in range(20):
        clock.now += 0.5
        load.waited_for(1.0)
    assert load.pace > 3 * 1.25**3
    raised = load.pace
    for _ in range(200):
        clock.now += 0.5
        load.waited_for(0.0)
    assert load.pace == 3 < raised


def test_a_poll_that_waited_too_long_is_refused_whatever_the_threads_say():
    load = Load(4)
    assert load.should_shed(0, waited=2.5)
    assert not load.should_shed(3, waited=0.1)  # full threads, but nothing waits behind them
    assert not Load(1).should_shed(0, waited=1.0)


@given(st.lists(st.tuples(st.floats(0, 30), st.booleans(), st.floats(0, 5)), max_size=60))
def test_the_pace_stays_between_the_calm_figure_and_the_ceiling(steps):
    clock = Clock()
    policy = PollPolicy(base=3, changing=2, ceiling=15)
    load = Load(4, policy, clock=clock)
    for waited, refused, later in steps:
        clock.now += later
        others = load.enter(waited=waited)
        if refused:
            load.should_shed(others, waited=waited)
        load.leave()
        assert policy.base <= load.pace <= policy.ceiling
        assert policy.changing <= load.poll_after(others, 1.0, waited) <= policy.ceiling
        assert max(policy.base, load.pace) <= load.retry_after() <= policy.ceiling * 2
        asked = load.spread(load.poll_after(others, 1.0, waited))
        assert policy.changing <= asked <= policy.ceiling


@given(st.integers(1, 60), st.integers(1, 60), st.integers(0, 10**6))
def test_a_refused_poll_comes_back_no_sooner_than_the_pace_asks_and_not_much_later(base, ceiling, seed):
    """Sooner, a full server's refused phones asked more than it could refuse, and it stayed full;
    always 15-30 s, a crowd refused as it arrived saw its deals half a minute late (issue 58)."""
    policy = PollPolicy(base=base, changing=min(2, base), ceiling=max(base, ceiling))
    clock = Clock()
    load = Load(4, policy, clock=clock)
    for _ in range(40):  # the pace raised to the ceiling by refusals, one step per adjust_every
        wait = load.retry_after(random.Random(seed))
        assert (
            max(policy.base, load.pace) <= wait <= max(policy.ceiling, math.ceil(1.5 * math.ceil(load.pace)))
        )
        assert wait <= 2 * policy.ceiling
        load.should_shed(0, waited=policy.max_wait + 1)
        clock.now += policy.adjust_every


def test_requests_in_flight_are_counted_from_many_threads():
    load = Load(4)
    start = threading.Barrier(8)

    def work() -> None:
        start.wait()
        for _ in range(2000):
            load.enter()
            load.leave()

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert load.in_flight == 0


@given(st.integers(1, 10), st.integers(1, 60), st.integers(1, 60), st.integers(0, 10**6))
def test_a_slowed_pace_is_spread_and_a_calm_one_kept(base, ceiling, seconds, seed):
    policy = PollPolicy(base=base, changing=min(2, base), ceiling=max(base, ceiling))
    load = Load(4, policy)
    seconds = min(seconds, policy.ceiling)
    asked = load.spread(seconds, random.Random(seed))
    if seconds <= base:
        assert asked == seconds  # a calm server asks what it always did
    else:
        assert max(base, seconds * 0.8 - 1) <= asked <= min(policy.ceiling, seconds * 1.2 + 1)


def test_phones_slowed_together_drift_apart():
    load = Load(4, PollPolicy(base=3, changing=2, ceiling=15))
    rng = random.Random(5)
    assert len({load.spread(10, rng) for _ in range(200)}) >= 4


def test_a_poll_refused_before_it_queued_slows_the_followers_as_a_refusal_does():
    """scorekeeper/serve/worker.py refuses a poll in its event loop behind a backlog of polls: the pace
    rises a step, as when the app refuses one, and the wait asked is a refusal's."""
    clock = Clock()
    load = Load(threads=2, policy=PollPolicy(base=3, ceiling=15), clock=clock)
    asked = load.refused(random.Random(1))
    assert 3 * 1.25 <= asked <= 15, "between the pace (raised a step) and the ceiling"
    assert load.pace == 3 * 1.25
    load.refused(random.Random(2))  # within adjust_every: one step at a time
    assert load.pace == 3 * 1.25
