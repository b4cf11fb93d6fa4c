"""The data migration that keeps stored Secrets games valid once every free spy must be sent.

Runs on DATABASE_URL when set (PostgreSQL), else on a scratch SQLite file; it
starts from an empty schema and leaves the database migrated to the newest
revision and empty, as the session fixture expects.
"""

from __future__ import annotations

import os
from datetime import datetime

import sqlalchemy as sa
from flask_migrate import downgrade, upgrade

from scorekeeper import rules
from scorekeeper.db import MIGRATIONS, db
from scorekeeper.games import GAMES
from scorekeeper.rules.base import check_setup, play
from tests.conftest import migrated_to, worker_database

BEFORE = "e02ae4bc14e8"
NAMES = ["Ann", "Bob", "Cid"]


def order(spy, target, secret):
    return {"spy": spy, "target": target, "secret": secret}


FULL = [order(spy, (1 + i % 2), i + 1) for i, spy in enumerate(("club", "diamond", "heart", "spade"))]
# Turn 1: everyone sends all four spies; Ann's Club goes to Bob's 1, which Bob guards: captured.
ALL_SENT = {
    "orders": [
        FULL,
        [order(s, 0, 5) for s in ("club", "diamond", "heart", "spade")],
        [order(s, 0, 6) for s in ("club", "diamond", "heart", "spade")],
    ],
    "guards": [9, 1, 9],
}
# Turn 2: Ann's Club is captured, so three orders are all of hers; the others send four.
ALL_FREE_SENT = {
    "orders": [
        FULL[1:],
        [order(s, 2, 7) for s in ("club", "diamond", "heart", "spade")],
        [order(s, 1, 8) for s in ("club", "diamond", "heart", "spade")],
    ],
    "guards": [8, 1, 2],
}
# Turn 2 again, but Bob keeps his Spade at home.
ONE_HOME = {
    "orders": [FULL[1:], [order(s, 2, 7) for s in ("club", "diamond", "heart")], ALL_FREE_SENT["orders"][2]],
    "guards": [8, 1, 2],
}


def database_url(tmp_path) -> str:
    url = os.environ.get("DATABASE_URL")
    return worker_database(url) if url else f"sqlite:///{tmp_path / 'spies.sqlite'}"


def insert_game(conn, game_id, kind, options, turns):
    now = datetime(2026, 11, 1)
    conn.execute(
        sa.text(
            "INSERT INTO game (id, kind, options, first_dealer, edit_key_hash, version, created_at, updated_at)"
            " VALUES (:id, :kind, :options, 0, 'x', 1, :now, :now)"
        ).bindparams(sa.bindparam("options", type_=sa.JSON)),
        {"id": game_id, "kind": kind, "options": options, "now": now},
    )
    for seat, name in enumerate(NAMES):
        conn.execute(
            sa.text("INSERT INTO seat (game_id, position, name) VALUES (:g, :p, :n)"),
            {"g": game_id, "p": seat, "n": name},
        )
    for position, facts in enumerate(turns):
        conn.execute(
            sa.text(
                "INSERT INTO deal (game_id, position, facts, created_at) VALUES (:g, :p, :facts, :now)"
            ).bindparams(sa.bindparam("facts", type_=sa.JSON)),
            {"g": game_id, "p": position, "facts": facts, "now": now},
        )


def stored_options(conn) -> dict[str, dict]:
    rows = conn.execute(
        sa.select(sa.column("id"), sa.column("options", sa.JSON)).select_from(sa.table("game"))
    )
    return {game_id: options for game_id, options in rows}


def test_stored_secrets_games_with_a_spy_at_home_get_spies_may_stay(tmp_path):
    app = migrated_to(database_url(tmp_path), BEFORE)
    with app.app_context():
        with db.engine.begin() as conn:
            insert_game(conn, "home", "secrets", {"turns": 5}, [ALL_SENT, ONE_HOME])
            insert_game(conn, "full", "secrets", {"turns": 5}, [ALL_SENT, ALL_FREE_SENT])
            insert_game(conn, "empty", "secrets", {"hidden": False}, [])
            insert_game(conn, "other", "secret_agent", {"deals": 4}, [])
        upgrade(directory=MIGRATIONS)
        with db.engine.begin() as conn:
            options = stored_options(conn)
        assert options["home"] == {"turns": 5, "spies_may_stay": True}
        # A captured spy needs no order: that game keeps the original rule, as do the others.
        assert options["full"] == {"turns": 5}
        assert options["empty"] == {"hidden": False} and options["other"] == {"deals": 4}
        # Every stored game is valid under the new rules.
        secrets = GAMES.get("secrets")
        for game_id, turns in (("home", [ALL_SENT, ONE_HOME]), ("full", [ALL_SENT, ALL_FREE_SENT])):
            errors, setup = check_setup(secrets, NAMES, options[game_id], 0)
            assert not errors
            play(secrets, setup, turns)
        # Without the migration the first game would be refused.
        _, strict = check_setup(secrets, NAMES, {"turns": 5}, 0)
        assert rules.check(secrets, strict, [ALL_SENT, ONE_HOME])[0].deal == 1
        # Down again, the option is gone (the older code refuses unknown options); up again, it is back.
        downgrade(directory=MIGRATIONS, revision=BEFORE)
        with db.engine.begin() as conn:
            assert stored_options(conn)["home"] == {"turns": 5}
        upgrade(directory=MIGRATIONS)
        with db.engine.begin() as conn:
            assert stored_options(conn)["home"] == {"turns": 5, "spies_may_stay": True}
            for table in ("deal", "seat", "game"):
                conn.exec_driver_sql(f"DELETE FROM {table}")
        db.engine.dispose()
