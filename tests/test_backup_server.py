"""``scorekeeper export --all`` / ``--club`` and ``import``: the whole server (or one club) moved
to a fresh install answers every credential on every route exactly as before (issue 43)."""

from __future__ import annotations

import json
import os

import pytest
from sqlalchemy import MetaData, func, select
from sqlalchemy.engine import make_url

from scorekeeper import create_app
from scorekeeper.db import db, upgrade_schema
from scorekeeper.models import Club, Event, Game, Member
from tests.conftest import app_config
from tests.server_fixture import SLUG, answers, populate

POSTGRES = os.environ.get("DATABASE_URL")
needs_postgres = pytest.mark.skipif(not POSTGRES, reason="DATABASE_URL (PostgreSQL) not set")


def fresh_sqlite(tmp_path, name: str) -> str:
    return f"sqlite:///{tmp_path / name}.sqlite"


def fresh_postgres(suffix: str) -> str:
    """A PostgreSQL database of this test's own beside DATABASE_URL's, emptied."""
    from sqlalchemy import create_engine

    given = make_url(POSTGRES)
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    name = f"{given.database}_{worker}_{suffix}".replace("__", "_")
    admin = create_engine(given.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
    admin.dispose()
    return given.set(database=name).render_as_string(hide_password=False)


def install(url: str):
    """A fresh install on ``url``: the schema made by the migrations, nothing in it."""
    app = create_app(app_config(url, PDF_FOLDER="/nonexistent"))
    upgrade_schema(app)
    return app


def close(app) -> None:
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def export(app, *args: str) -> str:
    out = app.test_cli_runner().invoke(args=["export", *args])
    assert out.exit_code == 0, out.output
    return out.stdout


def restore(app, tmp_path, text: str, *extra: str):
    path = tmp_path / "backup.json"
    path.write_text(text, encoding="utf-8")
    return app.test_cli_runner().invoke(args=["import", *extra, str(path)])


def counts(app) -> dict[str, int]:
    with app.app_context():
        meta = MetaData()
        meta.reflect(db.engine)
        return {
            t.name: db.session.scalar(select(func.count()).select_from(t))
            for t in meta.sorted_tables
            if t.name != "alembic_version"
        }


def differences(before: dict, after: dict) -> list:
    return [
        (key, before.get(key), after.get(key))
        for key in sorted(set(before) | set(after))
        if before.get(key) != after.get(key)
    ]


def explain(diff) -> str:
    """One differing answer: where, and the first lines that differ."""
    import difflib

    key, old, new = diff
    if old is None or new is None or old[0] != new[0]:
        return f"{key}: {old and old[0]} -> {new and new[0]}"
    lines = difflib.unified_diff(old[1].splitlines(), new[1].splitlines(), lineterm="", n=0)
    return f"{key}: " + " | ".join(list(lines)[2:8])


def move(tmp_path, source_url: str, target_url: str) -> None:
    source = install(source_url)
    server = populate(source)
    rows = counts(source)
    # Exported before the answers are recorded: a page opened with a device cookie adds to its
    # "My games", so both servers start the same recording from the same state.
    text = export(source, "--all")
    before = answers(source, server)
    close(source)
    target = install(target_url)
    try:
        dry = restore(target, tmp_path, text, "--dry-run")
        assert dry.exit_code == 0 and "nothing written" in dry.output, dry.output
        assert sum(counts(target).values()) == 0
        done = restore(target, tmp_path, text)
        assert done.exit_code == 0, done.output
        assert counts(target) == rows  # every table, the derived summaries too
        after = answers(target, server)
        diffs = differences(before, after)
        assert [explain(d) for d in diffs[:3]] == [] and len(diffs) == 0
        # Not a comparison of nothing: the people got their club, its games and the event.
        assert len(before) > 500
        for who, url in (
            ("owner", f"/c/{SLUG}"),
            ("member", f"/api/clubs/{SLUG}/games"),
            ("director", f"/e/{server.event}"),
        ):
            assert after[(who, url)][0] == 200
        assert after[("stranger", f"/api/clubs/{SLUG}/games")][0] in (401, 403, 404)
        table = json.loads(after[("stranger", f"/api/games/{server.games['table']}")][1])
        assert table["event"]["id"] == server.event
        # The restored server goes on: new rows take numbers past the restored ones (PostgreSQL's
        # sequences moved), and the restored people write as before.
        from tests.clubs.helpers import bearer, join, new_club

        new_club(target.test_client(), "After the move", "Al")
        invite = target.test_client().post(
            f"/api/clubs/{SLUG}/invites", json={}, headers=bearer(server.keys["owner"])
        )
        assert invite.status_code == 201, invite.get_json()
        join(target.test_client(), SLUG, invite.get_json()["invite"], "Newcomer")
        deal = {"trump": "H", "maker": 0, "alone": False, "defender_alone": None, "maker_tricks": 3}
        round2 = json.loads(after[("director", f"/api/events/{server.event}")][1])["rounds"][1]["tables"][1]
        played = target.test_client().post(
            f"/api/games/{round2['game']}/deals", json=deal, headers=bearer(server.edit_keys[round2["game"]])
        )
        assert played.status_code == 201, played.get_json()
    finally:
        close(target)


def test_sqlite_to_sqlite_every_answer_the_same(tmp_path):
    move(tmp_path, fresh_sqlite(tmp_path, "source"), fresh_sqlite(tmp_path, "target"))


@needs_postgres
def test_sqlite_to_postgresql_every_answer_the_same(tmp_path):
    move(tmp_path, fresh_sqlite(tmp_path, "source"), fresh_postgres("target"))


@needs_postgres
def test_postgresql_to_sqlite_every_answer_the_same(tmp_path):
    move(tmp_path, fresh_postgres("source"), fresh_sqlite(tmp_path, "target"))


def test_a_club_moves_alone_to_another_server_with_its_events_and_members(tmp_path):
    source = install(fresh_sqlite(tmp_path, "source"))
    server = populate(source)
    text = export(source, "--club", SLUG)
    backup = json.loads(text)
    assert backup["scope"] == {"club": SLUG}
    assert {c["slug"] for c in backup["tables"]["club"]} == {SLUG}
    assert server.games["personal"] not in text and server.games["secrets"] not in text
    close(source)
    # The other server has clubs, members and games of its own (its ids overlap the backup's).
    target = install(fresh_sqlite(tmp_path, "target"))
    there = populate_other(target)
    done = restore(target, tmp_path, text)
    assert done.exit_code == 0, done.output
    member = target.test_client()
    member.set_cookie("member", server.keys["member"])
    assert member.get(f"/c/{SLUG}").status_code == 200
    games = member.get(
        f"/api/clubs/{SLUG}/games", headers={"Authorization": f"Bearer {server.keys['member']}"}
    )
    assert games.status_code == 200 and server.games["club"] in games.get_data(as_text=True)
    event = target.test_client().get(
        f"/api/events/{server.event}", headers={"Authorization": f"Bearer {server.keys['director']}"}
    )
    assert event.status_code == 200 and event.get_json()["rounds"][0]["tables"][0]["confirmed_by"]
    with target.app_context():
        lodge = db.session.scalar(select(Club).where(Club.slug == SLUG))
        names = set(db.session.scalars(select(Member.name).where(Member.club_id == lodge.id)))
        assert names == {"Olga", "Ada", "Mel"}
        assert db.session.get(Event, server.event).club_id == lodge.id
    # The other server's own club is untouched.
    own = target.test_client()
    own.set_cookie("member", there)
    assert own.get("/c/home-club").status_code == 200
    close(target)


def populate_other(app) -> str:
    from tests.clubs.helpers import new_club

    client = app.test_client()
    made = new_club(client, "Home club", "Hugo")
    client.post(
        "/api/games",
        json={"game": "tally", "players": ["A", "B"], "deals": [{"points": [1, 1]}], "club": "home-club"},
        headers={"Authorization": f"Bearer {made['member_key']}"},
    )
    return made["member_key"]


def test_a_restore_refuses_a_clash_naming_it_and_writes_nothing(tmp_path):
    source = install(fresh_sqlite(tmp_path, "source"))
    populate(source)
    text = export(source, "--all")
    close(source)
    target = install(fresh_sqlite(tmp_path, "target"))
    from tests.clubs.helpers import new_club

    new_club(target.test_client(), "The Lodge", "Someone else")
    before = counts(target)
    done = restore(target, tmp_path, text)
    assert done.exit_code == 1
    assert (
        "Nothing restored: club 1 (row 1): this server already holds a different club with slug 'the-lodge'"
        in done.output
    )
    assert counts(target) == before
    close(target)


def test_restoring_the_same_backup_again_keeps_everything_as_it_was(tmp_path):
    app = install(fresh_sqlite(tmp_path, "one"))
    populate(app)
    text = export(app, "--all")
    before = counts(app)
    done = restore(app, tmp_path, text)
    assert done.exit_code == 0, done.output
    assert "Restored nothing." in done.output and "Already there, kept as they were" in done.output
    assert counts(app) == before
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Game)) == before["game"]
    close(app)
