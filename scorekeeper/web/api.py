"""The JSON API of ``shared/spec/game-record.md``: create/import, export, append, replace, delete."""

from __future__ import annotations

from flask import Blueprint, abort, jsonify, request
from flask.typing import ResponseReturnValue

from .. import service
from ..models import Game
from ..rules import N_, FieldError, InvalidFacts, msg
from .common import can_edit, load_game

bp = Blueprint("api", __name__, url_prefix="/api")


def errors_response(errors: tuple[FieldError, ...] | list[FieldError]) -> ResponseReturnValue:
    return jsonify({"errors": [e.as_json() for e in errors]}), 422


def json_body() -> object:
    body = request.get_json(silent=True)
    if body is None:
        abort(400, description="The body must be JSON.")
    return body


def editable_game(game_id: str) -> Game:
    game = load_game(game_id)
    if not can_edit(game):
        abort(403, description="This call needs the game's edit key: Authorization: Bearer <edit_key>.")
    return game


@bp.post("/games")
def create_game() -> ResponseReturnValue:
    """Create a game from a record (an import when it has deals)."""
    try:
        game_rules, setup, deals = service.parse_record(json_body())
    except InvalidFacts as exc:
        return errors_response(exc.errors)
    game, key = service.create_game(game_rules, setup, deals)
    record = service.export_record(game)
    record["edit_key"] = key
    return jsonify(record), 201


@bp.get("/games/<game_id>")
def export_game(game_id: str) -> ResponseReturnValue:
    """The game record with every derived field."""
    return jsonify(service.export_record(load_game(game_id)))


@bp.post("/games/<game_id>/deals")
def append_deal(game_id: str) -> ResponseReturnValue:
    """Append one deal's (or turn's) facts."""
    game = editable_game(game_id)
    try:
        result = service.append_deal(game, deal_body())
    except InvalidFacts as exc:
        return errors_response(exc.errors)
    return jsonify(service.export_record(game, result)), 201


@bp.put("/games/<game_id>/deals/<int:k>")
def replace_deal(game_id: str, k: int) -> ResponseReturnValue:
    """Replace deal k's facts; later deals are rescored."""
    game = editable_game(game_id)
    existing(game, k)
    try:
        result = service.replace_deal(game, k, deal_body())
    except InvalidFacts as exc:
        return errors_response(exc.errors)
    return jsonify(service.export_record(game, result)), 200


@bp.delete("/games/<game_id>/deals/<int:k>")
def delete_deal(game_id: str, k: int) -> ResponseReturnValue:
    """Remove deal k."""
    game = editable_game(game_id)
    existing(game, k)
    try:
        result = service.delete_deal(game, k)
    except InvalidFacts as exc:
        return errors_response(exc.errors)
    return jsonify(service.export_record(game, result)), 200


def deal_body() -> dict:
    body = json_body()
    if not isinstance(body, dict):
        raise InvalidFacts([FieldError("deals", msg(N_("A deal's facts must be a JSON object.")))])
    return body


def existing(game: Game, k: int) -> None:
    if not 0 <= k < len(game.deals):
        abort(404, description=f"This game has no deal {k}.")
