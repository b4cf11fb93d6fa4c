"""Names that look the same are one name (issue 57, P15): a Cyrillic О in "Оwn" beside "Own" is
refused as a member already there, as "own" and "ＯＷＮ" are; accents still make two names."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from flask_migrate import downgrade, upgrade

from scorekeeper.db import MIGRATIONS, db
from scorekeeper.models import folded
from tests.conftest import migrated_to

from .helpers import new_club
from .test_upgrade import database_url

LOOK_ALIKES = [
    ("Own", "Оwn"),  # Cyrillic capital O
    ("Olga", "Оlga"),
    ("Mel", "Mеl"),  # Cyrillic small e
    ("Ana", "Αna"),  # Greek capital alpha
    ("Bob", "B0b"),  # a zero for an o
    ("Zoe", "ＺＯＥ"),  # compatibility forms and case, as before
]


@pytest.mark.parametrize(("first", "second"), LOOK_ALIKES)
def test_a_look_alike_folds_to_the_same_name(first, second):
    assert first != second and folded(first) == folded(second)


@pytest.mark.parametrize(("first", "second"), [("Jose", "José"), ("Lukasz", "Łukasz"), ("Ann", "Anne")])
def test_accents_and_letters_still_make_two_names(first, second):
    assert folded(first) != folded(second)


@pytest.mark.parametrize(("first", "second"), LOOK_ALIKES)
def test_a_member_who_looks_like_another_is_refused(app, client, first, second):
    made = new_club(client, "The Lodge", first)
    joined = app.test_client().post(
        "/api/clubs/the-lodge/join", json={"invite": made["invite"], "name": second}
    )
    assert joined.status_code == 409, joined.json
    error = joined.json["errors"][0]
    assert error["field"] == "name" and error["message"].startswith(f"{first} is a member already")
    members = client.get(
        "/api/clubs/the-lodge", headers={"Authorization": f"Bearer {made['member_key']}"}
    ).json
    assert [m["name"] for m in members["members"]] == [first]


def test_the_migration_refolds_members_and_keeps_two_who_look_the_same(tmp_path):
    """Members joined under the old rule as "Own" and "Оwn" both stay; a new look-alike meets the first."""
    app = migrated_to(database_url(tmp_path), "a8d4e6f1c203")
    with app.app_context():
        with db.engine.begin() as conn:
            conn.execute(
                sa.text(
                    "INSERT INTO club (slug, name, created_at, version) VALUES ('c', 'C', '2026-11-01', 1)"
                )
            )
            club = conn.execute(sa.text("SELECT id FROM club")).scalar()
            for name, old in (("Own", "own"), ("Оwn", "оwn"), ("Ann", "ann")):
                conn.execute(
                    sa.text(
                        "INSERT INTO member (club_id, name, folded, role, created_at)"
                        " VALUES (:c, :n, :f, 'member', '2026-11-01')"
                    ),
                    {"c": club, "n": name, "f": old},
                )
        upgrade(directory=MIGRATIONS)
        with db.engine.begin() as conn:
            rows = dict(conn.execute(sa.text("SELECT name, folded FROM member")).all())
        assert rows["Own"] == folded("Own") and rows["Ann"] == "ann"
        assert rows["Оwn"].startswith(folded("Own") + "#")
        downgrade(directory=MIGRATIONS, revision="a8d4e6f1c203")
        with db.engine.begin() as conn:
            rows = dict(conn.execute(sa.text("SELECT name, folded FROM member")).all())
        assert rows == {"Own": "own", "Оwn": "оwn", "Ann": "ann"}
        upgrade(directory=MIGRATIONS)
        with db.engine.begin() as conn:
            for table in ("member", "club"):
                conn.exec_driver_sql(f"DELETE FROM {table}")
        db.engine.dispose()


def test_an_event_refuses_two_players_who_look_the_same(client):
    made = new_club(client, "The Lodge", "Olga")
    body = {
        "name": "Night",
        "format": "progressive",
        "game": "euchre",
        "players": ["Own", "Bob", "Оwn", "Di"],
    }
    r = client.post(
        "/api/clubs/the-lodge/events", json=body, headers={"Authorization": f"Bearer {made['member_key']}"}
    )
    assert r.status_code == 422 and r.json["errors"][0]["field"] == "players"
    assert "Own" in r.json["errors"][0]["message"]
