"""What the tests set up and scripts/screens.py sets up too (its pictures are the tests' scenes):
plain Python, importing nothing of pytest nor the tests' fixtures, so that a script can use it
without the test suite's own settings.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Callable, Iterable
from typing import Any

# A Hidden Secrets allotment: ten values adding up to 45.
ROW = [4, 4, 4, 4, 4, 5, 5, 5, 5, 5]


def api(base: str, path: str, body: dict | None = None, key: str | None = None) -> dict:
    """A call to the served app's API (JSON in and out), with a bearer ``key`` if given."""
    request = urllib.request.Request(
        base + path,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    if key:
        request.add_header("Authorization", f"Bearer {key}")
    with urllib.request.urlopen(request) as answer:
        return json.load(answer)


def euchre_evening(players: Iterable[str], name: str = "Euchre night", **settings: Any) -> dict:
    """An event's body (events.md): progressive Euchre for ``players``, with ``settings`` (hands,
    rounds, minutes, another format...) as the test needs them."""
    return {"name": name, "format": "progressive", "game": "euchre", "players": list(players), **settings}


def hidden_secrets(base: str, players: list[str], allotted: bool = True) -> tuple[dict, list[dict]]:
    """A Hidden Secrets game made through the API, each player's allotment given (a turn of
    :data:`ROW` each: turn 1 is next) or, ``allotted=False``, still to be typed on each seat's
    private link: the game (its id and edit key) and its seats (each one's link and token)."""
    options: dict[str, Any] = {"hidden": True}
    if allotted:
        options["values"] = [ROW[i:] + ROW[:i] for i in range(len(players))]
    game = api(base, "/api/games", {"game": "secrets", "players": players, "options": options})
    return game, api(base, f"/api/games/{game['id']}/seats", key=game["edit_key"])["seats"]


def address(base: str, link: str) -> str:
    """A link the app gave (a seat's, a table's): whole where the app knows its own address, else
    a path on ``base``."""
    return link if link.startswith("http") else base + link


def abracadabra_reported(chip: Callable[[str, Any], None]) -> None:
    """The rules' worked example (four players) entered as the players report it, each fact
    tapped with ``chip(name, value)``: the ranks each won, the bid's cards, tricks, suit cards."""
    for seat, ranks in enumerate([[5, 11], [4, 12], [1, 2], []]):
        for rank in ranks:
            chip(f"bid_won_{seat}", rank)
    for rank in (6, 7, 8):
        chip("bid_cards_3", rank)
    for seat, count in enumerate([7, 4, 2]):
        chip(f"tricks_{seat}", count)
    for seat, count in enumerate([6, 5, 1, 0]):
        chip(f"suit_cards_{seat}", count)
