"""Views: one game as one role may see it, scored at most once per version per request.

:func:`game_view` loads nothing and scores at most once per game version per request: it hands
out a frozen :class:`GameView` for a viewer's :class:`Role`, already redacted (by
:mod:`.redaction`, the one place that hides values). :func:`build_view` is the cacheable part: a
pure function of the game's stored facts, which ``(game id, version)`` stand for, and the role.
Within a request the results are memoised on ``flask.g``; behind that, the shared cache
(:mod:`scorekeeper.cache`, keyed on ``(game id, version, role)``) keeps them for every request
and worker. Views hold no ORM row, so they pickle.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from .. import cache, rules, scoring
from ..models import Game
from ..rules import GameResult
from .public import orders_in
from .redaction import redact


@dataclass(frozen=True)
class Role:
    """Who is looking: the scorer (holds the edit key), a viewer, or one seat with its private link."""

    name: str
    seat: int | None = None

    @property
    def editable(self) -> bool:
        return self.name == "scorer"


SCORER = Role("scorer")
VIEWER = Role("viewer")


def seat_role(seat: int) -> Role:
    return Role("seat", seat)


@dataclass(frozen=True)
class ChartSeries:
    """The running-totals chart's data: per side its totals from 0 through the last deal.

    A total nobody may know yet is None, and so is every later one: the chart
    draws only what is public (never a false zero for a hidden value).
    """

    sides: tuple[tuple[int, ...], ...]
    totals: tuple[tuple[int | None, ...], ...]
    tiebreak: tuple[bool, ...]


@dataclass(frozen=True)
class Status:
    finished: bool
    tiebreak: bool
    deals: int
    planned: int | None
    next_dealer: int | None
    winners: tuple[int, ...]
    leaders: tuple[int, ...]


@dataclass(frozen=True)
class Standing:
    """One side's line in the final standings: its place (ties share one), total and margin."""

    place: int
    side: tuple[int, ...]
    total: int | None
    # Points behind the winner (0 for the winner); None when a total is unknown.
    behind: int | None
    winner: bool


@dataclass(frozen=True)
class NextGame:
    """What a rematch starts from: the same seats and options, the next first dealer."""

    kind: str
    players: tuple[str, ...]
    # The options a new-game form offers (a game's own private set-up, like allotments, is not copied).
    options: Mapping[str, Any]
    first_dealer: int


@dataclass(frozen=True)
class GameView:
    """One game as one viewer may see it. Every field is already public for ``role``."""

    game_id: str
    version: int
    kind: str
    rules: rules.Game
    role: Role
    players: tuple[str, ...]
    result: GameResult  # public for this role: hidden figures are None, details dropped
    chart: ChartSeries
    # The game's own turn reports (Secrets): the public ones, or a seat's private ones.
    reports: Mapping[str, Any] | None
    waiting: tuple[int, ...]  # seats whose part of the set-up is still to come
    status: Status
    # Hidden from home and the ratings, kept and listed under /games.
    archived: bool = False
    # When the game last changed (a deal, a correction, archiving).
    last_activity: datetime | None = None
    first_dealer: int = 0
    # Seat entry: seats whose orders for the next turn are in (who, never what).
    orders_in: tuple[int, ...] = ()
    options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def editable(self) -> bool:
        return self.role.editable

    @property
    def finished(self) -> bool:
        return self.result.finished

    @property
    def waiting_names(self) -> list[str]:
        return [self.players[s] for s in self.waiting]

    @property
    def orders_in_names(self) -> list[str]:
        return [self.players[s] for s in self.orders_in]

    @property
    def short_names(self) -> tuple[str, ...]:
        return short_names(self.players)

    @property
    def standings(self) -> tuple[Standing, ...]:
        return standings(self.result)

    @property
    def next_game(self) -> NextGame:
        """Same players in the same seats, same options, the deal passing on: a rematch."""
        form_options = {o.key for o in self.rules.options if o.kind != "custom"}
        options = {k: v for k, v in self.options.items() if k in form_options}
        n = len(self.players)
        return NextGame(self.kind, self.players, options, (self.first_dealer + 1) % n if n else 0)


# -- scoring, once per version per request --------------------------------------------


def state_before(game: Game, k: int) -> Any:
    """The rules' state before deal ``k`` (None: the start), for the scorer's entry form only."""
    if k <= 0:
        return None
    return scoring.result(game).deals[k - 1].state


def facts_before(game: Game, k: int) -> tuple[Mapping[str, Any], ...]:
    """The facts of the deals before deal ``k``, oldest first, for the scorer's entry form only."""
    return tuple(deal.facts for deal in scoring.result(game).deals[:k])


def preview_deal(game: Game, facts: Mapping[str, Any]) -> GameResult:
    """The game with one more deal, not recorded, as its scorer may see it before Record:
    scored on from the game's result here, on the read side, and redacted by :func:`preview`.
    Raises :class:`InvalidFacts` with the rules' refusal."""
    return preview(game, scoring.result(game, (facts,)))


def preview(game: Game, result: GameResult) -> GameResult:
    """``result`` (the game with a deal not yet recorded) as its scorer may see it before Record.

    A preview is never the end of the game: the end would make every hidden value public, and
    the last turn's preview could then be asked about any secret to learn its value.
    """
    kind = scoring.game_rules(game)
    if result.finished and kind.hides_scores(result.setup):
        result = replace(result, finished=False, winners=())
    return redact(kind, result)


def game_view(game: Game, role: Role = VIEWER) -> GameView:
    """The game as ``role`` sees it, memoised on ``(game id, version, role)`` within the request."""
    key = (game.id, game.version, role)
    memo = cache.request_memo("read_views")
    if key not in memo:
        shared = cache.key("view", game.id, game.version, role.name, role.seat)
        memo[key] = cache.remember(
            shared,
            lambda: build_view(game, role, scoring.result(game), orders_in(game, scoring.result(game))),
            objects=True,
        )
    return memo[key]


def build_view(game: Game, role: Role, result: GameResult, sent: tuple[int, ...] = ()) -> GameView:
    """The pure, cacheable part: the view of ``result`` (the game's facts scored) for ``role``,
    with ``sent`` the seats whose orders for the next turn are in (:func:`orders_in`)."""
    kind = scoring.game_rules(game)
    public = redact(kind, result)
    seat = role.seat if role.name == "seat" else None
    waiting = tuple(kind.waiting_seats(result.setup.options, result.setup.n))
    reports = kind.reports(result.setup, result, seat)
    return GameView(
        game_id=game.id,
        version=game.version,
        kind=game.kind,
        rules=kind,
        role=role,
        players=tuple(game.players),
        result=public,
        chart=chart_series(public),
        reports=reports,
        waiting=waiting,
        orders_in=sent,
        archived=bool(game.archived),
        last_activity=game.updated_at,
        first_dealer=game.first_dealer,
        options=dict(game.options or {}),
        status=Status(
            finished=public.finished,
            tiebreak=public.tiebreak,
            deals=len(public.deals),
            planned=kind.planned_deals(result.setup),
            next_dealer=public.next_dealer,
            winners=public.winners,
            leaders=public.leaders,
        ),
    )


# A column's name is cut no shorter than this (the full name is a tap away): five players fit at 360 px.
SHORT_NAME = 5


def short_names(players: Sequence[str]) -> tuple[str, ...]:
    """Each name as short as a narrow column needs, never under ``SHORT_NAME`` characters.

    A name of one character more than that stays whole (an ellipsis would save nothing);
    names sharing their start are cut longer until they differ ("Emmeline", "Emmett": "Emmel…", "Emmet…").
    """
    out = []
    for name in players:
        if len(name) <= SHORT_NAME + 1:
            out.append(name)
            continue
        k = SHORT_NAME
        while k < len(name) and any(o != name and o[:k] == name[:k] for o in players):
            k += 1
        out.append(name if k >= len(name) - 1 else name[:k] + "…")
    return tuple(out)


def standings(result: GameResult) -> tuple[Standing, ...]:
    """Sides in order: the winners first, then by total (lowest first where lowest wins).

    Equal totals share a place (1, 2, 2, 4), except that a winner decided by a
    tiebreak stands alone in first place.
    """
    sign = 1 if result.low_wins else -1

    def key(side: tuple[int, ...]) -> tuple:
        total = result.totals[side[0]]
        return (side[0] not in result.winners, total is None, sign * total if total is not None else 0)

    order = sorted(result.sides, key=key)
    best = result.totals[order[0][0]] if order else None
    rows: list[Standing] = []
    for i, side in enumerate(order):
        total = result.totals[side[0]]
        winner = side[0] in result.winners
        place = rows[-1].place if rows and key(side) == key(order[i - 1]) else i + 1
        behind = abs(best - total) if best is not None and total is not None else None
        rows.append(Standing(place, tuple(side), total, behind, winner))
    return tuple(rows)


def chart_series(public: GameResult) -> ChartSeries:
    """Per side its running totals from 0, from the public result: unknown stays unknown."""
    # Tally's end is no deal: it adds no flat last step to the lines.
    deals = [deal for deal in public.deals if not deal.detail.get("end")]
    totals = []
    for side in public.sides:
        line: list[int | None] = [0]
        for deal in deals:
            last, points = line[-1], deal.scores[side[0]]
            line.append(None if last is None or points is None else last + points)
        totals.append(tuple(line))
    return ChartSeries(tuple(public.sides), tuple(totals), tuple(d.tiebreak for d in deals))


def seats_of(view: GameView, seats: Sequence[int]) -> list[str]:
    return [view.players[s] for s in seats]
