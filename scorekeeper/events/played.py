"""An event as its format reads it: plain values, read once from the event's rows and its
tables' games, so that a format's seating and standings are pure functions of them (tested
without a database, events/formats/).

The reading is here, not in the formats: a format is handed a :class:`Play` and never sees an
ORM row or :mod:`scorekeeper.read`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .. import read
from ..games import event_traits
from ..models import Event, Game


@dataclass(frozen=True)
class TablePlay:
    """One table's game as the standings need it: its seats (entrant numbers, clockwise), each
    seat's total so far (None: hidden or not yet), and how it ended if it did."""

    number: int
    seats: tuple[int, ...]
    totals: tuple[int | None, ...]
    finished: bool = False
    winners: tuple[int, ...] = ()  # the winning seats of a finished game
    low_wins: bool = False
    # Lone hands made by seat (Euchre's, counted by the game's event traits; others none).
    loners: Mapping[int, int] = field(default_factory=Counter)


@dataclass(frozen=True)
class RoundPlay:
    number: int
    tables: tuple[TablePlay, ...]
    sitting_out: tuple[int, ...] = ()
    closed: bool = False  # the director closed it (its unfinished tables count as they stand)


@dataclass(frozen=True)
class Play:
    """What an event's format seats and ranks from: the entrants, the settings, who withdrew,
    the planned schedule and every round started so far."""

    entrants: tuple[Any, ...]
    settings: Mapping[str, Any]
    withdrawn: frozenset[int] = frozenset()
    schedule: tuple[Mapping[str, Any], ...] = ()
    rounds: tuple[RoundPlay, ...] = ()

    def active(self) -> list[int]:
        """The entrants still playing (not withdrawn), in their order."""
        return [e for e in range(len(self.entrants)) if e not in self.withdrawn]


def of(event: Event, games: Mapping[str, Game]) -> Play:
    """The event's :class:`Play`, its tables' games (``games`` by id) read as their results."""
    count_lone = event_traits(event.kind).lone_hands
    rounds = []
    for rnd in event.rounds:
        tables = []
        for table in rnd.tables:
            view = read.game_view(games[table.game_id])
            result = view.result
            loners = count_lone([d.facts for d in result.deals]) if count_lone else Counter()
            tables.append(
                TablePlay(
                    table.number,
                    tuple(table.seats),
                    tuple(result.totals),
                    view.finished,
                    tuple(result.winners),
                    result.low_wins,
                    loners,
                )
            )
        rounds.append(RoundPlay(rnd.number, tuple(tables), tuple(rnd.sitting_out), rnd.closed_at is not None))
    return Play(
        tuple(event.entrants),
        dict(event.settings),
        frozenset(event.withdrawn or ()),
        tuple(event.schedule or ()),
        tuple(rounds),
    )
