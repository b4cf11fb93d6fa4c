"""The read side: the one way every page, answer, export and chart sees a game.

:func:`game_view` loads nothing and scores at most once per game version per
request: it hands out a frozen :class:`GameView` for a viewer's :class:`Role`,
already redacted. Redaction of hidden values (Hidden Secrets before the end)
happens here and nowhere else: a page that shows a view cannot leak.

:func:`build_view` is the cacheable part: a pure function of the game's
stored facts, which ``(game id, version)`` stand for, and the role. Within a
request the results are memoised on ``flask.g``; behind that, the shared cache
(:mod:`scorekeeper.cache`, keyed on ``(game id, version, role)``) keeps them
for every request and worker. Views hold no ORM row, so they pickle.

Lists read through :func:`list_views`, one replay per listed game.
"""

from __future__ import annotations

import functools
import secrets
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from dataclasses import fields as dataclass_fields
from datetime import datetime
from typing import Any

from flask import current_app, g, has_app_context
from sqlalchemy import select

from . import cache, rules, scoring
from .db import db
from .events.refs import event_of
from .lru import per_app
from .models import AnyGame, Game, GameSummary
from .rules import GameResult, InvalidFacts, Setup


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


def _memo(name: str) -> dict:
    if not has_app_context():
        return {}
    memo = g.get(name)
    if memo is None:
        memo = {}
        setattr(g, name, memo)
    return memo


# The game's unredacted result at its version, for the write side's checks and what the read side
# draws from it (never shown as it is): scored once per version below both sides.
full_result = scoring.score
remember = scoring.remember


def state_before(game: Game, k: int) -> Any:
    """The rules' state before deal ``k`` (None: the start), for the scorer's entry form only."""
    if k <= 0:
        return None
    return full_result(game).deals[k - 1].state


def facts_before(game: Game, k: int) -> tuple[Mapping[str, Any], ...]:
    """The facts of the deals before deal ``k``, oldest first, for the scorer's entry form only."""
    return tuple(deal.facts for deal in full_result(game).deals[:k])


def preview_deal(game: Game, facts: Mapping[str, Any]) -> GameResult:
    """The game with one more deal, not recorded, as its scorer may see it before Record:
    scored on from the game's result here, on the read side, and redacted by :func:`preview`.
    Raises :class:`InvalidFacts` with the rules' refusal."""
    return preview(game, scoring.score(game, (facts,)))


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
    memo = _memo("read_views")
    if key not in memo:
        shared = cache.key("view", game.id, game.version, role.name, role.seat)
        memo[key] = cache.remember(shared, lambda: build_view(game, role, full_result(game)), objects=True)
    return memo[key]


def build_view(game: Game, role: Role, result: GameResult) -> GameView:
    """The pure, cacheable part: the view of ``result`` (the game's facts scored) for ``role``."""
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


@dataclass(frozen=True)
class Summary:
    """What a list shows of a game, as everybody may see it: a stored :class:`GameSummary` row.

    It answers what the lists ask of a :class:`GameResult` (``status_line``, the player
    record): totals, sides, leaders, winners, whether finished, the deals' count.
    """

    version: int
    deal_count: int
    finished: bool
    tiebreak: bool
    planned: int | None  # the deals the game will have, counting those that do not count
    next_dealer: int | None
    sides: tuple[tuple[int, ...], ...]
    totals: tuple[int | None, ...]
    leaders: tuple[int, ...]
    winners: tuple[int, ...]
    last_activity: datetime | None = None
    # The game's own flag, not the summary's: archiving changes no score.
    archived: bool = False

    @property
    def deals(self) -> range:
        # Lists only count the deals (len(result.deals)); their details stay on the game's page.
        return range(self.deal_count)

    @property
    def status(self) -> Status:
        return Status(
            self.finished,
            self.tiebreak,
            self.deal_count,
            self.planned,
            self.next_dealer,
            self.winners,
            self.leaders,
        )


def summarize(game: AnyGame, result: GameResult) -> dict[str, Any]:
    """The :class:`GameSummary` columns of ``game`` scored as ``result`` (its full result): public figures only."""
    kind = scoring.game_rules(game)
    public = redact(kind, result)
    planned = kind.planned_deals(result.setup)
    if planned:
        # Deals that do not count (Abracadabra's thrown-in ones) add one to play.
        planned += len(public.deals) - kind.counted_deals(public)
    return {
        "version": game.version,
        "deals": len(public.deals),
        "finished": public.finished,
        "tiebreak": public.tiebreak,
        "planned": planned or None,
        "next_dealer": public.next_dealer,
        "sides": [list(side) for side in public.sides],
        "totals": list(public.totals),
        "leaders": list(public.leaders),
        "winners": list(public.winners),
        "last_activity": game.updated_at,
    }


def summary_of(row: GameSummary, archived: bool = False) -> Summary:
    return Summary(
        version=row.version,
        deal_count=row.deals,
        finished=row.finished,
        tiebreak=row.tiebreak,
        planned=row.planned,
        next_dealer=row.next_dealer,
        sides=tuple(tuple(side) for side in row.sides),
        totals=tuple(row.totals),
        leaders=tuple(row.leaders),
        winners=tuple(row.winners),
        last_activity=row.last_activity,
        archived=archived,
    )


def list_views(games: Iterable[Game]) -> list[tuple[Game, Summary]]:
    """Each listed game with its public summary; a game no rules can score is left out.

    The one door for lists (home, games, players). The summaries come in one query
    (the write gate keeps them); a game whose summary is missing or stale (a backup
    restored, a database from before summaries) is replayed instead.
    """
    games = list(games)
    ids = [game.id for game in games]
    rows = {}
    if ids:
        rows = {
            row.game_id: row
            for row in db.session.scalars(select(GameSummary).where(GameSummary.game_id.in_(ids)))
        }
    out = []
    for game in games:
        row = rows.get(game.id)
        if row is not None and row.version == game.version:
            out.append((game, summary_of(row, bool(game.archived))))
            continue
        try:
            out.append(
                (game, summary_of(GameSummary(**summarize(game, full_result(game))), bool(game.archived)))
            )
        except (LookupError, InvalidFacts):
            continue
    return out


# -- redaction: here and only here ----------------------------------------------------


def redact(kind: rules.Game, result: GameResult) -> GameResult:
    """``result`` as everybody may see it: while a game hides its scores (Hidden Secrets
    before the end), its public figures only (``Game.public_export``), a figure
    nobody may know yet being None (shown "?"), and no game-specific detail.
    """
    if result.finished or not kind.hides_scores(result.setup) or isinstance(result, PublicResult):
        return result
    public = kind.public_export(result.setup, result) or {}
    scores = public.get("scores", [d.scores for d in result.deals])
    explanations = public.get("explanations", [d.explanations for d in result.deals])
    running: list[Any] = [0] * result.setup.n  # ints, and None where unknown: no DealResult's type
    deals = []
    for deal, points, lines in zip(result.deals, scores, explanations, strict=True):
        running = [None if t is None or p is None else t + p for t, p in zip(running, points, strict=True)]
        deals.append(
            replace(
                deal,
                scores=tuple(points),
                explanations=tuple(lines),
                totals=tuple(running),
                detail={},
                state=None,
            )
        )
    setup = result.setup
    setup = Setup(setup.players, public.get("options", setup.options), setup.first_dealer)
    totals = public.get("totals", running if result.deals else result.totals)
    fields = {f.name: getattr(result, f.name) for f in dataclass_fields(GameResult)}
    fields.update(setup=setup, deals=tuple(deals), totals=tuple(totals), state=None)
    return PublicResult(**fields)


@dataclass(frozen=True)
class PublicResult(GameResult):
    """A :class:`GameResult` already made public by :func:`redact` (its details are gone)."""

    @property
    def leaders(self) -> tuple[int, ...]:
        # Nobody leads while a total is unknown: naming a leader would tell about it.
        return () if None in self.totals else super().leaders


def chart_series(public: GameResult) -> ChartSeries:
    """Per side its running totals from 0, from the public result: unknown stays unknown."""
    totals = []
    for side in public.sides:
        line: list[int | None] = [0]
        for deal in public.deals:
            last, points = line[-1], deal.scores[side[0]]
            line.append(None if last is None or points is None else last + points)
        totals.append(tuple(line))
    return ChartSeries(tuple(public.sides), tuple(totals), tuple(d.tiebreak for d in public.deals))


# -- the public record (API, JSON and CSV exports, backups) -----------------------------


def export_record(game: Game, result: GameResult | None = None, translate=None) -> dict[str, Any]:
    """The public game record with its messages in ``translate``'s language (backups, the CLI)."""
    render = (lambda m: m.render(translate)) if translate else None
    return public_record(game, result, render)


def public_record(
    game: AnyGame, result: GameResult | None = None, render: Callable[[Any], str] | None = None
) -> dict[str, Any]:
    """The game record of the spec as anyone may read it: the full record, with the
    game's public figures in place of hidden ones until the end."""
    result = result or full_result(game)
    render = render or plain_text
    record = scoring.full_record(game, result, render)
    kind = scoring.game_rules(game)
    if kind.hides_scores(result.setup) and not result.finished:
        # Private facts (Hidden Secrets' values) stay out of the public record until the end.
        record.update(rendered(kind.public_export(result.setup, result) or {}, render))
    with_event(record, game)
    return record


def with_event(record: dict[str, Any], game: AnyGame) -> None:
    """A table game of an event says where it is played (events.md: derived, never input)."""
    place = event_of(game.id)
    if place is not None:
        record["event"] = place


def public_record_json(game: AnyGame, result: GameResult | None = None) -> str:
    """:func:`public_record` as the API sends it: the JSON text Flask's ``jsonify`` would write.

    The API answers every write with the whole record, so a long game's earlier deals are
    encoded once per process: a deal scored on from a known result is the same object as
    before (an append keeps them), and its encoded parts are reused. A correction that
    rescores the game encodes it anew; a game hiding values takes the plain way.
    """
    result = result or full_result(game)
    provider: Any = current_app.json  # Flask's default provider: compact is none of JSONProvider's
    if (provider.compact is None and current_app.debug) or provider.compact is False:
        return provider.dumps(public_record(game, result))
    kind = scoring.game_rules(game)
    if kind.hides_scores(result.setup) and not result.finished:
        return _dumps(public_record(game, result))
    store = per_app(current_app.extensions, "scorekeeper.record_parts", RECORD_PARTS_SIZE)
    encoded = store.get(game.id)
    deals = result.deals
    # The deals encoded last time, if this result starts with them: the same objects (compared
    # by identity first, so a long prefix costs a pointer each) or equal ones encode the same.
    if encoded is None or len(encoded.deals) > len(deals) or deals[: len(encoded.deals)] != encoded.deals:
        encoded = _Encoded((), "", "", "")
    if len(deals) > len(encoded.deals):
        encoded = encoded.plus(deals[len(encoded.deals) :])
    store.put(game.id, encoded)
    # The record without its deals, each list a placeholder string that its encoded deals replace.
    record = scoring.full_record(game, replace(result, deals=()), plain_text)
    with_event(record, game)
    lists = {kind.record_key: encoded.facts, "scores": encoded.scores, "explanations": encoded.explanations}
    for key in lists:
        record[key] = f"{_SLOT}{key}"
    text = _dumps(record)
    for key, items in lists.items():
        text = text.replace(f'"{_SLOT}{key}"', f"[{items}]", 1)
    return text


@dataclass(frozen=True)
class _Encoded:
    """A game's deals as the record's three lists hold them, each list's items already JSON."""

    deals: tuple[Any, ...]
    facts: str
    scores: str
    explanations: str

    def plus(self, deals: Sequence[Any]) -> _Encoded:
        """These lists with ``deals`` encoded after them."""

        def extend(text: str, items: Iterable[str]) -> str:
            return ",".join([text, *items] if self.deals else items)

        return _Encoded(
            self.deals + tuple(deals),
            extend(self.facts, (_dumps(d.facts) for d in deals)),
            extend(self.scores, (_dumps(list(d.scores)) for d in deals)),
            extend(self.explanations, (_dumps([plain_text(x) for x in d.explanations]) for d in deals)),
        )


def _dumps(value: Any) -> str:
    """JSON text as Flask's ``jsonify`` writes it (its provider's settings, compact)."""
    return current_app.json.dumps(value, separators=(",", ":"))


# No text of a record holds this (128 random bits, drawn per process), nor its JSON escapes.
_SLOT = "slot-" + secrets.token_hex(16) + "-"


# Games whose record parts this process keeps (a long game's parts are a few hundred KB at most).
RECORD_PARTS_SIZE = 128


@functools.lru_cache(maxsize=4096)
def _plain_text(message: rules.Msg) -> str:
    return message.render()


def plain_text(message: rules.Msg) -> str:
    """A message in the record's plain English, each one worded once: a record repeats every
    earlier deal's explanations, and the API answers each write with the whole record."""
    try:
        return _plain_text(message)
    except TypeError:  # a parameter that cannot be hashed (a list): worded each time
        return message.render()


def rendered(value: Any, render: Callable[[Any], str]) -> Any:
    """``value`` with every :class:`Msg` inside it turned into text."""
    if isinstance(value, rules.Msg):
        return render(value)
    if isinstance(value, Mapping):
        return {k: rendered(v, render) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [rendered(v, render) for v in value]
    return value


def seats_of(view: GameView, seats: Sequence[int]) -> list[str]:
    return [view.players[s] for s in seats]
