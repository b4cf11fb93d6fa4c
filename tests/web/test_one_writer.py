"""SQLite writers queue on a lock file beside the database (db.one_writer), not in SQLite's
sleeping busy handler: a writer in another process holds the turn, and ours waits for exactly
that long, then goes on at once."""

from __future__ import annotations

import multiprocessing
import os
import time

import pytest

from scorekeeper.db import db, one_writer


def hold_turn(path: str, ready, release) -> None:
    import fcntl

    fd = os.open(f"{path}-writer.lock", os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)
    ready.set()
    release.wait(10)
    fcntl.flock(fd, fcntl.LOCK_UN)


def test_a_writer_waits_for_another_process_and_not_longer(app):
    with app.app_context():
        url = db.engine.url
        if url.get_backend_name() != "sqlite" or not url.database:
            pytest.skip("the queue is SQLite's: PostgreSQL waits on the game's row instead")
        path = url.database
        ctx = multiprocessing.get_context("fork")
        ready, release = ctx.Event(), ctx.Event()
        other = ctx.Process(target=hold_turn, args=(path, ready, release))
        other.start()
        try:
            assert ready.wait(10)
            started = time.monotonic()
            ctx_release = ctx.Process(target=lambda: (time.sleep(0.3), release.set()))
            ctx_release.start()
            with one_writer():
                waited = time.monotonic() - started
            ctx_release.join()
        finally:
            release.set()
            other.join(10)
        assert os.path.exists(f"{path}-writer.lock")
        # It waited for the other process's turn (0.3 s), and woke when it ended.
        assert 0.25 <= waited < 3


def test_threads_of_one_process_take_turns(app):
    import threading

    with app.app_context():
        inside, most = [0], [0]
        lock = threading.Lock()

        def write():
            with app.app_context(), one_writer():
                with lock:
                    inside[0] += 1
                    most[0] = max(most[0], inside[0])
                time.sleep(0.05)
                with lock:
                    inside[0] -= 1

        threads = [threading.Thread(target=write) for _ in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        url = db.engine.url
        expected = 1 if url.get_backend_name() == "sqlite" and url.database else 6
        if expected == 1:
            assert most[0] == 1
        else:
            assert most[0] > 1  # PostgreSQL: no queue of ours, the writers run side by side
