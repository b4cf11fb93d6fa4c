"""Who sees what (clubs.md), over every route of the URL map, and who may do what.

Two clubs and a personal game, each with names nobody else uses. As a stranger, a member of
each club, a removed member and the personal game's device, every GET route (pages and API,
listed from the URL map so a new route is covered the day it is added) is fetched: nothing of
what that caller may not see appears in any answer (names, ids, the club's name), and a club
the caller may not see answers exactly like a club that does not exist.
"""

from __future__ import annotations

import re

import pytest

from scorekeeper.db import db
from scorekeeper.events import service as events
from scorekeeper.models import Club

from .helpers import as_member, bearer, club_game, join, new_club

A_NAMES = ["Alfonsina", "Agapito", "Amadeus", "Anselma"]
B_NAMES = ["Bartholomew", "Brunhilde"]
P_NAMES = ["Pancracio", "Philippa"]
MISSING_GAME = "NoSuchGame123456"
# What the routes' parameters are filled with, besides a club's slug.
FILL = {
    "game_id": MISSING_GAME,
    "event_id": "NoSuchEvent12345",
    "k": 0,
    "seat": 0,
    "token": "not-a-real-token",
    "change_id": 1,
    "kind": "tally",
    "entrant": 0,
    "invite_id": 1,
    "member_id": 1,
    "key_id": 1,
    "game": "tally",
    "filename": "app.css",
    "name": "Nobody",
}
QUERIES = ("", "?name={name}", "?player={name}", "?game=tally")


@pytest.fixture
def world(app, client):
    """Club A (owner, member, a removed member, an event), club B, and a personal game."""
    a = new_club(client, "Alpha Lodge", "Agapito")
    b = new_club(client, "Bravo Hall", "Bartholomew")
    a_member = join(app.test_client(), "alpha-lodge", a["invite"], "Alfonsina")
    a_gone = join(app.test_client(), "alpha-lodge", a["invite"], "Anselma")
    ga = club_game(
        client, "alpha-lodge", a["member_key"], ["Alfonsina", "Amadeus"], [{"points": [5, 1]}, {"end": True}]
    )
    gb = club_game(client, "bravo-hall", b["member_key"], B_NAMES, [{"points": [2, 1]}])
    with app.app_context():
        club_id = db.session.query(Club.id).filter(Club.slug == "alpha-lodge").scalar()
        event, _key = events.create_event(
            {
                "name": "Alpha Euchre Night",
                "format": "progressive",
                "game": "euchre",
                "players": [
                    "Alfonsina",
                    "Agapito",
                    "Amadeus",
                    "Anselma",
                    "Ambrose",
                    "Aurelia",
                    "Arturo",
                    "Azalea",
                ],
                "hands": 1,
                "rounds": 3,
            },
            club_id=club_id,
        )
        event_id = event.id
    assert (
        client.delete("/api/clubs/alpha-lodge/members/Anselma", headers=bearer(a["member_key"])).status_code
        == 204
    )
    device = app.test_client()
    made = device.post(
        "/new/tally", data={"players_0": P_NAMES[0], "players_1": P_NAMES[1], "first_dealer": "0"}
    )
    assert made.status_code == 303
    personal = made.headers["Location"].rsplit("/", 1)[1]
    a_secrets = {"Alpha Lodge", "alpha-lodge", ga["id"], event_id, "Alpha Euchre Night", *A_NAMES}
    b_secrets = {"Bravo Hall", "bravo-hall", gb["id"], *B_NAMES}
    p_secrets = {personal, *P_NAMES}
    return {
        "callers": {
            "stranger": (app.test_client(), None, set()),
            "member of A": (as_member(app, a_member["member_key"]), a_member["member_key"], a_secrets),
            "owner of B": (as_member(app, b["member_key"]), b["member_key"], b_secrets),
            "removed from A": (as_member(app, a_gone["member_key"]), a_gone["member_key"], set()),
            "the personal game's device": (device, None, p_secrets),
        },
        "secrets": a_secrets | b_secrets | p_secrets,
    }


def get_urls(app, slug: str, name: str) -> list[str]:
    urls = []
    with app.test_request_context():
        for rule in app.url_map.iter_rules():
            if "GET" not in rule.methods or rule.endpoint == "static":
                continue
            values = {arg: (slug if arg == "slug" else FILL.get(arg, "x")) for arg in rule.arguments}
            url = app.url_for(rule.endpoint, **values)
            urls.extend(url + q.format(name=name) for q in QUERIES)
    return urls


# Who looks: each a test of its own, so pytest-xdist spreads the sweep over the workers.
CALLERS = ("stranger", "member of A", "owner of B", "removed from A", "the personal game's device")


@pytest.mark.parametrize("who", CALLERS)
def test_nothing_of_a_club_or_a_personal_game_reaches_anyone_who_may_not_see_it(app, world, who):
    assert set(world["callers"]) == set(CALLERS)
    probes = [("alpha-lodge", "Alfonsina"), ("bravo-hall", "Bartholomew"), ("no-such-club", "Pancracio")]
    browser, key, may_see = world["callers"][who]
    hidden = world["secrets"] - may_see
    for slug, name in probes:
        for url in get_urls(app, slug, name):
            headers = bearer(key) if key and url.startswith("/api/") else {}
            answer = browser.get(url, headers=headers)
            assert answer.status_code < 500, (who, url)
            body = answer.get_data(as_text=True)
            # What the URL itself carries comes back in forms and links: that is no leak.
            shown = {s for s in hidden if s in body and s not in url}
            assert not shown, (who, url, answer.status_code, shown)


def same_page(one: str, other: str) -> bool:
    """Equal but for the slug in the URL and the CSRF token (signed with the time it was made)."""

    def norm(page: str) -> str:
        page = re.sub(r"alpha-lodge|zz-missing", "SLUG", page)
        return re.sub(r'name="csrf_token" value="[^"]*"', "CSRF", page)

    return norm(one) == norm(other)


@pytest.mark.parametrize("who", CALLERS)
def test_a_club_one_may_not_see_answers_exactly_like_a_missing_one(app, world, who):
    browser, key, may_see = world["callers"][who]
    for url in get_urls(app, "alpha-lodge", "Alfonsina"):
        if "/alpha-lodge" not in url or "Alpha Lodge" in may_see:
            continue
        headers = bearer(key) if key and url.startswith("/api/") else {}
        hidden = browser.get(url, headers=headers)
        missing = browser.get(url.replace("alpha-lodge", "zz-missing"), headers=headers)
        assert hidden.status_code == missing.status_code == 404, (who, url)
        assert same_page(hidden.get_data(as_text=True), missing.get_data(as_text=True)), (who, url)


def test_home_and_my_games_list_this_devices_games_only(world):
    callers = world["callers"]
    device = callers["the personal game's device"][0]
    assert P_NAMES[0] in device.get("/").get_data(as_text=True)
    assert P_NAMES[0] in device.get("/games").get_data(as_text=True)
    for who in ("stranger", "member of A", "owner of B", "removed from A"):
        browser = callers[who][0]
        for url in ("/", "/games"):
            assert P_NAMES[0] not in browser.get(url).get_data(as_text=True), (who, url)
    member_home = callers["member of A"][0].get("/").get_data(as_text=True)
    assert "Alpha Lodge" in member_home and "Bravo Hall" not in member_home
    assert "Alpha Lodge" not in callers["removed from A"][0].get("/").get_data(as_text=True)


# -- the authorization matrix over every club route ---------------------------------------------

# Every club route and the least role it needs. A route added without a line here fails the test.
NEEDS = {
    ("GET", "/c/<slug>"): "member",
    ("GET", "/c/<slug>/games"): "member",
    ("GET", "/c/<slug>/players"): "member",
    ("GET", "/c/<slug>/player"): "member",
    ("GET", "/c/<slug>/ratings"): "member",
    ("GET", "/c/<slug>/events/new"): "member",
    ("GET", "/c/<slug>/season"): "member",  # the club's season (events.md, Season)
    ("GET", "/c/<slug>/season.csv"): "member",
    ("GET", "/api/clubs/<slug>/season"): "member",
    ("POST", "/c/<slug>/events/new"): "member",  # a new event of the club (events.md)
    ("POST", "/c/<slug>/device-link"): "member",
    ("POST", "/c/<slug>/devices/<int:key_id>/signout"): "member",
    ("POST", "/c/<slug>/members/<int:member_id>/remove"): "member",  # oneself; others: admin
    ("GET", "/c/<slug>/players/tidy"): "admin",
    ("POST", "/c/<slug>/players/rename"): "admin",
    ("POST", "/c/<slug>/players/undo"): "admin",
    ("POST", "/c/<slug>/players/private"): "admin",
    ("POST", "/c/<slug>/invites"): "admin",
    ("POST", "/c/<slug>/invites/<int:invite_id>/revoke"): "admin",
    ("POST", "/c/<slug>/members/<int:member_id>/role"): "admin",
    ("POST", "/c/<slug>/members/<int:member_id>/owner"): "owner",
    ("POST", "/c/<slug>/delete"): "owner",
    ("GET", "/api/clubs/<slug>"): "member",
    ("GET", "/api/clubs/<slug>/games"): "member",
    ("GET", "/api/clubs/<slug>/ratings"): "member",
    ("POST", "/api/clubs/<slug>/events"): "member",
    ("POST", "/api/clubs/<slug>/invites"): "admin",
    ("DELETE", "/api/clubs/<slug>/invites/<token>"): "admin",
    ("DELETE", "/api/clubs/<slug>/members/<name>"): "admin",
}
# Open to anyone with the link or the invite: judged by their own credential, not membership.
OPEN = {
    ("GET", "/c/<slug>/join/<token>"),
    ("POST", "/c/<slug>/join/<token>"),
    ("POST", "/api/clubs/<slug>/join"),
}
RANK = {"stranger": 0, "removed": 0, "member": 1, "admin": 2, "owner": 3}


def test_every_role_gets_exactly_the_rights_the_spec_gives(app, client):
    club = new_club(client, "Matrix", "Olga")
    admin_invite = client.post(
        "/api/clubs/matrix/invites", json={"role": "admin"}, headers=bearer(club["member_key"])
    )
    admin = join(app.test_client(), "matrix", admin_invite.json["invite"], "Ada")
    member = join(app.test_client(), "matrix", club["invite"], "Mel")
    gone = join(app.test_client(), "matrix", club["invite"], "Gus")
    assert (
        client.delete("/api/clubs/matrix/members/Gus", headers=bearer(club["member_key"])).status_code == 204
    )
    keys = {"owner": club["member_key"], "admin": admin["member_key"], "member": member["member_key"]}
    keys["removed"], keys["stranger"] = gone["member_key"], None
    routes = set()
    for rule in app.url_map.iter_rules():
        if "<slug>" in rule.rule:
            for method in rule.methods - {"HEAD", "OPTIONS"}:
                routes.add((method, rule.rule))
    assert routes - OPEN == set(NEEDS), "classify every club route in NEEDS"
    # Ids that exist nowhere: a request its role may make gets past the check and finds nothing.
    fill = {
        "slug": "matrix",
        "key_id": 999999,
        "member_id": 999999,
        "invite_id": 999999,
        "token": "no-such-invite",
    }
    fill["name"] = "Nobody"
    for (method, rule), need in sorted(NEEDS.items()):
        url = re.sub(r"<(?:int:)?(\w+)>", lambda m: str(fill[m.group(1)]), rule)
        for role, key in keys.items():
            if rule.startswith("/api/"):
                answer = app.test_client().open(
                    url, method=method, headers=bearer(key) if key else {}, json={}
                )
            else:
                browser = as_member(app, key) if key else app.test_client()
                answer = browser.open(url, method=method)
            if RANK[role] == 0:
                expected = {404}
            elif RANK[role] < RANK[need]:
                expected = {403}
            else:
                expected = {200, 201, 204, 303, 400, 404, 409, 422}
            assert answer.status_code in expected, (role, method, url, answer.status_code)
    # Nothing above changed the club: its members are as they were.
    shown = client.get("/api/clubs/matrix", headers=bearer(club["member_key"])).json["members"]
    assert sorted((m["name"], m["role"]) for m in shown) == [
        ("Ada", "admin"),
        ("Mel", "member"),
        ("Olga", "owner"),
    ]
