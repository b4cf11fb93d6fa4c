"""The events' JSON API (events.md): the event document, new rounds, players joining or withdrawing.

Creating an event is a club member's call (``POST /api/clubs/<slug>/events``, under the same
abuse limit as creating games: every round makes games). Directors call with
``Authorization: Bearer <director_key>`` or a director's member key (the club's owner and admins).
"""

from __future__ import annotations

from flask import Blueprint, abort, jsonify, request
from flask.typing import ResponseReturnValue

from .. import limits
from ..db import db
from ..models import Club, Event, Game
from ..read.visibility import Membership
from ..service import house_gate
from ..web import errors
from ..web.auth import club_route, directs, presented_key, role_for
from ..web.common import TOKEN
from . import service

# Under /api: an event's own calls live at /api/events/..., its creation in its club's URL.
bp = Blueprint("events_api", __name__, url_prefix="/api")
errors.init_api(bp)


def event_or_404(event_id: str) -> Event:
    event = db.session.get(Event, event_id) if len(event_id) <= 32 else None
    if event is None:
        abort(404, description="No such event.")
    return event


def directing(event: Event) -> bool:
    return directs(event, presented_key())


def director_only(event: Event) -> None:
    if not directing(event):
        abort(
            403, description="This call needs the event's director key: Authorization: Bearer <director_key>."
        )


def if_match(event: Event) -> int | None:
    """``If-Match: "<version>"``: the change applies only to that version of the event."""
    if "If-Match" not in request.headers or request.if_match.star_tag:
        return None
    tags = request.if_match.as_set()
    if not tags or not all(t and t.isdigit() and len(t) < 10 for t in tags):
        abort(400, description='If-Match must be the event\'s ETag, e.g. If-Match: "7".')
    versions = {int(t) for t in tags}
    return event.version if event.version in versions else min(versions)


def idempotency_key() -> str | None:
    token = request.headers.get("Idempotency-Key")
    if token is not None and not TOKEN.fullmatch(token):
        abort(400, description="Idempotency-Key must be 8-64 characters: letters, digits, - and _.")
    return token


def stale(event: Event) -> ResponseReturnValue:
    """409: another change came first; nothing of this one was done. The current document."""
    db.session.rollback()
    db.session.refresh(event)
    response = jsonify(
        {
            "errors": [
                {
                    "field": None,
                    "message": "The event changed at the same moment, so nothing was done: "
                    "here is the event as it is now.",
                }
            ],
            "record": service.document(event, director=True),
        }
    )
    response.status_code = 409
    response.set_etag(str(event.version))
    return response


def refused(exc: service.EventError) -> ResponseReturnValue:
    return jsonify({"errors": [e.as_json() for e in exc.errors]}), 422


def body() -> dict:
    data = request.get_json(silent=True)
    if data is None:
        data = {}
    if not isinstance(data, dict):
        abort(400, description="The body must be a JSON object.")
    return data


@bp.post("/clubs/<slug>/events")
@limits.limit("games")
@club_route()
def create(club: Club, me: Membership) -> ResponseReturnValue:
    """A member makes an event of the club; its creator directs it with the key answered once."""
    try:
        event, key = service.create_event(body(), club_id=club.id)
    except service.EventError as exc:
        db.session.rollback()
        return refused(exc)
    return jsonify({**service.document(event, director=True), "director_key": key}), 201


@bp.get("/events/<event_id>")
def show(event_id: str) -> ResponseReturnValue:
    event = event_or_404(event_id)
    return jsonify(service.document(event, director=directing(event)))


@bp.post("/events/<event_id>/rounds")
def new_round(event_id: str) -> ResponseReturnValue:
    event = event_or_404(event_id)
    director_only(event)
    close = body().get("close", False)
    if not isinstance(close, bool):
        return jsonify({"errors": [{"field": "close", "message": "close is true or false."}]}), 422
    try:
        rnd = service.start_round(event, close=close, based_on=if_match(event), token=idempotency_key())
    except house_gate.Repeat as done:
        # The same call again (its Idempotency-Key): the round it started, as the first answer.
        doc = service.document(event, director=True)
        return jsonify(doc["rounds"][done.change.detail["round"] - 1]), 201
    except house_gate.Stale:
        return stale(event)
    except service.RoundOpen as exc:
        doc = service.document(event, director=True)
        return jsonify(
            {
                "errors": [
                    {
                        "field": "close",
                        "message": f"Round {exc.args[0]} is still being played: "
                        "finish its tables, or send close: true to close it first.",
                    }
                ],
                **doc,
            }
        ), 409
    except service.EventOver:
        return jsonify(
            {"errors": [{"field": "rounds", "message": "Every round of this event has been started."}]}
        ), 409
    except service.EventError as exc:
        return refused(exc)
    doc = service.document(event, director=True)
    return jsonify(doc["rounds"][rnd.number - 1]), 201


@bp.post("/events/<event_id>/players")
def players(event_id: str) -> ResponseReturnValue:
    event = event_or_404(event_id)
    director_only(event)
    data = body()
    add, withdraw = data.get("add", []), data.get("withdraw", [])
    for field, value in (("add", add), ("withdraw", withdraw)):
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            return jsonify({"errors": [{"field": field, "message": f"{field} is a list of names."}]}), 422
    try:
        service.change_players(event, add, withdraw, based_on=if_match(event))
    except house_gate.Stale:
        return stale(event)
    except service.EventError as exc:
        db.session.rollback()
        return refused(exc)
    return jsonify(service.document(event, director=True)), 200


@bp.post("/events/<event_id>/rounds/<int:number>/tables/<int:table_number>/confirm")
def confirm(event_id: str, number: int, table_number: int) -> ResponseReturnValue:
    """A player at the table confirms its result (``{"by": "Cy"}``), with the table's edit key
    (or the director's): 200 the table as the event document shows it."""
    event = event_or_404(event_id)
    found = service.find_table(event, number, table_number) if number < 10_000 else None
    game = db.session.get(Game, found[1].game_id) if found is not None else None
    if found is None or game is None:
        abort(404, description="No such table in this event.")
    if not role_for(game).editable:
        abort(
            403,
            description="This call needs the table's edit key (or the director's): "
            "Authorization: Bearer <edit_key>.",
        )
    rnd, table = found
    try:
        service.confirm_table(event, table, body().get("by"))
    except service.EventError as exc:
        db.session.rollback()
        return refused(exc)
    except service.NotNow as exc:
        return jsonify({"errors": [{"field": "confirm", "message": exc.message.render()}]}), 409
    doc = service.document(event)
    return jsonify(doc["rounds"][rnd.number - 1]["tables"][table.number - 1]), 200
