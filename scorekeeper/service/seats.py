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

from .. import read
from ..models import Game
from ..read.pending import orders_rows
from ..rules import FieldError, GameResult, InvalidFacts, msg
from ..rules.base import N_
from ..scoring import game_rules
from .gate import AlreadyDone, Via, append_deal, keep_orders


def send_orders(game: Game, seat: int, entry: Any, via: Via | None = None) -> tuple[int, list[int]]:
    """Keep ``seat``'s part of the next turn; when it is the last one in, record the turn.

    Returns the turn and the seats still to send (none once the turn is recorded). Raises
    :class:`InvalidFacts` naming the rule when the part is refused: nothing is kept then.
    """
    kind = game_rules(game)
    result = read.result(game)
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
        keep_orders(game, seat, turn, facts, via)
    # Every seat's part for the turn, read once: who is still to send, and the turn when none is.
    parts = {row.seat: row.facts for row in orders_rows(game.id, turn)}
    waiting = [s for s in range(setup.n) if s not in parts]
    if not waiting:
        _resolve(game, turn, kind.seat_turn(setup, parts), via)
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


def _resolve(game: Game, turn: int, facts: dict[str, Any], via: Via | None) -> None:
    """Every seat's part is in: the turn, recorded as the scorer would record it (once, even when
    two last parts arrive together: the second finds it done)."""
    resolved = Via(token=f"seats-{game.id}-{turn}", device=(via.device if via else None) or "Seats")
    with contextlib.suppress(AlreadyDone):
        append_deal(game, facts, resolved)
