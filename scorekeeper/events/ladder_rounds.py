"""The ladder format's part of the event service: what its tables' games say, handed to the
pure movement and standings of :mod:`.ladder`. The service calls these from its format hooks
(next round's seating, the standings); nothing else of the service knows the ladder.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .. import read
from ..models import Event, EventRound, Game
from . import ladder, standings
from .entrants import round_data
from .seating import Round, Table


def first_pair_won(view: read.GameView) -> bool:
    """Whether seats 0+2 won the table: the finished game's winners, else (a round the director
    closed) the higher total; level counts as seats 0+2's (events.md leaves it open, ladder.py)."""
    result = view.result
    if view.finished and result.winners:
        return result.winners[0] in (0, 2)
    a, b = (t or 0 for t in result.totals[:2])
    return a >= b


def _as_round(rnd: EventRound) -> Round:
    tables = tuple(Table(t.number, tuple(t.seats)) for t in sorted(rnd.tables, key=lambda t: t.number))
    return Round(rnd.number, tables, tuple(rnd.sitting_out))


def next_seating(
    event: Event, number: int, games: Mapping[str, Game], players: Sequence[int]
) -> dict[str, Any]:
    """Round ``number``'s seating, made as it starts from the round before's results."""
    last = event.rounds[-1]
    played = [
        ladder.Played(tuple(t.seats), first_pair_won(read.game_view(games[t.game_id])))  # type: ignore[arg-type]
        for t in sorted(last.tables, key=lambda t: t.number)
    ]
    sat_out = Counter(p for r in event.rounds for p in r.sitting_out)
    before = [_as_round(r) for r in event.rounds]
    return round_data(ladder.next_round(number, played, players, sat_out, last.sitting_out, before))


def compute_standings(
    event: Event,
    games: Mapping[str, Game],
    names: Sequence[str],
    loners_of: Callable[[Sequence[Mapping[str, Any]]], Counter] | None,
) -> list[standings.Standing]:
    """Total points, then rounds won, then (Euchre) lone hands made, then shared rank."""
    rounds = []
    for rnd in event.rounds:
        played: dict[int, standings.Played] = {}
        won: set[int] = set()
        for table in rnd.tables:
            view = read.game_view(games[table.game_id])
            loners = loners_of([d.facts for d in view.result.deals]) if loners_of is not None else Counter()
            for seat, entrant in enumerate(table.seats):
                played[entrant] = standings.Played(view.result.totals[seat] or 0, loners[seat])
            first = first_pair_won(view)
            # A round won is a table won: a finished game's, or the higher total of a closed round
            # (equal totals there are a tie: nobody won it, events.md, Rounds).
            tied = not view.finished and _level(view)
            if (view.finished or rnd.closed_at is not None or _left_behind(event, rnd)) and not tied:
                won.update(table.seats[s] for s in ((0, 2) if first else (1, 3)))
        rounds.append(ladder.RoundScores(played, frozenset(won), frozenset(rnd.sitting_out)))
    return ladder.ladder_standings(
        names,
        rounds,
        event.settings.get("sit_out", "average"),
        event.settings.get("late", "sit_out"),
        frozenset(event.withdrawn or ()),
    )


def _level(view: read.GameView) -> bool:
    a, b = (t or 0 for t in view.result.totals[:2])
    return a == b


def _left_behind(event: Event, rnd: EventRound) -> bool:
    return rnd.number < len(event.rounds)
