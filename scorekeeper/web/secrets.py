"""Secrets' own pages: Hidden Secrets' allotments, the players' private links and reports.

- ``GET /g/<id>/secrets/links`` (game master): each player's private link, as a
  link and a QR code, and whether his allotment is in.
- ``/g/<id>/secrets/allot/<seat>`` (game master): type a player's allotment
  before turn 1 (the form never shows the values back).
- ``/g/<id>/p/<seat>/<token>``: one player's private page: his own allotment
  form before turn 1, then his private report (:func:`private_report`). The
  token is an HMAC of the game, the seat and the app's secret key: nothing is
  stored, and nobody can guess another player's link.

The turn reports (public, or a seat's private ones) come with the page's
:class:`~scorekeeper.read.GameView` (``view.reports``), made by the read side.
"""

from __future__ import annotations

from contextlib import suppress
from dataclasses import replace
from typing import Any

from flask import Blueprint, abort, flash, make_response, redirect, render_template, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from .. import read, service
from ..games.secrets.form import AllotmentForm
from ..games.secrets.rules import HIDDEN_SECRETS
from ..models import Game
from ..rules import InvalidFacts
from .auth import game_route, private_token, role
from .common import form_via, stamp_form
from .games import page_context
from .templating import qr_svg

bp = Blueprint("secrets", __name__, url_prefix="/g")


def private_url(game: Game, seat: int) -> str:
    return url_for(".private", game_id=game.id, seat=seat, token=private_token(game, seat), _external=True)


def hidden_only(game: Game) -> None:
    """A plain game has nothing private: its private pages are not there."""
    if not service.game_rules(game).has_private_pages(service.setup_of(game)):
        abort(404)


def waiting(game: Game) -> tuple[int, ...]:
    return service.game_rules(game).waiting_seats(game.options, len(game.players))


def private_page(response: Any, referrer: bool = True) -> Any:
    """Pages with private values or links: never cached. Their address goes as a Referer only
    to this site (the security headers' default), which its forms need: over HTTPS, Flask-WTF
    checks the Referer; a page of links with no form sends none (``referrer`` false)."""
    response = make_response(response)
    response.headers["Cache-Control"] = "no-store"
    if not referrer:
        response.headers["Referrer-Policy"] = "no-referrer"
    return response


# -- allotments -------------------------------------------------------------------
def save_allotment(game: Game, seat: int, row: list[Any]) -> None:
    """Store ``seat``'s ten values before turn 1; raise :class:`InvalidFacts` with the rules' refusal."""
    # Each player writes his own row: a write made meanwhile by another is no conflict.
    with suppress(service.AlreadyDone):  # this very submission was saved before
        service.set_allotment(game, seat, row, replace(form_via(), version=None))


def has_allotment(game: Game, seat: int) -> bool:
    return seat not in waiting(game)


@bp.route("/<game_id>/secrets/allot/<int:seat>", methods=["GET", "POST"])
@game_route()
def allot(game: Game, seat: int) -> ResponseReturnValue:
    """The game master types one player's allotment (before turn 1)."""
    hidden_only(game)
    if not role().editable:
        abort(403)
    if not 0 <= seat < len(game.players):
        abort(404)
    form = stamp_form(AllotmentForm.build(), game)
    status = 200
    if form.validate_on_submit():
        try:
            save_allotment(game, seat, form.row())
        except InvalidFacts as exc:
            form.apply_errors(exc.errors)
            status = 422
        else:
            flash(_("%(name)s's allotment is saved.", name=game.players[seat]), "ok")
            return redirect(url_for("games.show", game_id=game.id, _anchor="entry"), 303)
    elif form.is_submitted():
        status = 422
    else:
        # Typed values are never shown back: this form always starts empty.
        form = stamp_form(AllotmentForm.build(), game, fresh=True)
    page = render_template(
        "games/secrets/allot.html",
        game=game,
        kind=service.game_rules(game),
        seat=seat,
        form=form,
        entered=has_allotment(game, seat),
        started=bool(game.deals),
    )
    return private_page((page, status))


@bp.get("/<game_id>/secrets/links")
@game_route()
def links(game: Game) -> ResponseReturnValue:
    """Each player's private link and QR code, for the game master to hand out."""
    hidden_only(game)
    if not role().editable:
        abort(403)
    still = waiting(game)
    players = [
        {
            "seat": seat,
            "name": name,
            "url": private_url(game, seat),
            "qr": qr_svg(private_url(game, seat), _("%(name)s's private report", name=name), "sx-qr"),
            "entered": seat not in still,
        }
        for seat, name in enumerate(game.players)
    ]
    page = render_template(
        "games/secrets/links.html",
        game=game,
        kind=service.game_rules(game),
        players=players,
        started=bool(game.deals),
    )
    return private_page(page, referrer=False)


@bp.route("/<game_id>/p/<int:seat>/<token>", methods=["GET", "POST"])
@game_route(seat_link=True)
def private(game: Game, seat: int, token: str) -> ResponseReturnValue:
    """One player's private page: his allotment before turn 1, then what only he knows."""
    hidden_only(game)
    self_url = url_for(".private", game_id=game.id, seat=seat, token=token)
    form = None
    status = 200
    if not game.deals:
        form = stamp_form(AllotmentForm.build(), game)
        if form.validate_on_submit():
            try:
                save_allotment(game, seat, form.row())
            except InvalidFacts as exc:
                form.apply_errors(exc.errors)
                status = 422
            else:
                flash(_("Your allotment is saved. You can change it until turn 1 is resolved."), "ok")
                return redirect(self_url, 303)
        elif form.is_submitted():
            status = 422
        else:
            row = game.options.get("values") or []
            own = row[seat] if seat < len(row) else None
            data = {f"v_{s}": v for s, v in zip(HIDDEN_SECRETS, own or [], strict=False)}
            form = stamp_form(AllotmentForm.build(data), game, fresh=True)
    elif game.options.get("values") is None or None in game.options["values"]:
        abort(404)  # cannot be: turns need every allotment
    view = read.game_view(game, role())
    page = render_template(
        "games/secrets/private.html",
        **page_context(game, view),
        seat=seat,
        form=form,
        report=view.reports if not view.waiting else None,
        action=self_url,
        entered=has_allotment(game, seat),
    )
    return private_page((page, status))
