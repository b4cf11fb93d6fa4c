"""The database handle and schema upgrades (Alembic through Flask-Migrate)."""

import contextlib
import os
import sqlite3
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flask import Flask
from flask_migrate import Migrate
from flask_migrate import upgrade as alembic_upgrade
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import event
from sqlalchemy.engine import CursorResult, Dialect, Engine
from sqlalchemy.orm import DeclarativeBase

MIGRATIONS = str(Path(__file__).resolve().parent / "migrations")


class Base(DeclarativeBase):
    pass


# A write commits and then shows what it wrote: the objects keep their state after the
# commit instead of being loaded again (service._write; a refused write rolls back,
# which does expire them, so a retry reads the game anew).
db = SQLAlchemy(model_class=Base, session_options={"expire_on_commit": False})

# The models' base. db.Model is a class made at run time (Flask-SQLAlchemy's mixins over Base's
# declarative base), and mypy takes no variable as a base class: it sees the class db.Model is.
if TYPE_CHECKING:
    from flask_sqlalchemy.model import Model as _FlaskModel

    class Model(_FlaskModel, DeclarativeBase):
        __abstract__ = True
else:
    Model = db.Model
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
    """Bring the schema to the newest revision, creating it on first start.

    Quietly: a first start's dozen lines of Alembic's INFO stood before the address a host was
    waiting for. ``scorekeeper serve -v`` (``SCOREKEEPER_VERBOSE=1``) shows them; ``scorekeeper
    db upgrade``, a host's own step, always does (migrations/env.py reads the flag)."""
    app.config["QUIET_MIGRATIONS"] = not os.environ.get("SCOREKEEPER_VERBOSE")
    try:
        with app.app_context():
            alembic_upgrade(directory=MIGRATIONS)
    finally:
        app.config.pop("QUIET_MIGRATIONS", None)


class Prepared:
    """A hot statement as SQL text this module owns, run with :meth:`Connection.exec_driver_sql`.

    SQLAlchemy's execution of a Core statement (its compiled cache, a context, the result's
    type processing) cost several times the statement itself on the API's append. Here the
    statement is rendered to its SQL once per database, with named parameters each driver
    takes from a dict (SQLite's ``:name``, psycopg's ``%(name)s``), and runs as driver SQL
    on the session's connection, inside its transaction. That path is public and still
    SQLAlchemy's: a DBAPI error comes back as SQLAlchemy's exception (an IntegrityError is
    a lost race to the write gate) and statement listeners (``before_cursor_execute``) see it.

    The values of the columns written (``columns``) are converted by their column types
    (JSON, SQLite's dates); every other parameter (the WHERE clause's) must be a plain value
    the driver takes as it is: a string or a number. No expanding IN lists.
    """

    def __init__(self, statement: Any, columns: Sequence[str] = ()):
        self.statement = statement
        self.columns = list(columns)  # the INSERT/UPDATE columns given (the rest are WHERE binds)
        self._sql: dict[str, tuple[str, dict[str, Callable[[Any], Any]]]] = {}
        self._readers: dict[str, dict[str, Callable[[Any], Any]]] = {}

    def _for(self, dialect: Dialect) -> tuple[str, dict[str, Callable[[Any], Any]]]:
        """This database's SQL text and the written columns' value converters, made once."""
        found = self._sql.get(dialect.name)
        if found is None:
            sql = self.statement.compile(
                dialect=_named_parameters(dialect), column_keys=self.columns or None
            ).string
            table = self.statement.table.c if self.columns else {}
            processors = {}
            for name in self.columns:
                processor = table[name].type.dialect_impl(dialect).bind_processor(dialect)
                if processor is not None:
                    processors[name] = processor
            found = self._sql[dialect.name] = (sql, processors)
        return found

    def _execute(self, params: Mapping[str, Any]) -> CursorResult[Any]:
        """Run on the session's connection with ``params`` converted by their columns' types."""
        connection = db.session.connection()
        sql, processors = self._for(connection.dialect)
        values = {k: (processors[k](v) if k in processors else v) for k, v in params.items()}
        return connection.exec_driver_sql(sql, values)

    def run(self, params: Mapping[str, Any]) -> int:
        """Execute with ``params``; the rows it matched or wrote."""
        with self._execute(params) as result:
            return result.rowcount

    def rows(self, params: Mapping[str, Any]) -> list[dict[str, Any]]:
        """A SELECT's rows, each a dict by column name, with the values as the driver gives them:
        :meth:`readers` turn the ones a caller reads into what SQLAlchemy would have given."""
        names = [c.key for c in self.statement.selected_columns]
        with self._execute(params) as result:
            return [dict(zip(names, row, strict=True)) for row in result.fetchall()]

    def readers(self) -> dict[str, Callable[[Any], Any]]:
        """Per selected column, what turns its raw value into the column type's (JSON text,
        SQLite's date strings), for the session's database; None passes through."""
        dialect = db.session.connection().dialect
        found = self._readers.get(dialect.name)
        if found is None:
            found = {}
            for column in self.statement.selected_columns:
                processor = column.type.dialect_impl(dialect).result_processor(dialect, None)
                found[column.key] = _none_kept(processor) if processor else _same
            self._readers[dialect.name] = found
        return found


def _named_parameters(dialect: Dialect) -> Dialect:
    """A dialect that writes this database's SQL with named parameters, taken from a dict.

    psycopg's (``%(name)s``) already does. SQLite's writes ``?`` in an order only the
    compiler knows; its driver takes ``:name`` as well, which a dialect of the same kind
    with the named parameter style writes (used to write SQL only: it never connects).
    """
    if not dialect.positional:
        return dialect
    if dialect.name != "sqlite":
        raise NotImplementedError(f"Prepared statements need named parameters; {dialect.name} has none")
    same_kind: Callable[..., Dialect] = type(dialect)  # every dialect takes create_engine's paramstyle
    return same_kind(paramstyle="named")


def _same(value: Any) -> Any:
    return value


def _none_kept(processor: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda value: None if value is None else processor(value)
