"""The new-event page offers the club's players as chips (tick who is here tonight) plus names
typed; late arrivals are added the same way on the director's page (events.md, Screens)."""

from __future__ import annotations

import re

from tests.clubs.helpers import as_member, club_game, new_club


def club_with_players(app, client):
    made = new_club(client, "Lodge", "Olga")
    club_game(client, "lodge", made["member_key"], ["Ann", "Bob", "Cy", "Di"])
    club_game(client, "lodge", made["member_key"], ["Eve", "Fay"])
    return as_member(app, made["member_key"])


def test_the_new_event_page_offers_the_clubs_players_to_tick(app, client):
    member = club_with_players(app, client)
    page = member.get("/c/lodge/events/new").get_data(as_text=True)
    offered = re.findall(r'<input type="checkbox" name="here" value="([^"]+)"', page)
    assert offered == ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Olga"]
    made = member.post(
        "/c/lodge/events/new",
        data={
            "name": "Tonight",
            "game": "euchre",
            "format": "progressive",
            "here": ["Ann", "Bob", "Di"],
            "players": "Zed\nbob\nYves",
            "hands": "1",
        },
    )
    assert made.status_code == 303, made.get_data(as_text=True)
    event_id = made.headers["Location"].split("/e/")[1].split("?")[0].split("#")[0]
    doc = client.get(f"/api/events/{event_id}").json
    assert doc["players"] == ["Ann", "Bob", "Di", "Zed", "Yves"]  # "bob" typed is Bob ticked


def test_a_refused_form_keeps_the_ticks(app, client):
    member = club_with_players(app, client)
    refused = member.post(
        "/c/lodge/events/new",
        data={"name": "", "game": "euchre", "format": "progressive", "here": ["Ann", "Cy"], "players": ""},
    )
    assert refused.status_code == 422
    page = refused.get_data(as_text=True)
    assert re.findall(r'value="([^"]+)" checked', page) == ["Ann", "Cy"]
    # Pairs are typed: ticking players for a pairs event is refused at the chips, by name.
    pairs = member.post(
        "/c/lodge/events/new",
        data={
            "name": "Cup",
            "game": "euchre",
            "format": "pairs",
            "here": ["Ann"],
            "players": "Ann & Bob\nCy & Di",
        },
    )
    assert pairs.status_code == 422 and 'id="here-error"' in pairs.get_data(as_text=True)


def test_late_arrivals_are_ticked_on_the_directors_page(app, client):
    member = club_with_players(app, client)
    made = member.post(
        "/c/lodge/events/new",
        data={
            "name": "Tonight",
            "game": "euchre",
            "format": "progressive",
            "here": ["Ann", "Bob", "Cy", "Di"],
            "hands": "1",
        },
    )
    event_id = made.headers["Location"].split("/e/")[1].split("?")[0].split("#")[0]
    page = member.get(f"/e/{event_id}").get_data(as_text=True)
    late = re.findall(r'<input type="checkbox" name="join" value="([^"]+)"', page)
    assert late == ["Eve", "Fay", "Olga"]  # the club's players not in the event yet
    added = member.post(f"/e/{event_id}/players", data={"join": ["Eve", "Fay"], "add": "Gus"})
    assert added.status_code == 303
    assert client.get(f"/api/events/{event_id}").json["players"] == [
        "Ann",
        "Bob",
        "Cy",
        "Di",
        "Eve",
        "Fay",
        "Gus",
    ]
    page = member.get(f"/e/{event_id}").get_data(as_text=True)
    assert re.findall(r'<input type="checkbox" name="join" value="([^"]+)"', page) == ["Olga"]
