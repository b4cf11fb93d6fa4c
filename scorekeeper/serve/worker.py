"""``scorekeeper serve``'s worker: gunicorn's threaded worker, serving writes before polls (issue 28).

gunicorn's gthread worker hands every readable connection to a thread pool whose queue is first
come, first served: under a crowd, a scorer's deal waited behind hundreds of viewers' polls, and a
poll could wait longer than its phone's patience. Here the pool's queue is ordered: a request
that is a follower's poll (known from its first bytes, peeked without reading them) waits behind
everything else, and the thread that takes a request tells the app how long it waited
(:func:`scorekeeper.load.set_waited`). The app then refuses, at once and cheaply, a poll that
waited too long, and slows the followers' pace while requests queue (:mod:`scorekeeper.web.live.shed`).

gunicorn documents ``get_thread_pool`` as the place to change the pool; ``enqueue_req`` is its
three lines, with the request's priority added.
"""

from __future__ import annotations

import contextlib
import errno
import gc
import selectors
import socket
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from functools import partial
from typing import Any

from gunicorn import util
from gunicorn.workers.gthread import TConn, ThreadWorker

from ..load import Load, follower_poll, set_waited
from ..web.live.loopanswer import Found, kept_answers, refusal
from .connections import Connections

# Lower is sooner: every write, page and API call before any poll. The live answers the writes
# changed (issue 40: drawn once per change, web/live/livepoll.py) take their turn among the polls, in
# order of arrival: drawn ahead of every poll, under a crowd too big for the box they took every
# thread the writes left, and polls waited past their phones' patience (2,673 of a 3,000-table
# sweep's); among them, a poll waits behind at most the few drawings queued before it.
FIRST, POLL = 0, 1
# The drawings that may wait at once (a few hundred milliseconds of work): past that, a write's
# drawing is left to the polls (which draw a version once, and may be refused under load), so a
# crowd too big for the box never queues drawings ahead of every poll (with 256, 3,591 of a
# 3,000-table sweep's polls waited past their phones' patience).
MOST_DRAWINGS = 16
GC_THRESHOLDS = (50_000, 20, 100)
# Enough of a request to read its line and its headers up to HX-Request, as phones send them.
PEEK = 2048
# The event loop's time for answering kept polls per turn (seconds). One turn hands out every
# socket found readable at once (hundreds under a crowd); past this, the turn's remaining polls
# wait in the loop for its next turns (WritesFirstWorker.waiting). Not much less: a poll a thread
# answers costs several times the loop's answer (gunicorn's parser, the WSGI layers), and with
# 5 ms a 3,000-table crowd's deal-post p99 was 1.2 s against 0.4 s with 50 ms (benchmarks/run.py
# --sweep).
LOOP_BUDGET = 0.05
# While a write waits for a thread or is being served, the loop answers polls for at most this
# share of its time (a budget earned as time passes, spent by each answer's time, never above
# LOOP_BUDGET). Not nothing: behind writes that never stop (10,000 tables behind nginx, 167 deals a
# second) the polls waited for a thread for good, and no deal was ever seen. A share of the time,
# not a budget per turn: under a crowd a turn lasts a few milliseconds. It costs the deals: at
# 6,000 tables (benchmarks/run.py --sweep) post p99 1.8 s against 1.0-1.5 s, for 84,000 polls
# answered against 45,000 (2.3-2.5 s with a share of 0.05 or 0.2; a crowd this box cannot serve
# either way).
WRITING_SHARE = 0.1
# How soon the event loop turns again while polls wait in it for their answer (seconds): each turn
# earns WRITING_SHARE of this while writes go on.
WAITING_TURN = 0.005
# The longest a poll waits in the event loop for its share of the loop's time (seconds): then it is
# answered at once if its answer is kept, told "later" otherwise (answer_overdue).
# Longer than the 2 s a poll may wait for a thread (web/live/shed.py): waiting here costs nothing but
# its place in a queue, and a poll answered 5 s late still sees a deal before one told to
# come back later (load.retry_after); well within a phone's patience (htmx's 15 s). With
# 2 s, a 3,000-table sweep (benchmarks/run.py --sweep) refused 3,763-4,110 polls and a deal was
# seen in 10.3-16.3 s p95; with 5 s, none, and 5.2-6.4 s.
LOOP_LONGEST_WAIT = 5.0
# The polls the event loop answers at a time, their games' rows read in one query (and the most
# its answers may run past its time). One by one, the query was about half of an answer's cost.
LOOP_CHUNK = 16
# How long a connection closed after its answer waits for its peer's close, and the most it reads
# meanwhile: gunicorn's graceful close (util.close_graceful, RFC 9112 section 9.6), done here
# without waiting (WritesFirstWorker.linger).
LINGER = 2.0
LINGER_DRAIN = 65536
# The longest a thread sends the rest of an event loop's answer to a peer slow to read it.
SEND_REST = 5.0
# The most connections taken off the listen queue in one turn of the event loop (accept()).
ACCEPT_BATCH = 256


def priority(head: bytes) -> int:
    """A request's place in the queue, from its first bytes (what arrived so far; maybe none)."""
    line, _, rest = head.partition(b"\r\n")
    parts = line.split(b" ")
    if len(parts) != 3:
        return FIRST  # not a whole request line yet, or not HTTP/1: no reason to make it wait
    method, target, _version = parts
    path = target.split(b"?", 1)[0].decode("latin-1")
    htmx = b"\r\nhx-request: true\r\n" in b"\r\n" + rest.lower()
    return POLL if follower_poll(method.decode("latin-1"), path, htmx) else FIRST


@dataclass(slots=True)
class Task:
    """One queued piece of work: a request for a thread, or a drawing (``draw``). A poll carries its
    connection and first bytes, so that the event loop can take it back and refuse it itself."""

    future: Future
    fn: Callable[..., Any]
    args: tuple
    queued_at: float
    priority: int
    draw: bool
    conn: Any = None
    head: bytes | None = None


class PriorityPool:
    """A fixed pool of threads taking every write first, then polls (and drawings) in order of arrival.

    What gunicorn asks of its pool: ``submit`` (here with a priority) returning a future, and
    ``shutdown``. Each task runs with :func:`scorekeeper.load.waited` saying how long it queued.
    A poll is given with its connection and first bytes (``conn``, ``head``): while writes keep
    every thread busy, no thread takes it, so the event loop takes back those queued too long
    (:meth:`expired`) and tells them "later" itself (behind nginx at 10,000 tables, polls waited
    for a thread until nginx gave up on them, 60 s later, and no deal was ever seen).
    """

    def __init__(self, threads: int) -> None:
        self._first: deque[Task] = deque()
        self._polls: deque[Task] = deque()
        self._ready = threading.Condition()
        self._stopping = 0
        # Writes, pages and API calls queued and not yet taken by a thread, and those being served
        # (read by the event loop without the lock: a figure a moment old is as good).
        self.waiting_first = 0
        self.serving_first = 0
        self.waiting_draws = 0
        # Polls (not drawings) queued and not yet taken, and how long the last one taken had waited.
        self.waiting_polls = 0
        self.poll_waited = 0.0
        self._threads = [
            threading.Thread(target=self._work, name=f"scorekeeper-{n}", daemon=True) for n in range(threads)
        ]
        for thread in self._threads:
            thread.start()

    def submit(
        self,
        fn: Callable[..., Any],
        *args: Any,
        priority: int = FIRST,
        draw: bool = False,
        conn: Any = None,
        head: bytes | None = None,
    ) -> Future:
        future: Future = Future()
        task = Task(future, fn, args, time.monotonic(), priority, draw, conn, head)
        with self._ready:
            if draw:
                self.waiting_draws += 1
                self._polls.append(task)
            elif priority == FIRST:
                self.waiting_first += 1
                self._first.append(task)
            else:
                self.waiting_polls += 1
                self._polls.append(task)
            self._ready.notify()
        return future

    def _take(self) -> Task | None:
        with self._ready:
            while not (self._stopping or self._first or self._polls):
                self._ready.wait()
            if self._stopping:
                self._stopping -= 1
                return None
            if self._first:
                task = self._first.popleft()
                self.waiting_first -= 1
                self.serving_first += 1
                return task
            task = self._polls.popleft()
            if task.draw:
                self.waiting_draws -= 1
            else:
                self.waiting_polls -= 1
                self.poll_waited = time.monotonic() - task.queued_at
            return task

    def _work(self) -> None:
        while True:
            task = self._take()
            if task is None:
                return
            future = task.future
            if not future.set_running_or_notify_cancel():
                continue
            set_waited(time.monotonic() - task.queued_at)
            try:
                result = task.fn(*task.args)
            except BaseException as error:  # the future carries it to gunicorn's callback
                future.set_exception(error)
            else:
                future.set_result(result)
            finally:
                set_waited(None)
                if task.priority == FIRST and not task.draw:
                    with self._ready:
                        self.serving_first -= 1

    def expired(self, longest: float) -> list[tuple[Any, bytes]]:
        """The polls queued longer than ``longest`` (connection and first bytes), taken off the
        queue: the app would refuse them when a thread took them, which may be never while writes
        keep coming. Drawings stay queued, in their place."""
        taken: list[tuple[Any, bytes]] = []
        kept: list[Task] = []
        now = time.monotonic()
        with self._ready:
            while self._polls and now - self._polls[0].queued_at > longest:
                task = self._polls.popleft()
                if task.draw or task.conn is None or task.head is None:
                    kept.append(task)  # a drawing, or a poll given without its socket: a thread's
                    continue
                self.waiting_polls -= 1
                taken.append((task.conn, task.head))
            self._polls.extendleft(reversed(kept))
        return taken

    def backlogged(self, longest: float) -> bool:
        """Whether polls queue behind others that waited longer than ``longest`` for a thread: a
        poll queued now would wait as long, and be refused by the app when a thread takes it."""
        if self.waiting_polls <= 0:
            return False
        if self.poll_waited > longest:
            return True
        try:
            oldest = self._polls[0].queued_at  # read without the lock: a moment old is as good
        except IndexError:
            return False
        return time.monotonic() - oldest > longest

    @property
    def writing(self) -> bool:
        """Whether a write (or page, or API call) waits for a thread or is being served."""
        return self.waiting_first + self.serving_first > 0

    def shutdown(self, wait: bool = True) -> None:
        with self._ready:
            self._stopping = len(self._threads)  # before any waiting work
            self._ready.notify_all()
        if wait:
            for thread in self._threads:
                thread.join()


class Conn(TConn):
    """gunicorn's connection, whose graceful close is handed to the worker (``linger``)."""

    def __init__(self, cfg, sock, client, server, linger: Callable[[socket.socket], None]) -> None:
        super().__init__(cfg, sock, client, server)
        self.linger = linger
        # Still registered in the worker's poller (WritesFirstWorker.off_poller), and the callback
        # it is registered with for its next request, made once.
        self.in_poller = False
        self.on_readable: Callable[[Any], None] | None = None

    def close(self, graceful: bool = False) -> None:
        if graceful:
            self.linger(self.sock)
        else:
            super().close()


class WritesFirstWorker(ThreadWorker):
    """gthread, with the pool above and each request's priority peeked from its socket."""

    def init_process(self) -> None:
        # The collector's default pace (a young collection every 700 allocations) was made for
        # small heaps: a worker keeping a crowd's games (rows, results, a few hundred MB) spent
        # its deal posts' tail in collections (benchmarks/run.py --sweep: deal-post p99 1.6 s
        # at 3,000 tables, 0.3-0.4 s with these). What the app built before the fork is frozen:
        # it lives as long as the worker, and is never scanned again. (A crowd's games are kept
        # as bytes and digests since, which the collector never scans: scoring._keep_latest.)
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)
        self.keepalived_conns = Connections()  # type: ignore[assignment]  # what gunicorn asks of its deque
        self.pending_conns = Connections()  # type: ignore[assignment]
        # The connections closed after their answers, waiting for their peers' close (linger()),
        # each with its deadline, oldest first.
        self.lingering: deque[tuple[float, socket.socket]] = deque()
        # The polls with a kept answer past the loop's time, each with when it came, oldest first:
        # answered in the next turns (wait_for_and_dispatch_events).
        self.waiting: deque[tuple[float, Any, bytes]] = deque()
        super().init_process()

    def get_thread_pool(self) -> PriorityPool:  # type: ignore[override]
        return PriorityPool(self.cfg.threads)

    def run(self) -> None:
        # The app's writes hand their followers' drawings to this pool, after every write, among
        # the polls (web/live/livepoll.py), instead of drawing before their own answer.
        app = self.wsgi
        extensions = getattr(app, "extensions", None)
        if isinstance(extensions, dict):
            extensions["scorekeeper.draw_later"] = self.draw_later
        super().run()

    def draw_later(self, draw: Callable[[], Any]) -> bool:
        """Queue a write's drawing (after the writes, among the polls); False when too many wait, or
        when the polls queue past what the app accepts: the drawing would come after them, later
        than the polls that draw the version they ask for (and only the versions asked for: a
        crowd too big for the box asks for fewer than it is sent)."""
        pool: PriorityPool = self.tpool  # type: ignore[assignment]  # ours, from get_thread_pool
        if pool.waiting_draws >= MOST_DRAWINGS or pool.backlogged(self.longest_wait()):
            return False
        pool.submit(draw, priority=POLL, draw=True)
        return True

    def on_client_socket_readable(self, conn, client) -> None:
        """gunicorn's, but the connection stays in the poller until its request goes to a thread
        (off_poller): a poll the event loop answers kept its connection there, and taking it out
        and putting it back cost two system calls a poll, each giving up the interpreter lock, which
        the loop then waited for behind a busy thread."""
        self.keepalived_conns.remove(conn)
        conn.in_poller = True
        self.enqueue_req(conn)

    def on_pending_socket_readable(self, conn, client) -> None:
        """gunicorn's, the connection left in the poller as in on_client_socket_readable."""
        self.pending_conns.remove(conn)
        conn.data_ready = True
        conn.in_poller = True
        self.enqueue_req(conn)

    def off_poller(self, conn) -> None:
        """The connection out of the poller: a thread reads it now, or it closes."""
        if getattr(conn, "in_poller", False):
            conn.in_poller = False
            with contextlib.suppress(OSError, ValueError, KeyError):
                self.poller.unregister(conn.sock)

    def accept(self, listener) -> None:
        """A new connection waits in the poller for its first bytes, as a kept-alive one does.

        gunicorn hands it to a thread at once, which then waits up to 5 s for the request: a
        thread held by a phone on a slow network, and a request whose kind (write or poll) is
        not known yet when it is queued. Here it is queued once readable, its kind peeked.
        Every connection waiting is taken (up to ``ACCEPT_BATCH``), not one per turn of the loop as
        gunicorn takes them: a turn lasts up to ``LOOP_BUDGET``, so new connections were taken a
        few dozen a second. Behind nginx at 10,000 tables (benchmarks/edge.py), every deal post
        waited in the listen queue for nginx's new connection to the app, and all 19,999 failed;
        taking them all, 0 failed.
        """
        for _ in range(ACCEPT_BATCH):
            if self.nr_conns >= self.worker_connections:
                return  # gunicorn's bound: the rest wait in the listen queue, or another worker takes them
            try:
                client_sock, client_addr = listener.accept()
            except OSError as error:
                if error.errno not in (errno.EAGAIN, errno.ECONNABORTED, errno.EWOULDBLOCK):
                    raise
                return
            self.nr_conns += 1
            conn = Conn(self.cfg, client_sock, client_addr, listener.getsockname(), self.linger)
            # gunicorn's own wait for a deferred connection's first bytes: the keep-alive time.
            conn.timeout = time.monotonic() + self.cfg.keepalive
            self.pending_conns.append(conn)
            self.poller.register(
                conn.sock, selectors.EVENT_READ, partial(self.on_pending_socket_readable, conn)
            )

    def send_rest(self, conn, rest: bytes) -> None:
        """The rest of an answer the socket's send buffer could not take at once, sent by a thread
        (5 s at most), the connection closed after it. Waiting for it here stopped the event loop:
        a client that polls on one connection without reading its answers fills that buffer in a
        few hundred polls, and then each of its polls stopped every other one for up to 5 s."""

        def send() -> bool:
            conn.sock.settimeout(SEND_REST)
            conn.sock.sendall(rest)
            return False  # not kept alive: finish_request closes it (gracefully)

        self.off_poller(conn)
        pool: PriorityPool = self.tpool  # type: ignore[assignment]  # ours, from get_thread_pool
        future = pool.submit(send, priority=FIRST)
        future.add_done_callback(lambda fut: self.method_queue.defer(self.finish_request, conn, fut))

    def linger(self, sock: socket.socket) -> None:
        """A connection closed after its answer, as gunicorn closes it (util.close_graceful: the
        write side shut, the peer's last bytes read until it closes too, for ``LINGER`` seconds at
        most), without waiting for the peer. gunicorn waits in the event loop: each request that
        asked for ``Connection: close`` stopped the loop, every poll's answer and every new
        connection, until its peer closed its side: a round trip on a phone's network (50-300 ms),
        2 s for a peer that does not close (tests/test_worker.py: a poll waited 1.9 s). The sweep's
        scorers post each deal so (benchmarks/run.py --sweep at 3,000 tables: 8% of the loop's
        time, the peers on the same box)."""
        try:
            sock.shutdown(socket.SHUT_WR)
            sock.setblocking(False)
            self.poller.register(sock, selectors.EVENT_READ, partial(self.drain, [0]))
        except (OSError, ValueError, KeyError):
            util.close(sock)
            return
        self.lingering.append((time.monotonic() + LINGER, sock))

    def drain(self, drained: list[int], sock: socket.socket) -> None:
        """A lingering connection readable: its peer's bytes read and dropped, and the socket
        closed once the peer has closed (or sent more than we read)."""
        try:
            data = sock.recv(4096)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        drained[0] += len(data)
        if data and drained[0] < LINGER_DRAIN:
            return
        self.unlinger(sock)

    def unlinger(self, sock: socket.socket) -> None:
        with contextlib.suppress(OSError, ValueError, KeyError):
            self.poller.unregister(sock)
        util.close(sock)

    def murder_keepalived(self, force: bool = False) -> None:
        """gunicorn's (kept-alive connections past their time closed), and the lingering ones too."""
        if force:  # gunicorn 27 closes them all as it stops (its stubs and gunicorn 23 have no force)
            super().murder_keepalived(force)  # type: ignore[call-arg]
        else:
            super().murder_keepalived()
        now = time.monotonic()
        while self.lingering and (force or self.lingering[0][0] <= now):
            _deadline, sock = self.lingering.popleft()
            if sock.fileno() != -1:  # not closed by drain() already
                self.unlinger(sock)

    def wait_for_and_dispatch_events(self, timeout: float | None) -> None:
        """gunicorn's turn of the event loop, with the polls it could answer kept for after it.

        Every readable socket of the turn is seen first, so a deal that arrived beside a crowd's
        polls is queued for a thread before the loop answers any of them (answered as they came,
        a deal behind hundreds of polls in one turn waited for all of them). Then the kept
        answers are given here, the polls waiting from earlier turns first, for at most
        ``LOOP_BUDGET`` seconds (``WRITING_SHARE`` of the loop's time while a write waits or is
        served); the polls past that wait here for the next turns (``waiting``), and are told
        "later" here once they waited ``LOOP_LONGEST_WAIT``. A poll without a kept answer
        goes to a thread (told "later" here behind a backlog of polls). Last, the polls queued for
        a thread longer than the app accepts are told "later" here."""
        if self.waiting:  # the polls waiting here are answered as the loop's time allows: soon
            timeout = WAITING_TURN if timeout is None else min(timeout, WAITING_TURN)
        self._loop_polls: list[tuple[Any, bytes]] | None = []
        # The access lines of the answers given here this turn, written together after it.
        self.loop_access: list[tuple] = []
        try:
            super().wait_for_and_dispatch_events(timeout)
        finally:
            polls, self._loop_polls = self._loop_polls or [], None
            pool: PriorityPool = self.tpool  # type: ignore[assignment]  # ours, from get_thread_pool
            now = time.monotonic()
            waiting = self.waiting
            fresh = deque((now, conn, head) for conn, head in polls)
            if pool.writing:
                earned = getattr(self, "_loop_earned", (now, 0.0))
                budget = min(LOOP_BUDGET, earned[1] + (now - earned[0]) * WRITING_SHARE)
            else:
                budget = LOOP_BUDGET
            until = now + budget
            longest = self.longest_wait()
            unanswered = []
            # The polls waiting here from earlier turns first (they came first), then this turn's.
            while (waiting or fresh) and time.monotonic() < until:
                chunk = [(waiting or fresh).popleft() for _ in range(LOOP_CHUNK) if waiting or fresh]
                found = self.kept_answers([(conn, head) for _at, conn, head in chunk])
                for (at, conn, head), answer in zip(chunk, found, strict=True):
                    if answer is None:
                        unanswered.append((conn, head))
                        continue
                    if at < now:  # it waited here: the pace hears how long (load.Load.waited_for)
                        self.poll_waited(now - at)
                    self.send_found(conn, answer)
            for at, conn, head in fresh:  # past the loop's time: they wait here, after the older
                # Out of the poller meanwhile: its bytes, unread, would wake every turn.
                self.off_poller(conn)
                waiting.append((at, conn, head))
            most = max(longest, LOOP_LONGEST_WAIT)
            overdue = []
            while waiting and (not self.alive or now - waiting[0][0] > most):
                at, conn, head = waiting.popleft()
                if not self.alive:  # stopping: the threads answer what is left
                    unanswered.append((conn, head))
                else:
                    overdue.append((at, conn, head))
            self.answer_overdue(overdue, now)
            for conn, head in unanswered:
                if pool.backlogged(longest) and self.refuse_here(conn, head):
                    continue
                self.queue_for_thread(conn, POLL, head)
            end = time.monotonic()
            # What is left of the budget (or what a chunk spent past it), kept for the next turns
            # while writes go on.
            self._loop_earned = (end, max(-LOOP_BUDGET, until - end) if pool.writing else 0.0)
            for conn, head in pool.expired(longest):
                self.told_later(conn, head)
            self.write_loop_access()

    def answer_overdue(self, overdue: list[tuple[float, Any, bytes]], now: float) -> None:
        """The polls that waited in the loop ``LOOP_LONGEST_WAIT``: answered now, past the loop's
        share, where their answer is kept (a 304, or what a write drew: the same work as telling
        them "later", a query and a few headers); told "later" otherwise. Told "later" all of them,
        a crowd of phones whose polls the loop could not answer in time was refused in bursts of
        thousands, each refused phone away 15 to 30 s, and a deal was seen in 25-33 s median
        (issue 58). How long they waited raises the pace, so the phones come less often."""
        for start in range(0, len(overdue), LOOP_CHUNK):
            chunk = overdue[start : start + LOOP_CHUNK]
            found = self.kept_answers([(conn, head) for _at, conn, head in chunk])
            for (at, conn, head), answer in zip(chunk, found, strict=True):
                if answer is None:
                    self.told_later(conn, head)  # as the app tells a poll that waited this long
                    continue
                self.poll_waited(now - at)
                self.send_found(conn, answer)

    def told_later(self, conn, head: bytes) -> None:
        """A poll that waited longer than the app accepts, told "later" here; a request that is not
        a plain poll after all goes to a thread, which reads it."""
        if not self.refuse_here(conn, head):
            self.queue_for_thread(conn, FIRST)

    def app_load(self) -> Load | None:
        """The app's load (web/live/shed.py), or None before the app is loaded."""
        return getattr(getattr(self, "wsgi", None), "extensions", {}).get("scorekeeper.load")

    def poll_waited(self, seconds: float) -> None:
        """A poll answered here after waiting ``seconds`` in the loop, told to the app's pace."""
        load = self.app_load()
        if load is not None:
            load.waited_for(seconds)

    def longest_wait(self) -> float:
        """The longest a poll may wait for a thread before the app refuses it (web/live/shed.py)."""
        load = self.app_load()
        return float(load.policy.max_wait) if load is not None else float("inf")

    def enqueue_req(self, conn) -> None:
        head = self.peek(conn)
        if head == b"":
            # The peer closed its side (a phone letting go of its kept-alive connection): nothing to
            # read, nothing to answer; closed here. Handed to a thread as gunicorn does, each such
            # close was queued with the writes (it has no request line to say it is no poll): a crowd
            # of phones whose client closes idle connections (aiohttp after 15 s, the pace slowed
            # past that) queued hundreds a second ahead of the deals, which waited seconds for a
            # thread (issue 58: post p50 4.5-6.3 s, the app serving each within 0.65 s).
            self.closed_by_peer(conn)
            return
        kind = FIRST if head is None else priority(head)
        # A kept answer is given by the event loop (no thread, no queue), for at most LOOP_BUDGET a
        # turn, and only WRITING_SHARE of the loop's time while a write waits or is served: the
        # loop's time is the writes' too (one interpreter lock, which each of the answer's reads and
        # sends gives up and waits for again behind a busy thread), so a crowd's polls answered
        # there without a bound served them ahead of the deals (a sweep at 3,000 tables: 737 deals
        # saved, 2,258 failed, every poll late). Past that, the poll waits in the loop for its next
        # turns (and is refused if it waits too long). Answered after the turn's other sockets are
        # seen (wait_for_and_dispatch_events).
        kept = getattr(self, "_loop_polls", None)
        if kind == POLL and head is not None and kept is not None:
            kept.append((conn, head))
            return
        self.queue_for_thread(conn, kind, head)

    def queue_for_thread(self, conn, kind: int, head: bytes | None = None) -> None:
        self.off_poller(conn)
        pool: PriorityPool = self.tpool  # type: ignore[assignment]  # ours, from get_thread_pool
        fs = pool.submit(self.handle, conn, priority=kind, conn=conn, head=head)
        fs.add_done_callback(lambda fut: self.method_queue.defer(self.finish_request, conn, fut))

    def closed_by_peer(self, conn) -> None:
        """A connection its peer closed (or reset) before sending a request: closed, no thread."""
        self.off_poller(conn)
        self.nr_conns -= 1
        conn.close()

    @staticmethod
    def peek(conn) -> bytes | None:
        """The request's first bytes, left on the socket; None when there is nothing to peek at,
        ``b""`` when the peer has closed (or reset) the connection without a request."""
        if (
            conn.cfg.is_ssl
            or conn.is_http2
            or (conn.parser is not None and conn.parser.unreader.buf.getvalue())
        ):
            return None  # encrypted, or partly read already: nothing to peek at
        try:
            return conn.sock.recv(PEEK, socket.MSG_PEEK | socket.MSG_DONTWAIT)
        except ConnectionResetError:
            return b""  # gone: no request to answer
        except OSError:  # nothing arrived yet (a new connection), or it is gone: the thread finds out
            return None

    def kept_answers(self, polls: list[tuple[Any, bytes]]) -> list[Found | None]:
        """The answers of followers' polls that the event loop gives when kept (issue 40): an
        unchanged game's 304, or a viewer's answer drawn by the write that changed the game
        (web/live/livepoll.py). Such a poll waits behind no write and takes no thread. None for anything
        else (a region to draw, a scorer's, a deleted game, a request not wholly arrived): the pool's.
        A few polls at a time: their games' rows are read in one query."""
        try:
            return kept_answers(self.wsgi, [(head, conn.client) for conn, head in polls])
        except Exception:  # the thread's way answers whatever this could not
            self.log.exception("polls not answered in the event loop")
            return [None] * len(polls)

    def refuse_here(self, conn, head: bytes) -> bool:
        """A poll told "later" by the event loop (loopanswer.refusal) instead of queueing behind a
        backlog of polls: the thread that would have refused it serves a poll that can still be
        answered in time. True when the connection was dealt with here."""
        return self.send_here(conn, refusal, head)

    def send_here(self, conn, answer: Callable[..., Found | None], head: bytes) -> bool:
        """``answer``'s bytes for the request ``head`` sent from the event loop, the request taken
        off the socket and the connection kept for its next request; False (nothing done) where
        ``answer`` has none."""
        try:
            found = answer(self.wsgi, head, conn.client)
        except Exception:  # the thread's way answers whatever this could not
            self.log.exception("poll not answered in the event loop")
            return False
        if found is None:
            return False
        self.send_found(conn, found)
        return True

    def send_found(self, conn, found: Found) -> None:
        """An answer found for the request on ``conn`` sent from the event loop (see send_here)."""
        size, keep_alive, data, line = found
        log_line: tuple | None = line
        rest = b""
        try:
            taken = conn.sock.recv(size)  # the request, peeked whole: take it off the socket
            if len(taken) != size:
                raise OSError("request not taken whole")
            try:
                sent = conn.sock.send(data)
            except BlockingIOError:  # a send buffer full already: all of it is the rest
                sent = 0
            rest = data[sent:]
        except OSError:
            keep_alive = False
            log_line = None
        if log_line is not None:
            self.loop_access.append(log_line)
        if rest:
            self.send_rest(conn, rest)
        elif keep_alive and self.alive and len(self.keepalived_conns) < self.max_keepalived:
            conn.set_timeout()
            self.keepalived_conns.append(conn)
            if conn.on_readable is None:
                conn.on_readable = partial(self.on_client_socket_readable, conn)
            if conn.in_poller:  # still registered: its callback changed at most (no system call)
                self.poller.modify(conn.sock, selectors.EVENT_READ, conn.on_readable)
            else:
                conn.in_poller = True
                self.poller.register(conn.sock, selectors.EVENT_READ, conn.on_readable)
        else:
            self.off_poller(conn)
            self.nr_conns -= 1
            conn.close()

    def write_loop_access(self) -> None:
        """The access lines of the turn's answers, in one write (AccessLog.access_lines): written
        one by one, each line's write gave up the interpreter lock, as the loop's own sends do."""
        lines, self.loop_access = self.loop_access, []
        if not lines:
            return
        with contextlib.suppress(Exception):
            many = getattr(self.log, "access_lines", None)
            if many is not None:
                many(lines)
            else:
                for line in lines:
                    self.log.access(*line)
