"""Seat entry (spec "Seat entry"): each seat sends its own part of the next turn from its phone.

A seat's part is checked by the rules alone (``Game.check_seat_orders``) and kept apart from the
game's deals (``pending_entry``) until the last seat's arrives; then the turn is recorded through
the write gate exactly as if the scorer had entered it. Each part sent is a change of the game
(its version moves, so every phone sees who is in) whose history names the seat, never what it
sent. Reads of a pending part are for that seat only: :func:`who_sent` tells who, never what.
"""

from __future__ import annotations

import contextlib
from typing import Any

from sqlalchemy import select

from ..db import db
from ..models import Game
from ..pending import ORDERS, PendingEntry, who_sent
from ..rules import FieldError, GameResult, InvalidFacts, msg
from ..rules.base import N_
from ..scoring import game_rules, score
from .gate import AlreadyDone, Entry, Plan, Via, _write, append_deal


def send_orders(game: Game, seat: int, entry: Any, via: Via | None = None) -> tuple[int, list[int]]:
    """Keep ``seat``'s part of the next turn; when it is the last one in, record the turn.

    Returns the turn and the seats still to send (none once the turn is recorded). Raises
    :class:`InvalidFacts` naming the rule when the part is refused: nothing is kept then.
    """
    kind = game_rules(game)
    result = score(game)
    setup = result.setup
    refusal = _closed(kind, result)
    if refusal is not None:
        raise InvalidFacts([refusal])
    errors = kind.check_seat_orders(setup, result.state, seat, entry)
    if errors:
        raise InvalidFacts(errors)
    turn = len(result.deals) + 1
    facts = {"orders": list(entry["orders"]), "guard": entry["guard"]}
    # The same part sent again with the same idempotency key is kept once (AlreadyDone).
    with contextlib.suppress(AlreadyDone):
        _write(game, via, lambda top: _plan_orders_in(game, seat, turn, facts), touch=False)
    sent = who_sent(game.id, turn)
    waiting = [s for s in range(setup.n) if s not in sent]
    if not waiting:
        _resolve(game, turn, via)
    return turn, waiting


def _closed(kind: Any, result: GameResult) -> FieldError | None:
    """Why no seat may send orders now, if so."""
    setup = result.setup
    if not kind.takes_seat_orders(setup):
        return FieldError("orders", msg(N_("This game takes no orders from the seats.")))
    if result.finished:
        return FieldError("orders", msg(N_("The game is over: no more orders.")))
    if kind.waiting_seats(setup.options, setup.n):
        return FieldError("orders", msg(N_("Turn 1 waits for every player's allotment first.")))
    return None


def _plan_orders_in(game: Game, seat: int, turn: int, facts: dict[str, Any]) -> Plan[None]:
    def apply() -> Entry:
        row = db.session.scalars(
            select(PendingEntry).where(
                PendingEntry.game_id == game.id,
                PendingEntry.kind == ORDERS,
                PendingEntry.turn == turn,
                PendingEntry.seat == seat,
            )
        ).first()
        if row is None:
            db.session.add(PendingEntry(game_id=game.id, seat=seat, kind=ORDERS, turn=turn, facts=facts))
        else:
            row.facts = facts
        # The history says who sent, for which turn: never what (the scorer reads it).
        return Entry(kind="orders_in", after={"seat": seat, "turn": turn, "player": game.players[seat]})

    return Plan(None, apply)


def _resolve(game: Game, turn: int, via: Via | None) -> None:
    """Every seat's part is in: the turn, recorded as the scorer would record it (once, even when
    two last parts arrive together: the second finds it done)."""
    kind = game_rules(game)
    rows = db.session.scalars(
        select(PendingEntry).where(
            PendingEntry.game_id == game.id, PendingEntry.kind == ORDERS, PendingEntry.turn == turn
        )
    ).all()
    facts = kind.seat_turn(score(game).setup, {row.seat: row.facts for row in rows})
    resolved = Via(token=f"seats-{game.id}-{turn}", device=(via.device if via else None) or "Seats")
    with contextlib.suppress(AlreadyDone):
        append_deal(game, facts, resolved)
