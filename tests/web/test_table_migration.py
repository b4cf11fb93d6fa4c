"""The history migration goes down and up again (on a scratch SQLite file, whatever DATABASE_URL says)."""

from __future__ import annotations

from flask_migrate import downgrade, upgrade
from sqlalchemy import inspect

from scorekeeper import create_app
from scorekeeper.db import MIGRATIONS, db


def test_the_history_migration_downgrades_and_upgrades(tmp_path):
    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'migrate.sqlite'}",
            "AUTO_MIGRATE": False,
            "SECRET_KEY": "migrate",
        }
    )
    with app.app_context():
        upgrade(directory=MIGRATIONS)
        assert "game_change" in inspect(db.engine).get_table_names()
        assert "deleted_at" in {c["name"] for c in inspect(db.engine).get_columns("game")}
        downgrade(directory=MIGRATIONS, revision="a2a667468676")
        assert "game_change" not in inspect(db.engine).get_table_names()
        assert "deleted_at" not in {c["name"] for c in inspect(db.engine).get_columns("game")}
        upgrade(directory=MIGRATIONS)
        assert "game_change" in inspect(db.engine).get_table_names()
        db.engine.dispose()
