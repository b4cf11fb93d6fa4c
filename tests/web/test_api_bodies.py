"""Bad bodies (issue 56): every /api call that takes a body answers 400 in the one error shape for
a body that is not a JSON object, before anything happens; every 405 names what is allowed."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from scorekeeper.db import db
from scorekeeper.models import Club, EventRound, Game
from tests.clubs.helpers import bearer, new_club

PLAYERS = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]
NIGHT = {"name": "Night", "format": "progressive", "game": "euchre", "players": PLAYERS, "hands": 1}
BAD = [b"nope", b'{"close": true', b"[1, 2]", b'"x"', b"null", b"3"]


def count(app, model) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(model)) or 0


@pytest.fixture
def keys(client):
    club = new_club(client, "The Lodge", "Olga")
    event = client.post("/api/clubs/the-lodge/events", json=NIGHT, headers=bearer(club["member_key"])).json
    game = client.post("/api/games", json={"game": "spades", "players": PLAYERS[:4]}).json
    return {"club": club, "event": event, "game": game}


def calls(keys) -> list[tuple[str, str, dict]]:
    """Every /api call that takes a body, with the credential a real client holds."""
    member, director = bearer(keys["club"]["member_key"]), bearer(keys["event"]["director_key"])
    game, event = keys["game"], keys["event"]["id"]
    scorer = bearer(game["edit_key"])
    return [
        ("POST", "/api/games", {}),
        ("POST", f"/api/games/{game['id']}/deals", scorer),
        ("PUT", f"/api/games/{game['id']}/deals/0", scorer),
        ("PUT", f"/api/games/{game['id']}/orders/0", scorer),
        ("PUT", f"/api/games/{game['id']}/allotment/0", scorer),
        ("POST", "/api/clubs", {}),
        ("POST", "/api/clubs/the-lodge/join", {}),
        ("POST", "/api/clubs/the-lodge/invites", member),
        ("POST", "/api/clubs/the-lodge/events", member),
        ("POST", f"/api/events/{event}/rounds", director),
        ("POST", f"/api/events/{event}/players", director),
        ("POST", f"/api/events/{event}/rounds/1/tables/1/confirm", director),
    ]


@pytest.mark.parametrize("body", BAD, ids=lambda b: b.decode())
def test_a_body_that_is_not_a_json_object_is_400_and_changes_nothing(app, client, keys, body):
    before = {model: count(app, model) for model in (Game, Club, EventRound)}
    for method, path, headers in calls(keys):
        for content_type in ("application/json", "text/plain"):
            answer = client.open(
                path, method=method, data=body, headers={**headers, "Content-Type": content_type}
            )
            assert answer.status_code == 400, (method, path, body, answer.json)
            errors = answer.json["errors"]
            assert len(errors) == 1 and errors[0]["field"] is None and errors[0]["message"]
            assert set(errors[0]) == {"field", "message"}
    # Nothing happened: no round started (the body "nope" used to start one), no club, no game.
    assert {model: count(app, model) for model in (Game, Club, EventRound)} == before


def test_the_messages_say_what_is_wrong(client, keys):
    director = bearer(keys["event"]["director_key"])
    path = f"/api/events/{keys['event']['id']}/rounds"
    truncated = client.post(
        path, data=b'{"close": true', headers={**director, "Content-Type": "application/json"}
    )
    assert "not JSON" in truncated.json["errors"][0]["message"]
    listed = client.post(path, json=[1], headers=director)
    assert "JSON object" in listed.json["errors"][0]["message"]
    # In the caller's language, as every refusal.
    polish = client.post(path, json=[1], headers={**director, "Accept-Language": "pl"})
    assert polish.status_code == 400 and "JSON object" not in polish.json["errors"][0]["message"]


def test_an_empty_body_is_an_empty_object_where_every_field_is_optional(client, keys):
    director = bearer(keys["event"]["director_key"])
    started = client.post(f"/api/events/{keys['event']['id']}/rounds", headers=director)
    assert started.status_code == 201
    # ...and refused where a body is the call (a record, a deal).
    assert client.post("/api/games").status_code == 400


@pytest.mark.parametrize(
    "method, path, allowed",
    [
        ("DELETE", "/api/games", {"POST"}),
        ("PATCH", "/api/clubs/the-lodge", {"GET"}),
        ("PUT", "/api/events/x/rounds", {"POST"}),
    ],
)
def test_every_405_names_what_is_allowed(client, keys, method, path, allowed):
    answer = client.open(path, method=method)
    assert answer.status_code == 405
    assert allowed <= {m.strip() for m in answer.headers["Allow"].split(",")}
    assert answer.json["errors"][0]["field"] is None


def test_a_page_s_405_names_what_is_allowed_too(client):
    answer = client.delete("/")
    assert answer.status_code == 405 and "GET" in answer.headers["Allow"]
