"""Who did it (issue 56): every change to an event or a club records who made it: the member's
name, "director" for an event's director key, a joiner's own name, "operator" for the command
line."""

from __future__ import annotations

from sqlalchemy import select

from scorekeeper.db import db
from scorekeeper.models import HouseChange
from tests.clubs.helpers import as_member, bearer, join, new_club

PLAYERS = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]
NIGHT = {"name": "Euchre night", "format": "progressive", "game": "euchre", "players": PLAYERS, "hands": 1}


def history(app, **where) -> list[tuple[str, str]]:
    with app.app_context():
        rows = db.session.scalars(select(HouseChange).filter_by(**where).order_by(HouseChange.id)).all()
        return [(row.kind, row.by) for row in rows]


def test_an_events_history_names_its_creator_and_its_directors(app, client):
    made = new_club(client, "The Lodge", "Olga")
    owner = bearer(made["member_key"])
    mel = join(app.test_client(), "the-lodge", made["invite"], "Mel")
    created = client.post("/api/clubs/the-lodge/events", json=NIGHT, headers=bearer(mel["member_key"]))
    assert created.status_code == 201, created.json
    event_id, director = created.json["id"], bearer(created.json["director_key"])

    # The API: a director key signs "director", the club's owner signs with her name.
    assert client.post(f"/api/events/{event_id}/rounds", json={}, headers=director).status_code == 201
    changed = client.post(f"/api/events/{event_id}/players", json={"add": ["Ivy"]}, headers=owner)
    assert changed.status_code == 200, changed.json
    # The pages: the owner's browser (her member cookie) closes the round and starts the next.
    olga = as_member(app, made["member_key"])
    started = olga.post(f"/e/{event_id}/rounds", data={"close": "y", "round": "2"})
    assert started.status_code == 303
    withdrawn = olga.post(f"/e/{event_id}/players", data={"withdraw": ["Ivy"]})
    assert withdrawn.status_code == 303, withdrawn.get_data(as_text=True)

    assert history(app, event_id=event_id) == [
        ("create_event", "Mel"),
        ("start_round", "director"),
        ("players", "Olga"),
        ("start_round", "Olga"),  # round 1 closed with it
        ("players", "Olga"),
    ]


def test_every_club_change_is_signed(app, client):
    made = new_club(client, "The Lodge", "Olga")
    owner = bearer(made["member_key"])
    invite = client.post("/api/clubs/the-lodge/invites", json={}, headers=owner).json["invite"]
    assert client.delete(f"/api/clubs/the-lodge/invites/{invite}", headers=owner).status_code == 204
    olga = as_member(app, made["member_key"])
    assert olga.post("/c/the-lodge/invites", data={"role": "member"}).status_code == 200
    kinds = history(app)
    assert kinds and all(by for _, by in kinds), kinds
    assert [by for _, by in kinds] == ["Olga"] * len(kinds)


def test_the_directors_page_shows_who_did_what(app, client):
    made = new_club(client, "The Lodge", "Olga")
    created = client.post("/api/clubs/the-lodge/events", json=NIGHT, headers=bearer(made["member_key"]))
    event_id, director = created.json["id"], bearer(created.json["director_key"])
    assert client.post(f"/api/events/{event_id}/rounds", json={}, headers=director).status_code == 201
    page = as_member(app, made["member_key"]).get(f"/e/{event_id}").get_data(as_text=True)
    history = page[page.index('id="history"') :]
    assert "The event was made · Olga" in history
    assert "Round 1 started · the director" in history
    # Someone who does not direct it sees no history.
    assert 'id="history"' not in app.test_client().get(f"/e/{event_id}").get_data(as_text=True)
