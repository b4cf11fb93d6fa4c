"""``progressive`` (events.md): individual scores, partners change every round, the whole
schedule made at creation (a whist design where one exists)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from ... import read
from ...games import event_traits
from ...models import Event, Game
from ...rules import N_
from .. import seating, standings
from .base import Column, Entry, Format, lone_hands_of, rounds_data


class Progressive(Format):
    key = "progressive"
    label = N_("Progressive (partners change every round)")

    def title(self, pairing: str | None) -> str:
        return N_("Progressive")

    def default_hands(self, kind: str) -> int | None:
        return event_traits(kind).default_hands

    def default_rounds(self, count: int, entry: Entry) -> int:
        return seating.default_rounds(count)

    def plan(self, count: int, rounds: int, entry: Entry) -> list[dict[str, Any]]:
        return rounds_data(seating.progressive(count, rounds).rounds)

    def reseat(
        self,
        entrants: int,
        players: Sequence[int],
        before: list[seating.Round],
        remaining: int,
        size: int,
        shuffle: bool = False,
    ):
        return seating.reseat_progressive(entrants, players, before, remaining)

    def standings(
        self, event: Event, games: Mapping[str, Game], names: list[str]
    ) -> list[standings.Standing]:
        count_lone = lone_hands_of(event.kind)
        scores = []
        for rnd in event.rounds:
            played: dict[int, standings.Played] = {}
            for table in rnd.tables:
                view = read.game_view(games[table.game_id])
                loners = count_lone([d.facts for d in view.result.deals]) if count_lone else Counter()
                for seat, entrant in enumerate(table.seats):
                    played[entrant] = standings.Played(view.result.totals[seat] or 0, loners[seat])
            scores.append(standings.RoundScores(played, frozenset(rnd.sitting_out)))
        return standings.progressive(
            names,
            scores,
            event.settings.get("sit_out", "average"),
            event.settings.get("late", "sit_out"),
            frozenset(event.withdrawn or ()),
        )

    def columns(self, pairing: str | None) -> list[Column]:
        return [Column("points", N_("Points"), True), Column("loners", N_("Loners"))]


FORMAT = Progressive()
