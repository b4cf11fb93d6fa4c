"""events.md, Seating: check-in at the door (issue 54). The event's check-in link takes tonight's
players one by one; before round 1 they are seated in it, later they join from the next round;
the director removes a wrong arrival; the link stops taking names once the event finishes."""

from __future__ import annotations

import html
import re

from scorekeeper.db import db
from scorekeeper.events import arrivals, rounds
from scorekeeper.events import service as events
from scorekeeper.models import Event

MADE_02 = {"trump": "H", "maker": 0, "alone": False, "defender_alone": None, "maker_tricks": 3}
NAMES = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]


def auth(key):
    return {"Authorization": f"Bearer {key}"}


def make(app, **extra):
    body = {"name": "Door night", "format": "progressive", "game": "euchre", "check_in": True, "hands": 1}
    with app.app_context():
        event, key = events.create_event({**body, **extra})
        return event.id, key


def token_of(client, event_id, key):
    link = client.get(f"/api/events/{event_id}", headers=auth(key)).get_json()["check_in_link"]
    assert link.startswith("http://localhost/e/") and f"/e/{event_id}/arrive/" in link
    return link.rsplit("/", 1)[1]


def arrive(client, event_id, token, name):
    return client.post(f"/api/events/{event_id}/arrivals", json={"name": name, "token": token})


def test_players_check_in_at_the_door_and_round_1_seats_them(app, client):
    event_id, key = make(app)
    doc = client.get(f"/api/events/{event_id}", headers=auth(key)).get_json()
    assert doc["players"] == [] and doc["rounds"][0]["tables"] == []
    assert "check_in_link" not in client.get(f"/api/events/{event_id}").get_json()  # directors only
    token = token_of(client, event_id, key)
    assert arrive(client, event_id, "wrong" * 4, "Ann").status_code == 404
    early = client.post(f"/api/events/{event_id}/rounds", json={}, headers=auth(key))
    assert early.status_code == 409 and "At least 4 players" in early.get_json()["errors"][0]["message"]
    for name in NAMES:
        r = arrive(client, event_id, token, name)
        assert r.status_code == 201 and r.get_json() == {"name": name, "from_round": 1}
    again = arrive(client, event_id, token, "ＡＮＮ")  # NFKC + casefold: Ann again
    assert again.status_code == 409 and again.get_json()["errors"][0]["field"] == "name"
    bad = arrive(client, event_id, token, "")
    assert bad.status_code == 422
    doc = client.get(f"/api/events/{event_id}").get_json()
    assert doc["players"] == NAMES and len(doc["rounds"]) == 7  # 8 players: the perfect schedule
    seated = sorted(n for t in doc["rounds"][0]["tables"] for n in t["seats"])
    assert seated == sorted(NAMES)
    # A doubled arrival removed by the director before round 1: off the list, the rounds re-seated.
    arrive(client, event_id, token, "Annie")
    assert client.delete(f"/api/events/{event_id}/arrivals/Annie").status_code in (403, 404)
    removed = client.delete(f"/api/events/{event_id}/arrivals/annie", headers=auth(key))
    assert removed.status_code == 200 and removed.get_json()["players"] == NAMES
    assert client.delete(f"/api/events/{event_id}/arrivals/Zed", headers=auth(key)).status_code == 404
    assert client.post(f"/api/events/{event_id}/rounds", json={}, headers=auth(key)).status_code == 201


def test_a_late_check_in_joins_from_the_next_round_and_the_link_closes_when_the_event_finishes(app, client):
    event_id, key = make(app, rounds=2, players=NAMES[:4])
    token = token_of(client, event_id, key)
    tables = client.post(f"/api/events/{event_id}/rounds", json={}, headers=auth(key)).get_json()["tables"]
    late = [arrive(client, event_id, token, n) for n in ("Eve", "Fay", "Gus", "Hal")]
    assert all(r.status_code == 201 and r.get_json()["from_round"] == 2 for r in late)
    doc = client.get(f"/api/events/{event_id}").get_json()
    assert doc["rounds"][0]["tables"][0]["seats"] == tables[0]["seats"]  # round 1 stands
    assert len(doc["rounds"][1]["tables"]) == 2  # round 2 seats the arrivals too
    eve = next(s for s in doc["standings"] if s["name"] == "Eve")
    assert eve["missed"] == [1]
    # A wrong arrival after the rounds began: withdrawn, and shown in no standings.
    arrive(client, event_id, token, "Oops")
    gone = client.delete(f"/api/events/{event_id}/arrivals/Oops", headers=auth(key)).get_json()
    assert "Oops" not in [s["name"] for s in gone["standings"]]
    client.post(f"/api/events/{event_id}/rounds", json={"close": True}, headers=auth(key))
    with app.app_context():
        event = db.session.get(Event, event_id)
        rounds.close_round(event)
    assert client.get(f"/api/events/{event_id}").get_json()["finished"] is True
    closed = arrive(client, event_id, token, "Ivy")
    assert closed.status_code == 409 and "finished" in closed.get_json()["errors"][0]["message"]


def test_check_in_is_for_events_of_players(app, client):
    from scorekeeper.refusals import Refusal

    with app.app_context():
        for body, field in (
            ({"format": "pairs", "pairs": [["Ann", "Bob"], ["Cy", "Di"]], "check_in": True}, "check_in"),
            ({"format": "progressive", "players": NAMES, "check_in": "yes"}, "check_in"),
            ({"format": "progressive", "players": ["Ann"]}, "players"),
        ):
            try:
                events.create_event({"name": "x", "game": "euchre", **body})
            except Refusal as exc:
                assert exc.errors[0].field == field
            else:
                raise AssertionError(body)


def test_the_door_page_one_tap_a_known_name_one_field_a_new_one(app, client):
    from tests.clubs.helpers import as_member, bearer, join, new_club

    made = new_club(client, "The Lodge", "Olga")
    join(app.test_client(), "the-lodge", made["invite"], "Mel")
    created = client.post(
        "/api/clubs/the-lodge/events",
        json={"name": "Door night", "format": "progressive", "game": "euchre", "check_in": True, "hands": 1},
        headers=bearer(made["member_key"]),
    ).get_json()
    event_id = created["id"]
    door = created["check_in_link"].replace("http://localhost", "")
    phone = app.test_client()
    page = html.unescape(phone.get(door).get_data(as_text=True))
    assert '<button type="submit" name="name" value="Mel">Mel</button>' in page
    assert "0 players on tonight's list." in page
    tapped = phone.post(door, data={"name": "Mel"})
    # Post, redirect, get: a reload of the welcome sends nothing again.
    assert tapped.status_code == 303 and tapped.headers["Location"].endswith(door)
    text = html.unescape(phone.get(door).get_data(as_text=True))
    assert "Mel, you are on tonight's list" in text and 'value="Mel">Mel</button>' not in text
    assert "Your page for tonight" in text
    reloaded = html.unescape(phone.get(door).get_data(as_text=True))
    assert "Mel, you are on tonight's list" in reloaded and "1 player on tonight's list." in reloaded
    # Another phone at the door sees the list, not Mel's welcome nor the link to his page.
    other = html.unescape(app.test_client().get(door).get_data(as_text=True))
    assert "Mel, you are on tonight's list" not in other and "Your page for tonight" not in other
    typed = phone.post(door, data={"name": "  Zoë "}, follow_redirects=True)
    assert typed.status_code == 200 and "Zoë, you are on tonight's list" in html.unescape(
        typed.get_data(as_text=True)
    )
    twice = phone.post(door, data={"name": "ZOË"})
    assert twice.status_code == 409 and 'id="name-error"' in twice.get_data(as_text=True)
    assert 'value="ZOË"' in twice.get_data(as_text=True)  # what was typed is kept
    assert app.test_client().get(f"/e/{event_id}/arrive/{'x' * 24}").status_code == 404
    # The director's page and the board show the list filling, live.
    director = as_member(app, made["member_key"])
    hall = html.unescape(director.get(f"/e/{event_id}").get_data(as_text=True))
    assert "Tonight's list: 2 players" in hall and re.search(r"<span>Mel</span>", hall)
    board = html.unescape(client.get(f"/e/{event_id}/board").get_data(as_text=True))
    assert "Checked in: 2 players" in board and "Zoë" in board
    # The door card is printed with the table cards.
    sheets = html.unescape(director.get(f"/e/{event_id}/print").get_data(as_text=True))
    assert "Scan to check in." in sheets and created["check_in_link"] in sheets
    # The director removes a doubled arrival with one tap.
    removed = director.post(f"/e/{event_id}/arrivals/remove", data={"name": "Zoë"}, follow_redirects=True)
    assert "Zoë is off tonight's list." in html.unescape(removed.get_data(as_text=True))
    assert client.get(f"/api/events/{event_id}").get_json()["players"] == ["Mel"]
    assert app.test_client().post(f"/e/{event_id}/arrivals/remove", data={"name": "Mel"}).status_code == 403


def test_the_new_event_page_makes_a_check_in_event_with_no_player_and_late_zero(app, client):
    from tests.clubs.helpers import as_member, new_club

    made = new_club(client, "The Lodge", "Olga")
    member = as_member(app, made["member_key"])
    page = member.get("/c/the-lodge/events/new").get_data(as_text=True)
    assert 'name="check_in"' in page and 'name="late"' in page
    done = member.post(
        "/c/the-lodge/events/new",
        data={
            "name": "Door night",
            "game": "euchre",
            "format": "ladder",
            "check_in": "y",
            "late": "zero",
            "hands": "2",
        },
    )
    assert done.status_code == 303, done.get_data(as_text=True)
    event_id = done.headers["Location"].split("/e/")[1].split("/")[0].split("?")[0]
    with app.app_context():
        event = db.session.get(Event, event_id)
        assert event.settings["check_in"] is True and event.settings["late"] == "zero"
        assert event.entrants == []
    shown = html.unescape(member.get(f"/e/{event_id}").get_data(as_text=True))
    assert "Tonight's list: 0 players" in shown and f"/e/{event_id}/arrive/" in shown


def test_a_mixer_filled_at_the_door_is_planned_once_when_round_1_starts(app, client):
    import time

    event_id, key = make(app, format="mixer", game="tally", hands=None)
    took = []
    with app.app_context():  # 40 from one address would pass the joins limit: the service itself
        for n in range(40):
            started = time.monotonic()
            arrivals.arrive(db.session.get(Event, event_id), f"P{n}")
            took.append(time.monotonic() - started)
    # Every arrival is quick: no seating is planned yet (it was seconds each at 40 and more).
    assert max(took) < 1.0, max(took)
    doc = client.get(f"/api/events/{event_id}").get_json()
    assert doc["rounds"][0]["tables"] == []
    started = client.post(f"/api/events/{event_id}/rounds", json={}, headers=auth(key))
    assert started.status_code == 201
    doc = client.get(f"/api/events/{event_id}").get_json()
    first = [sorted(t["seats"]) for t in doc["rounds"][0]["tables"]]
    assert len(first) == 10 and sorted(n for t in first for n in t) == sorted(f"P{n}" for n in range(40))
    assert all(r["tables"] for r in doc["rounds"])  # every later round planned with it
