"""A club's pages without JavaScript: make a club, invite, join by the link, see and leave."""

from __future__ import annotations

import re

from sqlalchemy import func, select

from scorekeeper.db import db
from scorekeeper.models import DeviceGame, Game

from .helpers import as_member, bearer, club_game, join, new_club


def csrf_off(app):
    app.config["WTF_CSRF_ENABLED"] = False


def test_a_club_is_made_on_its_page_and_the_maker_owns_it(app, client):
    form = client.get("/clubs/new")
    assert form.status_code == 200 and 'name="name"' in form.get_data(as_text=True)
    made = client.post("/clubs/new", data={"name": "Friday Spades", "player": "Olga"})
    assert made.status_code == 303 and made.headers["Location"].endswith("/c/friday-spades")
    cookie = made.headers.getlist("Set-Cookie")
    member_cookie = next(c for c in cookie if c.startswith("member="))
    assert (
        "HttpOnly" in member_cookie
        and "SameSite=Lax" in member_cookie
        and "Max-Age=34560000" in member_cookie
    )
    page = client.get("/c/friday-spades").get_data(as_text=True)
    assert "Friday Spades" in page and "Olga" in page and "Make an invite link" in page
    assert "Friday Spades" in client.get("/").get_data(as_text=True)
    # A stranger: the same 404 as a club that does not exist.
    stranger = app.test_client()
    assert stranger.get("/c/friday-spades").status_code == 404
    hidden = stranger.get("/c/friday-spades").get_data(as_text=True).replace("friday-spades", "SLUG")
    missing = stranger.get("/c/no-such-club").get_data(as_text=True).replace("no-such-club", "SLUG")
    assert hidden == missing and "Friday Spades" not in hidden


def test_a_bad_club_form_keeps_what_was_typed_and_names_the_field(client):
    refused = client.post("/clubs/new", data={"name": "x" * 81, "player": "Olga"})
    assert refused.status_code == 422
    page = refused.get_data(as_text=True)
    assert 'value="Olga"' in page and 'aria-invalid="true"' in page


def test_joining_by_the_invite_link_picks_a_free_player(app, client):
    made = new_club(client, "Euchre")
    club_game(client, "euchre", made["member_key"], ["Ann", "Bob"])
    phone = app.test_client()
    link = f"/c/euchre/join/{made['invite']}"
    page = phone.get(link).get_data(as_text=True)
    assert "Join Euchre" in page and 'value="Ann"' in page and 'value="Bob"' in page
    joined = phone.post(link, data={"pick": "Bob", "name": ""})
    assert joined.status_code == 303
    club_page = phone.get("/c/euchre").get_data(as_text=True)
    assert "You are Bob here." in club_page
    # Bob is taken now: the next newcomer is offered Ann only.
    assert 'value="Bob"' not in app.test_client().get(link).get_data(as_text=True)
    nobody = app.test_client().post(link, data={"pick": "", "name": ""})
    assert nobody.status_code == 422 and "Pick your name" in nobody.get_data(as_text=True)
    assert app.test_client().get("/c/euchre/join/not-the-token").status_code == 404


def test_removing_a_member_stops_their_live_cookie_at_once(app, client):
    made = new_club(client, "Removal")
    bob = join(app.test_client(), "removal", made["invite"], "Bob")
    phone = as_member(app, bob["member_key"])
    assert phone.get("/c/removal").status_code == 200
    owner = as_member(app, made["member_key"])
    page = owner.get("/c/removal").get_data(as_text=True)
    member_id = re.search(r"/c/removal/members/(\d+)/remove", page).group(1)
    assert owner.post(f"/c/removal/members/{member_id}/remove", data={"confirmed": "yes"}).status_code == 303
    assert phone.get("/c/removal").status_code == 404
    assert phone.get("/c/removal/players").status_code == 404
    assert "Removal" not in phone.get("/").get_data(as_text=True)


def test_an_admin_revokes_an_invite_on_the_page(app, client):
    made = new_club(client, "Revoke")
    owner = as_member(app, made["member_key"])
    shown = owner.post("/c/revoke/invites", data={"role": "member", "expires": ""})
    assert shown.status_code == 200
    link = re.search(r"/c/revoke/join/[A-Za-z0-9_-]+", shown.get_data(as_text=True)).group(0)
    assert "<svg" in shown.get_data(as_text=True)  # the QR code
    assert app.test_client().get(link).status_code == 200
    page = owner.get("/c/revoke").get_data(as_text=True)
    for invite_id in re.findall(r"/c/revoke/invites/(\d+)/revoke", page):
        assert owner.post(f"/c/revoke/invites/{invite_id}/revoke").status_code == 303
    assert app.test_client().get(link).status_code == 404


def test_my_games_are_this_devices_games_and_nobody_elses(app, client):
    mine = client.post("/new/tally", data={"players_0": "Ann", "players_1": "Bob", "first_dealer": "0"})
    assert mine.status_code == 303
    theirs = app.test_client()
    theirs.post("/new/tally", data={"players_0": "Zed", "players_1": "Yan", "first_dealer": "0"})
    home = client.get("/").get_data(as_text=True)
    assert "Ann" in home and "Zed" not in home
    assert "Zed" not in client.get("/games").get_data(as_text=True)
    fresh = app.test_client().get("/").get_data(as_text=True)
    assert "Ann" not in fresh and "Zed" not in fresh
    # Opening a game's link lists it on that device too.
    game_id = mine.headers["Location"].rsplit("/", 1)[1]
    viewer = app.test_client()
    assert viewer.get(f"/g/{game_id}").status_code == 200
    assert "Ann" in viewer.get("/").get_data(as_text=True)


def test_the_new_game_form_makes_one_game_however_often_it_is_sent(app, client):
    made = new_club(client, "Double tap")
    browser = as_member(app, made["member_key"])
    form = browser.get("/new/tally").get_data(as_text=True)
    token = re.search(r'name="submit_token" value="([^"]+)"', form).group(1)
    assert '<option value="double-tap">Double tap</option>' in form
    data = {
        "players_0": "Ann",
        "players_1": "Bob",
        "first_dealer": "0",
        "club": "double-tap",
        "submit_token": token,
    }
    first = browser.post("/new/tally", data=data)
    second = browser.post("/new/tally", data=data)
    assert first.status_code == second.status_code == 303
    assert first.headers["Location"] == second.headers["Location"]
    with app.app_context():
        assert db.session.scalar(select(func.count(Game.id))) == 1
    listed = browser.get("/api/clubs/double-tap/games", headers=bearer(made["member_key"]))
    assert len(listed.json["games"]) == 1
    # The club was the last choice: it is preselected next time.
    again = browser.get("/new/tally").get_data(as_text=True)
    assert '<option selected value="double-tap">' in again or '<option value="double-tap" selected>' in again


def test_a_club_admin_may_correct_any_club_game(app, client):
    made = new_club(client, "Corrections")
    game = club_game(client, "corrections", made["member_key"], ["Ann", "Bob"], [{"points": [1, 2]}])
    bob = join(app.test_client(), "corrections", made["invite"], "Bob")
    admin, member = as_member(app, made["member_key"]), as_member(app, bob["member_key"])
    assert 'action="/g/' + game["id"] + '/deals"' in admin.get(f"/g/{game['id']}").get_data(as_text=True)
    assert 'action="/g/' + game["id"] + '/deals"' not in member.get(f"/g/{game['id']}").get_data(as_text=True)
    assert member.post(f"/g/{game['id']}/delete").status_code == 403
    assert admin.post(f"/g/{game['id']}/delete").status_code == 303


def test_a_first_visit_lists_its_game_on_return_and_a_cookieless_look_writes_nothing(app, client):
    """A device's first look at a game has no device cookie yet: the game rides in a cookie
    beside the new one and goes under "My games" when the device comes back to its lists. A
    visitor that keeps no cookie (a link preview, a crawler) only reads: no row for it."""
    made = client.post("/new/tally", data={"players_0": "Ann", "players_1": "Bob", "first_dealer": "0"})
    game_id = made.headers["Location"].rsplit("/", 1)[1]

    def rows() -> int:
        with app.app_context():
            return db.session.scalar(select(func.count()).select_from(DeviceGame))

    before = rows()
    for _ in range(5):
        bare = app.test_client(use_cookies=False).get(f"/g/{game_id}")
        assert bare.status_code == 200
    assert rows() == before
    phone = app.test_client()
    first = phone.get(f"/g/{game_id}")
    assert "opened=" in " ".join(first.headers.getlist("Set-Cookie"))
    assert rows() == before
    home = phone.get("/")
    assert "Ann" in home.get_data(as_text=True) and rows() == before + 1
    assert any(c.startswith("opened=;") for c in home.headers.getlist("Set-Cookie"))  # dropped
    assert "Ann" in phone.get("/games").get_data(as_text=True) and rows() == before + 1
