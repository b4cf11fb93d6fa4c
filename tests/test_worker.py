"""``scorekeeper serve``'s worker (scorekeeper/serve/worker.py, issue 28): writes before polls, and how
long each request waited for a thread, told to the app."""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import socket
import struct
import threading
import time
import urllib.request
from collections import deque
from collections.abc import Collection
from functools import partial

import pytest
from gunicorn.workers.gthread import ThreadWorker

from scorekeeper.load import waited
from scorekeeper.serve import worker as worker_module
from scorekeeper.serve.worker import FIRST, POLL, PriorityPool, WritesFirstWorker, priority
from tests.test_serve import free_port, start_serve, wait_healthy


def head(line: str, *headers: str) -> bytes:
    return ("\r\n".join([line, "Host: x", *headers]) + "\r\n\r\n").encode()


@pytest.mark.parametrize(
    ("request_head", "expected"),
    [
        (head("GET /g/abc/live?part=live&lang=en HTTP/1.1", "HX-Request: true"), POLL),
        (head("GET /g/abc/live?part=board HTTP/1.1"), POLL),
        (head("GET /g/abc/p/2/tok3n/live?at=4 HTTP/1.1", "hx-request: true"), POLL),
        (head("GET /e/ev1/board HTTP/1.1", "HX-Request: true"), POLL),
        # The board's page opened without htmx is a page, not a poll.
        (head("GET /e/ev1/board HTTP/1.1"), FIRST),
        (head("POST /api/games/abc/deals HTTP/1.1", "Content-Length: 2"), FIRST),
        (head("POST /g/abc/live HTTP/1.1"), FIRST),
        (head("GET /g/abc HTTP/1.1"), FIRST),
        (head("GET /api/games/abc HTTP/1.1"), FIRST),
        (b"GET /g/abc/li", FIRST),  # not a whole request line yet
        (b"", FIRST),  # nothing arrived yet
        (b"\x16\x03\x01\x02\x00", FIRST),  # TLS: nothing to read
    ],
)
def test_a_request_is_placed_by_its_first_bytes(request_head, expected):
    assert priority(request_head) == expected


def test_the_pool_serves_writes_before_polls_and_says_how_long_each_waited():
    pool = PriorityPool(1)
    gate = threading.Event()
    done: list[tuple[str, float | None]] = []
    try:
        holder = pool.submit(gate.wait)
        time.sleep(0.05)  # the one thread is held: what follows queues
        futures = [
            pool.submit(lambda name=name: done.append((name, waited())), priority=kind)
            for name, kind in (("poll 1", POLL), ("deal 1", FIRST), ("poll 2", POLL), ("deal 2", FIRST))
        ]
        time.sleep(0.2)
        gate.set()
        for future in (holder, *futures):
            future.result(timeout=5)
    finally:
        pool.shutdown()
    assert [name for name, _ in done] == ["deal 1", "deal 2", "poll 1", "poll 2"]
    # Each task heard how long it queued (the thread was held for 0.2 s), and no more than that.
    assert all(seconds is not None and 0.15 < seconds < 5 for _, seconds in done)
    assert waited() is None  # only the pool's threads are told


class TurnPool:
    """What the loop asks of the pool: whether a write waits or is served."""

    def __init__(self, backlog: bool = False, expired: list | None = None) -> None:
        self.writing = False
        self.backlog = backlog
        self.stale = expired or []

    def backlogged(self, longest: float) -> bool:
        return self.backlog

    def expired(self, longest: float) -> list:
        taken, self.stale = self.stale, []
        return [(conn, conn) for conn in taken]


def one_turn(
    monkeypatch,
    heads: list[bytes],
    answered_in_loop: float = 0.0,
    backlog: bool = False,
    expired: list[bytes] | None = None,
    earned: float | None = None,
    chunk: int = 1,
    unkept: Collection[bytes] = (),
):
    """One turn of the worker's event loop finding ``heads`` readable at once, in that order
    (``expired``: the polls the pool says waited too long): what it queued for a thread and what it
    answered itself, in order, then the polls left waiting in the loop for its next turns.
    ``earned``: the seconds of answering the loop has earned while writes go on (none for a worker
    that just started). ``unkept``: the polls without a kept answer (their games to draw). ``chunk``: the polls answered at a time
    (``answered_in_loop`` seconds each)."""
    done: list[tuple[str, bytes]] = []
    worker = WritesFirstWorker.__new__(WritesFirstWorker)
    worker.tpool = TurnPool(backlog, expired)
    worker.waiting = deque()
    worker.alive = True
    if earned is not None:
        worker._loop_earned = (time.monotonic(), earned)

    def dispatch(self, timeout):  # gunicorn's turn: each readable socket's callback, in order
        for conn in heads:
            self.enqueue_req(conn)

    def queue_for_thread(conn, kind, head=None):
        done.append(("thread", conn))
        if kind == FIRST:
            worker.tpool.writing = True

    def kept_answers(polls):
        time.sleep(answered_in_loop * len(polls))
        return [None if conn in unkept else ("kept", conn) for conn, _head in polls]

    def send_found(conn, found):
        done.append(("loop", conn))

    monkeypatch.setattr(ThreadWorker, "wait_for_and_dispatch_events", dispatch)
    monkeypatch.setattr(worker, "peek", lambda conn: conn, raising=False)
    monkeypatch.setattr(worker, "queue_for_thread", queue_for_thread, raising=False)
    monkeypatch.setattr(worker, "kept_answers", kept_answers, raising=False)
    monkeypatch.setattr(worker, "send_found", send_found, raising=False)
    monkeypatch.setattr(worker_module, "LOOP_CHUNK", chunk)
    monkeypatch.setattr(
        worker, "refuse_here", lambda conn, head: done.append(("refused", conn)) or True, raising=False
    )
    worker.wait_for_and_dispatch_events(1.0)
    return done + [("waits", conn) for _at, conn, _head in worker.waiting]


POLLED = head("GET /g/abc/live?part=live&lang=en HTTP/1.1", "HX-Request: true")
DEAL = head("POST /api/games/abc/deals HTTP/1.1", "Content-Length: 2")


def test_a_deal_found_beside_polls_is_queued_before_the_loop_answers_any(monkeypatch):
    """A turn hands out every readable socket at once: the loop answered hundreds of polls before
    it reached the deal behind them (a 6,000-table sweep: post p99 3.7-7.2 s). The deal is queued
    first; then the loop answers polls only within what it earned while writes went on."""
    polls = [POLLED.replace(b"abc", str(n).encode()) for n in range(3)]
    done = one_turn(monkeypatch, [polls[0], polls[1], DEAL, polls[2]])
    assert done[0] == ("thread", DEAL)
    assert done[1:] == [("waits", p) for p in polls], "nothing earned yet: they wait for the next turns"
    earned = one_turn(monkeypatch, [polls[0], polls[1], DEAL, polls[2]], earned=worker_module.LOOP_BUDGET)
    assert earned == [("thread", DEAL)] + [("loop", p) for p in polls]


def test_while_a_write_waits_the_loop_answers_polls_for_a_share_of_its_time(monkeypatch):
    """Not none: behind writes that never stop (10,000 tables behind nginx) the polls waited for a
    thread until nginx gave up on them, and no deal was ever seen. Not the calm turn's whole
    budget, nor a budget per turn: under a crowd a turn lasts milliseconds, and the deals waited
    (post p99 17.9 s with 10 ms a turn). The loop earns WRITING_SHARE of the time that passes."""
    polls = [POLLED.replace(b"abc", str(n).encode()) for n in range(3)]
    answer = worker_module.LOOP_BUDGET / 4
    share = worker_module.WRITING_SHARE
    monkeypatch.setattr(worker_module, "WRITING_SHARE", 0.0)  # only what was earned before: no clock
    done = one_turn(monkeypatch, [DEAL, *polls], answered_in_loop=answer, earned=answer / 2)
    assert done == [("thread", DEAL), ("loop", polls[0]), ("waits", polls[1]), ("waits", polls[2])]
    monkeypatch.setattr(worker_module, "WRITING_SHARE", share)
    # The same answers in a calm turn: the whole budget (the first two well within it).
    calm = one_turn(monkeypatch, polls, answered_in_loop=answer)
    assert calm[:2] == [("loop", polls[0]), ("loop", polls[1])]
    # Time passing earns the loop its share: after a second, a share of a second (up to the budget).
    worker = WritesFirstWorker.__new__(WritesFirstWorker)
    worker.tpool = TurnPool()
    worker.waiting = deque()
    worker.tpool.writing = True
    worker._loop_earned = (time.monotonic() - 1.0, 0.0)
    monkeypatch.setattr(ThreadWorker, "wait_for_and_dispatch_events", lambda self, timeout: None)
    monkeypatch.setattr(worker, "longest_wait", lambda: 2.0, raising=False)
    worker.wait_for_and_dispatch_events(1.0)
    expected = min(worker_module.LOOP_BUDGET, worker_module.WRITING_SHARE)
    assert worker._loop_earned[1] == pytest.approx(expected, abs=0.01)


def test_the_polls_queued_too_long_are_told_later_by_the_loop(monkeypatch):
    """A queued poll no thread took (writes kept them all) is taken back from the pool and refused
    in the loop; a poll that is not plain after all goes back to a thread to be read."""
    stale = [POLLED.replace(b"abc", b"old"), POLLED.replace(b"abc", b"odd")]
    done: list = []
    worker = WritesFirstWorker.__new__(WritesFirstWorker)
    worker.tpool = TurnPool(expired=stale)
    worker.waiting = deque()
    monkeypatch.setattr(ThreadWorker, "wait_for_and_dispatch_events", lambda self, timeout: None)
    monkeypatch.setattr(
        worker,
        "queue_for_thread",
        lambda conn, kind, head=None: done.append(("thread", conn, kind)),
        raising=False,
    )
    monkeypatch.setattr(
        worker,
        "refuse_here",
        lambda conn, head: b"odd" not in head and not done.append(("refused", conn)),
        raising=False,
    )
    worker.wait_for_and_dispatch_events(1.0)
    assert done == [("refused", stale[0]), ("thread", stale[1], FIRST)]


def test_behind_a_backlog_of_polls_the_loop_refuses_a_poll_it_cannot_answer(monkeypatch):
    """Polls queued for a thread already wait past what the app accepts: a poll the loop has no
    kept answer for (its game to draw), queued now, would be refused by a thread when its turn
    came; the loop refuses it at once instead. The deal queues; a kept answer is given."""
    polls = [POLLED.replace(b"abc", str(n).encode()) for n in range(2)]
    done = one_turn(monkeypatch, [polls[0], DEAL, polls[1]], backlog=True, unkept={polls[1]}, earned=1.0)
    assert done == [("thread", DEAL), ("loop", polls[0]), ("refused", polls[1])]


def test_the_loop_answers_a_calm_turns_polls_within_its_budget(monkeypatch):
    polls = [POLLED.replace(b"abc", str(n).encode()) for n in range(4)]
    assert one_turn(monkeypatch, polls) == [("loop", p) for p in polls]
    # Each answer slower than the turn's whole budget: one answered here, the rest in the next turns.
    slow = one_turn(monkeypatch, polls, answered_in_loop=worker_module.LOOP_BUDGET * 2)
    assert slow == [("loop", polls[0])] + [("waits", p) for p in polls[1:]]


def test_the_loop_answers_a_few_polls_at_a_time_and_owes_what_a_few_ran_past(monkeypatch):
    """A few polls at a time (their games' rows read in one query): the last few may run past the
    loop's time, and while writes go on, the next turns owe it (never more than a turn's budget)."""
    polls = [POLLED.replace(b"abc", str(n).encode()) for n in range(5)]
    answer = worker_module.LOOP_BUDGET / 4
    monkeypatch.setattr(worker_module, "WRITING_SHARE", 0.0)  # only what was earned before: no clock
    done = one_turn(monkeypatch, [DEAL, *polls], answered_in_loop=answer, earned=answer / 2, chunk=2)
    assert done == [("thread", DEAL), ("loop", polls[0]), ("loop", polls[1])] + [
        ("waits", p) for p in polls[2:]
    ]
    # Two answers' time spent on one's budget: the next turn owes one, and answers nothing.
    owing = one_turn(monkeypatch, [DEAL, *polls[:2]], answered_in_loop=answer, earned=-answer, chunk=2)
    assert owing == [("thread", DEAL), ("waits", polls[0]), ("waits", polls[1])]
    # What a turn may owe is bounded: a turn's budget.
    worker = WritesFirstWorker.__new__(WritesFirstWorker)
    worker.tpool = TurnPool()
    worker.waiting = deque()
    worker.alive = True
    worker.tpool.writing = True
    worker._loop_earned = (time.monotonic(), worker_module.LOOP_BUDGET / 2)
    monkeypatch.setattr(ThreadWorker, "wait_for_and_dispatch_events", dispatch_polls(polls))
    monkeypatch.setattr(worker, "peek", lambda conn: conn, raising=False)
    monkeypatch.setattr(worker, "longest_wait", lambda: 2.0, raising=False)
    monkeypatch.setattr(worker, "queue_for_thread", lambda conn, kind, head=None: None, raising=False)
    monkeypatch.setattr(worker, "send_found", lambda conn, found: None, raising=False)
    monkeypatch.setattr(
        worker,
        "kept_answers",
        lambda chunk: time.sleep(0.5) or [("kept", c) for c, _ in chunk],
        raising=False,
    )
    monkeypatch.setattr(worker_module, "LOOP_CHUNK", 5)
    worker.wait_for_and_dispatch_events(1.0)
    assert worker._loop_earned[1] == -worker_module.LOOP_BUDGET


def test_the_polls_past_the_loops_time_wait_there_and_are_answered_first_next_turn(monkeypatch):
    """A poll with a kept answer past the loop's time waited for a thread behind the writes, where
    it cost several times the loop's answer and held a thread a deal needed (a 3,000-table sweep:
    polls waited 1.5 s there in waves, and were refused). It waits in the loop instead: answered
    first in the next turns, which come soon, and how long it waited is told to the pace."""
    polls = [POLLED.replace(b"abc", str(n).encode()) for n in range(3)]
    done: list = []
    heard: list[float] = []
    timeouts: list = []
    worker = WritesFirstWorker.__new__(WritesFirstWorker)
    worker.tpool = TurnPool()
    worker.waiting = deque()
    worker.alive = True
    arriving = [[DEAL, polls[0], polls[1]], [polls[2]]]

    def dispatch(self, timeout):
        timeouts.append(timeout)
        for conn in arriving.pop(0):
            self.enqueue_req(conn)

    def queue_for_thread(conn, kind, head=None):
        done.append(("thread", conn))
        worker.tpool.writing = True

    monkeypatch.setattr(ThreadWorker, "wait_for_and_dispatch_events", dispatch)
    monkeypatch.setattr(worker, "peek", lambda conn: conn, raising=False)
    monkeypatch.setattr(worker, "longest_wait", lambda: 2.0, raising=False)
    monkeypatch.setattr(worker, "queue_for_thread", queue_for_thread, raising=False)
    monkeypatch.setattr(worker, "kept_answers", lambda chunk: [("kept", c) for c, _ in chunk], raising=False)
    monkeypatch.setattr(worker, "send_found", lambda conn, found: done.append(("loop", conn)), raising=False)
    monkeypatch.setattr(worker, "poll_waited", heard.append, raising=False)
    monkeypatch.setattr(worker_module, "WRITING_SHARE", 0.0)  # only what was earned before: no clock
    worker.wait_for_and_dispatch_events(1.0)  # the deal queues; nothing earned: both polls wait
    assert done == [("thread", DEAL)] and [c for _, c, _ in worker.waiting] == polls[:2]
    time.sleep(0.05)
    worker._loop_earned = (time.monotonic(), 1.0)
    worker.wait_for_and_dispatch_events(1.0)
    assert done[1:] == [("loop", polls[0]), ("loop", polls[1]), ("loop", polls[2])]
    assert not worker.waiting
    assert timeouts == [1.0, worker_module.WAITING_TURN], "polls waiting: the next turn comes soon"
    assert len(heard) == 2 and all(0.04 < seconds < 1 for seconds in heard), heard


@pytest.mark.parametrize("kept", [False, True])
def test_a_poll_that_waited_in_the_loop_too_long_is_answered_if_kept_else_told_later(monkeypatch, kept):
    """Once it waited 5 s (longer than a thread's 2 s: waiting here holds nothing), a poll is
    answered at once, past the loop's share, where its answer is kept: that costs what telling it
    "later" costs, and a phone told "later" stays away long (issue 58: bursts of thousands refused).
    Otherwise (a region to draw) it is told "later", as the app tells a poll that waited too long."""
    polls = [POLLED.replace(b"abc", str(n).encode()) for n in range(2)]
    done: list = []
    worker = WritesFirstWorker.__new__(WritesFirstWorker)
    worker.tpool = TurnPool()
    worker.tpool.writing = True
    worker.alive = True
    now = time.monotonic()
    most = worker_module.LOOP_LONGEST_WAIT
    worker.waiting = deque([(now - most - 0.5, polls[0], polls[0]), (now - 2.5, polls[1], polls[1])])
    worker._loop_earned = (now, 0.0)
    monkeypatch.setattr(worker_module, "WRITING_SHARE", 0.0)
    monkeypatch.setattr(ThreadWorker, "wait_for_and_dispatch_events", lambda self, timeout: None)
    monkeypatch.setattr(worker, "longest_wait", lambda: 2.0, raising=False)
    monkeypatch.setattr(
        worker, "refuse_here", lambda conn, head: done.append(("refused", conn)) or True, raising=False
    )
    monkeypatch.setattr(
        worker,
        "kept_answers",
        lambda asked: [("kept", c) if kept else None for c, _h in asked],
        raising=False,
    )
    monkeypatch.setattr(
        worker, "send_found", lambda conn, found: done.append(("answered", conn)), raising=False
    )
    monkeypatch.setattr(
        worker, "poll_waited", lambda seconds: done.append(("waited", round(seconds))), raising=False
    )
    worker.wait_for_and_dispatch_events(1.0)
    most = round(worker_module.LOOP_LONGEST_WAIT + 0.5)
    assert done == ([("waited", most), ("answered", polls[0])] if kept else [("refused", polls[0])])
    assert [c for _, c, _ in worker.waiting] == [polls[1]], "the other still waits its turn"


def dispatch_polls(heads):
    def dispatch(self, timeout):
        for conn in heads:
            self.enqueue_req(conn)

    return dispatch


def test_a_task_that_fails_carries_its_error_and_the_pool_goes_on():
    pool = PriorityPool(1)
    try:
        failed = pool.submit(lambda: 1 / 0)
        with pytest.raises(ZeroDivisionError):
            failed.result(timeout=5)
        assert pool.submit(lambda: 42).result(timeout=5) == 42
    finally:
        pool.shutdown()


def read_answer(sock: socket.socket) -> tuple[int, dict[str, str], float]:
    """A whole answer's status and headers, and when it arrived."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed before an answer")
        data += chunk
    at = time.monotonic()
    top, _, body = data.partition(b"\r\n\r\n")
    lines = top.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (x.partition(":") for x in lines[1:])}
    length = int(headers.get("content-length", "0"))
    while len(body) < length:
        body += sock.recv(65536)
    return int(lines[0].split()[1]), headers, at


@contextlib.contextmanager
def served_game(tmp_path):
    """A real ``scorekeeper serve`` (1 worker, two threads) and a new game on it: its port, the
    game's id and its key; the server stopped after."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SECRET_KEY", "AUTO_MIGRATE")}
    env["SCOREKEEPER_INSTANCE"] = str(tmp_path / "instance")
    log = (tmp_path / "serve.log").open("w+")
    server = start_serve(port, env, log, "--workers", "1")
    base = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(base, server)
        record = {"game": "secret_agent", "players": ["Ann", "Bob", "Cid", "Dee"], "options": {"deals": 52}}
        made = urllib.request.Request(
            f"{base}/api/games",
            data=json.dumps(record).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(made, timeout=10) as answer:
            game = json.load(answer)
        yield port, game["id"], game["edit_key"]
    finally:
        server.terminate()
        server.wait(timeout=30)


def following(port: int, game_id: str) -> tuple[socket.socket, str, bytes, str]:
    """A viewer following the game's live region: its connection, its poll, the poll asked with
    the region's ETag (answered 304 since the game is unchanged) and that ETag."""
    poll = head(f"GET /g/{game_id}/live?part=live&lang=en HTTP/1.1", "HX-Request: true").decode()
    follower = socket.create_connection(("127.0.0.1", port), timeout=30)
    follower.sendall(poll.encode())
    status, headers, _ = read_answer(follower)
    assert status == 200
    asked = poll.replace("\r\n\r\n", f"\r\nIf-None-Match: {headers['etag']}\r\n\r\n").encode()
    follower.sendall(asked)
    assert read_answer(follower)[0] == 304
    return follower, poll, asked, headers["etag"]


def test_a_busy_server_serves_the_deal_first_and_refuses_the_poll_that_waited(tmp_path):
    """A real ``scorekeeper serve`` (1 worker, 2 threads): both threads held by requests whose
    bodies have not arrived; meanwhile a follower's poll and a scorer's deal queue. When the threads
    free up, the deal is served first (201), and the poll, which waited longer than a poll may, is
    refused at once with 503 and Retry-After instead of being answered late."""
    with served_game(tmp_path) as (port, game_id, key):
        poll = head(f"GET /g/{game_id}/live?part=live&lang=en HTTP/1.1", "HX-Request: true").decode()
        follower = socket.create_connection(("127.0.0.1", port), timeout=30)
        follower.sendall(poll.encode())
        status, headers, _ = read_answer(follower)  # a calm server: answered, and paced
        assert status == 200 and headers["x-poll-after"] in {"2", "3"}
        etag = headers["etag"]

        body = json.dumps({"tricks": [4, 3, 3, 3], "agents": ["L", "O", "R", "S"]}).encode()
        deal = (
            head(
                f"POST /api/games/{game_id}/deals HTTP/1.1",
                f"Authorization: Bearer {key}",
                "Content-Type: application/json",
                f"Content-Length: {len(body)}",
            )
            + body
        )
        # Two requests whose bodies are late hold both threads.
        holders = []
        for _ in range(2):
            holder = socket.create_connection(("127.0.0.1", port), timeout=30)
            holder.sendall(deal[: -len(body)])
            holders.append(holder)
        time.sleep(0.5)
        # A poll whose answer must be drawn (a language from the phone's cookie: the view's, never
        # kept): it waits for a thread. (A kept answer is given by the event loop: the next test.)
        follower.sendall(
            poll.replace("&lang=en", "").replace("\r\n\r\n", f"\r\nX-Etag-Was: {etag}\r\n\r\n").encode()
        )
        time.sleep(0.3)
        scorer = socket.create_connection(("127.0.0.1", port), timeout=30)
        scorer.sendall(deal)
        time.sleep(2.5)  # the poll has now waited longer than a poll may (2 s)
        for holder in holders:
            holder.sendall(body)
        deal_status, _, deal_at = read_answer(scorer)
        poll_status, poll_headers, poll_at = read_answer(follower)
        for holder in holders:
            assert read_answer(holder)[0] == 201
            holder.close()
        scorer.close()
        follower.close()
    assert deal_status == 201
    # Asked back between the pace (raised a step by the refusal) and the ceiling (15 s).
    assert poll_status == 503 and 3 <= int(poll_headers["retry-after"]) <= 15
    assert poll_headers["x-poll-after"] == poll_headers["retry-after"]
    assert deal_at <= poll_at  # the deal, queued after the poll, was served before it


def test_a_kept_answer_is_given_while_every_thread_is_held(tmp_path):
    """Issue 40: a real ``scorekeeper serve`` (1 worker, 2 threads) with both threads held (by polls
    whose announced bodies never come: each thread waits for them). A poll of a game whose deal
    was drawn by its write (200, the new version), and of an unchanged game (304), are answered at
    once by the worker's event loop, without a thread."""
    with served_game(tmp_path) as (port, game_id, key):
        follower, poll, asked, first = following(port, game_id)  # its game's writes draw it now

        body = json.dumps({"tricks": [4, 3, 3, 3], "agents": ["L", "O", "R", "S"]}).encode()
        deal = (
            head(
                f"POST /api/games/{game_id}/deals HTTP/1.1",
                f"Authorization: Bearer {key}",
                "Content-Type: application/json",
                f"Content-Length: {len(body)}",
            )
            + body
        )
        scorer = socket.create_connection(("127.0.0.1", port), timeout=30)
        scorer.sendall(deal)
        assert read_answer(scorer)[0] == 201
        # The deal's drawing is done by a thread after it (before any poll queued meanwhile): the
        # poll that sees the new version is answered from it.
        for _ in range(50):
            follower.sendall(asked)
            status, headers, _ = read_answer(follower)
            if status == 200:
                break
            time.sleep(0.1)
        assert status == 200 and headers["etag"] != first
        holders = []
        for _ in range(2):
            holder = socket.create_connection(("127.0.0.1", port), timeout=30)
            # A poll with a body announced: its thread answers it, then waits for the body (5 s).
            holder.sendall(poll.replace("\r\n\r\n", "\r\nContent-Length: 9\r\n\r\n").encode())
            holders.append(holder)
        for holder in holders:
            assert read_answer(holder)[0] == 200
        time.sleep(0.2)  # both threads now wait for the holders' bodies
        # Answered while both threads are held: a thread would take it only once they let go, about
        # 5 s from now, and a poll that waited over 2 s for a thread is refused (503).
        follower.sendall(asked)
        status, headers, _ = read_answer(follower)
        assert status == 200 and headers["etag"] != first, "the new version, drawn by the deal's write"
        assert "x-poll-after" in headers and "x-request-id" in headers
        follower.sendall(poll.replace("\r\n\r\n", f"\r\nIf-None-Match: {headers['etag']}\r\n\r\n").encode())
        assert read_answer(follower)[0] == 304
        for holder in holders:
            holder.close()
        scorer.close()
        follower.close()


def test_the_pool_says_when_its_polls_are_backlogged():
    pool = PriorityPool(1)
    try:
        hold = threading.Event()
        pool.submit(hold.wait, 5)  # the one thread held
        first = pool.submit(lambda: None, priority=POLL)
        assert not pool.backlogged(0.05), "no poll taken yet: nothing says the queue is long"
        time.sleep(0.1)
        hold.set()
        first.result(5)
        # The last poll taken had waited 0.1 s; none waits now: a new poll is queued, not refused.
        assert pool.poll_waited >= 0.1 and not pool.backlogged(0.05)
        held = threading.Event()
        pool.submit(held.wait, 5)
        pool.submit(lambda: None, priority=POLL)
        assert pool.backlogged(0.05) and not pool.backlogged(10)
        held.set()
    finally:
        pool.shutdown()


class Registered:
    """The worker's poller, as accept() uses it: what it was given to watch."""

    def __init__(self) -> None:
        self.socks: list = []

    def register(self, sock, events, callback) -> None:
        self.socks.append(sock)


def test_the_connections_waiting_are_taken_in_one_turn_within_the_workers_bound():
    """gunicorn takes one connection per turn of the loop, and a turn lasts up to LOOP_BUDGET:
    behind nginx at 10,000 tables every deal post waited in the listen queue for nginx's new
    connection to the app, and failed. One readable listener now gives every connection waiting,
    up to the worker's bound of connections."""
    listener = socket.create_server(("127.0.0.1", 0), backlog=64)
    listener.setblocking(False)
    clients = [socket.create_connection(listener.getsockname()) for _ in range(12)]
    worker = WritesFirstWorker.__new__(WritesFirstWorker)
    worker.pending_conns = []
    try:
        time.sleep(0.05)  # the handshakes done: every one waits in the listen queue
        worker.cfg = type("Cfg", (), {"keepalive": 5, "is_ssl": False})()
        worker.poller = Registered()
        worker.nr_conns = 0
        worker.worker_connections = 10
        worker.accept(listener)
        assert worker.nr_conns == 10 and len(worker.pending_conns) == 10 == len(worker.poller.socks)
        worker.worker_connections = 100
        worker.accept(listener)
        assert worker.nr_conns == 12 and len(worker.pending_conns) == 12
        worker.accept(listener)  # nothing waits: nothing taken, nothing raised
        assert worker.nr_conns == 12
    finally:
        for sock in clients:
            sock.close()
        for conn in worker.pending_conns:
            conn.sock.close()
        listener.close()


def test_the_pool_gives_back_the_polls_no_thread_took_in_time_and_keeps_its_drawings():
    """Writes keep the one thread busy: the queued poll is never taken, so the loop takes it back
    (its connection and first bytes) once it waited longer than the app accepts; a drawing queued
    with it stays in its place and is drawn once the thread is free."""
    pool = PriorityPool(1)
    drawn = threading.Event()
    try:
        hold = threading.Event()
        pool.submit(hold.wait, 5)
        time.sleep(0.05)
        pool.submit(lambda: None, priority=POLL, conn="early", head=POLLED)
        pool.submit(drawn.set, priority=POLL, draw=True)
        assert pool.expired(1.0) == [], "nothing waited that long yet"
        time.sleep(0.3)
        pool.submit(lambda: None, priority=POLL, conn="late", head=POLLED)
        assert pool.expired(0.2) == [("early", POLLED)]
        assert pool.waiting_polls == 1 and pool.waiting_draws == 1
        assert not drawn.is_set()
        hold.set()
        assert drawn.wait(5), "the drawing was kept, and drawn"
    finally:
        pool.shutdown()


def lingering_worker() -> WritesFirstWorker:
    """A worker with what linger() and murder_keepalived() need: a poller and the deques."""
    worker = WritesFirstWorker.__new__(WritesFirstWorker)
    worker.poller = selectors.DefaultSelector()
    worker.lingering = deque()
    worker.keepalived_conns = deque()
    return worker


def dispatch(worker: WritesFirstWorker) -> None:
    for key, _ in worker.poller.select(0.5):
        key.data(key.fileobj)


def test_a_closed_connection_lingers_for_its_peer_without_stopping_the_loop():
    """gunicorn closed a connection gracefully by waiting in the event loop for the peer to close
    (up to 2 s). Here the close is sent at once, and the socket is closed when the peer's close
    arrives (or its time is up), while the loop goes on."""
    worker = lingering_worker()
    ours, peer = socket.socketpair()
    try:
        peer.sendall(b"left unread")  # the kernel would answer a plain close of this with a reset
        started = time.monotonic()
        worker.linger(ours)
        assert time.monotonic() - started < 0.1, "the loop waited for the peer"
        peer.settimeout(5)
        assert peer.recv(100) == b"", "our side's close reached the peer at once"
        assert ours.fileno() != -1 and len(worker.lingering) == 1  # still reading what the peer sends
        dispatch(worker)  # the unread bytes: drained, the socket still open
        assert ours.fileno() != -1
        peer.close()
        dispatch(worker)
        assert ours.fileno() == -1 and not worker.poller.get_map()
        worker.murder_keepalived()  # its entry goes in its time; nothing to close again
    finally:
        peer.close()
        ours.close()


def test_a_peer_that_never_closes_is_closed_after_its_time(monkeypatch):
    monkeypatch.setattr(worker_module, "LINGER", 0.05)
    worker = lingering_worker()
    ours, peer = socket.socketpair()
    try:
        worker.linger(ours)
        worker.murder_keepalived()
        assert ours.fileno() != -1, "closed before its time"
        time.sleep(0.1)
        worker.murder_keepalived()
        assert ours.fileno() == -1 and not worker.lingering and not worker.poller.get_map()
    finally:
        peer.close()
        ours.close()


def test_a_peer_slow_to_close_its_connection_stops_no_poll(tmp_path):
    """A real ``scorekeeper serve`` (1 worker): a request sent with ``Connection: close`` by a peer
    that does not close its side at once (a phone on a slow network closes a round trip later).
    gunicorn waited for that close in the event loop, 2 s at most: a poll asked meanwhile, which
    the loop answers itself (an unchanged game's 304), waited as long. Here it is answered at once."""
    with served_game(tmp_path) as (port, game_id, _key):
        follower, _poll, asked, _etag = following(port, game_id)
        # The scorer's phone reads the game and keeps its side of the connection open a while.
        scorer = socket.create_connection(("127.0.0.1", port), timeout=30)
        scorer.sendall(head(f"GET /api/games/{game_id} HTTP/1.1", "Connection: close"))
        assert read_answer(scorer)[0] == 200
        time.sleep(0.1)  # the worker has closed its side, and would now wait for ours
        sent = time.monotonic()
        follower.sendall(asked)
        status, _, at = read_answer(follower)
        assert status == 304 and at - sent < 0.5, f"the poll waited {at - sent:.2f} s"
        assert scorer.recv(100) == b"", "the server closed its side of the connection"
        scorer.close()
        follower.close()


class SentLater:
    """What send_rest asks of the pool and of the event loop's method queue."""

    def __init__(self) -> None:
        self.tasks: list = []
        self.deferred: list = []

    def submit(self, fn, *args, priority=FIRST, **kw):
        from concurrent.futures import Future

        future: Future = Future()
        self.tasks.append((fn, priority, future))
        return future

    def defer(self, callback, *args) -> None:
        self.deferred.append((callback, args))


def test_an_answer_its_peer_is_slow_to_read_is_sent_by_a_thread_not_the_loop():
    """The event loop waited up to 5 s for a send buffer to drain: a client polling without
    reading its answers stopped every other poll so. The rest goes to a thread; the connection is
    closed after it, not kept alive."""
    worker = lingering_worker()
    later = SentLater()
    worker.tpool = later
    worker.method_queue = later
    worker.alive = True
    worker.max_keepalived = 100
    worker.nr_conns = 1
    ours, peer = socket.socketpair()
    try:
        ours.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        ours.setblocking(False)  # as gunicorn keeps its connections in the event loop
        request = POLLED
        peer.sendall(request)
        answer = b"x" * 1_000_000  # far more than the socket takes at once
        conn = type("Conn", (), {"sock": ours})()
        started = time.monotonic()
        worker.send_found(conn, (len(request), True, answer, None))
        assert time.monotonic() - started < 0.5, "the loop waited for the peer to read"
        assert not worker.keepalived_conns and not worker.poller.get_map()
        [(send, priority, future)] = later.tasks
        assert priority == FIRST
        received = bytearray()
        reader = threading.Thread(target=lambda: received.extend(read_all(peer, len(answer))))
        reader.start()
        assert send() is False  # sent whole, then closed (not kept alive) by finish_request
        reader.join(5)
        assert bytes(received) == answer
        future.set_result(False)
        assert [callback.__name__ for callback, _args in later.deferred] == ["finish_request"]
    finally:
        peer.close()
        ours.close()


class CountingSelector(selectors.DefaultSelector):  # type: ignore[misc,valid-type]
    """The poller, counting the registrations that are system calls (epoll_ctl)."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[str] = []

    def register(self, fileobj, events, data=None):
        self.calls.append("register")
        return super().register(fileobj, events, data)

    def unregister(self, fileobj):
        self.calls.append("unregister")
        return super().unregister(fileobj)


def test_a_poll_answered_in_the_loop_keeps_its_connection_in_the_poller():
    """gunicorn takes a kept-alive connection out of the poller when it is readable and puts it back
    after the answer: two system calls a poll, each giving up the interpreter lock the event loop
    then waits for behind a busy thread. A poll the loop answers leaves it there; a request that
    goes to a thread takes it out (the thread reads the socket)."""
    worker = lingering_worker()
    worker.poller = CountingSelector()
    pool = SentLater()
    worker.tpool = pool
    worker.alive = True
    worker.max_keepalived = 100
    worker.nr_conns = 1
    worker.log = type("Log", (), {"access": lambda self, *args: None})()
    ours, peer = socket.socketpair()
    cfg = type("Cfg", (), {"keepalive": 5, "is_ssl": False})()
    conn = worker_module.Conn(cfg, ours, ("127.0.0.1", 0), None, worker.linger)
    try:
        worker.loop_access = []
        peer.sendall(POLLED)
        worker.send_found(conn, (len(POLLED), True, b"HTTP/1.1 304 Not Modified\r\n\r\n", None))
        assert worker.poller.calls == ["register"] and list(worker.keepalived_conns) == [conn]
        for _ in range(3):  # three polls, each answered in the loop's turn
            peer.sendall(POLLED)
            worker._loop_polls = []
            dispatch(worker)
            assert [c for c, _head in worker._loop_polls] == [conn] and not worker.keepalived_conns
            worker.send_found(conn, (len(POLLED), True, b"HTTP/1.1 304 Not Modified\r\n\r\n", None))
            assert list(worker.keepalived_conns) == [conn]
        assert worker.poller.calls == ["register"], "no system call for the polls answered in the loop"
        assert worker.poller.get_key(ours).data is conn.on_readable
        # A deal: to a thread, out of the poller (the thread reads the socket).
        peer.sendall(head("POST /api/games/abc/deals HTTP/1.1", "Content-Length: 2") + b"{}")
        worker._loop_polls = []
        dispatch(worker)
        assert worker.poller.calls == ["register", "unregister"] and not worker.poller.get_map()
        assert [priority for _fn, priority, _future in pool.tasks] == [FIRST]
    finally:
        peer.close()
        ours.close()


def test_the_loops_access_lines_are_written_after_its_turn_together():
    written: list[list] = []
    worker = WritesFirstWorker.__new__(WritesFirstWorker)
    worker.log = type("Log", (), {"access_lines": lambda self, lines: written.append(lines)})()
    worker.loop_access = [("a",), ("b",)]
    worker.write_loop_access()
    worker.write_loop_access()  # nothing more answered: nothing written
    assert written == [[("a",), ("b",)]] and worker.loop_access == []


def read_all(sock: socket.socket, size: int) -> bytes:
    data = bytearray()
    while len(data) < size:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    return bytes(data)


def test_a_connection_its_peer_closed_is_closed_by_the_loop_not_queued_with_the_writes():
    """A phone letting go of its kept-alive connection makes it readable with nothing to read.
    gunicorn hands it to a thread, and with no request line to say it is no poll it was queued
    with the writes: a crowd whose client closes idle connections queued hundreds a second ahead
    of the deals (issue 58). The loop closes it itself; a reset connection too."""
    worker = lingering_worker()
    pool = SentLater()
    worker.tpool = pool
    worker.alive = True
    worker.max_keepalived = 100
    cfg = type("Cfg", (), {"keepalive": 5, "is_ssl": False})()
    listener = socket.create_server(("127.0.0.1", 0))
    pairs = []
    for _ in range(2):
        peer = socket.create_connection(listener.getsockname())
        pairs.append((listener.accept()[0], peer))
    listener.close()
    conns = [worker_module.Conn(cfg, ours, ("127.0.0.1", 0), None, worker.linger) for ours, _ in pairs]
    worker.nr_conns = len(conns)
    try:
        for conn in conns:
            conn.in_poller = True
            conn.on_readable = partial(worker.on_client_socket_readable, conn)
            worker.keepalived_conns.append(conn)
            worker.poller.register(conn.sock, selectors.EVENT_READ, conn.on_readable)
        pairs[0][1].close()  # a plain close
        reset = pairs[1][1]
        reset.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        reset.close()  # a reset
        time.sleep(0.05)
        worker._loop_polls = []
        dispatch(worker)
        assert pool.tasks == [], "nothing was queued for a thread"
        assert worker.nr_conns == 0 and not worker.keepalived_conns and not worker.poller.get_map()
        assert all(conn.sock.fileno() == -1 for conn in conns)
    finally:
        for ours, peer in pairs:
            ours.close()
            peer.close()
