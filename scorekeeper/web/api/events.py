"""The events' JSON API (events.md): the event document, new rounds, players joining or withdrawing.

Creating an event is a club member's call (``POST /api/clubs/<slug>/events``, under the same
abuse limit as creating games: every round makes games). Directors call with
``Authorization: Bearer <director_key>`` or a director's member key (the club's owner and admins).
"""

from __future__ import annotations

from flask import Blueprint, jsonify, request
from flask.typing import ResponseReturnValue

from ... import limits
from ...access import Membership
from ...db import db
from ...events import service
from ...models import Club, Event, Game
from ...refusals import Denied, Missing, Refusal
from ...rules.base import N_
from ...service import house_gate
from ..auth import club_route, directing, may, role_for
from ..jsonbody import json_body
from ..via import idempotency_key

# Under /api: an event's own calls live at /api/events/..., its creation in its club's URL.
bp = Blueprint("events_api", __name__, url_prefix="/api")


def event_or_404(event_id: str) -> Event:
    event = db.session.get(Event, event_id) if len(event_id) <= 32 else None
    if event is None:
        raise Missing(None, N_("No such event."))
    return event


def director_only(event: Event) -> None:
    if not may().direct_event(event):
        raise Denied(
            None,
            N_("This call needs the event's director key: Authorization: Bearer <director_key>."),
        )


def if_match(event: Event) -> int | None:
    """``If-Match: "<version>"``: the change applies only to that version of the event."""
    if "If-Match" not in request.headers or request.if_match.star_tag:
        return None
    tags = request.if_match.as_set()
    if not tags or not all(t and t.isdigit() and len(t) < 10 for t in tags):
        raise Refusal("If-Match", N_('If-Match must be the event\'s ETag, e.g. If-Match: "7".'), 400)
    versions = {int(t) for t in tags}
    return event.version if event.version in versions else min(versions)


@bp.post("/clubs/<slug>/events")
@limits.limit("games")
@club_route()
def create(club: Club, me: Membership) -> ResponseReturnValue:
    """A member makes an event of the club; its creator directs it with the key answered once."""
    event, key = service.create_event(json_body(), club_id=club.id, by=me.name)
    return jsonify({**service.document(event, director=True), "director_key": key}), 201


@bp.get("/events/<event_id>")
def show(event_id: str) -> ResponseReturnValue:
    event = event_or_404(event_id)
    response = jsonify(service.document(event, director=may().direct_event(event)))
    response.set_etag(str(event.version))
    return response


@bp.post("/events/<event_id>/rounds")
def new_round(event_id: str) -> ResponseReturnValue:
    event = event_or_404(event_id)
    director_only(event)
    close = json_body().get("close", False)
    if not isinstance(close, bool):
        raise Refusal("close", N_("close is true or false."))
    try:
        rnd = service.start_round(
            event, close=close, based_on=if_match(event), token=idempotency_key(), by=directing(event)
        )
    except house_gate.Repeat as done:
        # The same call again (its Idempotency-Key): the round it started, as the first answer.
        doc = service.document(event, director=True)
        return jsonify(doc["rounds"][done.change.detail["round"] - 1]), 201
    except service.RoundOpen as exc:
        # The API's own way to close it first, with the event as it is (a director who lost the
        # race to start it sees the round the other one started): a stale start's answer.
        raise house_gate.Stale(
            event,
            None,
            "close",
            N_("Round {n} is still being played: finish its tables, or send close: true to close it first."),
            n=exc.number,
        ) from None
    doc = service.document(event, director=True)
    return jsonify(doc["rounds"][rnd.number - 1]), 201


@bp.post("/events/<event_id>/players")
def players(event_id: str) -> ResponseReturnValue:
    event = event_or_404(event_id)
    director_only(event)
    data = json_body()
    add, withdraw = data.get("add", []), data.get("withdraw", [])
    for field, value in (("add", add), ("withdraw", withdraw)):
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise Refusal(field, N_("{what} is a list of names."), what=field)
    service.change_players(event, add, withdraw, based_on=if_match(event), by=directing(event))
    response = jsonify(service.document(event, director=True))
    response.set_etag(str(event.version))
    return response


@bp.post("/events/<event_id>/rounds/<int:number>/tables/<int:table_number>/confirm")
def confirm(event_id: str, number: int, table_number: int) -> ResponseReturnValue:
    """A player at the table confirms its result (``{"by": "Cy"}``), with the table's edit key
    (or the director's): 200 the table as the event document shows it."""
    event = event_or_404(event_id)
    found = service.find_table(event, number, table_number) if number < 10_000 else None
    game = db.session.get(Game, found[1].game_id) if found is not None else None
    if found is None or game is None:
        raise Missing(None, N_("No such table in this event."))
    if not role_for(game).editable:
        raise Denied(
            None,
            N_("This call needs the table's edit key (or the director's): Authorization: Bearer <edit_key>."),
        )
    rnd, table = found
    service.confirm_table(event, table, json_body().get("by"))
    doc = service.document(event)
    return jsonify(doc["rounds"][rnd.number - 1]["tables"][table.number - 1]), 200
