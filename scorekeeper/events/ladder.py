"""The ladder ("king's table") format of events.md: its movement and its standings.
Pure: no Flask, no database; the event service hands in entrant numbers and results.

Tables are ranked, table 1 the head table. After a round, at table t the winning pair moves up
to t-1 and the losing pair down to t+1 (the head table's winners and the last table's losers
stay). The two pairs arriving at a table split: X is the arriving pair that played at the better
table, Y the other, "first" the one of a pair who sat in seat 0 or 1; the new seats are
0 = X first, 1 = Y first, 2 = Y second, 3 = X second.

What the contract leaves open, decided here (and said in the report):

- With a single table, both pairs "played at the better table": the winners count as X.
- A table closed level (a director closing an unfinished 0-0, the only way a tied table
  happens: ladder tables play ``hands_tiebreak``) counts its seats 0+2 as the winners.
- Sit-outs are chosen as in progressive (those who sat out least, in turn). A player chosen to
  sit out leaves a hole at the table the movement sent them to, as does a withdrawn player;
  the holes are filled, top table first, by the players the movement sent to the bottom of the
  ladder (last table's last seat first), and the players coming back (last round's sit-outs,
  then players who joined) take the last table's empty seats. Everyone else sits exactly where
  the movement puts them (players who joined sit just above the returning sit-outs). Should a table so filled pair two players who just partnered, its
  seats 2 and 3 are swapped (each player has one previous partner, so one swap splits them).
- A sit-out scores the round's average (or the event's fixed ``sit_out``) and no round won.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from . import standings
from .seating import Round, Table, choose_sit_outs

SEATS = 4


def first_round(players: Sequence[int], shuffle: bool = False, rng: random.Random | None = None) -> Round:
    """Round 1: the players in the order given (table 1 seats 0-3, table 2 seats 4-7, ...), or
    shuffled; those who do not fill a table (the last ones of that order) sit out."""
    order = list(players)
    if shuffle:
        (rng or random.SystemRandom()).shuffle(order)
    count = len(order) - len(order) % SEATS
    tables = tuple(Table(i // SEATS + 1, tuple(order[i : i + SEATS])) for i in range(0, count, SEATS))
    return Round(1, tables, tuple(order[count:]))


@dataclass(frozen=True)
class Played:
    """A table of the round before, as the movement needs it: its seats and who won."""

    seats: tuple[int, int, int, int]
    # True: the pair at seats 0+2 won; False: seats 1+3 won.
    first_pair_won: bool


def winners_losers(table: Played) -> tuple[tuple[int, int], tuple[int, int]]:
    """(winners, losers), each as (first, second): first sat in seat 0 or 1, second is their partner."""
    s = table.seats
    a, b = (s[0], s[2]), (s[1], s[3])
    return (a, b) if table.first_pair_won else (b, a)


def arrivals(tables: Sequence[Played]) -> list[tuple[int, int, int, int]]:
    """Each table's seats after the movement (before sit-outs and returns): [X0, Y0, Y1, X1]."""
    results = [winners_losers(t) for t in tables]
    last = len(results)
    out = []
    for d in range(1, last + 1):
        if last == 1:
            x, y = results[0]  # the winners count as X (they "played at the better table" too)
        elif d == 1:
            x, y = results[0][0], results[1][0]  # the head table's winners stay, table 2's come up
        elif d == last:
            x, y = results[d - 2][1], results[d - 1][1]  # losers from above, and the last table's
        else:
            x, y = results[d - 2][1], results[d][0]  # losers from above, winners from below
        out.append((x[0], y[0], y[1], x[1]))
    return out


def next_round(
    number: int,
    tables: Sequence[Played],
    players: Sequence[int],
    sat_out: Counter | Mapping[int, int],
    returning: Sequence[int] = (),
    before: Sequence[Round] = (),
) -> Round:
    """Round ``number``'s seating from the round before's results.

    ``players``: everyone in the event now (withdrawn players left out, players who joined in);
    ``sat_out``: how many rounds each has sat out so far; ``returning``: last round's sit-outs
    (their order is their order of return); ``before``: the rounds so far (for the partners of
    the round before). Players in ``players`` but neither at a table nor in ``returning`` are
    new: they sit just above the returning sit-outs, in the order of ``players``.
    """
    everyone = list(players)
    present = set(everyone)
    resting = choose_sit_outs(everyone, len(everyone) % SEATS, Counter(sat_out), number - 1)
    leaving = set(resting) | (set(p for t in tables for p in t.seats) - present)
    slots: list[int | None] = [p if p not in leaving else None for t in arrivals(tables) for p in t]
    # Fill the holes, top first, from the bottom of the ladder.
    while slots and slots[-1] is None:
        slots.pop()
    while None in slots:
        filler = slots.pop()
        slots[slots.index(None)] = filler
        while slots and slots[-1] is None:
            slots.pop()
    seated = set(slots)
    back = [p for p in returning if p in present and p not in resting and p not in seated]
    new = [p for p in everyone if p not in seated and p not in back and p not in resting]
    slots += new + back  # the sit-outs re-enter at the very bottom
    assert len(slots) % SEATS == 0 and all(p is not None for p in slots)
    partner = _partners(before[-1]) if before else {}
    made = []
    for i in range(0, len(slots), SEATS):
        seats = [p for p in slots[i : i + SEATS] if p is not None]
        if partner.get(seats[0]) == seats[2] or partner.get(seats[1]) == seats[3]:
            seats[2], seats[3] = seats[3], seats[2]
        made.append(Table(i // SEATS + 1, tuple(seats)))
    return Round(number, tuple(made), tuple(sorted(resting)))


def _partners(rnd: Round) -> dict[int, int]:
    found = {}
    for table in rnd.tables:
        s = table.seats
        found.update({s[0]: s[2], s[2]: s[0], s[1]: s[3], s[3]: s[1]})
    return found


# -- standings --------------------------------------------------------------------------------


@dataclass(frozen=True)
class RoundScores:
    """One round as the ladder's standings see it: each player's pair points and lone hands,
    who won their table, who sat out. A player in none was not in the event that round."""

    played: Mapping[int, standings.Played]
    won: frozenset[int] = frozenset()
    sitting_out: frozenset[int] = frozenset()


def ladder_standings(
    names: Sequence[str],
    rounds: Sequence[RoundScores],
    sit_out: str | int = "average",
    late: str = "sit_out",
    withdrawn: frozenset[int] = frozenset(),
) -> list[standings.Standing]:
    """Total points, then rounds won, then lone hands made, then shared rank (events.md). A late
    arrival scores ``late`` for each round he missed (:func:`.standings.late_points`)."""
    by_round: dict[int, list[standings.Number | None]] = {p: [] for p in range(len(names))}
    loners = dict.fromkeys(range(len(names)), 0)
    wins = dict.fromkeys(range(len(names)), 0)
    present = [frozenset(r.played) | r.sitting_out for r in rounds]
    missed = standings.missed_rounds(list(by_round), present, withdrawn)
    for number, rnd in enumerate(rounds, start=1):
        resting = standings.sit_out_points([p.points for p in rnd.played.values()], sit_out)
        for player in by_round:
            played = rnd.played.get(player)
            late_here = number in missed[player]
            absent = (
                resting
                if player in rnd.sitting_out
                else standings.late_points(late, resting)
                if late_here
                else None
            )
            by_round[player].append(played.points if played else absent)
            loners[player] += played.loners if played else 0
            wins[player] += player in rnd.won
    totals = {p: sum(v for v in by_round[p] if v is not None) for p in by_round}
    keys = {p: (("points", totals[p]), ("wins", wins[p]), ("loners", loners[p])) for p in by_round}
    figures = {
        p: {"wins": wins[p], "loners": loners[p], **standings.late_figure(missed[p])} for p in by_round
    }
    return standings.ranked(list(enumerate(names)), keys, totals, by_round, figures)
