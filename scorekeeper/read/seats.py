"""What one seat alone may read of the turn being collected: its own orders (spec "Seat entry").

Another role gets nothing here: pending orders leave the database for their own seat's answers
only, through :func:`seat_console`, and every other page sees who has sent (``GameView.orders_in``),
never what.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .. import scoring
from ..models import Game
from .pending import own_orders
from .views import Role

# What a console offers now: the seat's allotment (Hidden Secrets before every one is in), its
# orders for the turn being collected, or nothing (the game is over).
ALLOT = "allot"
ORDERS = "orders"
OVER = "over"


@dataclass(frozen=True)
class SeatConsole:
    seat: int
    step: str  # ALLOT, ORDERS or OVER
    turn: int  # the turn being collected (the next one)
    # The seat's own orders sent for ``turn`` ({"orders", "guard"}), None while it has sent none.
    sent: Mapping[str, Any] | None

    @property
    def takes_orders(self) -> bool:
        return self.step == ORDERS

    @property
    def allotting(self) -> bool:
        return self.step == ALLOT

    @property
    def over(self) -> bool:
        return self.step == OVER

    @property
    def key(self) -> str:
        """What the console's form stands for: a page drawn at another key shows a stale form."""
        return f"{self.step}-{self.turn}-{'in' if self.sent is not None else 'out'}"


def seat_console(game: Game, role: Role) -> SeatConsole | None:
    """``role``'s console, with its own pending orders; None for any role but a seat."""
    if role.name != "seat" or role.seat is None:
        return None
    result = scoring.result(game)
    kind = scoring.game_rules(game)
    turn = len(result.deals) + 1
    if result.finished or not kind.takes_seat_orders(result.setup):
        return SeatConsole(role.seat, OVER, turn, None)
    if kind.waiting_seats(result.setup.options, result.setup.n):
        return SeatConsole(role.seat, ALLOT, turn, None)
    return SeatConsole(role.seat, ORDERS, turn, own_orders(game.id, role.seat, turn))
