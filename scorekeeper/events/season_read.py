"""A club's season read from its events (events.md, Season): which events count, and the table.

The finished events of one game in a date range, each read through its event document (kept in
the shared cache per change), handed to the pure :mod:`.season` as places. An event's date is
the day its first round started (an event made in advance counts on the evening it was played).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from sqlalchemy import select

from ..db import db
from ..games import GAMES
from ..models import Event, utcnow
from ..refusals import refuse
from ..rules import N_
from . import season, service
from .standings import plain


@dataclass(frozen=True)
class Query:
    """What a season asks: its game, its first and last day, and how many best events count."""

    game: str
    start: date
    end: date
    best: int | None = None


def event_day(event: Event) -> date:
    when: datetime = event.rounds[0].started_at if event.rounds else event.created_at
    return when.date()


def default_game(club_id: int) -> str:
    """The game of the club's latest event (a club mostly keeps one season), else Euchre."""
    kind = db.session.scalar(
        select(Event.kind).where(Event.club_id == club_id).order_by(Event.created_at.desc()).limit(1)
    )
    return kind if kind in GAMES else "euchre"


def parse(args: Mapping[str, str], club_id: int, today: date | None = None) -> Query:
    """The query string checked: ``game``, ``from``, ``to`` (ISO dates), ``best``; by default the
    club's usual game and the calendar year so far. A value that is none of these is refused by
    field (:class:`~scorekeeper.refusals.Refusal`), never guessed."""
    today = today or utcnow().date()
    game = (args.get("game") or "").strip() or default_game(club_id)
    if game not in GAMES:
        raise refuse("game", N_("Unknown game; known games: {games}."), games=", ".join(GAMES))
    start = _day(args, "from", date(today.year, 1, 1))
    end = _day(args, "to", today)
    if end < start:
        raise refuse("to", N_("The season ends on or after the day it starts."))
    best = None
    raw = (args.get("best") or "").strip()
    if raw:
        if not raw.isdigit() or not 1 <= int(raw) <= 1000:
            raise refuse("best", N_("Best is a whole number of events from 1 to 1000, or empty for all."))
        best = int(raw)
    return Query(game, start, end, best)


ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def _day(args: Mapping[str, str], field: str, default: date) -> date:
    raw = (args.get(field) or "").strip()
    if not raw:
        return default
    try:
        # Only 2026-01-31 (the API's "date" format): Python also reads 20260131 and 2026-W05-6.
        if not ISO_DAY.fullmatch(raw):
            raise ValueError(raw)
        return date.fromisoformat(raw)
    except ValueError:
        raise refuse(field, N_("{what} is a date written as 2026-01-31."), what=field) from None


def results(club_id: int, query: Query) -> list[season.EventResult]:
    """The club's finished events of the query's game played in its range, as places."""
    events = db.session.scalars(
        select(Event).where(Event.club_id == club_id, Event.kind == query.game).order_by(Event.created_at)
    )
    found = []
    for event in events:
        day = event_day(event)
        if not query.start <= day <= query.end:
            continue
        doc = service.document(event)
        if not doc["finished"]:
            continue
        players = {
            service.entrant_name(event, e): tuple(found) if isinstance(found, list) else (found,)
            for e, found in enumerate(event.entrants)
        }
        places = tuple(
            season.Place(s["rank"], players.get(s["name"], (s["name"],))) for s in doc["standings"]
        )
        found.append(season.EventResult(event.id, event.name, day, places))
    return found


def table(club_id: int, query: Query) -> season.Season:
    return season.season(results(club_id, query), query.best)


def document(made: season.Season, query: Query, render) -> dict[str, Any]:
    """The season as the API answers it (events.md): ``by_event[i]`` is the player's points in
    ``events[i]``, null where they did not play; ``tiebreak`` explains ties as the results do."""
    return {
        "game": query.game,
        "from": query.start.isoformat(),
        "to": query.end.isoformat(),
        "best": query.best,
        "events": [{"id": e.id, "name": e.name, "date": e.day.isoformat()} for e in made.events],
        "standings": [
            {
                "rank": s.rank,
                "name": s.name,
                "points": plain(s.points),
                "events": s.figures["events"],
                "by_event": [None if v is None else plain(v) for v in s.by_round],
                "tiebreak": [render(note) for note in s.notes],
            }
            for s in made.standings
        ],
    }


__all__ = ["Query", "default_game", "document", "parse", "results", "table"]
