"""Pending seat entries (spec "Seat entry"): a seat's orders or allotment sent
before its turn resolves. They are facts not yet part of the game, so they live
in their own table, apart from Deal rows, and only the service writes them."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Integer, String, UniqueConstraint, select
from sqlalchemy.orm import Mapped, mapped_column

from .db import Model, db
from .models import utcnow


class PendingEntry(Model):
    """One seat's pending entry of one kind ("orders" or "allotment") for one turn."""

    __tablename__ = "pending_entry"
    # One row per seat, kind and turn: sending again replaces it.
    __table_args__ = (UniqueConstraint("game_id", "seat", "kind", "turn", name="uq_pending_entry"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    turn: Mapped[int] = mapped_column(Integer)
    facts: Mapped[dict[str, Any]] = mapped_column(JSON)
    sent_at: Mapped[datetime] = mapped_column(default=utcnow)


# What a seat sends for a turn: its orders (Secrets).
ORDERS = "orders"


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
