"""The clubs' JSON API (clubs.md, JSON API). Members call with ``Authorization: Bearer <member_key>``.

A club the caller is not a member of answers 404, the same as one that does not exist; errors
are ``{"errors": [{"field", "message"}]}`` as everywhere in the API.
"""

from __future__ import annotations

from flask import Blueprint, abort, jsonify, request
from flask.typing import ResponseReturnValue
from sqlalchemy import select
from sqlalchemy.orm import lazyload

from ... import limits, read
from ...access import REFUSED, Membership, club_games
from ...clubs import ratings, roster, service
from ...db import db
from ...games import GAMES
from ...models import Club, Game, Member
from ...refusals import Clash, Denied, Missing
from ...rules.base import N_
from ..auth import club_route, presented_key, viewer
from ..clubs.pages import creation_allowed
from ..devices import device_label
from ..jsonbody import json_body

bp = Blueprint("clubs_api", __name__, url_prefix="/api/clubs")


def by(me: Membership) -> Member:
    """The caller's member row, which the service judges again inside its change."""
    member = db.session.get(Member, me.member_id)
    if member is None:
        raise Missing(None, N_("No such club."))
    return member


def label() -> str:
    return f"API · {device_label(request.user_agent.string)}"


@bp.post("")
@limits.limit("clubs")
def create() -> ResponseReturnValue:
    """Make a club: its owner is the caller (``"player"``: their name in it, "Owner" if left out)."""
    key = presented_key()
    if key:
        limits.check_credentials(key)
    if not creation_allowed(key):
        if key:
            limits.failed_credential(key)
            abort(404)
        raise Denied(None, N_("Making a club on this server needs the operator's ADMIN_KEY as Bearer."))
    data = json_body()
    made = service.create_club(data.get("name"), data.get("player"), label())
    limits.handed(made.key)  # the new owner's key, answered to this address
    return jsonify(
        {
            "slug": made.club.slug,
            "name": made.club.name,
            "member_key": made.key,
            "role": "owner",
            "player": made.member.name,
            "invite": made.invite,
        }
    ), 201


@bp.post("/<slug>/join")
@limits.limit("joins")
def join(slug: str) -> ResponseReturnValue:
    data = json_body()
    club = db.session.scalar(select(Club).where(Club.slug == slug)) if service.SLUG.fullmatch(slug) else None
    token = data.get("invite")
    limits.check_credentials(token if isinstance(token, str) else None)
    if club is None or not isinstance(token, str) or service.live_invite(club, token) is None:
        limits.failed_credential(token if isinstance(token, str) else None)
        raise Missing(None, N_("No such club, or the invite is wrong, revoked or expired."))
    if presented_key() and viewer().of(club.id) is not None:
        # The caller's key is this club's already: one device joins a club once, under one name.
        raise Clash(None, N_("This device is a member of {club} already."), club=club.name)
    limits.right_credential(token)
    member, key = service.join(club, token, data.get("name"), label())
    limits.handed(key)  # answered to the device whose invite was just tested
    return jsonify({"member_key": key, "role": member.role, "player": member.name}), 201


@bp.get("/<slug>")
@club_route()
def show(club: Club, me: Membership) -> ResponseReturnValue:
    return jsonify(
        {
            "slug": club.slug,
            "name": club.name,
            "role": me.role,
            "player": me.name,
            "members": [{"name": m.name, "role": m.role} for m in service.members(club)],
            "players": service.players(club),
        }
    )


@bp.post("/<slug>/invites")
@club_route("admin", REFUSED["invites"])
def make_invite(club: Club, me: Membership) -> ResponseReturnValue:
    data = json_body()
    token = service.make_invite(club, data.get("role", "member"), data.get("expires"), by(me))
    return jsonify({"invite": token}), 201


@bp.delete("/<slug>/invites/<token>")
@club_route("admin", REFUSED["invites"])
def revoke_invite(club: Club, me: Membership, token: str) -> ResponseReturnValue:
    service.revoke_invite(club, token, by(me))
    return "", 204


@bp.delete("/<slug>/members/<name>")
@club_route("admin", REFUSED["remove"])
def remove_member(club: Club, me: Membership, name: str) -> ResponseReturnValue:
    service.remove_member(club, name, by(me))
    return "", 204


@bp.get("/<slug>/games")
@club_route()
def games(club: Club, me: Membership) -> ResponseReturnValue:
    rows = db.session.scalars(club_games(viewer(), club.id).options(lazyload(Game.deals)).limit(500)).all()
    return jsonify(
        {
            "games": [
                {
                    "id": game.id,
                    "game": game.kind,
                    "players": game.players,
                    "finished": summary.finished,
                    "updated": game.updated_at.isoformat(timespec="seconds") + "Z",
                }
                for game, summary in read.list_views(rows)
            ]
        }
    )


@bp.get("/<slug>/ratings")
@club_route()
def club_ratings(club: Club, me: Membership) -> ResponseReturnValue:
    game = request.args.get("game") or None
    if game is not None and game not in GAMES:
        raise Missing(
            "game",
            N_("No game called {game}: one of {games}."),
            game=repr(game),
            games=", ".join(sorted(GAMES)),
        )
    board = roster.club_ratings(club.id, game)
    response = jsonify(ratings.as_api(board, game, roster.private_names(club.id)))
    response.headers["Cache-Control"] = "no-cache"
    return response
