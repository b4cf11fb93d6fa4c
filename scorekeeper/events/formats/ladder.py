"""``ladder``, the king's table (events.md): individual scores; winners move up a table, losers
down, the arriving pairs split. Only round 1 is planned at creation; each later round is seated
when it starts, from the round before's results (:mod:`..ladder`, the pure movement)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...models import Event, Game
from ...rules import N_
from .. import ladder, ladder_rounds, seating, standings
from .base import Column, Entry, lone_hands_of, rounds_data
from .progressive import Progressive


class Ladder(Progressive):
    """A progressive evening's hands and length; its own seating and standings."""

    key = "ladder"
    label = N_("Ladder, king's table (winners move up a table, losers down, partners split)")
    never_tied = True
    shuffles = True
    unseated_note = N_("Seated from the last round's results when it starts.")

    def title(self, pairing: str | None) -> str:
        return N_("Ladder (king's table)")

    def plan(self, count: int, rounds: int, entry: Entry) -> list[dict[str, Any]]:
        return rounds_data([ladder.first_round(range(count), entry.shuffle)])

    def next_seating(self, event: Event, number: int, games: Mapping[str, Game]) -> dict[str, Any]:
        if number == 1:
            return event.schedule[0]
        players = [e for e in range(len(event.entrants)) if e not in event.withdrawn]
        return ladder_rounds.next_seating(event, number, games, players)

    def reseat(
        self,
        entrants: int,
        players: Sequence[int],
        before: list[seating.Round],
        remaining: int,
        size: int,
        shuffle: bool = False,
    ):
        # Round 1 as given (or shuffled); once it started, later rounds are seated as they start.
        return [] if before else [ladder.first_round(players, shuffle)]

    def standings(
        self, event: Event, games: Mapping[str, Game], names: list[str]
    ) -> list[standings.Standing]:
        count_lone = lone_hands_of(event.kind)
        return ladder_rounds.compute_standings(event, games, names, count_lone)

    def columns(self, pairing: str | None) -> list[Column]:
        return [
            Column("points", N_("Points"), True),
            Column("wins", N_("Rounds won")),
            Column("loners", N_("Loners")),
        ]


FORMAT = Ladder()
