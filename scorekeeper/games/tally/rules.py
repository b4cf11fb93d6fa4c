"""Tally: a score pad for any game, points per player per deal as the table counts them.

See ``shared/spec/game-record.md`` (``tally``). Facts per deal: ``points``
(one whole number per seat, negative allowed) and an optional ``note`` (text
of at most 200 characters). A last entry ``{"end": true}`` ends the game
where the scorer says; nothing may follow it.

Options: ``target`` (null = none): the game ends after the deal in which a
total reaches it (at or above), and the highest total wins, or the lowest
with ``low_wins``; ``rounds`` (null = none): it ends after that many deals;
with both, whichever comes first. ``teams`` (null, or a list of seat lists
that holds every seat once): a team's points are the sum of its seats', and
stand at each of its seats, as pairs do in the other games.

A tie for the win plays another deal, except after ``{"end": true}``, where
the tied players (or teams) share the win. The state carried from deal to
deal is the number of deals with points and whether the scorer ended the game.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ...rules.base import (
    N_,
    Counted,
    DealScore,
    FieldError,
    Game,
    GameResult,
    Msg,
    Option,
    Setup,
    check_counts,
    is_seat,
    leading_seats,
    msg,
    refuse,
    require_keys,
)

MAX_NOTE = 200
# Far beyond any card game's deal, and small enough that totals stay exact in every
# JSON reader (JavaScript numbers included).
MAX_POINTS = 1_000_000_000
MAX_TARGET = 1_000_000_000
MAX_ROUNDS = 1000
POINTS = Counted(
    shape=N_("Give one number of points per player ({n} players), not {count}."),
    wrong=N_("{player}: points are a whole number from {lo} to {hi} (negative allowed)."),
)


@dataclass(frozen=True)
class TallyState:
    deals: int = 0  # deals with points; the end entry is not a deal
    ended: bool = False  # the scorer recorded {"end": true}


def teams_of(setup: Setup) -> tuple[tuple[int, ...], ...]:
    """The scoring sides: the ``teams`` option, or one seat each."""
    teams = setup.options.get("teams")
    if teams:
        return tuple(tuple(team) for team in teams)
    return tuple((seat,) for seat in range(setup.n))


def check_teams(teams: Any, n: int, players: tuple[str, ...] | None = None) -> list[FieldError]:
    """Teams are a list of at least two non-empty seat lists holding every seat exactly once."""

    def error(text: str, **params: Any) -> list[FieldError]:
        # (A ready Msg: its placeholder {seat} is no seat of the refusal.)
        return [refuse("teams", msg(text, **params))]

    if teams is None:
        return []
    shape = N_("Teams are a list of seat lists, such as [[0, 2], [1, 3]], holding every seat once.")
    if not isinstance(teams, list) or not all(isinstance(team, list) and team for team in teams):
        return error(shape)
    if len(teams) < 2:
        return error(N_("Teams: at least two teams play."))
    seen: set[int] = set()
    for team in teams:
        for seat in team:
            if not is_seat(seat, n):
                return error(N_("Teams: a seat is a number from 0 to {last}."), last=n - 1)
            if seat in seen:
                name = players[seat] if players else seat
                return error(
                    N_("Teams: seat {seat} ({player}) is in more than one team."), seat=seat, player=name
                )
            seen.add(seat)
    missing = [seat for seat in range(n) if seat not in seen]
    if missing:
        names = ", ".join(str(players[s]) if players else str(s) for s in missing)
        return error(N_("Teams: every seat plays in a team; missing: {players}."), players=names)
    return []


def _team_line(setup: Setup, team: tuple[int, ...], points: list[int]) -> Msg:
    """ "Ann 5 + Cid -2 = 3": a team's points from its seats'."""
    terms = " + ".join(f"{setup.players[s]} {points[s]}" for s in team)
    return msg(N_("{terms} = {total}"), terms=terms, total=sum(points[s] for s in team))


class Tally(Game):
    key = "tally"
    title = N_("Tally (any game)")
    player_counts = tuple(range(2, 13))
    options = (
        Option(
            "target",
            N_("Target score"),
            None,
            minimum=1,
            maximum=MAX_TARGET,
            nullable=True,
            help=N_("Empty: no target. The game ends after the deal in which a total reaches the target."),
            suggestions=(100, 500),
        ),
        Option(
            "low_wins",
            N_("Lowest total wins"),
            False,
            kind="bool",
            help=N_("Reaching the target still ends the game; then the lowest total wins."),
        ),
        Option(
            "rounds",
            N_("Number of deals"),
            None,
            minimum=1,
            maximum=MAX_ROUNDS,
            nullable=True,
            help=N_(
                "Empty: no limit. With neither a target nor a number of deals, the scorer ends the game."
            ),
        ),
        Option(
            "teams",
            N_("Teams"),
            None,
            kind="custom",
            nullable=True,
            help=N_("Empty: everyone plays alone. A team's points are the sum of its players' points."),
        ),
    )
    fact_keys = ("points", "note", "end")
    ended_message = N_("The game ended after entry {n}: nothing can follow it.")

    # -- setup ------------------------------------------------------------------
    def sides(self, setup: Setup) -> tuple[tuple[int, ...], ...]:
        return teams_of(setup)

    def check_setup(self, setup: Setup) -> list[FieldError]:
        return check_teams(setup.options.get("teams"), setup.n, setup.players)

    def low_wins(self, setup: Setup) -> bool:
        return bool(setup.options.get("low_wins", False))

    # -- deals ------------------------------------------------------------------
    def start(self, setup: Setup) -> TallyState:
        return TallyState()

    def check_deal(self, setup: Setup, state: Any, facts: Mapping[str, Any], dealer: int) -> list[FieldError]:
        if "end" in facts:
            errors = require_keys(facts, ("end",), ())
            if facts["end"] is not True:
                errors.append(refuse("end", N_("“end” is only ever true: it records the end of the game.")))
            for key in facts:
                if key in self.fact_keys and key != "end":
                    errors.append(
                        refuse(key, N_("The end of the game carries nothing else: leave this out."))
                    )
            return errors
        errors = require_keys(facts, self.fact_keys, ("points",))
        if "points" in facts:
            errors += check_counts(facts["points"], "points", setup, -MAX_POINTS, MAX_POINTS, POINTS)[0]
        if "note" in facts:
            note = facts["note"]
            if note is not None and not isinstance(note, str):
                errors.append(refuse("note", N_("The note is text.")))
            elif note is not None and len(note) > MAX_NOTE:
                text = N_("The note has at most {max} characters, not {count}.")
                errors.append(refuse("note", text, max=MAX_NOTE, count=len(note)))
        return errors

    def score_deal(self, setup: Setup, state: Any, facts: Mapping[str, Any], dealer: int) -> DealScore:
        state = state if state is not None else self.start(setup)
        if facts.get("end"):
            return DealScore(
                scores=(0,) * setup.n,
                explanations=tuple(msg(N_("0: the scorer ended the game")) for _ in range(setup.n)),
                state=TallyState(state.deals, True),
                summary=msg(N_("The scorer ended the game here.")),
                detail={"end": True, "note": None},
            )
        points = list(facts["points"])
        teams = teams_of(setup)
        scores = [0] * setup.n
        explanations: list[Msg] = [Msg("")] * setup.n
        for team in teams:
            total = sum(points[s] for s in team)
            line = (
                msg(N_("{points} as entered"), points=total)
                if len(team) == 1
                else _team_line(setup, team, points)
            )
            for seat in team:
                scores[seat] = total
                explanations[seat] = line
        note = facts.get("note") or None
        return DealScore(
            scores=tuple(scores),
            explanations=tuple(explanations),
            state=TallyState(state.deals + 1, False),
            summary=msg("{note}", note=note) if note else None,
            detail={"end": False, "note": note, "points": points},
        )

    def random_deal(self, setup: Setup, state: Any, dealer: int, rng: random.Random) -> dict[str, Any]:
        if rng.random() < 0.1:
            return {"end": True}
        facts: dict[str, Any] = {"points": [rng.randint(-20, 60) for _ in range(setup.n)]}
        if rng.random() < 0.2:
            facts["note"] = rng.choice(["shot the moon", "", "x" * MAX_NOTE, "Ann dealt twice"])
        return facts

    # -- the end ----------------------------------------------------------------
    def reached_end(self, setup: Setup, totals: tuple[int, ...], deals_played: int, state: Any) -> bool:
        state = state if state is not None else self.start(setup)
        if state.ended:
            return True
        target, rounds = setup.options.get("target"), setup.options.get("rounds")
        if target is not None and totals and max(totals) >= target:
            return True
        return rounds is not None and state.deals >= rounds

    def decide(self, setup: Setup, totals: tuple[int, ...], state: Any) -> tuple[int, ...]:
        """The best side; a tie plays another deal, unless the scorer ended the game (then they share)."""
        sides = teams_of(setup)
        leaders = leading_seats(totals, sides, self.low_wins(setup))
        tied = sum(1 for side in sides if side[0] in leaders) > 1
        if tied and not (state is not None and state.ended):
            return ()
        return leaders

    def planned_deals(self, setup: Setup) -> int | None:
        return setup.options.get("rounds")

    def rating_sides(
        self, options: Mapping[str, Any], result: GameResult
    ) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
        """The ``teams`` option alone says who plays together (the rules checked it: every seat
        once), else one seat each. The spec defines a team's points as the sum of its seats'
        points, so they are counted from the facts rather than read from how totals are laid out."""
        teams = options.get("teams")
        if not teams:
            return tuple((seat,) for seat in range(len(result.totals))), result.totals
        sides = tuple(tuple(team) for team in teams)
        per_seat = [0] * len(result.totals)
        for deal in result.deals:
            points = deal.facts.get("points")
            if isinstance(points, list):
                for seat, value in enumerate(points):
                    per_seat[seat] += value
        return sides, tuple(sum(per_seat[seat] for seat in side) for side in sides)

    def counted_deals(self, result: GameResult) -> int:
        return result.state.deals if result.state is not None else len(result.deals)
