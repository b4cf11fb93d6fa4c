"""Clubs made through the public API, as the outside tests drive it (making a club, joining
one and the Bearer header are tests/conftest.py's, named here too for the tests that import
them from here)."""

from __future__ import annotations

from tests.conftest import bearer, join, new_club

__all__ = ["as_member", "bearer", "club_game", "join", "new_club"]


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
