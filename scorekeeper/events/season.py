"""A club's season (events.md, Season): the league table across its finished events. Pure: no
Flask, no database.

Each finished event gives its players season points by place: first gets as many points as the
event had entrants (players, or pairs: each player of a pair scores the pair's points), each
next place one less, and a shared place shares the mean of the places it covers (two firsts of
ten: 9.5 each, then third: 8). The table ranks players by the sum of their best ``best`` events
(all when None), then by events played, then shares the rank; every tie-break is explained as an
event's results explain theirs (:func:`.standings.ranked`).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from fractions import Fraction

from ..rules.base import N_
from .standings import Number, Standing, ranked

# The season's own rules in the explanations (translated by the screens).
RULE_NAMES = {"season": N_("season points"), "events": N_("events played")}


@dataclass(frozen=True)
class Place:
    """One line of a finished event's results: its rank (shared ranks equal, the next one
    skipping: 1, 1, 3) and the players it stands for (one, or a pair's two)."""

    rank: int
    players: tuple[str, ...]


@dataclass(frozen=True)
class EventResult:
    """A finished event as the season needs it."""

    id: str
    name: str
    day: date
    places: tuple[Place, ...]  # every entrant, best first


@dataclass(frozen=True)
class Season:
    events: tuple[EventResult, ...]  # oldest first: the order of every ``by_event``
    standings: tuple[Standing, ...]  # ``by_round`` is by event here; ``figures["events"]`` played


def place_points(places: Sequence[Place]) -> list[Fraction]:
    """Season points of each place: the first ``len(places)``, each next one less; a rank shared
    by k entrants covers k places and each gets their mean."""
    count = len(places)
    sharing: dict[int, int] = {}
    for place in places:
        sharing[place.rank] = sharing.get(place.rank, 0) + 1
    out = []
    for place in places:
        covered = range(place.rank, place.rank + sharing[place.rank])
        out.append(Fraction(sum(count + 1 - p for p in covered), len(covered)))
    return out


def fold(name: str) -> str:
    """One player across events, whatever the case or compatibility form typed that night."""
    return unicodedata.normalize("NFKC", name).casefold()


def season(events: Sequence[EventResult], best: int | None = None) -> Season:
    """The season table of ``events`` (any order; listed oldest first)."""
    ordered = tuple(sorted(events, key=lambda e: (e.day, e.name, e.id)))
    points: dict[str, list[Fraction | None]] = {}
    shown: dict[str, str] = {}  # a player's name as their latest event spelt it
    for number, event in enumerate(ordered):
        for place, earned in zip(event.places, place_points(event.places), strict=True):
            for name in place.players:
                key = fold(name)
                row = points.setdefault(key, [None] * len(ordered))
                if row[number] is None:  # a name twice in one event counts once
                    row[number] = earned
                shown[key] = name
    players = sorted(points, key=lambda k: (fold(shown[k]), shown[k]))
    totals: dict[int, Number] = {}
    keys = {}
    by_event = {}
    figures = {}
    for i, key in enumerate(players):
        got = [p for p in points[key] if p is not None]
        kept = sorted(got, reverse=True)[: best if best is not None else len(got)]
        total: Number = sum(kept, Fraction(0))
        totals[i] = total
        keys[i] = (("season", total), ("events", len(got)))
        by_event[i] = points[key]
        figures[i] = {"events": len(got)}
    table = ranked(
        [(i, shown[key]) for i, key in enumerate(players)], keys, totals, by_event, figures, RULE_NAMES
    )
    return Season(ordered, tuple(table))
