"""A game's end and afterlife: rematch, a new game with the same players, archiving.

- ``POST /g/<id>/rematch`` (scorer): the same players in the same seats, the
  same options, the next first dealer: one tap, through the service.
- ``GET /g/<id>/again``: the new-game form filled in from this game (the last
  seating remembered), to change something before starting.
- ``POST /g/<id>/archive`` and ``/unarchive`` (scorer): the game leaves the
  home page (and the ratings) without being deleted; through the write gate,
  so the history lists it and undo reverses it.
"""

from __future__ import annotations

from contextlib import suppress
from dataclasses import replace
from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from ... import limits, plugins, read, service
from ...clubs import roster
from ...clubs.service import remember_game
from ...db import db
from ...forms import new_game_form
from ...models import Game
from ...rules.base import check_setup
from ..auth import game_route, may, role, viewer
from ..cookies import remember_key
from ..form_tokens import form_token
from ..via import form_via
from .made_keys import made_key, remember_made

bp = Blueprint("ends", __name__, url_prefix="/g")


@bp.post("/<game_id>/rematch")
@limits.limit("games")
@game_route(scorer=True)
def rematch(game: Game) -> ResponseReturnValue:
    """Start the next game at this table: the scorer's device scores it too."""
    if not may().end_game(read.event_of(game.id) is not None):
        abort(403)
    via = form_via()
    again = service.created_by(via.token)
    if again is not None:
        # A double tap: the rematch is already there.
        return remember_made(redirect(url_for("games.show", game_id=again.id), 303), again, via.token)
    nxt = read.game_view(game, role()).next_game
    kind = service.game_rules(game)
    errors, setup = check_setup(kind, list(nxt.players), dict(nxt.options), nxt.first_dealer)
    plugin = plugins.get(game.kind)
    later = plugin.setup_later if plugin else None
    if setup is None and later is not None:
        setup = later(kind, list(nxt.players), dict(nxt.options), nxt.first_dealer)
    if setup is None:
        # The rules changed since (an option retired): the form shows what to fix.
        return again_page(game, 422)
    # The rematch is the same table's: the same club (or personal), and on this device's list.
    try:
        row, key = service.create_game(kind, setup, via=via, key=made_key(via.token), club_id=game.club_id)
    except service.AlreadyDone as done:
        made = db.session.get(Game, done.change.game_id)
        if made is None:
            abort(404)
        return remember_made(redirect(url_for("games.show", game_id=made.id), 303), made, via.token)
    remember_game(via.device_id, row.id)
    flash(_("Rematch: a new game with the same players and options."), "ok")
    return remember_key(redirect(url_for("games.show", game_id=row.id), 303), row, key)


def may_see_club_players(club_id: int | None) -> bool:
    """clubs.md "Who sees what": a club's players list is its members' only. Whoever opens one of
    its games by the link sees that game, never the club's names (no suggestions, no datalist)."""
    return club_id is not None and viewer().of(club_id) is not None


def again_page(game: Game, status: int = 200) -> ResponseReturnValue:
    nxt = read.game_view(game, role()).next_game
    kind = service.game_rules(game)
    data: dict[str, Any] = {f"players_{s}": name for s, name in enumerate(nxt.players)}
    data["first_dealer"] = nxt.first_dealer
    by_key = {o.key: o for o in kind.options}
    for key, value in nxt.options.items():
        option = by_key[key]
        data[f"opt_{key}"] = str(value) if option.kind == "choice" else value
    me = viewer()
    mine = me.of(game.club_id)
    club = mine.slug if mine is not None else ""
    form = new_game_form(
        kind, max(kind.player_counts), data, clubs=[(m.slug, m.club_name) for m in me.memberships], club=club
    )
    action = url_for("main.new", kind=kind.key)
    page = render_template(
        "new_game.html",
        game=kind,
        form=form,
        known_names=roster.regular_names(game.club_id) if may_see_club_players(game.club_id) else [],
        action=action,
        submit_token=form_token(),
    )
    return page, status


@bp.get("/<game_id>/again")
@game_route()
def again(game: Game) -> ResponseReturnValue:
    """The new-game form with this game's players, seating and options filled in."""
    return again_page(game)


def set_archived(game: Game, archived: bool) -> ResponseReturnValue:
    # Archiving does not depend on the deals: it applies to the newest state, whatever the page saw.
    via = replace(form_via(), version=None)
    with suppress(service.AlreadyDone, service.CannotUndo):  # already so: say so again
        service.archive_game(game, archived, via)
    if archived:
        # Home shows the archived game's name with an Undo right where it was.
        return redirect(url_for("main.index", archived=game.id), 303)
    flash(_("Game brought back to the home page."), "ok")
    back = request.form.get("back")
    if back == "games":
        return redirect(url_for("records.list_games", archived=1), 303)
    return redirect(url_for("main.index"), 303)


@bp.post("/<game_id>/archive")
@game_route(scorer=True)
def archive(game: Game) -> ResponseReturnValue:
    """Hide the game from the home page; it stays listed under /games."""
    return set_archived(game, True)


@bp.post("/<game_id>/unarchive")
@game_route(scorer=True)
def unarchive(game: Game) -> ResponseReturnValue:
    """Bring an archived game back to the home page (the undo of archiving)."""
    return set_archived(game, False)
