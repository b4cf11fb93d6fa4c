"""``ladder``, the king's table (events.md): individual scores; winners move up a table, losers
down, the arriving pairs split. Only round 1 is planned at creation; each later round is seated
when it starts, from the round before's results (:mod:`..ladder`, the pure movement): what its
tables' games say is handed to it here, from plain values (:class:`~..played.Play`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from ...refusals import refuse
from ...rules import N_
from .. import ladder, seating, standings
from ..entrants import round_data
from ..played import Play, RoundPlay, TablePlay
from .base import Column, Entry, Field, Option, absences, played_in, rounds_data
from .progressive import Progressive


class Shuffle(Option):
    """Round 1 shuffled instead of seated in the order given."""

    key = "shuffle"
    default = False
    schema = {
        "type": "boolean",
        "description": "ladder: round 1 seated in a shuffled order instead of the order given",
    }
    field = Field(N_("Shuffle the players for the first round (ladder)"))

    def check(self, data: Mapping[str, Any], entry: Entry) -> Any:
        shuffle = data.get("shuffle", False)
        if not isinstance(shuffle, bool):
            self.elsewhere({"shuffle": shuffle})
        return shuffle

    def elsewhere(self, data: Mapping[str, Any]) -> None:
        if data.get("shuffle", False) is not False:
            raise refuse("shuffle", N_("Shuffle is true or false, for a ladder only."))

    def stored(self, value: Any) -> bool:
        return isinstance(value, bool)


class Ladder(Progressive):
    """A progressive evening's hands and length; its own seating and standings."""

    key = "ladder"
    label = N_("Ladder, king's table (winners move up a table, losers down, partners split)")
    never_tied = True
    unseated_note = N_("Seated from the last round's results when it starts.")
    options = (Shuffle(),)

    def title(self, pairing: str | None) -> str:
        return N_("Ladder (king's table)")

    def plan(self, count: int, rounds: int, entry: Entry) -> list[dict[str, Any]]:
        return rounds_data([ladder.first_round(range(count), entry.shuffle)])

    def seat(self, play: Play, number: int) -> dict[str, Any]:
        """Round ``number``'s seating, made as it starts from the round before's results."""
        if number == 1:
            return dict(play.schedule[0])
        last = play.rounds[-1]
        tables = sorted(last.tables, key=lambda t: t.number)
        moved = [ladder.Played(t.seats, first_pair_won(t)) for t in tables]  # type: ignore[arg-type]
        sat_out = Counter(p for r in play.rounds for p in r.sitting_out)
        before = [_as_round(r) for r in play.rounds]
        return round_data(ladder.next_round(number, moved, play.active(), sat_out, last.sitting_out, before))

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

    def rank(self, play: Play, names: list[str]) -> list[standings.Standing]:
        """Total points, then rounds won, then (Euchre) lone hands made, then shared rank."""
        rounds = []
        for rnd in play.rounds:
            won: set[int] = set()
            for table in rnd.tables:
                first = first_pair_won(table)
                # A round won is a table won: a finished game's, or the higher total of a closed
                # round (equal totals there are a tie: nobody won it, events.md, Rounds).
                tied = not table.finished and _level(table)
                left_behind = rnd.number < len(play.rounds)
                if (table.finished or rnd.closed or left_behind) and not tied:
                    won.update(table.seats[s] for s in ((0, 2) if first else (1, 3)))
            rounds.append(ladder.RoundScores(played_in(rnd), frozenset(won), frozenset(rnd.sitting_out)))
        return ladder.ladder_standings(names, rounds, *absences(play))

    def columns(self, pairing: str | None) -> list[Column]:
        return [
            Column("points", N_("Points"), True),
            Column("wins", N_("Rounds won")),
            Column("loners", N_("Loners")),
        ]


def first_pair_won(table: TablePlay) -> bool:
    """Whether seats 0+2 won the table: the finished game's winners, else (a round the director
    closed) the higher total; level counts as seats 0+2's (events.md leaves it open, ladder.py)."""
    if table.finished and table.winners:
        return table.winners[0] in (0, 2)
    a, b = (t or 0 for t in table.totals[:2])
    return a >= b


def _level(table: TablePlay) -> bool:
    a, b = (t or 0 for t in table.totals[:2])
    return a == b


def _as_round(rnd: RoundPlay) -> seating.Round:
    tables = tuple(seating.Table(t.number, t.seats) for t in sorted(rnd.tables, key=lambda t: t.number))
    return seating.Round(rnd.number, tables, rnd.sitting_out)


FORMAT = Ladder()
