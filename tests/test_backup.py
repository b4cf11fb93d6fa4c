"""``scorekeeper export ID...`` and ``scorekeeper import``: the game-records backup (format /1), restored as it was."""

import json
import random

import pytest
from sqlalchemy import func, select

from scorekeeper import rules, service
from scorekeeper.db import db
from scorekeeper.games import GAMES
from scorekeeper.keys import key_matches
from scorekeeper.models import Game, Seat
from tests.rules.test_contract import random_game
from tests.web.test_records_pages import FLAT, PLAYERS, setups_of, store


def every_kind(app, seed=7):
    """A random game of every registered kind at every player count (and variant); their ids and keys."""
    rng = random.Random(seed)
    keys = {}
    with app.app_context():
        for kind in sorted(GAMES):
            for setup in setups_of(kind):
                deals, _ = random_game(GAMES.get(kind), setup, rng)
                game, key = service.create_game(GAMES.get(kind), setup, deals)
                keys[game.id] = key
    return keys


def game_export(app) -> list[str]:
    """``export`` of every game by id: the game-records backup (format /1), which these tests
    check field by field (``export --all`` writes the whole server: tests/test_backup_server.py)."""
    with app.app_context():
        ids = list(db.session.scalars(select(Game.id).order_by(Game.created_at, Game.id)))
    return ["export", *ids]


def records(client, ids):
    return {game_id: client.get(f"/api/games/{game_id}").get_json() for game_id in ids}


def wipe(app):
    """An empty install: every table emptied."""
    with app.app_context():
        for table in reversed(db.metadata.sorted_tables):
            db.session.execute(table.delete())
        db.session.commit()


def count(app, model=Game):
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(model))


def test_backup_and_restore_gives_every_game_back_as_it_was(app, client, tmp_path):
    keys = every_kind(app)
    before = records(client, keys)
    with app.app_context():
        stamps = {g.id: (g.created_at, g.updated_at) for g in db.session.scalars(select(Game))}
    runner = app.test_cli_runner()
    out = runner.invoke(args=game_export(app))
    assert out.exit_code == 0, out.output
    backup = json.loads(out.stdout)
    assert backup["format"] == "scorekeeper-backup/1" and len(backup["games"]) == len(keys)
    for record in backup["games"]:
        assert len(record["edit_key_hash"]) == 64 and keys[record["id"]] not in json.dumps(record)
    path = tmp_path / "backup.json"
    path.write_text(out.stdout, encoding="utf-8")

    wipe(app)
    result = runner.invoke(args=["import", str(path)])
    assert result.exit_code == 0, result.output
    assert f"Restored {len(keys)} games." in result.output
    assert records(client, keys) == before  # same ids, same facts, the same derived record
    with app.app_context():
        for game_id, key in keys.items():
            game = db.session.get(Game, game_id)
            assert key_matches(game.edit_key_hash, key)  # the scorer's key still works
            assert (game.created_at, game.updated_at) == stamps[game_id]
    # The scorer's cookie still lets them enter deals.
    game_id = next(g for g, r in before.items() if r["game"] == "secret_agent")
    client.set_cookie("edit_key", keys[game_id], path=f"/g/{game_id}")
    assert 'id="entry"' in client.get(f"/g/{game_id}").get_data(as_text=True) or before[game_id]["finished"]


def test_export_to_a_file_and_by_id(app, tmp_path):
    one, _ = store(app, "secret_agent", deals=[FLAT])
    store(app, "secret_agent")
    runner = app.test_cli_runner()
    target = tmp_path / "one.json"
    result = runner.invoke(args=["export", one, "-o", str(target)])
    assert result.exit_code == 0, result.output
    data = json.loads(target.read_text(encoding="utf-8"))
    assert [g["id"] for g in data["games"]] == [one] and data["games"][0]["totals"] == [12, 9, 9, 9]
    assert "Exported 1 game" in result.output
    assert runner.invoke(args=["export"]).exit_code == 2  # --all or ids
    missing = runner.invoke(args=["export", "nope"])
    assert missing.exit_code == 1 and "No game with id nope" in missing.output


def test_restore_skips_games_already_there(app, tmp_path):
    game_id, _ = store(app, "secret_agent", deals=[FLAT])
    runner = app.test_cli_runner()
    path = tmp_path / "b.json"
    runner.invoke(args=[*game_export(app), "-o", str(path)])
    result = runner.invoke(args=["import", str(path)])
    assert (
        result.exit_code == 0
        and "Restored 0 games." in result.output
        and f"Skipped 1 game already there: {game_id}" in result.output
    )
    assert count(app) == 1


def test_a_bad_backup_restores_nothing_and_names_the_first_problem(app, tmp_path):
    store(app, "secret_agent", deals=[FLAT])
    store(app, "secret_agent", deals=[FLAT, FLAT])
    runner = app.test_cli_runner()
    data = json.loads(runner.invoke(args=game_export(app)).stdout)
    data["games"][1]["deals"][1]["tricks"] = [4, 3, 3, 4]
    wipe(app)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = runner.invoke(args=["import", str(path)])
    assert result.exit_code == 1
    assert (
        f"Nothing restored: game 2 (id {data['games'][1]['id']}): deal 2, tricks: The tricks add up to 14; a deal has 13"
        in result.output
    )
    assert count(app) == 0 and count(app, Seat) == 0


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (lambda g: g.pop("edit_key_hash"), "“edit_key_hash” must be the 64 hex digits"),
        (lambda g: g.update(id="bad id!"), "“id” must be the game's id"),
        (lambda g: g.update(created_at="yesterday"), "Invalid isoformat string"),
        (lambda g: g.update(game="chess"), "game: Unknown game"),
    ],
)
def test_backup_fields_are_checked(app, tmp_path, change, problem):
    store(app, "secret_agent", deals=[FLAT])
    runner = app.test_cli_runner()
    data = json.loads(runner.invoke(args=game_export(app)).stdout)
    change(data["games"][0])
    wipe(app)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = runner.invoke(args=["import", str(path)])
    assert result.exit_code == 1 and "Nothing restored: game 1" in result.output and problem in result.output
    assert count(app) == 0


def test_a_twice_listed_id_is_refused(app, tmp_path):
    store(app, "secret_agent")
    runner = app.test_cli_runner()
    data = json.loads(runner.invoke(args=game_export(app)).stdout)
    data["games"].append(data["games"][0])
    wipe(app)
    path = tmp_path / "twice.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = runner.invoke(args=["import", str(path)])
    assert result.exit_code == 1 and "this id appears twice" in result.output and count(app) == 0


def test_dry_run_checks_and_writes_nothing(app, tmp_path):
    store(app, "secret_agent", deals=[FLAT])
    runner = app.test_cli_runner()
    path = tmp_path / "b.json"
    runner.invoke(args=[*game_export(app), "-o", str(path)])
    wipe(app)
    result = runner.invoke(args=["import", "--dry-run", str(path)])
    assert result.exit_code == 0 and "1 game checked; nothing written" in result.output and count(app) == 0


def test_import_of_one_game_record_makes_a_new_game_and_prints_its_scoring_link(app, client, tmp_path):
    path = tmp_path / "one.json"
    path.write_text(
        json.dumps({"game": "secret_agent", "players": PLAYERS, "deals": [FLAT]}), encoding="utf-8"
    )
    result = app.test_cli_runner().invoke(args=["import", str(path)])
    assert result.exit_code == 0, result.output
    game_id, key = result.output.split("/g/", 1)[1].strip().split("?key=")
    with app.app_context():
        assert key_matches(db.session.get(Game, game_id).edit_key_hash, key)
    assert client.get(f"/api/games/{game_id}").get_json()["totals"] == [12, 9, 9, 9]


def test_import_refuses_a_file_that_is_not_json(app, tmp_path):
    path = tmp_path / "x.json"
    path.write_bytes(b"not json")
    result = app.test_cli_runner().invoke(args=["import", str(path)])
    assert result.exit_code == 1 and "is not a JSON file" in result.output and count(app) == 0


@pytest.mark.skipif(not hasattr(Game, "deleted_at"), reason="games cannot be deleted in this version")
def test_a_deleted_game_stays_deleted_after_a_restore_and_out_of_the_lists(app, client, tmp_path):
    from scorekeeper.models import utcnow

    game_id, _ = store(app, "secret_agent", deals=[FLAT])
    kept, _ = store(app, "secret_agent", ["Eve", "Fay", "Gus", "Hal"])
    with app.app_context():
        db.session.get(Game, game_id).deleted_at = utcnow()
        db.session.commit()
    assert game_id not in client.get("/games").get_data(as_text=True)
    assert client.get("/player?name=Ann").status_code == 404
    runner = app.test_cli_runner()
    path = tmp_path / "b.json"
    runner.invoke(args=[*game_export(app), "-o", str(path)])
    wipe(app)
    assert runner.invoke(args=["import", str(path)]).exit_code == 0
    with app.app_context():
        assert db.session.get(Game, game_id).deleted_at is not None
        assert db.session.get(Game, kept).deleted_at is None


def test_a_hidden_secrets_game_still_waiting_for_allotments_survives_a_restore(app, client, tmp_path):
    ann = [0, 0, 0, 0, 0, 9, 9, 9, 9, 9]
    record = {"game": "secrets", "players": ["Ann", "Bob", "Cid"], "options": {"hidden": True}}
    with app.app_context():
        kind = GAMES.get("secrets")
        # Ann has given her allotment; Bob and Cid have not yet (turn 1 waits for them).
        setup = rules.Setup(
            ("Ann", "Bob", "Cid"), {"hidden": True, "turns": 5, "values": [ann, None, None]}, 0
        )
        assert kind.waiting_seats(setup.options, 3) == (1, 2)
        game, _key = service.create_game(kind, setup)
        game_id = game.id
    runner = app.test_cli_runner()
    out = runner.invoke(args=game_export(app))
    path = tmp_path / "backup.json"
    path.write_text(out.stdout, encoding="utf-8")
    wipe(app)
    result = runner.invoke(args=["import", str(path)])
    assert result.exit_code == 0, result.output
    with app.app_context():
        restored = db.session.get(Game, game_id)
        assert restored.options["values"] == [ann, None, None] and restored.players == record["players"]
    # A backup is not a loophole: a waiting seat's part may be missing, nothing else may be wrong.
    backup = json.loads(out.stdout)
    backup["games"][0]["options"]["values"][0] = [45, 0, 0, 0, 0, 0, 0, 0, 0, 1]
    path.write_text(json.dumps(backup), encoding="utf-8")
    wipe(app)
    refused = runner.invoke(args=["import", str(path)])
    assert refused.exit_code != 0 and "add up to 45" in refused.output
    assert count(app) == 0


# -- every field is checked before anything is written (issue 16, item 4) -------------------
def exported(app) -> dict:
    return json.loads(app.test_cli_runner().invoke(args=game_export(app)).stdout)


def restore_file(app, tmp_path, data):
    path = tmp_path / "backup.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    wipe(app)
    return app.test_cli_runner().invoke(args=["import", str(path)])


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (lambda g: g.update(totals=5), "“totals” must be a list of 4 whole numbers"),
        (lambda g: g.update(totals=["12", 9, 9, 9]), "“totals” must be a list of 4 whole numbers"),
        (lambda g: g.update(totals=[12, 9, 9]), "“totals” must be a list of 4 whole numbers"),
        (lambda g: g.update(version=2**40), "“version” must be a whole number from 1 to 2147483647"),
        (lambda g: g.update(version=0), "“version” must be a whole number from 1 to"),
        (lambda g: g.update(version=True), "“version” must be a whole number"),
        (lambda g: g.update(draft={"bids": "x", "evil": [1]}), "“draft” must be null"),
        (lambda g: g.update(draft=[1]), "“draft” must be null"),
    ],
)
def test_every_field_of_a_game_is_checked_before_anything_is_written(app, tmp_path, change, problem):
    store(app, "secret_agent", deals=[FLAT])
    store(app, "secret_agent", deals=[FLAT, FLAT])
    data = exported(app)
    change(data["games"][1])
    result = restore_file(app, tmp_path, data)
    assert result.exit_code == 1, result.output
    assert f"Nothing restored: game 2 (id {data['games'][1]['id']}): {problem}" in result.output
    assert "Traceback" not in result.output and count(app) == 0 and count(app, Seat) == 0


@pytest.mark.parametrize(
    ("draft", "problem"),
    [
        ({"bids": "x", "evil": [1]}, "“draft” holds evil, which is not a fact of this game"),
        ({"bids": "x"}, "“draft”: bids:"),
        ({"bids": [3, 3, 3]}, "“draft”: bids:"),
        ("bids", "“draft” must be an object or null"),
    ],
)
def test_a_draft_is_checked_against_the_games_draft_shape(app, tmp_path, draft, problem):
    game_id, _key = store(app, "spades")
    data = exported(app)
    data["games"][0]["draft"] = draft
    result = restore_file(app, tmp_path, data)
    assert result.exit_code == 1 and f"Nothing restored: game 1 (id {game_id}): {problem}" in result.output
    assert count(app) == 0


def test_a_good_draft_is_restored(app, tmp_path):
    game_id, _key = store(app, "spades")
    with app.app_context():
        service.save_draft(db.session.get(Game, game_id), {"bids": [3, 4, 2, 4]})
    result = restore_file(app, tmp_path, exported(app))
    assert result.exit_code == 0, result.output
    with app.app_context():
        assert db.session.get(Game, game_id).draft == {"bids": [3, 4, 2, 4]}


def test_a_version_that_fits_the_database_is_kept(app, tmp_path):
    game_id, _key = store(app, "secret_agent", deals=[FLAT])
    data = exported(app)
    data["games"][0]["version"] = 2**31 - 1
    assert restore_file(app, tmp_path, data).exit_code == 0
    with app.app_context():
        assert db.session.get(Game, game_id).version == 2**31 - 1


# -- no false warnings (issue 16, item 5) ----------------------------------------------------
def test_unfinished_hidden_secrets_games_restore_without_a_false_warning(app, client, tmp_path):
    values = [[0, 0, 0, 0, 0, 9, 9, 9, 9, 9]] * 3
    # Ann's Club steals Bob's J (worth 9 to him); Bob and Cid keep their spies at home.
    turn = {"orders": [[{"spy": "club", "target": 1, "secret": "J"}], [], []], "guards": ["A", "A", "A"]}
    game_id, _key = store(
        app,
        "secrets",
        players=["Ann", "Bob", "Cid"],
        deals=[turn],
        options={"hidden": True, "values": values, "spies_may_stay": True},
    )
    data = exported(app)
    # The record's totals are the public ones: Ann's theft of a hidden value is withheld.
    assert data["games"][0]["totals"] == [None, 0, 0]
    result = restore_file(app, tmp_path, data)
    assert result.exit_code == 0, result.output
    assert "other totals" not in result.output
    # A total the file does give, and that the rules contradict, is still reported.
    data["games"][0]["totals"] = [None, 5, 0]
    result = restore_file(app, tmp_path, data)
    assert result.exit_code == 0 and "the rules give other totals than the file for 1 game" in result.output
    assert client.get(f"/api/games/{game_id}").get_json()["totals"] == [None, 0, 0]


def test_an_old_secrets_backup_with_a_spy_at_home_restores_with_spies_may_stay(app, tmp_path):
    turn = {"orders": [[{"spy": "club", "target": 1, "secret": 4}], [], []], "guards": [1, 1, 1]}
    game_id, _key = store(
        app, "secrets", players=["Ann", "Bob", "Cid"], deals=[turn], options={"spies_may_stay": True}
    )
    data = exported(app)
    del data["games"][0]["options"]["spies_may_stay"]  # written before the option existed
    result = restore_file(app, tmp_path, data)
    assert result.exit_code == 0, result.output
    with app.app_context():
        assert db.session.get(Game, game_id).options["spies_may_stay"] is True


def test_a_snapshot_begun_after_a_read_is_still_one_moment(app):
    """export --club looks the club up before it reads the tables: that read's transaction is
    ended, so the snapshot's own begins at the snapshot's level (PostgreSQL fixes a level at a
    transaction's start, and warned once that it was ignored)."""
    import warnings

    from scorekeeper.backup import snapshot

    with app.app_context():
        db.session.scalar(select(func.count()).select_from(Game))  # the lookup before
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            snapshot.begin_snapshot()
        connection = db.session.connection()
        if db.engine.dialect.name == "postgresql":
            assert connection.exec_driver_sql("SHOW transaction_isolation").scalar() == "repeatable read"
        else:
            assert connection.connection.dbapi_connection.in_transaction
        db.session.rollback()


def test_a_snapshot_is_not_begun_over_changes_not_yet_written(app, client):
    """Ending the transaction before the snapshot must never drop a change: it refuses instead."""
    from scorekeeper.backup import snapshot

    game_id = client.post("/api/games", json={"game": "tally", "players": ["Ann", "Bob"]}).get_json()["id"]
    with app.app_context():
        game = db.session.get(Game, game_id)
        game.archived = True
        with pytest.raises(RuntimeError, match="not yet written"):
            snapshot.begin_snapshot()
        assert game in db.session.dirty  # still there, to be written or dropped by its owner
        db.session.rollback()
