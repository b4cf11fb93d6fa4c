"""The public game record (API, JSON and CSV exports, backups): the spec's record as anyone may
read it, with the game's public figures in place of hidden ones until the end.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, func, or_, select
from sqlalchemy.orm import aliased

from .. import rules, scoring, stores
from ..db import db
from ..models import AnyGame, Event, EventRound, EventTable, Game, GameSummary
from ..rules import GameResult
from .pending import who_sent


def export_record(game: Game, result: GameResult | None = None, translate=None) -> dict[str, Any]:
    """The public game record with its messages in ``translate``'s language (backups, the CLI)."""
    render = (lambda m: m.render(translate)) if translate else None
    return public_record(game, result, render)


def public_record(
    game: AnyGame, result: GameResult | None = None, render: Callable[[Any], str] | None = None
) -> dict[str, Any]:
    """The game record of the spec as anyone may read it: the full record, with the
    game's public figures in place of hidden ones until the end."""
    result = result or scoring.result(game)
    render = render or plain_text
    record = scoring.full_record(game, result, render)
    kind = scoring.game_rules(game)
    if kind.hides_scores(result.setup) and not result.finished:
        # Private facts (Hidden Secrets' values) stay out of the public record until the end.
        record.update(rendered(kind.public_export(result.setup, result) or {}, render))
    with_event(record, game)
    with_waiting(record, game, result)
    return record


def with_waiting(record: dict[str, Any], game: AnyGame, result: GameResult) -> None:
    """Seat entry: the turn being collected and who has sent, never what. Hidden Secrets'
    allotments before turn 1 (a seat is in once its values are), or the seats' turn orders
    once the first is in."""
    kind = scoring.game_rules(game)
    setup = result.setup
    turn = len(result.deals) + 1
    waiting = kind.waiting_seats(setup.options, setup.n)
    if waiting:
        record["waiting"] = {"turn": turn, "in": [seat for seat in range(setup.n) if seat not in waiting]}
    else:
        sent = orders_in(game, result)
        if sent:
            record["waiting"] = {"turn": turn, "in": list(sent)}


def orders_in(game: AnyGame, result: GameResult) -> tuple[int, ...]:
    """Seat entry: the seats whose orders for the next turn are in (who, never what). Part of
    the game's version: each part sent moves it, so what is kept per version stays true."""
    if result.finished or not scoring.game_rules(game).takes_seat_orders(result.setup):
        return ()
    return tuple(who_sent(game.id, len(result.deals) + 1))


def with_event(record: dict[str, Any], game: AnyGame) -> None:
    """A table game of an event says where it is played (events.md: derived, never input)."""
    place = event_of(game.id)
    if place is not None:
        record["event"] = place


# A game's place in an event is fixed when its round starts and never changes, so each process
# keeps what it looked up (a game of no event too): the record's hot paths (the API's answer to
# every write) ask the database once per game, not once per request. A few evenings' worth of tables.
KNOWN_EVENT_PLACES = 4096
EVENT_PLACES = stores.store("event_places", KNOWN_EVENT_PLACES, doc="each game's event table, or none")
_NO_EVENT = "none"


def event_of(game_id: str) -> dict[str, Any] | None:
    """``{"id", "round", "table"}`` for a game played at an event's table, else None."""
    known = EVENT_PLACES()
    found = known.get(game_id, None)
    if found is None:
        row = db.session.execute(
            select(EventRound.event_id, EventRound.number, EventTable.number)
            .join(EventRound, EventRound.id == EventTable.round_id)
            .where(EventTable.game_id == game_id)
        ).first()
        found = {"id": row[0], "round": row[1], "table": row[2]} if row else _NO_EVENT
        known.put(game_id, found)
    return dict(found) if isinstance(found, dict) else None  # (else _NO_EVENT: no event)


@dataclass(frozen=True)
class TableState:
    """Where an event's table game stands (events.md, Rounds): whether its round is over and
    whether its result was confirmed. Read afresh each time: a round closes, a table confirms,
    while the game's own version stays the same."""

    event_id: str
    round: int
    table: int
    # The director closed the round, or started a later one (the round ended and was left
    # behind), or it is the event's last round and every table of it finished: the event is over.
    closed: bool
    # The event asks an opponent to confirm each table's result.
    confirm: bool
    confirmed_by: str | None

    @property
    def locked(self) -> bool:
        """Only a director may change the game now, giving a reason."""
        return self.closed or self.confirmed_by is not None


_LATER = aliased(EventRound)


def table_state(game_id: str) -> TableState | None:
    """The state of the event table that plays this game; None for a game of no event (the
    usual case: answered from :func:`event_of`'s memory, no query)."""
    if event_of(game_id) is None:
        return None
    row = db.session.execute(
        select(
            EventRound.event_id,
            EventRound.number,
            EventTable.number,
            EventRound.closed_at,
            EventTable.confirmed_by,
            Event.settings,
            EventRound.id,
            select(func.max(_LATER.number)).where(_LATER.event_id == EventRound.event_id).scalar_subquery(),
        )
        .join(EventRound, EventRound.id == EventTable.round_id)
        .join(Event, Event.id == EventRound.event_id)
        .where(EventTable.game_id == game_id)
    ).first()
    if row is None:
        return None
    event_id, number, table, closed_at, confirmed_by, settings, round_id, last = row
    closed = closed_at is not None or (last is not None and number < last)
    if not closed and number == (settings or {}).get("rounds"):
        closed = _every_table_finished(round_id)  # the event has finished: its last round locks
    return TableState(
        event_id=event_id,
        round=number,
        table=table,
        closed=closed,
        confirm=bool((settings or {}).get("confirm")),
        confirmed_by=confirmed_by,
    )


def _every_table_finished(round_id: int) -> bool:
    """Whether every table game of the round has finished, as the games' summaries (kept by the
    write gate at each game's version) say: one count, whatever the number of tables."""
    playing = db.session.scalar(
        select(func.count())
        .select_from(EventTable)
        .join(Game, Game.id == EventTable.game_id)
        .outerjoin(GameSummary, and_(GameSummary.game_id == Game.id, GameSummary.version == Game.version))
        .where(
            EventTable.round_id == round_id,
            or_(GameSummary.finished.is_(None), GameSummary.finished.is_(False)),
        )
    )
    return not playing


# A message worded in plain English depends on no database: one map for the process.
PLAIN_TEXT = stores.store("plain_text", 4096, scope="process", doc="messages worded in plain English")


def plain_text(message: rules.Msg) -> str:
    """A message in the record's plain English, each one worded once: a record repeats every
    earlier deal's explanations, and the API answers each write with the whole record."""
    worded = PLAIN_TEXT()
    try:
        found = worded.get(message)
    except TypeError:  # a parameter that cannot be hashed (a list): worded each time
        return message.render()
    if found is None:
        found = message.render()
        worded.put(message, found)
    return found


def rendered(value: Any, render: Callable[[Any], str]) -> Any:
    """``value`` with every :class:`Msg` inside it turned into text."""
    if isinstance(value, rules.Msg):
        return render(value)
    if isinstance(value, Mapping):
        return {k: rendered(v, render) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [rendered(v, render) for v in value]
    return value
