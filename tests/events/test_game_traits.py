"""Which games an event's format plays is said by each game's folder (its event traits), and the
refusals name those games from the registry, never by hand."""

from __future__ import annotations

import dataclasses

import pytest

from scorekeeper import games
from scorekeeper.events.checks import check_event
from scorekeeper.games.folder import Parts
from scorekeeper.refusals import Refusal

PLAYERS = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]


def refusal(**body) -> str:
    with pytest.raises(Refusal) as refused:
        check_event({"name": "Night", "players": PLAYERS, **body})
    return "; ".join(str(error.message) for error in refused.value.errors)


def test_the_refusals_name_the_games_that_say_they_seat_partnerships():
    assert refusal(format="pairs", game="secret_agent") == (
        "Pairs and progressive events play a game of partnerships: Euchre, Spades."
    )
    assert refusal(format="mixer", game="secret_agent", hands=3) == (
        "Only games of partnerships are played for a number of hands: Euchre, Spades."
    )


def test_a_game_whose_folder_stops_saying_so_no_longer_plays_them(monkeypatch):
    # Euchre's folder as if it declared no event traits: the events follow its word alone.
    euchre = games.FOLDERS["euchre"]
    monkeypatch.setitem(games.FOLDERS, "euchre", dataclasses.replace(euchre, parts=Parts(rules=euchre.rules)))
    assert refusal(format="progressive", game="euchre") == (
        "Pairs and progressive events play a game of partnerships: Spades."
    )
