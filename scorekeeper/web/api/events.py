"""The events' JSON API (events.md): the event document, new rounds, players joining or withdrawing.

Creating an event is a club member's call (``POST /api/clubs/<slug>/events``, under the same
abuse limit as creating games: every round makes games). Directors call with
``Authorization: Bearer <director_key>`` or a director's member key (the club's owner and admins).
"""

from __future__ import annotations

import hashlib
import hmac

from flask import Blueprint, current_app, jsonify
from flask.typing import ResponseReturnValue

from ... import limits
from ...access import Membership
from ...db import db
from ...events import service
from ...models import Club, Event, Game
from ...refusals import Denied, Missing, Refusal
from ...rules import FieldError, msg
from ...rules.base import N_
from ...service import house_gate
from .. import errors
from ..auth import club_route, hand_event, may, presented_key, role_for
from ..etags import if_match_versions
from ..jsonbody import json_body
from ..via import idempotency_key

# Under /api: an event's own calls live at /api/events/..., its creation in its club's URL.
bp = Blueprint("events_api", __name__, url_prefix="/api")
errors.init_api(bp)


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


def scoped_idempotency(event: Event) -> str | None:
    """The call's ``Idempotency-Key`` as the house gate records it, scoped to its caller (the
    credential it shows) and its target (this event): the same key sent by another director or
    about another event is a call of its own, never taken for a repeat of this one (issue 57, N4).
    Keyed with the server's secret, so what is stored names neither the key nor the caller."""
    given = idempotency_key()
    if given is None:
        return None
    secret = str(current_app.secret_key or "").encode()
    scope = f"events-api:{event.id}:{presented_key() or ''}:{given}".encode()
    return "api-ev-" + hmac.new(secret, scope, hashlib.sha256).hexdigest()[:48]


def if_match(event: Event) -> int | None:
    """``If-Match: "<version>"``: the change applies only to that version of the event. The ETag
    is taken as answered, compressed or not (``"7:gzip"``), as for games (etags.if_match_versions)."""
    try:
        versions = if_match_versions()
    except ValueError:
        raise Refusal(
            "If-Match", N_('If-Match must be the event\'s ETag, e.g. If-Match: "7".'), 400
        ) from None
    if not versions:
        return None
    return event.version if event.version in versions else min(versions)


def director_document(event: Event) -> dict:
    """The event document with its tables' links and keys, for a director (a proven credential):
    what it hands out is proven for the caller's address (auth.hand_event)."""
    doc = service.document(event, director=True)
    hand_event(event, doc)
    return doc


def stale(event: Event) -> ResponseReturnValue:
    """409: another change came first; nothing of this one was done. The current document."""
    db.session.rollback()
    db.session.refresh(event)
    problem = FieldError(
        "",
        msg(N_("The event changed at the same moment, so nothing was done: here is the event as it is now.")),
    )
    response = errors.errors_response([problem], 409, record=director_document(event))
    response.set_etag(str(event.version))
    return response


@bp.post("/clubs/<slug>/events")
@limits.limit("games")
@club_route()
def create(club: Club, me: Membership) -> ResponseReturnValue:
    """A member makes an event of the club; its creator directs it with the key answered once."""
    event, key = service.create_event(json_body(), club_id=club.id)
    limits.handed(key)  # the key just made, answered to this address
    return jsonify({**director_document(event), "director_key": key}), 201


@bp.get("/events/<event_id>")
def show(event_id: str) -> ResponseReturnValue:
    event = event_or_404(event_id)
    response = jsonify(director_document(event) if may().direct_event(event) else service.document(event))
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
            event, close=close, based_on=if_match(event), token=scoped_idempotency(event)
        )
    except house_gate.Repeat as done:
        # The same call again (its Idempotency-Key): the round it started, as the first answer.
        doc = director_document(event)
        detail = done.change.detail if isinstance(done.change.detail, dict) else {}
        number = detail.get("round") if done.change.event_id == event.id else None
        if not isinstance(number, int) or not 1 <= number <= len(doc["rounds"]):
            return stale(event)  # a change of no round of this event: never taken for this call's answer
        return jsonify(doc["rounds"][number - 1]), 201
    except house_gate.Stale:
        return stale(event)
    except service.RoundOpen as exc:
        # The API's own way to close it first, and the event as it is (a director who lost the
        # race to start it sees the round the other one started).
        problem = FieldError(
            "close",
            msg(
                N_(
                    "Round {n} is still being played: finish its tables, or send close: true to close it first."
                ),
                n=exc.number,
            ),
        )
        response = errors.errors_response([problem], 409, record=director_document(event))
        response.set_etag(str(event.version))
        return response
    doc = director_document(event)
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
    try:
        service.change_players(event, add, withdraw, based_on=if_match(event))
    except house_gate.Stale:
        return stale(event)
    response = jsonify(director_document(event))
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
