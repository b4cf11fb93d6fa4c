"""``progressive`` (events.md): individual scores, partners change every round, the whole
schedule made at creation (a whist design where one exists)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...games import event_traits
from ...rules import N_
from .. import seating, standings
from ..played import Play
from .base import Column, Entry, Format, absences, played_in, rounds_data


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

    def rank(self, play: Play, names: list[str]) -> list[standings.Standing]:
        scores = [standings.RoundScores(played_in(rnd), frozenset(rnd.sitting_out)) for rnd in play.rounds]
        return standings.progressive(names, scores, *absences(play))

    def columns(self, pairing: str | None) -> list[Column]:
        return [Column("points", N_("Points"), True), Column("loners", N_("Loners"))]


FORMAT = Progressive()
