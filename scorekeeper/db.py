"""The database handle and schema upgrades (Alembic through Flask-Migrate)."""

import contextlib
import os
import sqlite3
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from flask import Flask
from flask_migrate import Migrate
from flask_migrate import upgrade as alembic_upgrade
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import event
from sqlalchemy.engine import Dialect, Engine
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import DeclarativeBase

MIGRATIONS = str(Path(__file__).resolve().parent / "migrations")


class Base(DeclarativeBase):
    pass


# A write commits and then shows what it wrote: the objects keep their state after the
# commit instead of being loaded again (service._write; a refused write rolls back,
# which does expire them, so a retry reads the game anew).
db = SQLAlchemy(model_class=Base, session_options={"expire_on_commit": False})
migrate = Migrate(directory=MIGRATIONS)


@event.listens_for(Engine, "connect")
def sqlite_write_ahead(dbapi_connection, _record) -> None:
    """SQLite in write-ahead-log mode, synced at checkpoints: a deal's commit is one append, not
    several fsyncs, and pages read while a deal is written. A crash of the app loses nothing;
    only a power cut can lose the last moment's writes (PostgreSQL is the server's choice for more).
    """
    if not isinstance(dbapi_connection, sqlite3.Connection):
        return
    cursor = dbapi_connection.cursor()
    try:
        if cursor.execute("PRAGMA database_list").fetchone()[2]:  # a file, not an in-memory database
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
    finally:
        cursor.close()


try:
    import fcntl
except ImportError:  # Windows: writers wait in SQLite's own busy handler
    fcntl = None  # type: ignore[assignment]

_writer_thread = threading.Lock()
_writer_files: dict[tuple[int, str], int] = {}


@contextlib.contextmanager
def one_writer() -> Iterator[None]:
    """Hold the app's SQLite write turn while a write transaction runs.

    SQLite lets one writer in at a time and makes the others poll in growing sleeps
    (1, 2, 5, 10... ms): with a few workers and threads, those sleeps rather than the
    work would set the pace of the writes. Writers queue here instead (a thread lock
    in the process, an exclusive lock on a file beside the database across processes)
    and each wakes the moment the one before it is done. PostgreSQL, an in-memory
    database or a platform without ``fcntl``: nothing to do.
    """
    url = db.engine.url
    path = url.database if url.get_backend_name() == "sqlite" else None
    if fcntl is None or not path or path == ":memory:" or path.startswith("file:"):
        yield
        return
    with _writer_thread:
        key = (os.getpid(), path)  # a forked worker opens its own: a lock belongs to an open file
        fd = _writer_files.get(key)
        if fd is None:
            fd = _writer_files[key] = os.open(f"{path}-writer.lock", os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)


def upgrade_schema(app: Flask) -> None:
    """Bring the schema to the newest revision, creating it on first start."""
    with app.app_context():
        alembic_upgrade(directory=MIGRATIONS)


class Prepared:
    """A hot statement SQLAlchemy compiles once per dialect and the DBAPI cursor runs directly.

    SQLAlchemy's own execution builds a context per statement, which on the API's append
    cost several times the statement itself. Here SQLAlchemy still writes the SQL (each
    dialect's own) and converts the values (each column type's bind processor: JSON, dates),
    once per parameter set; the statement then runs on the session's connection, inside its
    transaction. For statements whose parameters are plain values: no expanding IN lists.
    """

    def __init__(self, statement: Any, columns: Sequence[str] = ()):
        self.statement = statement
        self.columns = list(columns)  # the INSERT/UPDATE columns given (the rest are WHERE binds)
        self._compiled: dict[str, tuple[str, list[str] | None, dict[str, Callable]]] = {}

    def _for(self, dialect: Dialect) -> tuple[str, list[str] | None, dict[str, Callable]]:
        found = self._compiled.get(dialect.name)
        if found is None:
            compiled = self.statement.compile(dialect=dialect, column_keys=self.columns or None)
            processors = {}
            for name, bind in compiled.binds.items():
                processor = bind.type.dialect_impl(dialect).bind_processor(dialect)
                if processor is not None:
                    processors[name] = processor
            order = list(compiled.positiontup) if compiled.positional else None
            found = self._compiled[dialect.name] = (compiled.string, order, processors)
        return found

    def _execute(self, params: Mapping[str, Any]) -> Any:
        """Run on the session's connection with ``params`` converted by their columns' types;
        the open DBAPI cursor (the caller closes it). A DBAPI error is raised as SQLAlchemy's
        (an IntegrityError is a lost race to the write gate)."""
        connection = db.session.connection()
        sql, order, processors = self._for(connection.dialect)
        values = {k: (processors[k](v) if k in processors else v) for k, v in params.items()}
        args = [values[k] for k in order] if order is not None else values
        # SQLAlchemy's statement listeners (counters, tracing) see these statements too, as its own
        # execution would show them. (The engine's echo does not log them.)
        cursor = connection.connection.dbapi_connection.cursor()
        for listener in connection.dispatch.before_cursor_execute:
            listener(connection, cursor, sql, args, None, False)
        dbapi_error = connection.dialect.loaded_dbapi.Error
        try:
            cursor.execute(sql, args)
        except dbapi_error as exc:
            cursor.close()
            raise DBAPIError.instance(sql, values, exc, dbapi_error) from exc
        return cursor

    def run(self, params: Mapping[str, Any]) -> int:
        """Execute with ``params``; the rows it matched or wrote."""
        cursor = self._execute(params)
        try:
            return cursor.rowcount
        finally:
            cursor.close()

    def rows(self, params: Mapping[str, Any]) -> list[dict[str, Any]]:
        """A SELECT's rows, each a dict by column name, with the values as the driver gives them:
        :meth:`readers` turn the ones a caller reads into what SQLAlchemy would have given."""
        names = [c.key for c in self.statement.selected_columns]
        cursor = self._execute(params)
        try:
            return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]
        finally:
            cursor.close()

    def readers(self) -> dict[str, Callable[[Any], Any]]:
        """Per selected column, what turns its raw value into the column type's (JSON text,
        SQLite's date strings), for the session's database; None passes through."""
        dialect = db.session.connection().dialect
        key = f"{dialect.name}:readers"
        found = self._compiled.get(key)
        if found is None:
            found = {}
            for column in self.statement.selected_columns:
                processor = column.type.dialect_impl(dialect).result_processor(dialect, None)
                found[column.key] = _none_kept(processor) if processor else _same
            self._compiled[key] = found  # type: ignore[assignment]
        return found  # type: ignore[return-value]


def _same(value: Any) -> Any:
    return value


def _none_kept(processor: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda value: None if value is None else processor(value)
