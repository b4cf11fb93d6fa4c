"""Writes of pending seat entries (spec "Seat entry"). Reads of their contents
are for the seat's own role only: who_sent tells who has sent, never what."""

from __future__ import annotations

from typing import Any

from ..db import db
from ..pending import PendingEntry


def put_pending(game_id: str, seat: int, kind: str, turn: int, facts: dict[str, Any]) -> None:
    """Keep (or replace) one seat's pending entry; the caller has validated it."""
    row = db.session.execute(
        db.select(PendingEntry).filter_by(game_id=game_id, seat=seat, kind=kind, turn=turn)
    ).scalar_one_or_none()
    if row is None:
        db.session.add(PendingEntry(game_id=game_id, seat=seat, kind=kind, turn=turn, facts=facts))
    else:
        row.facts = facts
    db.session.commit()


def own_pending(game_id: str, seat: int, kind: str, turn: int) -> dict[str, Any] | None:
    """The seat's own pending entry: only for an answer to that seat."""
    row = db.session.execute(
        db.select(PendingEntry).filter_by(game_id=game_id, seat=seat, kind=kind, turn=turn)
    ).scalar_one_or_none()
    return None if row is None else dict(row.facts)


def who_sent(game_id: str, kind: str, turn: int) -> list[int]:
    """Seats that have sent an entry of this kind for this turn (never its contents)."""
    return sorted(
        db.session.execute(
            db.select(PendingEntry.seat).filter_by(game_id=game_id, kind=kind, turn=turn)
        ).scalars()
    )


def clear_pending(game_id: str, kind: str | None = None) -> None:
    """Drop pending entries once a turn is recorded (or the scorer enters a whole turn)."""
    query = db.delete(PendingEntry).where(PendingEntry.game_id == game_id)
    if kind is not None:
        query = query.where(PendingEntry.kind == kind)
    db.session.execute(query)
    db.session.commit()
