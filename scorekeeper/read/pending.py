"""Pending seat entries read (spec "Seat entry"): who has sent orders for a turn, and one seat's own.

The rows are :class:`~scorekeeper.models.PendingEntry`; only the service writes them.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from ..db import db
from ..models import ORDERS, PendingEntry


def who_sent(game_id: str, turn: int) -> list[int]:
    """Seats whose orders for ``turn`` are in (never what they are)."""
    rows = db.session.scalars(
        select(PendingEntry.seat).where(
            PendingEntry.game_id == game_id, PendingEntry.kind == ORDERS, PendingEntry.turn == turn
        )
    )
    return sorted(rows)


def orders_rows(game_id: str, turn: int) -> list[PendingEntry]:
    """Every seat's pending orders for ``turn`` (for the write gate only: it resolves the turn)."""
    return list(
        db.session.scalars(
            select(PendingEntry).where(
                PendingEntry.game_id == game_id, PendingEntry.kind == ORDERS, PendingEntry.turn == turn
            )
        )
    )


def orders_row(game_id: str, seat: int, turn: int) -> PendingEntry | None:
    """The row of the seat's pending orders for ``turn`` (for the write gate and that seat only)."""
    return db.session.scalars(
        select(PendingEntry).where(
            PendingEntry.game_id == game_id,
            PendingEntry.kind == ORDERS,
            PendingEntry.turn == turn,
            PendingEntry.seat == seat,
        )
    ).first()


def own_orders(game_id: str, seat: int, turn: int) -> dict[str, Any] | None:
    """The seat's own pending orders: only for an answer to that seat."""
    row = orders_row(game_id, seat, turn)
    return None if row is None else dict(row.facts)
