"""The database handle and schema upgrades (Alembic through Flask-Migrate)."""

from pathlib import Path

from flask import Flask
from flask_migrate import Migrate
from flask_migrate import upgrade as alembic_upgrade
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy.orm import DeclarativeBase

MIGRATIONS = str(Path(__file__).resolve().parent / "migrations")


class Base(DeclarativeBase):
    pass


# A write commits and then shows what it wrote: the objects keep their state after the
# commit instead of being loaded again (service._write; a refused write rolls back,
# which does expire them, so a retry reads the game anew).
db = SQLAlchemy(model_class=Base, session_options={"expire_on_commit": False})
migrate = Migrate(directory=MIGRATIONS)


def upgrade_schema(app: Flask) -> None:
    """Bring the schema to the newest revision, creating it on first start."""
    with app.app_context():
        alembic_upgrade(directory=MIGRATIONS)
