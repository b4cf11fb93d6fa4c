"""A table's phone for the whole event (events.md, Rounds): one scorer link per table,
``/e/<id>/table/<n>/<token>``, that always opens the table's current game; and the round clock
every table, the director and the board show.

The token is derived from the server's secret, the event and the table number, as a player's
personal link is: nothing is stored, so the cards printed at the event's creation stay valid all
evening, and only the server can make one.
"""

from __future__ import annotations

import hashlib
import hmac
import math
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from flask import current_app, has_request_context, url_for
from sqlalchemy import func, select

from ..db import db
from ..models import Change, Event, EventRound, EventTable, utcnow
from . import formats

TOKEN_LENGTH = 24


def table_token(event_id: str, table: int) -> str:
    secret = str(current_app.secret_key or "").encode()
    return hmac.new(secret, f"event-table:{event_id}:{table}".encode(), hashlib.sha256).hexdigest()[
        :TOKEN_LENGTH
    ]


def token_matches(event: Event, table: int, token: str) -> bool:
    return 1 <= table <= table_count(event) and hmac.compare_digest(
        table_token(event.id, table).encode(),
        token.encode(),  # bytes: any text a URL may carry
    )


def table_count(event: Event) -> int:
    """The most tables the event seats in any round: planned, started, or (a ladder's later
    rounds, Swiss, knockout) as many as its players now fill."""
    counts = [len(r["tables"]) for r in event.schedule or []]
    counts += [len(r.tables) for r in event.rounds]
    playing = len(event.entrants) - len(event.withdrawn or [])
    counts.append(playing // formats.of(event.format).entrants_a_table(event.settings))
    return max(counts, default=0)


def table_url(event: Event, table: int, external: bool = False) -> str:
    if not has_request_context():  # a command's document (no host to name): the path alone
        return f"/e/{event.id}/table/{table}/{table_token(event.id, table)}"
    return url_for(
        "event_table_pages.table",
        event_id=event.id,
        table_number=table,
        token=table_token(event.id, table),
        _external=external,
    )


# What a table's phone sends (issue 53, "a silent table"): its deals and corrections, not the
# game's creation at the round's start nor a director's correction with a reason.
HEARD_KINDS = (
    "append",
    "replace",
    "delete",
    "restore",
    "restore_end",
    "correct_end",
    "draft",
    "turn",
    "orders_in",
)


def last_heard(game_ids: list[str]) -> dict[str, datetime]:
    """When each table's game was last written to by its table (naive UTC), for the director's
    page: a table whose phone lost the hall's Wi-Fi shows as silent. A game not heard from since
    it was created is left out."""
    if not game_ids:
        return {}
    rows = db.session.execute(
        select(Change.game_id, func.max(Change.created_at))
        .where(Change.game_id.in_(game_ids), Change.kind.in_(HEARD_KINDS), Change.given_by.is_(None))
        .group_by(Change.game_id)
    )
    return {game_id: when for game_id, when in rows if when is not None}


def table_links(event: Event) -> list[dict[str, Any]]:
    """``table_links`` of the director's event document: one link per table, the whole event."""
    return [{"table": n, "link": table_url(event, n, True)} for n in range(1, table_count(event) + 1)]


@dataclass(frozen=True)
class Place:
    """Where table ``table`` stands now: the latest started round (0: none yet) and, if the
    table plays in it, its game, whether that round was closed, and who confirmed."""

    rounds_started: int
    round: int = 0
    game_id: str | None = None
    closed: bool = False
    confirmed_by: str | None = None

    def state(self) -> str:
        """What a phone left on the table's link compares, poll after poll: a change redraws it.
        Not who confirmed: the phone that confirms is redrawn by its own post (a poll in flight
        then would load the page a second time for nothing)."""
        return f"{self.rounds_started}.{self.game_id or '-'}.{int(self.closed)}"


def place(event_id: str, table: int) -> Place:
    """The table's place now, in two small queries whatever the event's size."""
    started = db.session.scalar(
        select(func.coalesce(func.max(EventRound.number), 0)).where(EventRound.event_id == event_id)
    )
    if not started:
        return Place(0)
    row = db.session.execute(
        select(EventRound.number, EventTable.game_id, EventRound.closed_at, EventTable.confirmed_by)
        .join(EventTable, EventTable.round_id == EventRound.id)
        .where(EventRound.event_id == event_id, EventRound.number == started, EventTable.number == table)
    ).first()
    if row is None:
        return Place(int(started), int(started))
    return Place(int(started), int(row[0]), row[1], row[2] is not None, row[3])


# -- the round clock --------------------------------------------------------------------------


def round_clock(event: Event, doc: Mapping[str, Any] | None = None) -> dict[str, Any] | None:
    """The latest round's clock: minutes left (counted up: 30 minutes one second in is still
    30), time up ("finish the hand in progress"), or the round over (every table finished, or
    closed): then the clock stops. None: the round has no clock."""
    rnd = event.rounds[-1] if event.rounds else None
    ends: datetime | None = rnd.ends_at if rnd is not None else None
    if rnd is None or ends is None:
        return None
    ended = rnd.closed_at is not None
    if not ended and doc is not None and rnd.number <= len(doc["rounds"]):
        ended = doc["rounds"][rnd.number - 1]["status"] == "done"
    now = utcnow()
    left = (ends - now).total_seconds()
    return {
        "ends_at": ends.isoformat() + "Z",
        "now": now.isoformat() + "Z",
        "seconds": max(0, math.ceil(left)),
        "minutes": max(0, math.ceil(left / 60)),
        "over": left <= 0,
        "ended": ended,
        "round": rnd.number,
    }
