"""A table link scores its table's game, nothing else (issue 57, N11): its phone may not rematch
the table into club games that count in the ratings, archive the live table or bring back an
archived one, and is not offered to."""

from __future__ import annotations

from scorekeeper.clubs.service import remember_game
from scorekeeper.db import db
from scorekeeper.models import Game
from tests.events.test_table_links import entry, links, make, start


def table_phone(app, client):
    event_id, key = make(app)
    one = links(client, event_id, key)[0]
    rnd = start(client, event_id, key)
    game_id = rnd["tables"][0]["game"]
    phone = app.test_client()
    assert 'id="entry"' in phone.get(one).get_data(as_text=True)  # the game's key is in its cookie
    return phone, game_id, event_id, key


def listed_here(app, phone, game_id):
    """The table's game on the phone's list of games (as a phone that opened it by its page)."""
    phone.set_cookie("device", "table-phone-0001")
    with app.app_context():
        remember_game("table-phone-0001", game_id)
        db.session.commit()


def games(app):
    with app.app_context():
        return db.session.query(Game).count()


def archived(app, game_id):
    with app.app_context():
        return db.session.get(Game, game_id).archived


def test_a_table_link_cannot_rematch_the_table(app, client):
    phone, game_id, _event, _key = table_phone(app, client)
    assert phone.post(f"/g/{game_id}/deals", data=entry(0, 3)).status_code in (200, 303)  # it scores
    before = games(app)
    assert phone.post(f"/g/{game_id}/rematch").status_code == 403
    assert games(app) == before


def test_a_table_link_cannot_archive_the_live_table(app, client):
    phone, game_id, _event, _key = table_phone(app, client)
    refused = phone.post(f"/g/{game_id}/archive")
    assert refused.status_code in (403, 409) and not archived(app, game_id)
    # Not offered either: where the phone lists the table's game, it has no Archive.
    listed_here(app, phone, game_id)
    home = phone.get("/").get_data(as_text=True)
    assert f'href="/g/{game_id}"' in home and f"/g/{game_id}/archive" not in home
    listed = phone.get("/games?archived=1").get_data(as_text=True)
    assert f"/g/{game_id}/unarchive" not in listed


def test_a_table_link_cannot_bring_back_an_archived_table(app, client):
    phone, game_id, _event, _key = table_phone(app, client)
    with app.app_context():
        db.session.get(Game, game_id).archived = True
        db.session.commit()
    listed_here(app, phone, game_id)
    refused = phone.post(f"/g/{game_id}/unarchive")
    assert refused.status_code in (403, 409) and archived(app, game_id)
    listed = phone.get("/games?archived=1").get_data(as_text=True)
    assert f'href="/g/{game_id}"' in listed and f"/g/{game_id}/unarchive" not in listed


def test_a_game_of_no_event_is_still_rematched_and_archived_by_its_scorer(client, new_game):
    path = new_game()
    game_id = path.split("/g/", 1)[1].split("?")[0].strip("/")
    assert f"/g/{game_id}/archive" in client.get("/").get_data(as_text=True)
    assert client.post(f"/g/{game_id}/archive").status_code == 303
    assert client.post(f"/g/{game_id}/unarchive").status_code == 303
    assert client.post(f"/g/{game_id}/rematch").status_code == 303
