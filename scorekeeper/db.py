"""The database handle and schema upgrades (Alembic through Flask-Migrate)."""

import sqlite3
from pathlib import Path

from flask import Flask
from flask_migrate import Migrate
from flask_migrate import upgrade as alembic_upgrade
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import event
from sqlalchemy.engine import Engine
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


def upgrade_schema(app: Flask) -> None:
    """Bring the schema to the newest revision, creating it on first start."""
    with app.app_context():
        alembic_upgrade(directory=MIGRATIONS)
