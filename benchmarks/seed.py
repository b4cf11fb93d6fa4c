"""What the benchmark seeds: Spades game records built by the rules' own random deals (pure, so the
tests can check them), created through the JSON API, and a club evening of many tables."""

from __future__ import annotations

import random
from typing import Any

from scorekeeper.games import GAMES

PLAYERS = ["Ann", "Bob", "Cid", "Dee"]
# Far beyond any total 240 random deals reach: the long games never end.
HUGE_TARGET = 1_000_000


def spades_setup(options: dict[str, Any]):
    from scorekeeper.rules.base import check_setup

    game = GAMES.get("spades")
    errors, setup = check_setup(game, PLAYERS, options, 0)
    if errors:
        raise ValueError(errors)
    return game, setup


def spades_record(options: dict[str, Any], deals: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "format": "scorekeeper-game/1",
        "game": "spades",
        "options": options,
        "players": list(PLAYERS),
        "first_dealer": 0,
        "deals": deals,
    }


def random_deals(options: dict[str, Any], count: int, rng: random.Random, stop_when_finished=False):
    """``count`` deals drawn by the Spades module's ``random_deal``, played as they come."""
    from scorekeeper.rules.base import play

    game, setup = spades_setup(options)
    deals: list[dict[str, Any]] = []
    result = play(game, setup, deals)
    while len(deals) < count and not (stop_when_finished and result.finished):
        dealer = result.next_dealer if result.next_dealer is not None else 0
        deals.append(game.random_deal(setup, result.state, dealer, rng))
        result = play(game, setup, deals)
    return deals, result


def finished_game_record(rng: random.Random, low: int = 9, high: int = 12) -> dict[str, Any]:
    """A finished cutthroat Spades game to 200 (the short game) of ``low``-``high`` deals."""
    options = {"mode": "cutthroat", "target": 200}
    for _ in range(200):
        deals, result = random_deals(options, 60, rng, stop_when_finished=True)
        if result.finished and low <= len(deals) <= high:
            return spades_record(options, deals)
    raise RuntimeError("no finished game of the wanted length")


def long_game_record(deals: int, rng: random.Random) -> dict[str, Any]:
    """A cutthroat Spades game with a target it never reaches, holding ``deals`` deals."""
    options = {"mode": "cutthroat", "target": HUGE_TARGET}
    return spades_record(options, random_deals(options, deals, rng)[0])


def deal_bodies(count: int, rng: random.Random) -> list[dict[str, Any]]:
    """Deals any long game accepts next (cutthroat deals do not depend on the score so far)."""
    return random_deals({"mode": "cutthroat", "target": HUGE_TARGET}, count, rng)[0]


def seed_games(client, record: dict[str, Any]) -> tuple[str, str]:
    """POST /api/games with ``record``: the new game's id and edit key."""
    reply = client.post("/api/games", json=record)
    if reply.status_code != 201:
        raise RuntimeError(f"seeding refused: {reply.status_code} {reply.get_data(as_text=True)[:500]}")
    data = reply.get_json()
    return data["id"], data["edit_key"]


# Each table's two hands (Euchre facts; partners sit opposite, seats 0 + 2 against 1 + 3): seat 0
# makes hearts with 3 tricks (1 point for 0 + 2), then seat 1 makes spades with 4 (1 for 1 + 3).
EVENT_HANDS = (
    {"trump": "H", "maker": 0, "alone": False, "defender_alone": None, "maker_tricks": 3},
    {"trump": "S", "maker": 1, "alone": False, "defender_alone": None, "maker_tricks": 4},
)
# What the served corrections put in place of the second hand, and back: seat 1 alone takes all
# 5 (4 points and a lone hand for 1 + 3), so every correction moves the standings.
SECOND_HAND_CORRECTED = {"trump": "S", "maker": 1, "alone": True, "defender_alone": None, "maker_tricks": 5}


def seed_event(app, client, tables: int) -> tuple[str, list[tuple[str, str]]]:
    """A progressive Euchre night of ``tables`` tables (4 players each), round 1 started and two
    hands played at each table through the API; returns the event and each table's (game, key)."""
    from scorekeeper.events import rounds
    from scorekeeper.events import service as events

    players = [f"P{i}" for i in range(4 * tables)]
    with app.app_context():
        event, _ = events.create_event(
            {
                "name": f"{tables} tables",
                "format": "progressive",
                "game": "euchre",
                "players": players,
                "rounds": 3,
            }
        )
        rnd = rounds.start_round(event)
        games = [(t.game_id, events.table_key(t.game_id)) for t in rnd.tables]
        event_id = event.id
    for game_id, key in games:
        for hand in EVENT_HANDS:
            reply = client.post(
                f"/api/games/{game_id}/deals", json=hand, headers={"Authorization": f"Bearer {key}"}
            )
            if reply.status_code != 201:
                raise RuntimeError(f"a table's hand refused: {reply.status_code} {reply.get_json()}")
    return event_id, games
