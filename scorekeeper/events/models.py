"""What an event stores: its settings, its players, its seating, and which game each table plays.

Nothing derived is kept: standings come from the tables' games every time (facts in, points
derived). The seating of every round is data, made when the event is created (so it can be
printed), and re-made for the rounds not yet started when a player joins late or withdraws.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ..db import Model
from ..models import utcnow


class Event(Model):
    # The public id is unguessable, like a game's: the board is for anyone with its link.
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    format: Mapped[str] = mapped_column(String(20))  # progressive | pairs | mixer
    kind: Mapped[str] = mapped_column(String(40))  # the game every table plays
    # The house rules, frozen when the event is made: every table game gets them.
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    # rounds, hands, minutes, sit_out, confirm, pairing, seed, table_size.
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    # Entrants in the event's order: player names (progressive, mixer) or [name, name] pairs.
    entrants: Mapped[list[Any]] = mapped_column(JSON)
    # Entrant numbers withdrawn (they keep the rounds they played).
    withdrawn: Mapped[list[int]] = mapped_column(JSON, default=list)
    # Planned seating per round: {"tables": [[entrant, ...], ...], "sitting_out": [...]}.
    schedule: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    director_key_hash: Mapped[str] = mapped_column(String(64))
    # Bumped on every change of the event itself (a round started or closed, players changed).
    version: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    rounds: Mapped[list[EventRound]] = relationship(
        back_populates="event", order_by="EventRound.number", cascade="all, delete-orphan", lazy="selectin"
    )


class EventRound(Model):
    """A round once started: its tables' games; ``closed_at`` when the director closed it."""

    __tablename__ = "event_round"
    __table_args__ = (UniqueConstraint("event_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[str] = mapped_column(ForeignKey("event.id", ondelete="CASCADE"), index=True)
    number: Mapped[int]
    started_at: Mapped[datetime] = mapped_column(default=utcnow)
    # The round clock: when the hand in play is the last (None: no clock).
    ends_at: Mapped[datetime | None] = mapped_column(nullable=True, default=None)
    closed_at: Mapped[datetime | None] = mapped_column(nullable=True, default=None)
    sitting_out: Mapped[list[int]] = mapped_column(JSON, default=list)

    event: Mapped[Event] = relationship(back_populates="rounds")
    tables: Mapped[list[EventTable]] = relationship(
        back_populates="round", order_by="EventTable.number", cascade="all, delete-orphan", lazy="selectin"
    )


class EventTable(Model):
    """One table of a started round: an ordinary game, and who sits where (entrant numbers)."""

    __tablename__ = "event_table"
    __table_args__ = (UniqueConstraint("round_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("event_round.id", ondelete="CASCADE"), index=True)
    number: Mapped[int]
    game_id: Mapped[str] = mapped_column(ForeignKey("game.id"), unique=True)
    # Per seat, clockwise: the entrant number (pairs: the pair's number at both its seats).
    seats: Mapped[list[int]] = mapped_column(JSON)
    confirmed_by: Mapped[str | None] = mapped_column(String(40), nullable=True, default=None)

    round: Mapped[EventRound] = relationship(back_populates="tables")
