"""An event's entrants and seating as data: the checks every format's entry shares, and the
seating's plain form as stored (entrant numbers per table, and who sits out).

Pure of Flask and the database.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from ..confusables import fold_name
from ..refusals import refuse
from ..rules import N_
from ..rules.base import UNSAFE_NAME, unsafe_name
from . import seating

PLAYER_NAME = 40
MAX_ENTRANTS = 400


def check_size(players: int, field: str, most: int = MAX_ENTRANTS) -> None:
    """The event's size, checked before anything else is looked at or planned (the setting
    ``EVENT_MAX_PLAYERS``): the seating's work grows with it."""
    if players > most:
        raise refuse(
            field, N_("An event seats at most {n} players; this one has {count}."), n=most, count=players
        )


def player_names(value: Any, field: str, most: int = MAX_ENTRANTS) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise refuse(field, N_("Give the players as a list of names."))
    check_size(len(value), field, most)
    names = [v.strip() for v in value]
    for name in names:
        if not 1 <= len(name) <= PLAYER_NAME:
            raise refuse(field, N_("A player's name is 1 to {n} characters."), n=PLAYER_NAME)
        if unsafe_name(name):
            raise refuse(field, UNSAFE_NAME)
    # Two entrants whose names look the same (Own and a Cyrillic Оwn) are one name, as for members.
    counts = Counter(fold_name(n) for n in names)
    clash = [name for name in names if counts[fold_name(name)] > 1]  # as typed, not folded
    if clash:
        raise refuse(field, N_("Each player may be listed once: {name} is listed twice."), name=clash[0])
    return names


def int_field(data: Mapping[str, Any], field: str, low: int, high: int, default: Any = None) -> Any:
    value = data.get(field, default)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise refuse(
            field, N_("{what} is a whole number from {low} to {high}."), what=field, low=low, high=high
        )
    return value


def round_data(rnd: seating.Round) -> dict[str, Any]:
    return {"tables": [list(t.seats) for t in rnd.tables], "sitting_out": list(rnd.sitting_out)}


def matches_data(matches: Sequence[seating.Match]) -> dict[str, Any]:
    return {
        "tables": [[m.first, m.second] for m in matches if m.second is not None],
        "sitting_out": [m.first for m in matches if m.second is None],
    }
