"""The events' JSON API (events.md): the event document, new rounds, players joining or withdrawing.

Creating an event is a club member's call (``POST /api/clubs/<slug>/events``, under the same
abuse limit as creating games: every round makes games). Directors call with
``Authorization: Bearer <director_key>`` or a director's member key (the club's owner and admins).
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac

from flask import Blueprint, current_app, jsonify
from flask.typing import ResponseReturnValue

from ... import limits
from ...access import Membership
from ...db import db
from ...events import arrivals as door
from ...events import confirming, rounds, service
from ...models import Club, Event, Game
from ...refusals import Denied, Missing, Refusal
from ...rules.base import N_
from ...service import house_gate
from ..auth import club_route, directing, hand_event, may, presented_key, role_for
from ..etags import if_match_versions
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
    # The door's check-in link too: the players' phones at the hall open it from its card.
    hand_event(event, doc, *([service.check_in_token(event)] if event.settings.get("check_in") else []))
    return doc


@bp.post("/clubs/<slug>/events")
@limits.limit("games")
@club_route()
def create(club: Club, me: Membership) -> ResponseReturnValue:
    """A member makes an event of the club; its creator directs it with the key answered once."""
    event, key = service.create_event(json_body(), club_id=club.id, by=me.name)
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
        rnd = rounds.start_round(
            event, close=close, based_on=if_match(event), token=scoped_idempotency(event), by=directing(event)
        )
    except house_gate.Repeat as done:
        # The same call again (its Idempotency-Key): the round it started, as the first answer.
        doc = director_document(event)
        detail = done.change.detail if isinstance(done.change.detail, dict) else {}
        number = detail.get("round") if done.change.event_id == event.id else None
        if not isinstance(number, int) or not 1 <= number <= len(doc["rounds"]):
            # A change of no round of this event: never taken for this call's answer.
            raise house_gate.Stale(event, None) from None
        return jsonify(doc["rounds"][number - 1]), 201
    except rounds.RoundOpen as exc:
        # The API's own way to close it first, with the event as it is (a director who lost the
        # race to start it sees the round the other one started): a stale start's answer
        # (web.errors.stale draws it).
        raise house_gate.Stale(
            event,
            None,
            "close",
            N_("Round {n} is still being played: finish its tables, or send close: true to close it first."),
            n=exc.number,
        ) from None
    doc = director_document(event)
    return jsonify(doc["rounds"][rnd.number - 1]), 201


@bp.post("/events/<event_id>/rounds/<int:number>/close")
def close(event_id: str, number: int) -> ResponseReturnValue:
    """The director closes the round being played, the last one too (events.md, Rounds): 200
    the event document; unfinished games count as they stand; 409 when ``number`` is not the
    round being played (already closed, left behind, or not started)."""
    event = event_or_404(event_id)
    director_only(event)
    json_body()  # ``{}``: nothing to give, but a body that is not JSON is refused as everywhere
    # The same call again (its Idempotency-Key) is answered as the first: the round it closed.
    with contextlib.suppress(house_gate.Repeat):
        rounds.close_round(
            event, number, based_on=if_match(event), token=scoped_idempotency(event), by=directing(event)
        )
    response = jsonify(director_document(event))
    response.set_etag(str(event.version))
    return response


@bp.post("/events/<event_id>/players")
def players(event_id: str) -> ResponseReturnValue:
    event = event_or_404(event_id)
    director_only(event)
    data = json_body()
    add, withdraw = data.get("add", []), data.get("withdraw", [])
    for field, value in (("add", add), ("withdraw", withdraw)):
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise Refusal(field, N_("{what} is a list of names."), what=field)
    rounds.change_players(event, add, withdraw, based_on=if_match(event), by=directing(event))
    response = jsonify(director_document(event))
    response.set_etag(str(event.version))
    return response


@bp.post("/events/<event_id>/rounds/<int:number>/tables/<int:table_number>/confirm")
def confirm(event_id: str, number: int, table_number: int) -> ResponseReturnValue:
    """A player of the side that did not win confirms the table's result (``{"by": "Cy"}``), with
    the table's edit key; or a director for the table, with ``"reason"`` (kept in the history):
    200 the table as the event document shows it."""
    event = event_or_404(event_id)
    found = confirming.find_table(event, number, table_number) if number < 10_000 else None
    game = db.session.get(Game, found[1].game_id) if found is not None else None
    if found is None or game is None:
        raise Missing(None, N_("No such table in this event."))
    if not role_for(game).editable:
        raise Denied(
            None,
            N_("This call needs the table's edit key (or the director's): Authorization: Bearer <edit_key>."),
        )
    rnd, table = found
    data = json_body()
    director = None
    if "reason" in data and may().direct_event(event):
        director = directing(event)
    confirming.confirm_table(event, table, data.get("by"), director=director, reason=data.get("reason"))
    doc = service.document(event)
    return jsonify(doc["rounds"][rnd.number - 1]["tables"][table.number - 1]), 200


@bp.post("/events/<event_id>/arrivals")
@limits.limit("joins")  # the same abuse limits as joining a club (events.md, Seating)
def arrivals(event_id: str) -> ResponseReturnValue:
    """A player checks in at the door with the event's check-in link (``{"name", "token"}``):
    201 ``{"name", "from_round"}``; 409 a name on the list already, or the event finished;
    404 a wrong token (it counts as a failed credential), or an event without check-in."""
    event = event_or_404(event_id)
    data = json_body()
    token = data.get("token")
    if not isinstance(token, str) or not limits.credential(
        token, lambda t: door.check_in_token_matches(event, t)
    ):
        raise Missing(None, N_("No such event."))
    return jsonify(door.arrive(event, data.get("name"), by="check-in")), 201


@bp.delete("/events/<event_id>/arrivals/<name>")
def remove_arrival(event_id: str, name: str) -> ResponseReturnValue:
    """The director removes a wrong or doubled arrival: 200 the event document."""
    event = event_or_404(event_id)
    director_only(event)
    door.remove_arrival(event, name, by=directing(event))
    response = jsonify(director_document(event))
    response.set_etag(str(event.version))
    return response
