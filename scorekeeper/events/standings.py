"""An event's standings, derived from what its tables' games say. Pure: no Flask, no database.

The event layer reads each table game's result (through the read side) and hands over, per
round, what each player or pair scored there; everything else is computed here, every time
(facts in, points derived): a correction at a table changes the standings at once.

Each standing carries the rule that separated it from a neighbour with the same first figure
("ahead on loners: 3 to 1"), or that it shares the place (golf style: two firsts, then third).
Messages are :class:`~scorekeeper.rules.base.Msg` so each screen words them in its language.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

from ..rules.base import N_, Msg, msg

Number = int | Fraction


@dataclass(frozen=True)
class Standing:
    """One line of the results: a player (progressive, mixer) or a pair (pairs, knockout)."""

    rank: int  # shared ranks are equal, the next one skips (1, 1, 3)
    entrant: int  # the player's or pair's number in the event
    name: str
    points: Number  # progressive: points; mixer: placing points; pairs: match points
    by_round: tuple[Number | None, ...]  # per round, a sit-out's or bye's points included
    figures: Mapping[str, Any] = field(default_factory=dict)  # loners, for, against, game points...
    notes: tuple[Msg, ...] = ()  # how ties with the neighbours were settled


# The rules' names in the explanations (translated by the screens).
RULE_NAMES = {
    "points": N_("points"),
    "loners": N_("loners"),
    "match_points": N_("match points"),
    "difference": N_("points for minus points against"),
    "for": N_("points for"),
    "placing": N_("placing points"),
    "game_points": N_("game points"),
    "round_reached": N_("round reached"),
    "wins": N_("rounds won"),
}


def round_half_up(value: Fraction) -> int:
    return int(Decimal(value.numerator / value.denominator).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def plain(value: Number) -> int | float:
    """A figure as JSON writes it: an integer, or a half (placing points shared by a tie)."""
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else float(value)
    return value


def ranked(
    entrants: Sequence[tuple[int, str]],
    keys: Mapping[int, Sequence[tuple[str, Number]]],
    points: Mapping[int, Number],
    by_round: Mapping[int, Sequence[Number | None]],
    figures: Mapping[int, Mapping[str, Any]],
    rule_names: Mapping[str, str] | None = None,
) -> list[Standing]:
    """Entrants sorted by their keys (each a named figure, higher first), ranks shared where every
    key is equal, and a note on each side of every tie that a later key settled (the rules named
    by ``rule_names``, else :data:`RULE_NAMES`)."""
    order = sorted(entrants, key=lambda e: ([-v for _, v in keys[e[0]]], e[1], e[0]))
    values = {e: tuple(v for _, v in keys[e]) for e, _ in entrants}
    notes: dict[int, list[Msg]] = {e: [] for e, _ in entrants}
    ranks: dict[int, int] = {}
    for i, (entrant, _) in enumerate(order):
        above = order[i - 1][0] if i else None
        if above is not None and values[above] == values[entrant]:
            ranks[entrant] = ranks[above]
        else:
            ranks[entrant] = i + 1
    names = dict(entrants)
    for (upper, _), (lower, _) in zip(order, order[1:], strict=False):
        a, b = keys[upper], keys[lower]
        if a[0][1] != b[0][1]:
            continue  # the first figure decides: nothing to explain
        for (rule, x), (_, y) in zip(a[1:], b[1:], strict=True):
            if x != y:
                rule_name = msg((rule_names or RULE_NAMES)[rule])
                notes[upper].append(
                    msg(
                        N_("ahead of {name} on {rule}: {a} to {b}"),
                        name=names[lower],
                        rule=rule_name,
                        a=plain(x),
                        b=plain(y),
                    )
                )
                notes[lower].append(
                    msg(
                        N_("behind {name} on {rule}: {a} to {b}"),
                        name=names[upper],
                        rule=rule_name,
                        a=plain(y),
                        b=plain(x),
                    )
                )
                break
        else:
            # Level on every figure: one such note per player, however many share the place (a
            # player behind someone on a later figure and level with the next says both).
            shares = msg(N_("shares place {rank}"), rank=ranks[upper])
            for entrant in (upper, lower):
                if shares not in notes[entrant]:
                    notes[entrant].append(shares)
    return [
        Standing(
            rank=ranks[e],
            entrant=e,
            name=names[e],
            points=points[e],
            by_round=tuple(by_round[e]),
            figures=dict(figures[e]),
            notes=tuple(notes[e]),
        )
        for e, _ in order
    ]


def sit_out_points(scores: Sequence[Number], rule: str | int) -> Number:
    """What a player who sits out a round scores: ``"average"`` (the mean of the round's individual
    scores, rounded half up) or a fixed integer."""
    if rule == "average":
        return round_half_up(Fraction(sum(scores), len(scores))) if scores else 0
    return int(rule)


def missed_rounds(
    players: Sequence[int], present: Sequence[frozenset[int]], withdrawn: frozenset[int] = frozenset()
) -> dict[int, tuple[int, ...]]:
    """Per player, the rounds (numbered from 1) he missed by joining late: every round before the
    first one he was in (seated, or sitting out). A player in none of the started rounds joined
    after them all, unless he withdrew (a leaver who never played missed nothing: he left)."""
    out: dict[int, tuple[int, ...]] = {}
    for player in players:
        first = next((i for i, members in enumerate(present) if player in members), None)
        if first is None:
            first = 0 if player in withdrawn else len(present)
        out[player] = tuple(range(1, first + 1))
    return out


def late_points(rule: str, resting: Number) -> Number:
    """What a late arrival scores for a round he missed (events.md, Seating): what a sit-out of
    that round scores (``"sit_out"``, the default), or 0 (``"zero"``)."""
    return 0 if rule == "zero" else resting


def late_figure(missed: Sequence[int]) -> dict[str, list[int]]:
    """A late arrival's standings row says which rounds he missed (``"missed": [1, 2]``); nobody
    else's carries the key."""
    return {"missed": list(missed)} if missed else {}


# -- progressive -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Played:
    """One player's round at a table: the points their pair made there, and their lone hands made."""

    points: int
    loners: int = 0


@dataclass(frozen=True)
class RoundScores:
    """One round as the standings see it: what each player who played made, and who sat out.
    A player in neither was not in the event that round (joined later, or withdrew): no points."""

    played: Mapping[int, Played]
    sitting_out: frozenset[int] = frozenset()


def progressive(
    names: Sequence[str],
    rounds: Sequence[RoundScores],
    sit_out: str | int = "average",
    late: str = "sit_out",
    withdrawn: frozenset[int] = frozenset(),
) -> list[Standing]:
    """Individual standings: total points, then lone hands made, then shared rank.

    ``rounds[r]`` is round r+1 (a round not yet started is left out). A player who joined late
    scores ``late`` (:func:`late_points`) for each round he missed; his figures list them.
    """
    by_round: dict[int, list[Number | None]] = {p: [] for p in range(len(names))}
    loners = dict.fromkeys(range(len(names)), 0)
    present = [frozenset(r.played) | r.sitting_out for r in rounds]
    missed = missed_rounds(list(by_round), present, withdrawn)
    for number, rnd in enumerate(rounds, start=1):
        resting = sit_out_points([p.points for p in rnd.played.values()], sit_out)
        for player in range(len(names)):
            played = rnd.played.get(player)
            by_round[player].append(
                played.points
                if played
                else resting
                if player in rnd.sitting_out
                else late_points(late, resting)
                if number in missed[player]
                else None
            )
            loners[player] += played.loners if played else 0
    totals = {p: sum(v for v in by_round[p] if v is not None) for p in by_round}
    keys = {p: (("points", totals[p]), ("loners", loners[p])) for p in by_round}
    figures = {p: {"loners": loners[p], **late_figure(missed[p])} for p in by_round}
    return ranked(list(enumerate(names)), keys, totals, by_round, figures)


# -- mixer -----------------------------------------------------------------------------------


def placing_points(
    totals: Sequence[int], low_wins: bool = False, winners: Sequence[int] = ()
) -> list[Fraction]:
    """Placing points at one table: first gets the number of players there, the next one less;
    players level share the mean of the places they cover. A tiebreak's winners stand first."""
    n = len(totals)
    sign = 1 if low_wins else -1

    def key(seat: int) -> tuple:
        return (seat not in winners, sign * totals[seat])

    order = sorted(range(n), key=key)
    out = [Fraction(0)] * n
    i = 0
    while i < n:
        j = i
        while j + 1 < n and key(order[j + 1]) == key(order[i]):
            j += 1
        share = Fraction(sum(n - k for k in range(i, j + 1)), j - i + 1)
        for k in range(i, j + 1):
            out[order[k]] = share
        i = j + 1
    return out


@dataclass(frozen=True)
class TableResult:
    """One table game as the standings need it: who sat where and their final totals."""

    seats: tuple[int, ...]  # players, clockwise
    totals: tuple[int, ...]  # per seat
    low_wins: bool = False
    winners: tuple[int, ...] = ()  # seats (a finished game's; empty while it stands unfinished)


def mixer(
    names: Sequence[str],
    rounds: Sequence[Sequence[TableResult]],
    sit_out: str | int = "average",
    sitting_out: Sequence[frozenset[int]] | None = None,
    late: str = "sit_out",
    withdrawn: frozenset[int] = frozenset(),
) -> list[Standing]:
    """Individual standings: the sum of placing points, then the game points, then shared rank.

    ``sitting_out[r]``: who sat out round r+1 (their sit-out points); anyone else not at a table
    was not in the event then. Without it, everyone not at a table sat out.
    """
    by_round: dict[int, list[Number | None]] = {p: [] for p in range(len(names))}
    game_points = dict.fromkeys(range(len(names)), 0)
    present = [
        frozenset(p for t in tables for p in t.seats)
        | (sitting_out[n] if sitting_out is not None else frozenset())
        for n, tables in enumerate(rounds)
    ]
    missed = missed_rounds(list(by_round), present, withdrawn) if sitting_out is not None else {}
    for number, tables in enumerate(rounds):
        placed: dict[int, Fraction] = {}
        for table in tables:
            for seat, points in enumerate(placing_points(table.totals, table.low_wins, table.winners)):
                placed[table.seats[seat]] = points
                game_points[table.seats[seat]] += table.totals[seat]
        resting = sit_out_points(list(placed.values()), sit_out)
        out = sitting_out[number] if sitting_out is not None else frozenset(by_round) - set(placed)
        for player in by_round:
            late_here = number + 1 in missed.get(player, ())
            absent = resting if player in out else late_points(late, resting) if late_here else None
            by_round[player].append(placed.get(player, absent))
    totals = {p: sum(v for v in by_round[p] if v is not None) for p in by_round}
    keys = {p: (("placing", totals[p]), ("game_points", game_points[p])) for p in by_round}
    figures = {p: {"game_points": game_points[p], **late_figure(missed.get(p, ()))} for p in by_round}
    return ranked(list(enumerate(names)), keys, totals, by_round, figures)


# -- pairs -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Meeting:
    """Two pairs' game in one round (their points), or a bye (``second`` None)."""

    first: int
    second: int | None
    first_points: int = 0
    second_points: int = 0
    # Who won, when the game says so (a knockout's tiebreak hand); otherwise by points.
    winner: int | None = None


WIN, TIE, LOSS, BYE = 2, 1, 0, 2


def pairs(names: Sequence[str], rounds: Sequence[Sequence[Meeting]]) -> list[Standing]:
    """Pairs' standings: match points (win 2, tie 1, bye 2, loss 0), then points for minus points
    against, then points for, then shared rank. A bye adds nothing to for or against."""
    count = len(names)
    by_round: dict[int, list[Number | None]] = {p: [] for p in range(count)}
    points_for = dict.fromkeys(range(count), 0)
    against = dict.fromkeys(range(count), 0)
    for meetings in rounds:
        got: dict[int, int] = {}
        for m in meetings:
            if m.second is None:
                got[m.first] = BYE
                continue
            points_for[m.first] += m.first_points
            against[m.first] += m.second_points
            points_for[m.second] += m.second_points
            against[m.second] += m.first_points
            winner = m.winner
            if winner is None and m.first_points != m.second_points:
                winner = m.first if m.first_points > m.second_points else m.second
            got[m.first] = TIE if winner is None else (WIN if winner == m.first else LOSS)
            got[m.second] = TIE if winner is None else (WIN if winner == m.second else LOSS)
        for p in by_round:
            by_round[p].append(got.get(p))
    match_points = {p: sum(v for v in by_round[p] if v is not None) for p in by_round}
    keys = {
        p: (
            ("match_points", match_points[p]),
            ("difference", points_for[p] - against[p]),
            ("for", points_for[p]),
        )
        for p in by_round
    }
    figures = {
        p: {"match_points": match_points[p], "for": points_for[p], "against": against[p]} for p in by_round
    }
    return ranked(list(enumerate(names)), keys, match_points, by_round, figures)


def knockout(names: Sequence[str], rounds: Sequence[Sequence[Meeting]]) -> list[Standing]:
    """Knockout standings: the round reached (the winner of the last game one more), then points for."""
    count = len(names)
    reached = dict.fromkeys(range(count), 0)
    points_for = dict.fromkeys(range(count), 0)
    by_round: dict[int, list[Number | None]] = {p: [] for p in range(count)}
    for number, meetings in enumerate(rounds, start=1):
        got: dict[int, int] = {}
        for m in meetings:
            reached[m.first] = number
            if m.second is None:
                got[m.first] = 0
                continue
            reached[m.second] = number
            points_for[m.first] += m.first_points
            points_for[m.second] += m.second_points
            got[m.first], got[m.second] = m.first_points, m.second_points
            winner = m.winner
            if winner is None and m.first_points != m.second_points:
                winner = m.first if m.first_points > m.second_points else m.second
            if winner is not None and len(meetings) == 1 and number == len(rounds):
                reached[winner] = number + 1  # the final's winner: one round further than its loser
        for p in by_round:
            by_round[p].append(got.get(p))
    keys = {p: (("round_reached", reached[p]), ("for", points_for[p])) for p in by_round}
    figures = {p: {"round_reached": reached[p], "for": points_for[p]} for p in by_round}
    return ranked(list(enumerate(names)), keys, reached, by_round, figures)
