"""The whole /api surface refuses in one shape (game-record.md): every 4xx is
``{"errors": [{"field": ..., "message": ...}]}`` (a stale write's 409 adds ``record``), in the
caller's Accept-Language, and nothing answers 500. Walked from the app's own url_map, so a
route added later is walked too."""

from __future__ import annotations

import re

from tests.clubs.helpers import bearer, club_game, new_club

BODIES = (None, "not json", [1, 2], {"bogus": {"deep": [1]}}, {"name": 7, "add": "x", "by": 3})


def path_for(rule: str, values: dict[str, str]) -> str:
    return re.sub(r"<(?:[a-z]+:)?([a-z_]+)>", lambda m: values.get(m.group(1), "nope"), rule)


def assert_shape(response, where: str) -> None:
    body = response.get_json(silent=True)
    assert isinstance(body, dict), where
    assert set(body) <= {"errors", "record"}, (where, body)
    assert "record" not in body or response.status_code == 409, where
    assert isinstance(body["errors"], list) and body["errors"], where
    for error in body["errors"]:
        assert {"field", "message"} <= set(error) <= {"field", "message", "deal", "seat"}, (where, error)
        assert error["field"] is None or isinstance(error["field"], str), where
        assert isinstance(error["message"], str) and error["message"], (where, error)


def test_every_api_route_answers_bad_input_in_one_error_shape(app, client):
    club = new_club(client, "Shape Club")
    game = club_game(client, club["slug"], club["member_key"], ["Ann", "Bob"])
    made = client.post(
        f"/api/clubs/{club['slug']}/events",
        json={"name": "Night", "format": "mixer", "game": "tally", "players": ["A", "B", "C", "D"]},
        headers=bearer(club["member_key"]),
    )
    assert made.status_code == 201, made.json
    event = made.json
    values = {
        "game_id": game["id"],
        "slug": club["slug"],
        "event_id": event["id"],
        "number": "1",
        "table_number": "1",
        "k": "99",
        "seat": "0",
        "token": "not-a-real-token",
        "name": "Nobody",
    }
    credentials = (
        {},
        {"Authorization": "Bearer wrong-key-0123456789"},
        bearer(club["member_key"]),
        bearer(event["director_key"]),
        bearer(game["edit_key"]),
        {**bearer(game["edit_key"]), "If-Match": '"banana"'},
    )
    rules = [r for r in app.url_map.iter_rules() if r.rule.startswith("/api/")]
    assert len(rules) >= 15
    walked = refusals = 0
    for rule in rules:
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            for headers in credentials:
                for body in BODIES if method != "GET" else (None,):
                    path = path_for(rule.rule, values)
                    if isinstance(body, str):
                        response = client.open(path, method=method, data=body, headers=headers)
                    else:
                        response = client.open(path, method=method, json=body, headers=headers)
                    where = f"{method} {path} {headers} {body!r}: {response.status_code}"
                    walked += 1
                    assert response.status_code < 500, where
                    if 400 <= response.status_code < 500:
                        refusals += 1
                        assert_shape(response, where)
    # Unknown addresses under /api/ too.
    for method in ("GET", "POST", "DELETE"):
        missing = client.open("/api/no/such/thing", method=method)
        assert missing.status_code in (404, 405)
        assert_shape(missing, f"{method} /api/no/such/thing")
    assert walked > 300 and refusals > 200


def test_api_refusals_speak_the_callers_language(client):
    english = client.get("/api/events/nope")
    polish = client.get("/api/events/nope", headers={"Accept-Language": "pl"})
    portuguese = client.get("/api/events/nope", headers={"Accept-Language": "pt-PT"})
    assert english.status_code == polish.status_code == portuguese.status_code == 404
    words = {r.json["errors"][0]["message"] for r in (english, polish, portuguese)}
    assert len(words) == 3  # three languages, three wordings
    bad = client.post("/api/clubs", json={"name": ""}, headers={"Accept-Language": "pl"})
    assert bad.status_code == 422 and bad.json["errors"][0]["field"] == "name"
    assert bad.json["errors"][0]["message"] != "A name is needed."
