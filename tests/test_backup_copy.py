"""``scorekeeper backup --to FILE``: SQLite's online backup, consistent while the app writes;
on PostgreSQL it points to pg_dump (issue 43)."""

from __future__ import annotations

import sqlite3
import threading

from sqlalchemy import func, select

from scorekeeper import create_app
from scorekeeper.db import db, upgrade_schema
from scorekeeper.models import Change, Deal, Game
from tests.conftest import app_config

DEAL = {"points": [1, 2]}


def install(tmp_path):
    app = create_app(app_config(f"sqlite:///{tmp_path / 'live.sqlite'}"))
    upgrade_schema(app)
    return app


def new_game(client) -> tuple[str, str]:
    made = client.post("/api/games", json={"game": "tally", "players": ["Ann", "Bob"], "deals": [DEAL]})
    assert made.status_code == 201, made.get_json()
    return made.get_json()["id"], made.get_json()["edit_key"]


def test_a_copy_taken_while_deals_are_written_is_whole_and_serves_the_same(tmp_path):
    app = install(tmp_path)
    client = app.test_client()
    games = [new_game(client) for _ in range(5)]
    stop = threading.Event()
    written = []

    def scorer():  # the app goes on writing while the copy is taken
        phone = app.test_client()
        while not stop.is_set():
            for game_id, key in games:
                answer = phone.post(
                    f"/api/games/{game_id}/deals", json=DEAL, headers={"Authorization": f"Bearer {key}"}
                )
                assert answer.status_code == 201
                written.append(game_id)

    thread = threading.Thread(target=scorer)
    thread.start()
    try:
        while len(written) < 20:
            stop.wait(0.01)
        copies = []
        for n in range(3):
            target = tmp_path / f"copy{n}.sqlite"
            done = app.test_cli_runner().invoke(args=["backup", "--to", str(target)])
            assert done.exit_code == 0 and f"to {target}" in done.output, done.output
            copies.append(target)
    finally:
        stop.set()
        thread.join()
    for target in copies:
        assert not target.with_name(target.name + "-wal").exists()  # one self-contained file
        with sqlite3.connect(target) as check:
            assert check.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        # One moment of the database: each game's version, history and deals agree.
        copy = create_app(app_config(f"sqlite:///{target}"))
        with copy.app_context():
            for game in db.session.scalars(select(Game)):
                changes = db.session.scalar(select(func.count()).where(Change.game_id == game.id))
                deals = db.session.scalar(select(func.count()).where(Deal.game_id == game.id))
                assert game.version == changes and deals == changes
            db.engine.dispose()
        answer = copy.test_client().get(f"/api/games/{games[0][0]}")
        assert answer.status_code == 200 and answer.get_json()["deals"][0] == DEAL
    with app.app_context():
        db.engine.dispose()


def test_the_copy_replaces_an_older_one_and_never_the_database_itself(tmp_path):
    app = install(tmp_path)
    new_game(app.test_client())
    target = tmp_path / "copy.sqlite"
    target.write_text("an old copy")
    runner = app.test_cli_runner()
    assert runner.invoke(args=["backup", "--to", str(target)]).exit_code == 0
    assert target.read_bytes().startswith(b"SQLite format 3")
    assert oct(target.stat().st_mode & 0o777) == "0o600"
    itself = runner.invoke(args=["backup", "--to", str(tmp_path / "live.sqlite")])
    assert itself.exit_code == 1 and "names the database itself" in itself.output
    nowhere = runner.invoke(args=["backup", "--to", str(tmp_path / "no" / "copy.sqlite")])
    assert nowhere.exit_code == 1 and "No folder" in nowhere.output
    with app.app_context():
        db.engine.dispose()


def test_on_postgresql_it_says_to_use_pg_dump(tmp_path):
    app = create_app(app_config("postgresql://nobody@127.0.0.1:1/none"))
    done = app.test_cli_runner().invoke(args=["backup", "--to", str(tmp_path / "x")])
    assert done.exit_code == 1 and "pg_dump" in done.output and "export --all" in done.output
    assert not (tmp_path / "x").exists()


def test_an_export_taken_while_deals_are_written_is_of_one_moment(tmp_path):
    """export --all reads every table in one transaction: each game's version, history and
    deals in the file agree, though a scorer was writing all along."""
    import json

    app = install(tmp_path)
    client = app.test_client()
    games = [new_game(client) for _ in range(5)]
    stop = threading.Event()
    written = []

    def scorer():
        phone = app.test_client()
        while not stop.is_set():
            for game_id, key in games:
                answer = phone.post(
                    f"/api/games/{game_id}/deals", json=DEAL, headers={"Authorization": f"Bearer {key}"}
                )
                assert answer.status_code == 201
                written.append(game_id)

    thread = threading.Thread(target=scorer)
    thread.start()
    try:
        while len(written) < 20:
            stop.wait(0.01)
        outputs = [app.test_cli_runner().invoke(args=["export", "--all"]) for _ in range(3)]
    finally:
        stop.set()
        thread.join()
    for out in outputs:
        assert out.exit_code == 0, out.output
        tables = json.loads(out.stdout)["tables"]
        for game in tables["game"]:
            changes = sum(1 for c in tables["game_change"] if c["game_id"] == game["id"])
            deals = sum(1 for d in tables["deal"] if d["game_id"] == game["id"])
            assert game["version"] == changes == deals
    with app.app_context():
        db.engine.dispose()
