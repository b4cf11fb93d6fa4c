"""Upgrading an install from before clubs: everything goes into one club, "Home", nothing lost.

One database made by release 0.2.0 is kept as a fixture (tests/fixtures/release-0.2.0.sqlite,
made by the script beside it); the other test builds the old schema on DATABASE_URL (PostgreSQL
in CI's second run) and migrates it there.
"""

from __future__ import annotations

import os
import re
import shutil
from datetime import datetime
from pathlib import Path

import sqlalchemy as sa
from flask_migrate import downgrade, upgrade

from scorekeeper import create_app
from scorekeeper.db import MIGRATIONS, db, upgrade_schema
from tests.conftest import migrated_to, worker_database

from .helpers import bearer

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "release-0.2.0.sqlite"
BEFORE = "c5e8a1d3f027"


def test_a_release_0_2_database_moves_into_the_home_club_with_nothing_lost(tmp_path):
    path = tmp_path / "old.sqlite"
    shutil.copy(FIXTURE, path)
    config = {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}", "AUTO_MIGRATE": False, "SECRET_KEY": "up"}
    app = create_app({**config, "TESTING": True, "WTF_CSRF_ENABLED": False, "RATELIMIT_ENABLED": False})
    with app.app_context():
        before = {
            table: db.session.execute(sa.text(f"SELECT COUNT(*) FROM {table}")).scalar()
            for table in ("game", "seat", "deal", "player", "event", "game_change")
        }
        names = sorted(db.session.execute(sa.text("SELECT name FROM seat")).scalars())
    upgrade_schema(app)
    with app.app_context():
        after = {
            table: db.session.execute(sa.text(f"SELECT COUNT(*) FROM {table}")).scalar()
            for table in ("game", "seat", "deal", "player", "event", "game_change")
        }
        assert after == before and before["game"] == 3 and before["player"] == 2
        assert sorted(db.session.execute(sa.text("SELECT name FROM seat")).scalars()) == names
        clubs = db.session.execute(sa.text("SELECT id, slug, name FROM club")).all()
        assert [(slug, name) for _id, slug, name in clubs] == [("home", "Home")]
        home = clubs[0][0]
        for table in ("game", "player", "event"):
            assert set(db.session.execute(sa.text(f"SELECT club_id FROM {table}")).scalars()) == {home}
        private = dict(db.session.execute(sa.text("SELECT name, private FROM player")).all())
        assert {k: bool(v) for k, v in private.items()} == {"Dot": True, "Eve": False}
    # The operator's first admin link, then the club's games and ratings as before.
    printed = app.test_cli_runner().invoke(args=["clubs", "invite", "Home", "--admin"])
    assert printed.exit_code == 0, printed.output
    token = re.search(r"/c/home/join/([A-Za-z0-9_-]+)", printed.output).group(1)
    client = app.test_client()
    joined = client.post("/api/clubs/home/join", json={"invite": token, "name": "Operator"})
    assert joined.status_code == 201 and joined.json["role"] == "admin"
    key = bearer(joined.json["member_key"])
    assert len(client.get("/api/clubs/home/games", headers=key).json["games"]) == 3
    rated = client.get("/api/clubs/home/ratings", headers=key).json
    # The finished tally (Ann 55, Bob 5, Cid 3) counts; Dot, private, is rated but not listed.
    assert [p["name"] for p in rated["players"]] == ["Ann", "Bob", "Cid"]
    assert client.get("/api/clubs/home", headers=key).json["players"] == ["Ann", "Bob", "Cid", "Dot", "Eve"]
    listed = app.test_cli_runner().invoke(args=["clubs", "list"])
    assert "home\tHome\t1 members\t3 games" in listed.output


def database_url(tmp_path) -> str:
    url = os.environ.get("DATABASE_URL")
    return worker_database(url) if url else f"sqlite:///{tmp_path / 'clubs.sqlite'}"


def test_the_migration_runs_both_ways_on_this_database(tmp_path):
    """On the suite's database (PostgreSQL in CI's second run): old rows in, up, down, up."""
    app = migrated_to(database_url(tmp_path), BEFORE)
    now = datetime(2026, 11, 1)
    with app.app_context():
        with db.engine.begin() as conn:
            conn.execute(
                sa.text(
                    "INSERT INTO game (id, kind, options, first_dealer, edit_key_hash, version, created_at,"
                    " updated_at, archived) VALUES ('g1', 'tally', '{}', 0, 'x', 1, :now, :now, false)"
                ),
                {"now": now},
            )
            conn.execute(
                sa.text(
                    "INSERT INTO seat (game_id, position, name) VALUES ('g1', 0, 'Ann'), ('g1', 1, 'Bob')"
                )
            )
            conn.execute(
                sa.text(
                    "INSERT INTO player (name, private, created_at) VALUES ('Bob', true, :now), ('Eve', false, :now)"
                ),
                {"now": now},
            )
        upgrade(directory=MIGRATIONS)
        with db.engine.begin() as conn:
            home = conn.execute(sa.text("SELECT id FROM club WHERE slug = 'home'")).scalar()
            assert conn.execute(sa.text("SELECT club_id FROM game WHERE id = 'g1'")).scalar() == home
            players = conn.execute(sa.text("SELECT name, private, club_id FROM player ORDER BY name")).all()
            assert [(n, bool(p), c) for n, p, c in players] == [("Bob", True, home), ("Eve", False, home)]
            # A new player row still gets an id of its own after the copy.
            conn.execute(
                sa.text(
                    "INSERT INTO player (club_id, name, private, created_at) VALUES (:c, 'Zoe', false, :now)"
                ),
                {"c": home, "now": now},
            )
        downgrade(directory=MIGRATIONS, revision=BEFORE)
        with db.engine.begin() as conn:
            assert sorted(conn.execute(sa.text("SELECT name FROM player")).scalars()) == ["Bob", "Eve", "Zoe"]
        upgrade(directory=MIGRATIONS)
        with db.engine.begin() as conn:
            for table in ("device_game", "member_key", "member", "invite", "player", "seat", "game", "club"):
                conn.exec_driver_sql(f"DELETE FROM {table}")
        db.engine.dispose()
