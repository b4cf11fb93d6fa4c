"""Confirming a table's result (events.md, Rounds: the side that did not win taps its name, or
the director confirms with a reason), and the corrections a director made after a round
closed. Apart from :mod:`.rounds` because it changes one table, not the evening's course.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm.attributes import set_committed_value

from .. import read
from ..db import db
from ..models import Change, Event, EventRound, EventTable, Game
from ..refusals import Clash, Signal, refuse
from ..rules import N_, Msg, msg
from ..service import house_gate
from .service import finished, seat_names, table_games, through_gate


def not_now(message: Msg) -> Clash:
    """A table's result that cannot be confirmed now (409): the event asks for no confirmation,
    the game is still being played, or another player confirmed it already."""
    return Clash("confirm", message)


def table_of_game(game_id: str) -> tuple[Event, EventRound, EventTable] | None:
    """The event, round and table that play this game; None for a game of no event."""
    table = db.session.scalar(select(EventTable).where(EventTable.game_id == game_id))
    if table is None:
        return None
    return table.round.event, table.round, table


def find_table(event: Event, number: int, table_number: int) -> tuple[EventRound, EventTable] | None:
    rnd = next((r for r in event.rounds if r.number == number), None)
    table = next((t for t in rnd.tables if t.number == table_number), None) if rnd is not None else None
    return (rnd, table) if rnd is not None and table is not None else None


REASON_LENGTH = 200


def confirmers(event: Event, table: EventTable, game: Game) -> list[str]:
    """Who may confirm the table's result (events.md, Rounds): the players of the side that did
    not win, or every player after a tie. A finished game's winners say who won; a game counted
    as it stands (its round closed) is won by the best total. A total nobody may know yet
    (hidden): everyone."""
    players = seat_names(event, table.seats)
    result = read.game_view(game).result
    if any(t is None for t in result.totals):
        won: tuple[int, ...] = ()
    elif result.finished:
        won = tuple(result.winners)
    else:
        won = result.leaders
    beaten = [s for s in range(len(players)) if s not in won]
    seats = beaten if won and beaten else range(len(players))  # nobody beaten: a tie
    return list(dict.fromkeys(players[s] for s in seats))


def confirm_table(
    event: Event,
    table: EventTable,
    name: Any,
    director: str | None = None,
    reason: Any = None,
) -> str:
    """A player of the side that did not win confirms the table's result (events.md, Rounds: "a
    tap on the table's phone, naming who"), once its game has finished or its round closed; an
    earlier round's result may still be confirmed until the event finishes (the last round's
    after it too: its tables end the event). From then on only a director may correct the table.

    ``director`` (their name, as the history names them) confirms for the table, with a
    ``reason`` kept in the history, at any time once the table has finished or its round closed.

    Returns the name kept as ``confirmed_by``; confirming again by the same player changes
    nothing. Through the house gate: of confirms at once by different players one is kept, the
    others are judged again and refused (:class:`~scorekeeper.refusals.Clash`, 409)."""
    if not event.settings.get("confirm"):
        raise not_now(msg(N_("This event does not ask for confirmed results.")))
    why = reason.strip() if isinstance(reason, str) else ""
    if director is not None:
        if not why:
            raise refuse("reason", N_("Give a reason: a director confirms for a table with one."))
        if len(why) > REASON_LENGTH:
            raise refuse("reason", N_("The reason is at most {n} characters."), n=REASON_LENGTH)

    def step() -> house_gate.Step[str]:
        game = db.session.get(Game, table.game_id)
        state = read.table_state(table.game_id)  # the one rule of a closed round, the gate's too
        over = state is not None and state.closed
        if game is None or not (over or read.game_view(game).finished):
            raise not_now(
                msg(
                    N_("Table {table} is still playing: its result is confirmed once its game has finished."),
                    table=table.number,
                )
            )
        match: str | None
        if director is not None:
            match = (director or "director")[:40]
        else:
            allowed = confirmers(event, table, game)
            given = name.strip().casefold() if isinstance(name, str) else None
            match = next((p for p in allowed if p.casefold() == given), None)
            if match is None:
                raise refuse(
                    "by",
                    N_("Who did not win confirms the result: choose one of {names}."),
                    names=", ".join(allowed),
                )
        if table.confirmed_by is not None:
            if table.confirmed_by == match:
                raise _Already(match)
            raise not_now(
                msg(
                    N_("Table {table}'s result is already confirmed by {name}."),
                    table=table.number,
                    name=table.confirmed_by,
                )
            )
        last = event.settings["rounds"]
        if director is None and table.round.number < last and finished(event, table_games(event)):
            raise not_now(
                msg(
                    N_("The event has finished: only its director can confirm an earlier round's result now.")
                )
            )

        def apply() -> Any:
            # A conditional update: of two confirms at once, one finds the table unconfirmed.
            kept = house_gate.rows_changed(
                update(EventTable)
                .where(EventTable.id == table.id, EventTable.confirmed_by.is_(None))
                .values(confirmed_by=match)
            )
            if kept != 1:
                raise house_gate.Retry
            set_committed_value(table, "confirmed_by", match)
            done = {"round": table.round.number, "table": table.number, "by": match}
            return {**done, "reason": why} if director is not None else done

        return house_gate.Step(match, apply, "confirm")

    by = director if director is not None else name if isinstance(name, str) else ""
    try:
        return through_gate(event, step, by=by[:80])
    except _Already as same:
        return same.name


class _Already(Signal):
    """The same player confirmed already: nothing to write, the same answer."""

    def __init__(self, name: str):
        super().__init__(name)
        self.name = name


def corrections(event: Event) -> list[dict[str, Any]]:
    """The changes a director made at a table after its round closed (or its result was
    confirmed), oldest first: round, table, the change, its reason and who gave it. Read from
    the table games' history (where the write gate keeps them), never stored apart."""
    where = {t.game_id: (r.number, t.number) for r in event.rounds for t in r.tables}
    if not where:
        return []
    changes = db.session.scalars(
        select(Change)
        .where(Change.game_id.in_(list(where)), Change.reason.is_not(None))
        .order_by(Change.created_at, Change.id)
    )
    return [
        {
            "round": where[c.game_id][0],
            "table": where[c.game_id][1],
            "deal": None if c.deal_index is None else c.deal_index + 1,
            "change": c,
            "reason": c.reason,
            "by": c.given_by,
        }
        for c in changes
    ]
