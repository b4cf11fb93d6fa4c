"""The club ratings' store: a lock per club, held only to swap a result in; never a stale answer."""

from __future__ import annotations

import threading

from scorekeeper.clubs import ratings, roster
from scorekeeper.db import db
from scorekeeper.models import Club
from tests.clubs.helpers import club_game, new_club

END = {"end": True}


def two_clubs(client) -> dict[str, dict]:
    clubs = {}
    for name in ("North", "South"):
        made = new_club(client, name)
        club_game(client, made["slug"], made["member_key"], ["Ann", "Bob"], [{"points": [3, 1]}, END])
        clubs[name] = made
    return clubs


def ratings_meanwhile(app, club: int, answers: dict[str, object], name: str) -> threading.Thread:
    """The club's ratings asked by another request (a thread with its own app context)."""

    def ask() -> None:
        with app.app_context():
            answers[name] = roster.club_ratings(club)

    thread = threading.Thread(target=ask)
    thread.start()
    return thread


def club_id(slug: str) -> int:
    return db.session.query(Club.id).filter(Club.slug == slug).scalar()


def test_two_clubs_ratings_do_not_wait_for_each_other(app, client, monkeypatch):
    clubs = two_clubs(client)
    with app.app_context():
        north, south = club_id(clubs["North"]["slug"]), club_id(clubs["South"]["slug"])
    north_inside = threading.Event()
    south_done = threading.Event()
    real = ratings.rate
    waited: list[bool] = []

    def rate(matches, game=None):
        if matches and matches[0].game_id in north_games:
            north_inside.set()
            # North's re-scoring stays inside until South's ratings are done: with one lock for
            # every club, South would wait here for North (and this wait would run out).
            waited.append(south_done.wait(20))
        return real(matches, game)

    with app.app_context():
        from scorekeeper.models import Game

        north_games = set(db.session.scalars(db.select(Game.id).where(Game.club_id == north)))
    monkeypatch.setattr(ratings, "rate", rate)
    answers: dict[str, object] = {}
    thread = ratings_meanwhile(app, north, answers, "north")
    assert north_inside.wait(20)
    with app.app_context():
        answers["south"] = roster.club_ratings(south)
    south_done.set()
    thread.join(20)
    assert waited == [True]
    assert [p.name for p in answers["north"].leaderboard] == ["Ann", "Bob"]
    assert [p.name for p in answers["south"].leaderboard] == ["Ann", "Bob"]


def test_a_result_derived_before_a_change_is_never_answered_after_it(app, client, monkeypatch):
    made = new_club(client, "East")
    club_game(client, made["slug"], made["member_key"], ["Ann", "Bob"], [{"points": [3, 1]}, END])
    with app.app_context():
        east = club_id(made["slug"])
    read_games = threading.Event()
    changed = threading.Event()
    real = roster._current_matches

    def slow_matches(known, club):
        found = real(known, club)
        read_games.set()  # the games are read: now another request changes them
        assert changed.wait(20)
        return found

    monkeypatch.setattr(roster, "_current_matches", slow_matches)
    old: dict[str, object] = {}
    thread = ratings_meanwhile(app, east, old, "ratings")
    assert read_games.wait(20)
    # A new finished game where Cid beats everyone, written while the first reader computes.
    club_game(client, made["slug"], made["member_key"], ["Cid", "Ann"], [{"points": [9, 0]}, END])
    changed.set()
    thread.join(20)
    monkeypatch.setattr(roster, "_current_matches", real)
    assert "Cid" not in [p.name for p in old["ratings"].leaderboard]  # derived before the change
    with app.app_context():
        now = roster.club_ratings(east)
        assert "Cid" in [p.name for p in now.leaderboard]
        assert now == roster.from_scratch(east, [None])[None]
