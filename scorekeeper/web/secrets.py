"""Secrets' own pages: Hidden Secrets' allotments, the players' private links and reports.

- ``GET /g/<id>/secrets/links`` (game master): each player's private link, as a
  link and a QR code, and whether his allotment is in.
- ``/g/<id>/secrets/allot/<seat>`` (game master): type a player's allotment
  before turn 1 (the form never shows the values back).
- ``/g/<id>/p/<seat>/<token>``: one player's private page: his own allotment
  form before turn 1, then his private report (:func:`private_report`). The
  token is an HMAC of the game, the seat and the app's secret key: nothing is
  stored, and nobody can guess another player's link.

The game page's public report comes from :func:`secrets_report` (a template
global), which always applies :func:`public_report`: whatever result a page
was given, it shows only what everybody may know.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from contextlib import suppress
from dataclasses import replace
from typing import Any

from flask import Blueprint, abort, current_app, flash, make_response, redirect, render_template, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from markupsafe import Markup

from .. import service
from ..forms.secrets import AllotmentForm, waiting_seats
from ..models import Game
from ..rules import FieldError, InvalidFacts
from ..rules.base import N_, msg
from ..rules.secrets import (
    HIDDEN_SECRETS,
    OUTCOME_NAMES,
    SPY_NAMES,
    is_hidden,
    private_report,
    public_report,
)
from .common import form_via, load_game, require_edit, stamp_form
from .present import public_result

bp = Blueprint("secrets", __name__, url_prefix="/g")

SPY_MARKS = {"club": "♣", "diamond": "♦", "heart": "♥", "spade": "♠"}


# -- private links ----------------------------------------------------------------
def private_token(game: Game, seat: int) -> str:
    """The unguessable part of ``seat``'s private link (128 bits of an HMAC)."""
    key = current_app.secret_key
    key = key if isinstance(key, bytes) else str(key).encode()
    digest = hmac.new(key, f"secrets-private:{game.id}:{seat}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:16]).rstrip(b"=").decode()


def private_url(game: Game, seat: int) -> str:
    return url_for(".private", game_id=game.id, seat=seat, token=private_token(game, seat), _external=True)


def hidden_game(game_id: str) -> Game:
    """A Hidden Secrets game, or 404 (a plain game has nothing private)."""
    game = load_game(game_id)
    if game.kind != "secrets" or not is_hidden(service.setup_of(game)):
        abort(404)
    return game


def private_page(response: Any, referrer: bool = True) -> Any:
    """Pages with private values or links: never cached. Their address goes as a Referer only
    to this site (the security headers' default), which its forms need: over HTTPS, Flask-WTF
    checks the Referer; a page of links with no form sends none (``referrer`` false)."""
    response = make_response(response)
    response.headers["Cache-Control"] = "no-store"
    if not referrer:
        response.headers["Referrer-Policy"] = "no-referrer"
    return response


def qr_code(url: str, title: str = "") -> Markup | None:
    """``url`` as an inline SVG QR code, or None where segno is not installed (the link text remains)."""
    try:
        import segno
    except ImportError:  # pragma: no cover - segno is optional
        return None
    code = segno.make(url, error="m", micro=False)
    return Markup(
        code.svg_inline(
            scale=1, border=4, dark="#000", light="#fff", omitsize=True, svgclass="sx-qr", title=title
        )
    )


# -- allotments -------------------------------------------------------------------
def save_allotment(game: Game, seat: int, row: list[Any]) -> None:
    """Store ``seat``'s ten values before turn 1; raise :class:`InvalidFacts` with the rules' refusal."""

    def revise(options: dict[str, Any]) -> dict[str, Any]:
        if game.deals:
            raise InvalidFacts(
                [
                    FieldError(
                        "values",
                        msg(N_("The allotments are fixed once turn 1 is resolved.")),
                        seat=seat,
                    )
                ]
            )
        n = len(game.players)
        values = options.get("values")
        values = list(values) if isinstance(values, list) and len(values) == n else [None] * n
        values[seat] = row
        options["values"] = values
        return options

    # Each player writes his own row: a write made meanwhile by another is no conflict.
    with suppress(service.AlreadyDone):  # this very submission was saved before
        service.set_options(game, revise, replace(form_via(), version=None))


def has_allotment(game: Game, seat: int) -> bool:
    return seat not in waiting_seats(game.options, len(game.players))


@bp.route("/<game_id>/secrets/allot/<int:seat>", methods=["GET", "POST"])
def allot(game_id: str, seat: int) -> ResponseReturnValue:
    """The game master types one player's allotment (before turn 1)."""
    game = hidden_game(game_id)
    require_edit(game)
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
def links(game_id: str) -> ResponseReturnValue:
    """Each player's private link and QR code, for the game master to hand out."""
    game = hidden_game(game_id)
    require_edit(game)
    waiting = waiting_seats(game.options, len(game.players))
    players = [
        {
            "seat": seat,
            "name": name,
            "url": private_url(game, seat),
            "qr": qr_code(private_url(game, seat), _("%(name)s's private report", name=name)),
            "entered": seat not in waiting,
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
def private(game_id: str, seat: int, token: str) -> ResponseReturnValue:
    """One player's private page: his allotment before turn 1, then what only he knows."""
    game = hidden_game(game_id)
    if not 0 <= seat < len(game.players) or not hmac.compare_digest(
        token.encode(), private_token(game, seat).encode()
    ):
        abort(404)
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
    report = secrets_report(game, seat) if not waiting_seats(game.options, len(game.players)) else None
    page = render_template(
        "games/secrets/private.html",
        game=game,
        kind=service.game_rules(game),
        result=public_result(service.game_rules(game), service.score(game)),
        seat=seat,
        form=form,
        report=report,
        action=self_url,
        entered=has_allotment(game, seat),
    )
    return private_page((page, status))


# -- for the templates ------------------------------------------------------------
@bp.app_template_global()
def secrets_report(game: Game, seat: int | None = None) -> dict[str, Any]:
    """The public report of a Secrets game (or ``seat``'s private one), with the final standings.

    Rescored from the game's facts, and always redacted by the rules' helpers:
    a page may hand the template any result, it shows only what is allowed.
    """
    setup = service.setup_of(game)
    result = service.score(game)
    if seat is None or waiting_seats(setup.options, setup.n):
        # (Before every allotment is in there is no turn yet, and nothing private to add.)
        report = public_report(setup, result)
    else:
        report = private_report(setup, result, seat)
    report["planned"] = setup.options.get("turns", 5)
    report["winners"] = list(result.winners)
    report["standings"] = standings(result.totals, result.winners) if result.finished else []
    report["spies_left"] = (
        report["turns"][-1]["spies_left"]
        if report["turns"]
        else [["club", "diamond", "heart", "spade"] for _ in range(setup.n)]
    )
    return report


def standings(totals: tuple[int, ...], winners: tuple[int, ...]) -> list[dict[str, Any]]:
    """Seats from the highest score down, each with its rank (equal scores share a rank)."""
    order = sorted(range(len(totals)), key=lambda s: (-totals[s], s))
    return [
        {
            "seat": s,
            "total": totals[s],
            "rank": 1 + sum(1 for t in totals if t > totals[s]),
            "won": s in winners,
        }
        for s in order
    ]


@bp.app_template_global()
def secrets_words() -> dict[str, Any]:
    """Names and marks the Secrets templates show."""
    return {"spies": SPY_NAMES, "marks": SPY_MARKS, "outcomes": OUTCOME_NAMES, "letters": HIDDEN_SECRETS}


@bp.app_template_global()
def secrets_waiting(game: Game) -> list[str]:
    """Names of the players whose Hidden Secrets allotment is still to come."""
    return [game.players[s] for s in waiting_seats(game.options, len(game.players))]
