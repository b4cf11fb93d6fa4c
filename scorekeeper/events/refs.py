"""Which event, round and table a game is played at: the ``event`` a table game's record carries.

A game's place in an event is fixed when its round starts and never changes, so each process
keeps what it looked up (a game of no event too): the record's hot paths (the API's answer to
every write) ask the database once per game, not once per request.
"""

from __future__ import annotations

from typing import Any

from flask import current_app
from sqlalchemy import select

from ..db import db
from ..lru import per_app
from .models import EventRound, EventTable

# Games whose place (or absence) this process knows: a few evenings' worth of tables.
KNOWN_SIZE = 4096
_NONE = "none"


def event_of(game_id: str) -> dict[str, Any] | None:
    """``{"id", "round", "table"}`` for a game played at an event's table, else None."""
    known = per_app(current_app.extensions, "scorekeeper.event_refs", KNOWN_SIZE)
    found = known.get(game_id, None)
    if found is None:
        row = db.session.execute(
            select(EventRound.event_id, EventRound.number, EventTable.number)
            .join(EventRound, EventRound.id == EventTable.round_id)
            .where(EventTable.game_id == game_id)
        ).first()
        found = {"id": row[0], "round": row[1], "table": row[2]} if row else _NONE
        known.put(game_id, found)
    return dict(found) if isinstance(found, dict) else None  # (else _NONE: no event)
