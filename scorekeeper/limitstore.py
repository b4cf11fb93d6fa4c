"""The abuse limits' counters in one SQLite file that every worker process of a server shares.

Why: ``scorekeeper serve`` runs several worker processes; Flask-Limiter's ``memory://`` storage
counts in each on its own, so 4 workers allowed 40 wrong keys a minute instead of 10 (and a
credential proven in one worker was unknown to the next). Redis shares them, but a small
server has none. A file in the instance folder is shared by every process of the machine with
nothing to install; SQLite's own locking makes each count one transaction.

Why not 1/N of each figure per worker: the kernel hands a connection to whichever worker
accepts it first, so an address's requests fall unevenly, and the 11th wrong key would be
refused anywhere from the 3rd to the 40th; and the proven credentials must be known to all.

What it costs: a count is written only for a failure, a creation, or a credential proven the
first time (limits.py keeps a worker's proven credentials in memory too), so the hall's
ordinary requests never touch the file. Measured on a shared 2-core box, 4 processes at once
each doing 2,000 of each: 0.05 ms to read a window, 0.18 ms to count a failure, 0.26 ms to keep a
proof (one process alone: 0.03, 0.03, 0.06 ms); 24,000 operations in 1.2 s.

The URI is ``scorekeeper+sqlite:///<absolute path>``. It is registered with the ``limits``
library (a :class:`~limits.storage.Storage` subclass with its scheme), so Flask-Limiter takes
it as ``RATELIMIT_STORAGE_URI`` like any of its own storages.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from urllib.parse import unquote, urlparse

from limits.storage import MovingWindowSupport, Storage

SCHEME = "scorekeeper+sqlite"
# Expired rows are swept at most this often (seconds), by whichever process counts then.
SWEEP_EVERY = 60

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS entries (key TEXT NOT NULL, at REAL NOT NULL, expires REAL NOT NULL)",
    "CREATE INDEX IF NOT EXISTS entries_key_at ON entries (key, at)",
    "CREATE INDEX IF NOT EXISTS entries_expires ON entries (expires)",
    "CREATE TABLE IF NOT EXISTS counters (key TEXT PRIMARY KEY, value INTEGER NOT NULL, expires REAL NOT NULL)",
)


def uri_for(path: str | os.PathLike[str]) -> str:
    return f"{SCHEME}://{os.path.abspath(path)}"


def path_of(uri: str) -> str:
    parsed = urlparse(uri)
    path = unquote(parsed.netloc + parsed.path)
    if not path or not os.path.isabs(path):
        raise ValueError(f"{SCHEME} needs an absolute path: {SCHEME}:///var/lib/scorekeeper/limits.sqlite3")
    return path


class SQLiteStorage(Storage, MovingWindowSupport):
    """Counters and moving windows in one SQLite file (see the module's docstring)."""

    STORAGE_SCHEME = [SCHEME]

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, **options: float | str | bool):
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)
        self.path = path_of(uri or "")
        self._local = threading.local()
        self._swept = 0.0

    @property
    def base_exceptions(self) -> type[Exception] | tuple[type[Exception], ...]:
        return sqlite3.Error

    def _connection(self) -> sqlite3.Connection:
        """This thread's connection, opened in this process (a forked worker never uses its
        master's): made lazily, so building an app that never counts touches no file."""
        found = getattr(self._local, "connection", None)
        if found is not None and self._local.pid == os.getpid():
            return found
        if not os.path.exists(self.path):
            os.makedirs(os.path.dirname(self.path), mode=0o700, exist_ok=True)
            # The owner's only, as the database is: it holds keyed hashes of credentials.
            os.close(os.open(self.path, os.O_CREAT | os.O_WRONLY, 0o600))
        connection = sqlite3.connect(self.path, timeout=10, isolation_level=None, check_same_thread=False)
        connection.execute("PRAGMA journal_mode=WAL")
        # A crash may lose the last counts: they are a minute's or a day's guard, not records.
        connection.execute("PRAGMA synchronous=OFF")
        for statement in SCHEMA:
            connection.execute(statement)
        self._local.connection, self._local.pid = connection, os.getpid()
        return connection

    def _write(self) -> sqlite3.Connection:
        """A connection inside a write transaction (BEGIN IMMEDIATE: one writer at a time, so a
        count and the test before it are one step for every process)."""
        connection = self._connection()
        connection.execute("BEGIN IMMEDIATE")
        return connection

    def _sweep(self, connection: sqlite3.Connection, now: float) -> None:
        if now - self._swept < SWEEP_EVERY:
            return
        self._swept = now
        connection.execute("DELETE FROM entries WHERE expires <= ?", (now,))
        connection.execute("DELETE FROM counters WHERE expires <= ?", (now,))

    # -- counters (a credential proven, fixed windows) ------------------------------------------

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        now = time.time()
        connection = self._write()
        try:
            self._sweep(connection, now)
            connection.execute("DELETE FROM counters WHERE key = ? AND expires <= ?", (key, now))
            connection.execute(
                "INSERT INTO counters (key, value, expires) VALUES (?, ?, ?) "
                "ON CONFLICT (key) DO UPDATE SET value = value + excluded.value",
                (key, amount, now + expiry),
            )
            value = connection.execute("SELECT value FROM counters WHERE key = ?", (key,)).fetchone()[0]
            connection.execute("COMMIT")
        except BaseException:
            connection.execute("ROLLBACK")
            raise
        return int(value)

    def get(self, key: str) -> int:
        row = (
            self._connection()
            .execute("SELECT value FROM counters WHERE key = ? AND expires > ?", (key, time.time()))
            .fetchone()
        )
        return int(row[0]) if row else 0

    def get_expiry(self, key: str) -> float:
        row = self._connection().execute("SELECT expires FROM counters WHERE key = ?", (key,)).fetchone()
        return float(row[0]) if row else time.time()

    def check(self) -> bool:
        try:
            self._connection().execute("SELECT 1")
        except sqlite3.Error:
            return False
        return True

    def reset(self) -> int | None:
        connection = self._write()
        try:
            gone = connection.execute("DELETE FROM entries").rowcount
            gone += connection.execute("DELETE FROM counters").rowcount
            connection.execute("COMMIT")
        except BaseException:
            connection.execute("ROLLBACK")
            raise
        return gone

    def clear(self, key: str) -> None:
        connection = self._write()
        try:
            connection.execute("DELETE FROM entries WHERE key = ?", (key,))
            connection.execute("DELETE FROM counters WHERE key = ?", (key,))
            connection.execute("COMMIT")
        except BaseException:
            connection.execute("ROLLBACK")
            raise

    # -- moving windows (Flask-Limiter's "moving-window" strategy) -------------------------------

    def acquire_entry(self, key: str, limit: int, expiry: int, amount: int = 1) -> bool:
        if amount > limit:
            return False
        now = time.time()
        connection = self._write()
        try:
            self._sweep(connection, now)
            (count,) = connection.execute(
                "SELECT count(*) FROM entries WHERE key = ? AND at > ?", (key, now - expiry)
            ).fetchone()
            taken = count + amount <= limit
            if taken:
                connection.executemany(
                    "INSERT INTO entries (key, at, expires) VALUES (?, ?, ?)",
                    [(key, now, now + expiry)] * amount,
                )
            connection.execute("COMMIT")
        except BaseException:
            connection.execute("ROLLBACK")
            raise
        return taken

    def get_moving_window(self, key: str, limit: int, expiry: int) -> tuple[float, int]:
        now = time.time()
        count, oldest = (
            self._connection()
            .execute("SELECT count(*), min(at) FROM entries WHERE key = ? AND at > ?", (key, now - expiry))
            .fetchone()
        )
        return (float(oldest) if oldest is not None else now), int(count)
