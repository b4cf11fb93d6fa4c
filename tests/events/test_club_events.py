"""Events belong to clubs (events.md, clubs.md): a member makes one, through the API or the
club's page; its creator and the club's owner and admins direct it; its table games are the
club's games, in its lists and ratings; Swiss and knockout pairs may be seeded by the club's
ratings."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from scorekeeper import create_app
from scorekeeper.db import db
from scorekeeper.events import seating
from scorekeeper.models import Event, Game
from tests.clubs.helpers import as_member, bearer, join
from tests.conftest import app_config

PLAYERS = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]
NIGHT = {"name": "Euchre night", "format": "progressive", "game": "euchre", "players": PLAYERS, "hands": 1}
MADE_02 = {"trump": "H", "maker": 0, "alone": False, "defender_alone": None, "maker_tricks": 3}


def events_count(app) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count(Event.id))) or 0


def create(client, key, body=None, slug="the-lodge"):
    return client.post(f"/api/clubs/{slug}/events", json=NIGHT if body is None else body, headers=bearer(key))


# -- the API -----------------------------------------------------------------------------------


def test_a_member_makes_an_event_and_gets_its_director_key_once(client, club):
    made = create(client, club["member"])
    assert made.status_code == 201, made.json
    doc = made.json
    assert doc["name"] == "Euchre night" and doc["format"] == "progressive" and doc["game"] == "euchre"
    assert doc["players"] == PLAYERS and len(doc["rounds"]) == 7  # 8 players: the perfect schedule
    assert isinstance(doc["director_key"], str) and len(doc["director_key"]) >= 24
    # Read back by anyone with its link: the document, never the key.
    again = client.get(f"/api/events/{doc['id']}")
    assert again.status_code == 200 and "director_key" not in again.json
    assert again.json["rounds"] == [{k: v for k, v in r.items()} for r in doc["rounds"]]


@pytest.mark.parametrize("who", ["stranger", "wrong key", "other club", "removed"])
def test_anyone_but_a_member_finds_no_club_to_make_an_event_in(app, client, club, who):
    key = {"stranger": None, "wrong key": "x" * 32}.get(who, club.get(who))
    headers = bearer(key) if key else {}
    hidden = client.post("/api/clubs/the-lodge/events", json=NIGHT, headers=headers)
    missing = client.post("/api/clubs/no-such-club/events", json=NIGHT, headers=headers)
    assert hidden.status_code == missing.status_code == 404
    assert hidden.json == missing.json  # a club one may not see answers as one that does not exist
    assert events_count(app) == 0


BAD = [
    ("name", {"name": ""}),
    ("name", {"name": "x" * 81}),
    ("format", {"format": "cabaret"}),
    ("game", {"game": "chess"}),
    ("game", {"game": "tally"}),  # progressive is for partnership games
    ("players", {"players": ["Ann", "Bob"]}),
    ("players", {"players": ["Ann", "ann", "Cy", "Di"]}),
    ("players", {"players": "Ann, Bob, Cy, Di"}),
    ("pairs", {"format": "pairs", "players": None, "pairs": [["Ann", "Bob"]]}),
    ("pairs", {"pairs": [["Ann", "Bob"], ["Cy", "Di"]]}),  # a progressive event gives players
    ("pairing", {"format": "pairs", "pairs": [["Ann", "Bob"], ["Cy", "Di"]], "pairing": "ladder"}),
    ("rounds", {"rounds": 0}),
    ("rounds", {"rounds": "six"}),
    ("hands", {"hands": 0}),
    ("minutes", {"minutes": 601}),
    ("sit_out", {"sit_out": "median"}),
    ("confirm", {"confirm": "yes"}),
    ("seed", {"seed": "ratings"}),  # progressive: seeding is for Swiss and knockout pairs
    ("seed", {"format": "pairs", "pairs": [["Ann", "Bob"], ["Cy", "Di"]], "seed": "luck"}),
    ("options", {"options": {"target": "ten"}}),
    ("options", {"options": []}),
    ("table_size", {"table_size": 4}),
    ("colour", {"colour": "blue"}),  # not part of an event: named as sent
]


@pytest.mark.parametrize(("field", "change"), BAD, ids=[f"{f}-{i}" for i, (f, _c) in enumerate(BAD)])
def test_a_bad_field_is_refused_by_name_and_nothing_is_made(app, client, club, field, change):
    body = {k: v for k, v in {**NIGHT, **change}.items() if v is not None}
    refused = create(client, club["member"], body)
    assert refused.status_code == 422, refused.json
    errors = refused.json["errors"]
    assert errors[0]["field"] == field and errors[0]["message"]
    assert events_count(app) == 0


@pytest.mark.parametrize(
    ("field", "change"),
    [
        ("players", {"players": [f"P{i}" for i in range(401)]}),
        ("pairs", {"format": "pairs", "players": None, "pairs": [[f"A{i}", f"B{i}"] for i in range(201)]}),
        # The size is checked first: a body too large is refused for it, whatever else is wrong.
        ("players", {"players": ["Ann"] * 401, "rounds": 0}),
    ],
)
def test_an_event_over_the_size_setting_is_refused_before_any_seating(app, client, club, field, change):
    body = {k: v for k, v in {**NIGHT, **change}.items() if v is not None}
    refused = create(client, club["member"], body)
    assert refused.status_code == 422, refused.json
    assert refused.json["errors"][0]["field"] == field
    assert "400" in refused.json["errors"][0]["message"]
    assert events_count(app) == 0


def test_the_size_setting_bounds_an_event_and_its_late_players(app, client, club):
    app.config["EVENT_MAX_PLAYERS"] = 9
    assert create(client, club["member"], {**NIGHT, "players": [*PLAYERS, "Ivy", "Jo"]}).status_code == 422
    made = create(client, club["member"], {**NIGHT, "players": [*PLAYERS, "Ivy"]})
    assert made.status_code == 201, made.json
    key, event_id = made.json["director_key"], made.json["id"]
    more = client.post(f"/api/events/{event_id}/players", json={"add": ["Jo"]}, headers=bearer(key))
    assert more.status_code == 422 and more.json["errors"][0]["field"] == "add"
    swap = client.post(
        f"/api/events/{event_id}/players", json={"add": ["Jo"], "withdraw": ["Ann"]}, headers=bearer(key)
    )
    assert swap.status_code == 200, swap.json


def test_a_body_that_is_no_object_is_a_bad_request(app, client, club):
    assert create(client, club["member"], ["not", "an", "object"]).status_code == 400
    assert events_count(app) == 0


def test_the_creators_key_and_the_clubs_admins_direct_an_ordinary_member_does_not(client, club):
    doc = create(client, club["member"], {**NIGHT, "rounds": 3}).json
    event_id, director = doc["id"], doc["director_key"]
    rounds = f"/api/events/{event_id}/rounds"
    # An ordinary member (the creator's own member key too) directs nothing.
    assert client.post(rounds, json={}, headers=bearer(club["member"])).status_code == 403
    assert client.post(rounds, json={}, headers=bearer(club["other club"])).status_code == 403
    assert (
        client.post(f"/api/events/{event_id}/players", json={}, headers=bearer(club["member"])).status_code
        == 403
    )
    assert client.post(rounds, json={}, headers=bearer(director)).status_code == 201
    assert client.post(rounds, json={"close": True}, headers=bearer(club["admin"])).status_code == 201
    assert client.post(rounds, json={"close": True}, headers=bearer(club["owner"])).status_code == 201
    # Only directors see the tables' keys.
    assert "edit_key" in str(client.get(f"/api/events/{event_id}", headers=bearer(club["admin"])).json)
    assert "edit_key" not in str(client.get(f"/api/events/{event_id}", headers=bearer(club["member"])).json)


# -- the table games are the club's ----------------------------------------------------------


def test_a_finished_table_game_is_in_the_clubs_games_and_ratings(client, club):
    doc = create(client, club["member"], {**NIGHT, "rounds": 1}).json
    rnd = client.post(f"/api/events/{doc['id']}/rounds", json={}, headers=bearer(doc["director_key"])).json
    table = rnd["tables"][0]
    played = client.post(f"/api/games/{table['game']}/deals", json=MADE_02, headers=bearer(table["edit_key"]))
    assert played.status_code == 201 and client.get(f"/api/games/{table['game']}").json["finished"]

    listed = client.get("/api/clubs/the-lodge/games", headers=bearer(club["member"])).json["games"]
    ids = {g["id"]: g for g in listed}
    assert set(ids) == {t["game"] for t in rnd["tables"]}  # every table is a game of the club
    assert ids[table["game"]]["finished"] is True
    page = as_member(client.application, club["member"]).get("/c/the-lodge/games").get_data(as_text=True)
    assert table["game"] in page

    rated = client.get("/api/clubs/the-lodge/ratings?game=euchre", headers=bearer(club["member"])).json
    by_name = {p["name"]: p for p in rated["players"]}
    assert set(by_name) == set(table["seats"])  # the finished table only: the other one is unfinished
    winners, losers = table["seats"][0::2], table["seats"][1::2]
    assert all(by_name[n]["games"] == 1 for n in table["seats"])
    assert min(by_name[n]["ordinal"] for n in winners) > max(by_name[n]["ordinal"] for n in losers)
    # Another club sees none of it.
    assert client.get("/api/clubs/elsewhere/games", headers=bearer(club["other club"])).json["games"] == []


def test_an_event_without_a_club_keeps_personal_tables(app, client):
    from scorekeeper.events import rounds
    from scorekeeper.events import service as events

    with app.app_context():
        event, _key = events.create_event({**NIGHT, "rounds": 1})
        rounds.start_round(event)
        assert set(db.session.scalars(select(Game.club_id))) == {None}


# -- seeding by the club's ratings -----------------------------------------------------------


def club_euchre(client, key, players, winners_first=True):
    """A finished one-hand Euchre game of the club: seats 0+2 make it."""
    made = client.post(
        "/api/games",
        json={
            "game": "euchre",
            "players": players,
            "options": {"hands": 1},
            "deals": [MADE_02],
            "club": "the-lodge",
        },
        headers=bearer(key),
    )
    assert made.status_code == 201, made.json
    assert made.json["finished"]


@pytest.mark.parametrize("pairing", ["knockout", "swiss"])
def test_pairs_are_seeded_by_the_clubs_ratings(client, club, pairing):
    # Wes and Win beat Lou and Lin twice; Uma and Ulf never played.
    for _ in range(2):
        club_euchre(client, club["owner"], ["Wes", "Lou", "Win", "Lin"])
    pairs = [["Lou", "Lin"], ["Uma", "Ulf"], ["Wes", "Win"], ["Al", "Bo"]]
    body = {
        "name": "Cup",
        "format": "pairs",
        "game": "euchre",
        "pairs": pairs,
        "pairing": pairing,
        "hands": 1,
    }
    seeded = create(client, club["member"], {**body, "seed": "ratings"})
    assert seeded.status_code == 201, seeded.json
    doc = seeded.json
    # Strongest first; the two unrated pairs tie at the start rating and keep their order.
    assert doc["players"] == ["Wes & Win", "Uma & Ulf", "Al & Bo", "Lou & Lin"]
    first = doc["rounds"][0]["tables"]
    if pairing == "knockout":  # 1 v 4, 2 v 3 in a bracket of four
        assert [t["seats"] for t in first] == [["Wes", "Lou", "Win", "Lin"], ["Uma", "Al", "Ulf", "Bo"]]
    else:  # Swiss round 1 in seed order: 1 v 2, 3 v 4
        assert [t["seats"] for t in first] == [["Wes", "Uma", "Win", "Ulf"], ["Al", "Lou", "Bo", "Lin"]]
    # The order is stored: the rounds start as planned, the ratings changing meanwhile or not.
    club_euchre(client, club["owner"], ["Lou", "Wes", "Lin", "Win"])
    started = client.post(f"/api/events/{doc['id']}/rounds", json={}, headers=bearer(doc["director_key"]))
    assert [t["seats"] for t in started.json["tables"]] == [t["seats"] for t in first]
    # Without the seed, the order given.
    plain = create(client, club["member"], body).json
    assert plain["players"] == [" & ".join(p) for p in pairs]


def test_a_knockouts_byes_go_to_the_top_seeds_by_rating(client, club):
    club_euchre(client, club["owner"], ["Wes", "Lou", "Win", "Lin"])
    pairs = [["Lou", "Lin"], ["Cy", "Di"], ["Wes", "Win"]]
    body = {"name": "Cup", "format": "pairs", "game": "euchre", "pairs": pairs, "pairing": "knockout"}
    doc = create(client, club["member"], {**body, "seed": "ratings"}).json
    assert doc["rounds"][0]["sitting_out"] == ["Wes", "Win"]
    assert doc["rounds"][0]["tables"][0]["seats"] == ["Cy", "Lou", "Di", "Lin"]


def test_a_pairs_strength_is_the_mean_of_its_players_and_names_match_regardless_of_case(client, club):
    # Wes is rated up and Lou down: "wes & lou" is about even with two unrated players.
    for _ in range(3):
        club_euchre(client, club["owner"], ["Wes", "Lou", "Win", "Lin"])
    pairs = [["Al", "Bo"], ["lin", "Lou"], ["WES", "Win"]]
    body = {"name": "Cup", "format": "pairs", "game": "euchre", "pairs": pairs, "pairing": "swiss"}
    doc = create(client, club["member"], {**body, "seed": "ratings"}).json
    assert doc["players"] == ["WES & Win", "Al & Bo", "lin & Lou"]


names = st.text(alphabet="abcdefgh", min_size=1, max_size=2)


@given(
    entrants=st.lists(st.lists(names, min_size=2, max_size=2), max_size=12),
    rated=st.dictionaries(names, st.floats(-50, 50, allow_nan=False), max_size=20),
    default=st.floats(-10, 10, allow_nan=False),
)
def test_seeding_is_a_stable_order_by_the_mean_rating(entrants, rated, default):
    order = seating.seed_by_ratings(entrants, rated, default)
    assert sorted(order) == list(range(len(entrants)))  # every entrant once

    def strength(i):
        return sum(rated.get(n, default) for n in entrants[i]) / 2

    for before, after in zip(order, order[1:], strict=False):
        assert strength(before) >= strength(after)
        if strength(before) == strength(after):
            assert before < after  # ties keep the order given
    # Nobody rated: the order given.
    assert seating.seed_by_ratings(entrants, {}, default) == list(range(len(entrants)))


# -- the pages ---------------------------------------------------------------------------------

FORM = {
    "name": "Friday euchre",
    "game": "euchre",
    "format": "progressive",
    "pairing": "round_robin",
    "players": "\n".join(PLAYERS),
    "rounds": "3",
    "hands": "2",
    "minutes": "",
    "sit_out": "",
}


def test_the_club_page_lists_its_events_and_offers_a_new_one_to_members(app, client, club):
    made = create(client, club["member"]).json
    page = as_member(app, club["member"]).get("/c/the-lodge").get_data(as_text=True)
    assert "Euchre night" in page and f"/e/{made['id']}" in page and "/c/the-lodge/events/new" in page
    for who in ("removed", "other club"):
        assert as_member(app, club[who]).get("/c/the-lodge").status_code == 404
        assert as_member(app, club[who]).get("/c/the-lodge/events/new").status_code == 404
    assert client.get("/c/the-lodge/events/new").status_code == 404
    # The event itself is read by anyone with its link.
    assert "Euchre night" in app.test_client().get(f"/e/{made['id']}").get_data(as_text=True)


def test_a_member_makes_an_event_on_the_page_and_directs_it(app, club):
    browser = as_member(app, club["member"])
    form = browser.get("/c/the-lodge/events/new")
    assert form.status_code == 200
    html = form.get_data(as_text=True)
    for field in (
        "name",
        "game",
        "format",
        "pairing",
        "players",
        "rounds",
        "hands",
        "minutes",
        "sit_out",
        "confirm",
        "seed",
    ):
        assert f'name="{field}"' in html, field
    assert re.search(r'<option[^>]*selected[^>]*value="euchre"|value="euchre"[^>]*selected', html)
    made = browser.post("/c/the-lodge/events/new", data={**FORM, "confirm": "y"})
    assert made.status_code == 303
    event_id = made.headers["Location"].rsplit("/", 1)[1]
    assert made.headers["Location"].endswith(f"/e/{event_id}")
    cookie = made.headers["Set-Cookie"]
    assert f"event_{event_id}=" in cookie and f"Path=/e/{event_id}" in cookie and "HttpOnly" in cookie
    with app.app_context():
        event = db.session.get(Event, event_id)
        assert event is not None and event.club_id is not None and event.name == "Friday euchre"
        assert event.settings["rounds"] == 3 and event.settings["confirm"] is True
        assert event.options["hands"] == 2 and event.entrants == PLAYERS
    director = browser.get(f"/e/{event_id}").get_data(as_text=True)
    assert "Friday euchre is made" in director and "Start round 1" in director
    assert browser.post(f"/e/{event_id}/rounds", data={}).status_code == 303
    # Another member of the club only watches.
    other = as_member(app, join_key(app, club))
    assert "Start round" not in other.get(f"/e/{event_id}").get_data(as_text=True)
    assert other.post(f"/e/{event_id}/rounds", data={}).status_code == 403


def join_key(app, club) -> str:
    """A fresh ordinary member's key (no event cookie on its browser)."""
    invite = (
        app.test_client()
        .post("/api/clubs/the-lodge/invites", json={}, headers=bearer(club["owner"]))
        .json["invite"]
    )
    return join(app.test_client(), "the-lodge", invite, "Nell")["member_key"]


def test_the_clubs_admins_direct_on_the_pages_an_ordinary_member_does_not(app, client, club):
    doc = create(client, club["member"], {**NIGHT, "rounds": 3}).json
    event_id = doc["id"]
    # The creator's member key is not the event's key: an ordinary member, whoever made it.
    member = as_member(app, club["member"])
    assert "Start round" not in member.get(f"/e/{event_id}").get_data(as_text=True)
    assert member.post(f"/e/{event_id}/rounds", data={}).status_code == 403
    assert member.post(f"/e/{event_id}/players", data={"add": "Zed"}).status_code == 403
    for who in ("admin", "owner"):
        browser = as_member(app, club[who])
        assert "Start round" in browser.get(f"/e/{event_id}").get_data(as_text=True)
        assert browser.post(f"/e/{event_id}/rounds", data={"close": "y"}).status_code == 303
    # A removed admin would be a stranger: the removed member's key directs nothing.
    assert as_member(app, club["removed"]).post(f"/e/{event_id}/rounds", data={}).status_code == 403


def test_a_refused_form_keeps_what_was_typed_and_names_the_field(app, club):
    browser = as_member(app, club["member"])
    cases = [
        ({"name": ""}, "name", "Give the event a name"),
        ({"players": "Ann\nBob"}, "players", "At least 4 players"),
        ({"format": "pairs", "players": "Ann & Bob\nCy"}, "players", "two names each"),
        ({"rounds": "many"}, "rounds", "whole number"),
        ({"hands": "0"}, "hands", "whole number"),
        ({"minutes": "9999"}, "minutes", "whole number"),
        ({"sit_out": "lots"}, "sit_out", "sit-out"),
        ({"seed": "y"}, "seed", "Seeding by ratings"),
        ({"game": "chess"}, "game", "Unknown game"),
        ({"format": "cabaret"}, "format", "The format is one of"),
        (
            {"format": "pairs", "players": "A & B\nC & D", "pairing": "ladder"},
            "pairing",
            "The pairing is one of",
        ),
    ]
    for change, field, text in cases:
        sent = {**FORM, **change}
        refused = browser.post("/c/the-lodge/events/new", data=sent)
        assert refused.status_code == 422, change
        html = refused.get_data(as_text=True)
        error = re.search(rf'<p class="error" id="{field}-error">([^<]*)</p>', html)
        assert error and text in error.group(1), (change, error and error.group(1))
        assert re.search(
            rf'id="{field}"[^>]*aria-invalid="true"|aria-invalid="true"[^>]*id="{field}"', html
        ), change
        # What was typed is still there.
        typed_players = sent["players"].replace("&", "&amp;")
        assert typed_players in html, change
        if sent["name"]:
            assert f'value="{sent["name"]}"' in html
        if sent["rounds"]:
            assert f'value="{sent["rounds"]}"' in html
    assert events_count(app) == 0


@pytest.fixture
def another_app(database_url, tmp_path):
    """The same database under other settings; its connections closed after the test."""
    made = []

    def make(**settings):
        made.append(create_app(app_config(database_url, PDF_FOLDER=str(tmp_path), **settings)))
        return made[-1]

    yield make
    for app in made:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


def test_the_form_needs_its_csrf_token(another_app, club):
    app = another_app(WTF_CSRF_ENABLED=True)
    browser = as_member(app, club["member"])
    assert browser.post("/c/the-lodge/events/new", data=FORM).status_code == 400
    assert events_count(app) == 0
    page = browser.get("/c/the-lodge/events/new").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page) or re.search(
        r'name="csrf_token" value="([^"]+)"', page
    )
    assert token
    made = browser.post("/c/the-lodge/events/new", data={**FORM, "csrf_token": token.group(1)})
    assert made.status_code == 303
    assert events_count(app) == 1


def test_the_page_counts_as_game_creation_under_the_abuse_limit(another_app, club):
    app = another_app(LIMIT_CREATE_GAMES="2 per hour")
    browser = as_member(app, club["member"])
    api = app.test_client()
    assert browser.post("/c/the-lodge/events/new", data=FORM).status_code == 303
    assert (
        browser.post("/c/the-lodge/events/new", data={**FORM, "name": ""}).status_code == 422
    )  # not counted
    assert create(api, club["member"]).status_code == 201
    assert create(api, club["member"]).status_code == 429
    assert browser.post("/c/the-lodge/events/new", data=FORM).status_code == 429
    assert browser.get("/c/the-lodge/events/new").status_code == 200  # reading is never limited
    assert events_count(app) == 2


# -- fuzz: no input gives a 500 ------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=12,
)
FIELDS = [
    "name",
    "format",
    "game",
    "players",
    "pairs",
    "pairing",
    "rounds",
    "hands",
    "minutes",
    "sit_out",
    "confirm",
    "seed",
    "options",
    "table_size",
]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.dictionaries(st.sampled_from(FIELDS), json_values, max_size=6) | json_values)
def test_the_create_call_never_fails_with_a_500(client, club, body):
    sent = {**NIGHT, **body} if isinstance(body, dict) else body
    answer = create(client, club["member"], sent)
    assert answer.status_code in (201, 400, 422), answer.get_data(as_text=True)
    if answer.status_code == 422:
        assert all(e["field"] and e["message"] for e in answer.json["errors"])


form_text = st.text(st.characters(blacklist_categories=["Cs"], blacklist_characters="\x00"), max_size=30)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    data=st.fixed_dictionaries(
        {},
        optional={
            "name": form_text,
            "game": st.sampled_from(["euchre", "spades", "tally", "secret_agent", "x"]) | form_text,
            "format": st.sampled_from(["progressive", "pairs", "mixer"]) | form_text,
            "pairing": st.sampled_from(["round_robin", "swiss", "knockout"]) | form_text,
            "players": st.lists(form_text, max_size=10).map("\n".join),
            "rounds": form_text | st.integers(-5, 100).map(str),
            "hands": form_text | st.integers(-5, 100).map(str),
            "minutes": form_text | st.integers(-5, 700).map(str),
            "sit_out": form_text | st.integers(-20000, 20000).map(str),
            "confirm": st.sampled_from(["y", "", "no"]),
            "seed": st.sampled_from(["y", ""]),
        },
    )
)
def test_the_creation_page_never_fails_with_a_500(app, club, data):
    answer = as_member(app, club["member"]).post("/c/the-lodge/events/new", data=data)
    assert answer.status_code in (303, 422), answer.get_data(as_text=True)[:500]


def test_a_director_by_link_alone_sees_the_events_players_not_the_clubs(app, client, club):
    """Issue 57, N10: the event's director link lets a non-member run the evening; the club's
    players and members (the late-arrival chips) stay the members' to see."""
    club_game = client.post(
        "/api/games",
        json={"game": "tally", "players": ["Zed", "Yves"], "deals": [], "club": "the-lodge"},
        headers=bearer(club["member"]),
    )
    assert club_game.status_code == 201, club_game.json
    made = create(client, club["member"]).json
    stranger = app.test_client()
    assert stranger.get(f"/e/{made['id']}/direct?key={made['director_key']}").status_code == 303
    page = stranger.get(f"/e/{made['id']}").get_data(as_text=True)
    assert 'name="add"' in page  # the director's controls are there: newcomers are typed
    # (Mel made the event: the event's own history names its maker to its director.)
    for hidden in ("Olga", "Ada", "Zed", "Yves"):
        assert hidden not in page, hidden
    # A member directing the same event is offered the club's players as chips.
    member = as_member(app, club["member"])
    member.get(f"/e/{made['id']}/direct?key={made['director_key']}")
    chips = member.get(f"/e/{made['id']}").get_data(as_text=True)
    assert 'name="join" value="Zed"' in chips and 'name="join" value="Olga"' in chips
