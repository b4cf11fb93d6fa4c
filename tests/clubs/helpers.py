"""Clubs made through the public API, as the outside tests drive it."""

from __future__ import annotations


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def new_club(client, name: str, player: str = "Olga") -> dict:
    made = client.post("/api/clubs", json={"name": name, "player": player})
    assert made.status_code == 201, made.json
    return made.json


def join(client, slug: str, invite: str, name: str) -> dict:
    joined = client.post(f"/api/clubs/{slug}/join", json={"invite": invite, "name": name})
    assert joined.status_code == 201, joined.json
    return joined.json


def club_game(client, slug: str, key: str, players: list[str], deals=(), game: str = "tally") -> dict:
    made = client.post(
        "/api/games",
        json={"game": game, "players": players, "deals": list(deals), "club": slug},
        headers=bearer(key),
    )
    assert made.status_code == 201, made.json
    return made.json


def as_member(app, key: str):
    """A browser of a member: its cookie holds the member key."""
    browser = app.test_client()
    browser.set_cookie("member", key)
    return browser
