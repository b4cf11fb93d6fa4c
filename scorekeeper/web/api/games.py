"""The JSON API of ``shared/spec/game-record.md``: create/import, export, append, replace, delete.

Additions to the spec, all optional (a client that sends none works as before):
every answer about a game carries ``ETag: "<version>"``; ``GET`` with
``If-None-Match`` answers 304 without scoring anything; a write with
``If-Match: "<version>"`` is refused with 409 (and the newer record) when the
game has changed since; a write with ``Idempotency-Key: <8-64 URL-safe
characters>`` is done once: repeating it answers the record, writing nothing.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from collections.abc import Callable
from contextlib import suppress
from dataclasses import replace

from flask import Blueprint, Response, abort, current_app, jsonify, request, url_for
from flask.typing import ResponseReturnValue
from sqlalchemy import select

from ... import limits, read, service
from ...db import db
from ...keys import key_matches
from ...models import AnyGame, Game
from ...refusals import Clash, Missing, Refusal
from ...rules import N_, GameResult
from .. import jsonbody
from ..auth import game_route, presented_key, private_token, role, seat_link_ok, viewer
from ..devices import device_label
from ..etags import bare_etag
from ..loading import GAME_ID
from ..via import api_via, idempotency_key
from .game_json import record_json

bp = Blueprint("api", __name__, url_prefix="/api")
NEEDS_KEY = N_("This call needs the game's edit key: Authorization: Bearer <edit_key>.")


def json_body() -> dict:
    return jsonbody.json_body(required=True)


@bp.post("/games")
@limits.limit("games")
def create_game() -> ResponseReturnValue:
    """Create a game from a record (an import when it has deals); ``"club": "<slug>"`` makes it
    that club's game (a member's call: ``Bearer <member_key>``), else it is personal."""
    data = json_body()
    # Read before anything is judged: a malformed key is refused whatever the body.
    idempotency = idempotency_key()
    club_id = None
    if "club" in data:
        data = dict(data)
        slug = data.pop("club")
        membership = viewer().in_club(slug) if isinstance(slug, str) else None
        if membership is None:
            # viewer() tested the Bearer as a member key: a wrong one counted there.
            # Not a member (or no such club): the same answer either way.
            raise Missing(
                "club", N_("No such club among yours: its member_key goes in the Authorization header.")
            )
        club_id = membership.club_id
    # A Hidden Secrets game may come without values: turn 1 then waits for every seat's
    # allotment (spec "Seat entry"), sent from the seats' phones.
    game_rules, setup, deals, result = service.check_record(data, waiting_ok=True)
    # The club is part of the call: the same record for another club is another call.
    token, key, game_id = creation_token(idempotency, {"record": data, "club": club_id})
    via = service.Via(token=token, device=f"API · {device_label(request.user_agent.string)}")
    try:
        game, key = service.create_game(
            game_rules, setup, deals, via, result, key=key, club_id=club_id, game_id=game_id
        )
    except service.AlreadyDone as done:
        return created_before(done, key, game_id)
    record = read.public_record(game)
    record["edit_key"] = key
    limits.handed(key)  # answered to the address that made the game: its first deal is never refused
    return jsonify(record), 201


def creation_caller() -> str:
    """Who makes a game through the API, as its Idempotency-Key's repeat must show it again: the
    credential it carries (``Authorization``; a club's game needs its member key), else its
    address. The API never reads the cookies a browser sends on its own (auth.presented_key)."""
    bearer = presented_key()
    return f"bearer:{bearer}" if bearer else f"address:{limits.client_address()}"


def creation_token(idempotency: str | None, data: object) -> tuple[str | None, str | None, str | None]:
    """The creation's token, the game's edit key and its id, for a ``POST /api/games`` with an
    ``Idempotency-Key`` (else none: a random key and id).

    Derived from the server's secret, as the new-game form's key is from its token, so a repeat
    finds them with nothing stored to find them by: the id from the Idempotency-Key and the body
    (the same call's repeat finds the game it made; another body under the same key, another
    id: 409), the key from those and the caller too (:func:`creation_caller`), so only the one
    who made the game is answered its key (issue 57, N3). The token stored is a digest of the
    Idempotency-Key (unique among creations in the database): one game however many copies race.
    """
    if idempotency is None:
        return None, None, None
    body = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    secret = str(current_app.secret_key or "").encode()
    caller = creation_caller()
    key = hmac.new(secret, f"api-create:{caller}:{idempotency}:{body}".encode(), hashlib.sha256).hexdigest()[
        :32
    ]
    made = hmac.new(secret, f"api-create-id:{idempotency}:{body}".encode(), hashlib.sha256).digest()[:12]
    game_id = base64.urlsafe_b64encode(made).decode()
    if game_id.startswith("-"):  # as service.new_id: never read as an option by a shell command
        game_id = "A" + game_id[1:]
    token = "api-" + hashlib.blake2b(idempotency.encode(), digest_size=24).hexdigest()
    return token, key, game_id


def created_before(done: service.AlreadyDone, key: str | None, game_id: str | None) -> ResponseReturnValue:
    """A repeated ``POST /api/games`` (``Idempotent-Replayed: true``): the first answer (201, the
    record as it is now with the same edit key) when the caller and the body are the same; the
    record without its edit key when the same call comes from another caller (it is not theirs
    to score); 409 when the Idempotency-Key made a game from another body."""
    game = db.session.get(Game, done.change.game_id)
    if game is None or key is None or game_id is None or game.id != game_id:
        raise Clash(
            "Idempotency-Key",
            N_("This Idempotency-Key already made a game from another record: send a new key."),
        )
    record = read.public_record(game)
    if key_matches(game.edit_key_hash, key):
        record["edit_key"] = key
        limits.handed(key)
    response = jsonify(record)
    response.status_code = 201
    response.headers["Idempotent-Replayed"] = "true"
    return response


def record_response(game: AnyGame, status: int) -> Response:
    # A write's result was kept by the write gate that computed it: the record reads it back.
    response = current_app.response_class(
        record_json(game) + "\n", status=status, mimetype="application/json"
    )
    response.set_etag(str(game.version))
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/games/<game_id>")
def export_game(game_id: str) -> ResponseReturnValue:
    """The game record with every derived field; 304 when the client's copy is current."""
    if GAME_ID.fullmatch(game_id) and request.if_none_match:
        # Only the version is read: an unchanged game costs one small query and no scoring.
        row = db.session.execute(
            select(Game.version, Game.deleted_at).where(Game.id == game_id)
        ).one_or_none()
        sent = {bare_etag(t) for t in request.if_none_match.as_set()}
        if row is not None and row.deleted_at is None and str(row.version) in sent:
            response = Response(status=304)
            response.set_etag(str(row.version))
            response.headers["Cache-Control"] = "no-cache"
            return response
    return record_of(game_id)


@game_route(lean=True)
def record_of(game: AnyGame) -> Response:
    return record_response(game, 200)


def write(game: AnyGame, status: int, change: Callable[[service.Via], GameResult]) -> ResponseReturnValue:
    """Run one write with the request's If-Match and Idempotency-Key; answer the record. (A
    refusal, a stale If-Match's 409 with the newer record included, is web.errors' to answer.)"""
    via = api_via(game)
    try:
        change(via)
    except service.AlreadyDone:
        response = record_response(game, status)
        response.headers["Idempotent-Replayed"] = "true"
        return response
    return record_response(game, status)


@bp.post("/games/<game_id>/deals")
@game_route(scorer=True, message=NEEDS_KEY, lean=True)
def append_deal(game: AnyGame) -> ResponseReturnValue:
    """Append one deal's (or turn's) facts."""
    facts = deal_body(game)
    return write(game, 201, lambda via: service.append_deal(game, facts, via))


@bp.put("/games/<game_id>/deals/<int:k>")
@game_route(scorer=True, message=NEEDS_KEY)
def replace_deal(game: Game, k: int) -> ResponseReturnValue:
    """Replace deal k's facts; later deals are rescored."""
    existing(game, k)
    facts = deal_body(game)
    return write(game, 200, lambda via: service.replace_deal(game, k, facts, via))


@bp.delete("/games/<game_id>/deals/<int:k>")
@game_route(scorer=True, message=NEEDS_KEY)
def delete_deal(game: Game, k: int) -> ResponseReturnValue:
    """Remove deal k."""
    existing(game, k)
    return write(game, 200, lambda via: service.delete_deal(game, k, via))


def deal_body(game: AnyGame) -> dict:
    body = json_body()
    if "reason" in body and read.event_of(game.id) is not None:
        # At an event's table, a director's reason for a correction (api_via takes it): no fact.
        body = {k: v for k, v in body.items() if k != "reason"}
    return body


def existing(game: Game, k: int) -> None:
    if not 0 <= k < len(game.deals):
        raise Missing(None, N_("This game has no deal {k}."), k=k)


@bp.get("/games/<game_id>/seats")
@game_route(scorer=True, message=NEEDS_KEY)
def seat_links(game: Game) -> ResponseReturnValue:
    """Spec "Seat entry": each seat's private link and the token its phone calls with (scorer only)."""
    seats = []
    for seat in range(len(game.players)):
        token = private_token(game, seat)
        link = url_for("secrets.private", game_id=game.id, seat=seat, token=token, _external=True)
        seats.append({"seat": seat, "link": link, "token": token})
    return jsonify({"seats": seats})


def seat_or_scorer(game: Game, seat: int) -> None:
    """Spec "Seat entry": that seat (its token as Bearer) or the scorer for a player without a
    phone. A seat's token opens its own seat only: another seat's answers 404, as a seat that is
    not there does; a caller with no credential of this game at all is refused like any write (403)."""
    key = presented_key() or ""
    if not 0 <= seat < len(game.players):
        abort(404)
    if not role().editable and seat_link_ok(game, seat, key):
        limits.right_credential(key)  # a seat's token: no failure, whatever role_for found
    if not (role().editable or seat_link_ok(game, seat, key)):
        if any(seat_link_ok(game, other, key) for other in range(len(game.players))):
            abort(404)
        if key:  # neither the game's key nor a seat's (game_route tested it under the limit)
            limits.failed_credential(key)
        abort(403, description=NEEDS_KEY)


@bp.put("/games/<game_id>/orders/<int:seat>")
@game_route(other_keys=True)
def put_orders(game: Game, seat: int) -> ResponseReturnValue:
    """Spec "Seat entry": one seat's orders and guard for the turn being collected. 202 with the
    turn and the seats still to send; the last one in records the turn, as the scorer would."""
    seat_or_scorer(game, seat)
    if not service.game_rules(game).takes_seat_orders(service.setup_of(game)):
        abort(404)
    turn, waiting = service.send_orders(game, seat, json_body(), replace(api_via(game), version=None))
    response = jsonify({"turn": turn, "waiting": waiting})
    response.status_code = 202
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.put("/games/<game_id>/allotment/<int:seat>")
@game_route(other_keys=True)
def put_allotment(game: Game, seat: int) -> ResponseReturnValue:
    """Spec "Seat entry": a seat (its token as Bearer) or the scorer stores that seat's allotment.

    A seat's token opens its own seat only: another seat's answers 404, as a seat that is not
    there does. A caller with no credential of this game at all is refused like any write (403)."""
    seat_or_scorer(game, seat)
    if not service.game_rules(game).takes_seat_allotments(service.setup_of(game)):
        abort(404)
    body = json_body()
    if not isinstance(body.get("values"), list):
        raise Refusal("values", N_("Send the ten values of secrets A to J."))
    # The seat's own row only: another seat's write meanwhile is no conflict.
    with suppress(service.AlreadyDone):
        service.set_allotment(game, seat, body["values"], replace(api_via(game), version=None))
    return Response(status=204)
