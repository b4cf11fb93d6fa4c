"""Events: check and create a new event, its links' tokens, and derive the standings and the
event document (events.md) from the tables' games; :func:`through_gate`, the one way an event
is changed. What changes an event lives beside it: :mod:`.rounds` (start and close rounds,
players join or withdraw), :mod:`.arrivals` (the door: check-in, removing an arrival) and
:mod:`.confirming` (a table's result confirmed, and the corrections after).

Each table plays an ordinary game, created through the write gate like any other; what it
scores is read back through the read side (public figures only). The seating, pairing and
standings themselves are pure (:mod:`.seating`, :mod:`.standings`).
"""

from __future__ import annotations

import copy
import hashlib
import hmac
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from flask import current_app, has_request_context, request
from sqlalchemy import func, select
from sqlalchemy import inspect as sa_inspect
from sqlalchemy.orm.state import InstanceState

from .. import cache, read, service
from ..clubs import ratings, roster
from ..db import db
from ..games import GAMES
from ..keys import hash_key, key_matches
from ..models import Event, EventRound, EventTable, Game, HouseChange
from ..refusals import Missing
from ..rules import N_
from ..service import house_gate
from . import formats, seating, standings, table_links
from .checks import (  # the service refuses what the checks refuse, with their errors
    MAX_ENTRANTS,
    check_event,
    plan,
)


def new_id() -> str:
    return service.new_id()


def club_strengths(club_id: int | None, kind: str, names: Sequence[str]) -> dict[str, float]:
    """The club's rating (the leaderboard's ordinal, of the event's game) of each name that has
    one; a name matches a rated player's exactly, else regardless of case."""
    if club_id is None:
        return {}
    board = roster.club_ratings(club_id, kind)
    folded: dict[str, float] = {}
    for player in board.leaderboard:
        folded.setdefault(player.name.casefold(), player.ordinal)
    found = {}
    for name in names:
        exact = board.player(name)
        rating = exact.ordinal if exact is not None else folded.get(name.casefold())
        if rating is not None:
            found[name] = rating
    return found


def seeded(entrants: list[Any], club_id: int | None, kind: str) -> list[Any]:
    """The pairs in seed order by the club's ratings (events.md, ``"seed": "ratings"``).

    The entrants are stored in that order, so seed 1 is entrant 0 everywhere after: round 1's
    Swiss pairing and knockout bracket (planned once, at creation), a knockout tie's higher seed.
    """
    strengths = club_strengths(club_id, kind, [n for e in entrants for n in e])
    default = ratings.model().rating().ordinal()  # an unrated player starts where everyone does
    return [entrants[i] for i in seating.seed_by_ratings(entrants, strengths, default)]


def most_players() -> int:
    """The players one event may have (``EVENT_MAX_PLAYERS``): checked before seating is planned."""
    return int(current_app.config.get("EVENT_MAX_PLAYERS") or MAX_ENTRANTS)


def create_event(data: Any, club_id: int | None = None, by: str = "") -> tuple[Event, str]:
    """A new event (``by``: its creator, as the history names them)."""
    checked = check_event(data, most_players())
    settings = checked["settings"]
    if settings["seed"] == "ratings":
        checked["entrants"] = seeded(checked["entrants"], club_id, checked["kind"])
    schedule = plan(
        checked["format"],
        settings["pairing"],
        len(checked["entrants"]),
        settings["rounds"],
        settings["table_size"],
        settings.get("shuffle", False),
    )
    key = service.new_token(24)
    event = Event(
        id=new_id(),
        name=checked["name"],
        format=checked["format"],
        kind=checked["kind"],
        options=checked["options"],
        settings=settings,
        entrants=checked["entrants"],
        withdrawn=[],
        schedule=schedule,
        director_key_hash=hash_key(key),
        version=1,
        club_id=club_id,
    )

    def build() -> tuple[Event, Event]:
        db.session.add(event)
        return event, event

    house_gate.make(build, "create_event", by=by)
    return event, key


def director_key_matches(event: Event, key: str | None) -> bool:
    return key_matches(event.director_key_hash, key)


def table_key(game_id: str) -> str:
    """A table's scorer key: derived from the server's secret and the game, so the director's
    page can show every table's link without the key being stored anywhere."""
    secret = str(current_app.secret_key or "").encode()
    return hmac.new(secret, f"table:{game_id}".encode(), hashlib.sha256).hexdigest()[:32]


def player_token(event: Event, entrant: int) -> str:
    """A player's personal link's token: derived from the server's secret, nothing stored."""
    secret = str(current_app.secret_key or "").encode()
    return hmac.new(secret, f"event-player:{event.id}:{entrant}".encode(), hashlib.sha256).hexdigest()[:24]


def player_token_matches(event: Event, entrant: int, token: str) -> bool:
    # As bytes: compare_digest refuses a str with any non-ASCII character (a 500 for a typed link).
    return 0 <= entrant < len(event.entrants) and hmac.compare_digest(
        player_token(event, entrant).encode(), token.encode()
    )


def where_i_sit(event: Event, entrant: int, doc: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Per round, where the player sits: table, seat, partner and opponents (or the others at
    the table in a mixer), or sitting out; from the document's rounds, started or planned."""
    mine = _entrant_players(event, entrant)
    out = []
    for rnd in doc["rounds"]:
        row: dict[str, Any] = {"number": rnd["number"], "status": rnd["status"], "table": None}
        if any(n in rnd["sitting_out"] for n in mine):
            row["sitting_out"] = True
        for table in rnd["tables"]:
            seats = table["seats"]
            if mine[0] not in seats:
                continue
            seat = seats.index(mine[0])
            partners = formats.of(event.format).partners_at(seats)
            # The table's seats too: the player's page says who sits where in one line.
            row.update(table=table["table"], seat=seat + 1, seats=list(seats), partners=partners)
            if partners:
                row["partner"] = seats[(seat + 2) % 4]
                row["opponents"] = [seats[(seat + 1) % 4], seats[(seat + 3) % 4]]
            else:
                row["others"] = [n for n in seats if n != mine[0]]
        out.append(row)
    return out


# -- names ------------------------------------------------------------------------------------


def entrant_name(event: Event, entrant: int) -> str:
    found = event.entrants[entrant]
    return " & ".join(found) if isinstance(found, list) else found


def seat_names(event: Event, seats: Sequence[int]) -> list[str]:
    """The players at a table, clockwise, as the event's format seats them."""
    return formats.of(event.format).seat_names(event, seats)


def seat_entrants(event: Event, seats: Sequence[int]) -> list[int]:
    return formats.of(event.format).seat_entrants(seats)


# -- rounds -----------------------------------------------------------------------------------


def table_games(event: Event) -> dict[str, Game]:
    """Every table game of the event, in one query."""
    ids = [t.game_id for r in event.rounds for t in r.tables]
    if not ids:
        return {}
    return {g.id: g for g in db.session.scalars(select(Game).where(Game.id.in_(ids)))}


def round_done(rnd: EventRound, games: Mapping[str, Game]) -> bool:
    if rnd.closed_at is not None:
        return True
    return all(read.game_view(games[t.game_id]).finished for t in rnd.tables if t.game_id in games)


def through_gate(event: Event, step: Callable[[], house_gate.Step[Any]], **kwargs: Any) -> Any:
    """The house gate for an event: an event deleted meanwhile (its club deleted while this
    change was on its way) is a 404, as one that never was, not a 500."""
    try:
        return house_gate.change(event, step, **kwargs)
    except house_gate.Gone:
        raise Missing(None, N_("No such event.")) from None


def active(event: Event) -> list[int]:
    return [e for e in range(len(event.entrants)) if e not in event.withdrawn]


# -- check-in at the door ---------------------------------------------------------------------


def check_in_token(event: Event) -> str:
    """The check-in link's token (events.md, Seating): derived from the server's secret, nothing
    stored, so the door card printed at the creation stays valid all evening."""
    secret = str(current_app.secret_key or "").encode()
    return hmac.new(secret, f"event-arrive:{event.id}".encode(), hashlib.sha256).hexdigest()[:24]


def history(event: Event) -> list[HouseChange]:
    """Every change the house gate recorded for the event, oldest first: what, when, who."""
    return list(
        db.session.scalars(
            select(HouseChange).where(HouseChange.event_id == event.id).order_by(HouseChange.id)
        )
    )


# -- standings --------------------------------------------------------------------------------


def compute_standings(event: Event, games: Mapping[str, Game] | None = None) -> list[standings.Standing]:
    """The standings, as the event's format ranks them, from the tables' games now."""
    games = table_games(event) if games is None else games
    names = [entrant_name(event, e) for e in range(len(event.entrants))]
    return formats.of(event.format).standings(event, games, names)


# -- the event document -----------------------------------------------------------------------


def round_status(event: Event, number: int, games: Mapping[str, Game]) -> str:
    if number > len(event.rounds):
        return "planned"
    return "done" if round_done(event.rounds[number - 1], games) else "playing"


def finished(event: Event, games: Mapping[str, Game]) -> bool:
    """Over once its last round has ended (events.md, Season): every round of ``rounds`` played,
    or a knockout's final (its rounds count until one pair is left)."""
    total = event.settings["rounds"]
    return len(event.rounds) >= total and round_done(event.rounds[total - 1], games)


def signature(event_id: str) -> tuple[int, int, int, datetime | None] | None:
    """What the event's document depends on, in one query whatever the number of tables: the
    event's own version, its table games' count and summed versions (a table's every write
    bumps its game's version), and when the latest round's clock runs out. None: no such event."""
    row = db.session.execute(
        select(
            Event.version,
            func.count(Game.id),
            func.coalesce(func.sum(Game.version), 0),
            func.max(EventRound.ends_at),
        )
        .select_from(Event)
        .outerjoin(EventRound, EventRound.event_id == Event.id)
        .outerjoin(EventTable, EventTable.round_id == EventRound.id)
        .outerjoin(Game, Game.id == EventTable.game_id)
        .where(Event.id == event_id)
        .group_by(Event.version)
    ).first()
    return None if row is None else (int(row[0]), int(row[1]), int(row[2]), row[3])


def document(event: Event, director: bool = False, render=None, language: str = "") -> dict[str, Any]:
    """The event document of events.md; tables' edit keys for directors only.

    An event deleted while it is read (its club deleted meanwhile: its rounds read, then its
    games gone) is :class:`Missing`, a 404, whatever the half-read rows made fail: the
    reads of one request are no one snapshot on SQLite.
    """
    state: InstanceState[Any] = sa_inspect(event)
    event_id = state.identity[0] if state.identity else None
    try:
        return _kept_document(event, director, render, language)
    except Exception:
        if event_id is None or db.session.scalar(select(Event.id).where(Event.id == event_id)) is None:
            raise Missing(None, N_("No such event.")) from None
        raise


def _kept_document(event: Event, director: bool, render, language: str) -> dict[str, Any]:
    """The public document is kept per :func:`signature` (and language) in the shared cache: a
    board polled by every phone in the hall is worked out once per change at any table."""
    sig = signature(event.id)
    made = cache.remember(  # the clock is not part of the document: its three figures key it
        cache.key("event-doc", event.id, sig[:3] if sig else None, language),
        lambda: _document(event, render),
        objects=True,
    )
    if not director:
        return made
    doc = copy.deepcopy(made)
    doc["table_links"] = table_links.table_links(event)  # one per table, the whole event
    if event.settings.get("check_in"):
        doc["check_in_link"] = check_in_url(event)
    for rnd in doc["rounds"]:
        for table in rnd["tables"]:
            if table["game"]:
                table["edit_key"] = table_key(table["game"])
    return doc


def check_in_url(event: Event) -> str:
    """The check-in link, ``/e/<id>/arrive/<token>`` (whole when a request names the host)."""
    path = f"/e/{event.id}/arrive/{check_in_token(event)}"
    return request.host_url.rstrip("/") + path if has_request_context() else path


def _document(event: Event, render=None) -> dict[str, Any]:
    games = table_games(event)
    render = render or (lambda m: m.render())
    rounds = []
    for number in range(1, event.settings["rounds"] + 1):
        status = round_status(event, number, games)
        started = event.rounds[number - 1] if number <= len(event.rounds) else None
        if started is not None:
            tables = []
            for table in started.tables:
                game = games.get(table.game_id)
                if game is None:  # its games deleted since its rounds were read: its club is going
                    raise Missing(None, N_("No such event."))
                view = read.game_view(game)
                row: dict[str, Any] = {
                    "table": table.number,
                    "seats": seat_names(event, table.seats),
                    "game": game.id,
                    "hands_played": GAMES[event.kind].counted_deals(view.result),
                    "finished": view.finished,
                }
                if event.settings.get("confirm"):
                    row["confirmed_by"] = table.confirmed_by
                tables.append(row)
            sitting = list(started.sitting_out)
        elif number <= len(event.schedule):
            planned = event.schedule[number - 1]
            tables = [
                {
                    "table": i + 1,
                    "seats": seat_names(event, seats),
                    "game": None,
                    "hands_played": 0,
                    "finished": False,
                }
                for i, seats in enumerate(planned["tables"])
            ]
            sitting = list(planned["sitting_out"])
        else:
            tables, sitting = [], []  # a Swiss or knockout round: paired when it starts
        out_names = [n for e in sitting for n in _entrant_players(event, e)]
        entry: dict[str, Any] = {
            "number": number,
            "status": status,
            "tables": tables,
            "sitting_out": out_names,
        }
        if started is not None and started.ends_at is not None:
            entry["ends_at"] = started.ends_at.isoformat() + "Z"
        rounds.append(entry)
    return {
        "id": event.id,
        "name": event.name,
        "format": event.format,
        "game": event.kind,
        "pairing": event.settings.get("pairing"),
        "options": dict(event.options),
        "players": [entrant_name(event, e) for e in range(len(event.entrants))],
        "withdrawn": [entrant_name(event, e) for e in event.withdrawn],
        "rounds": rounds,
        "finished": finished(event, games),
        "standings": [
            _standing_json(event, s, render)
            for s in compute_standings(event, games)
            if s.entrant not in _never_played(event)
        ],
    }


def _never_played(event: Event) -> set[int]:
    """Withdrawn players who were in no started round (an arrival removed by the director):
    they have no standing."""
    present = {e for r in event.rounds for t in r.tables for e in t.seats}
    present |= {e for r in event.rounds for e in r.sitting_out}
    return {e for e in event.withdrawn or () if e not in present}


def _entrant_players(event: Event, entrant: int) -> list[str]:
    found = event.entrants[entrant]
    return list(found) if isinstance(found, list) else [found]


def _standing_json(event: Event, s: standings.Standing, render) -> dict[str, Any]:
    out: dict[str, Any] = {
        "rank": s.rank,
        "name": s.name,
        "points": standings.plain(s.points),
        "by_round": [None if v is None else standings.plain(v) for v in s.by_round],
    }
    for key, value in s.figures.items():
        out[key] = standings.plain(value)
    out["tiebreak"] = [render(note) for note in s.notes]
    return out
