"""Secrets' own pages (declared here, in its folder; the web registers them, scorekeeper.games.pages): the players' consoles, their private links, Hidden Secrets' allotments.

- ``GET /g/<id>/secrets/links`` (game master): the seats, whose orders (or allotment) are in, and
  one seat's private link at a time, as a link and a QR code (``?seat=N``).
- ``/g/<id>/secrets/allot/<seat>`` (game master): type a player's allotment before turn 1 (the
  form never shows the values back).
- ``/g/<id>/secrets/orders/<seat>`` (game master): type one player's orders for a player without
  a phone (spec "Seat entry"); the form never shows what the seat sent.
- ``/g/<id>/p/<seat>/<token>``: one player's console: his allotment form before turn 1 (Hidden
  Secrets), then each turn his orders form (posted to ``…/orders``, through
  :func:`PAGES.web.service.send_orders`, as the API's seat entry), and what only he knows. ``…/live`` is
  what the console polls. The token is an HMAC of the game, the seat and the app's secret key:
  nothing is stored, and nobody can guess another player's link.

The turn reports (public, or a seat's private ones) come with the page's
:class:`~scorekeeper.read.GameView` (``view.reports``), made by the read side, and a seat's own
pending orders with its :class:`~scorekeeper.read.SeatConsole`.
"""

from __future__ import annotations

from contextlib import suppress
from dataclasses import replace
from typing import Any

from flask import (
    Response,
    abort,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import get_locale
from flask_babel import gettext as _

from ...forms.base import whole_arg
from ...models import Game
from ...rules import InvalidFacts
from ..pages import Pages
from .form import AllotmentForm, SeatOrdersForm
from .rules import HIDDEN_SECRETS

# Its pages, their blueprint's name kept ("secrets": url_for("secrets.private") is unchanged).
PAGES = Pages("secrets", url_prefix="/g")


def private_url(game: Game, seat: int) -> str:
    return url_for(
        ".private", game_id=game.id, seat=seat, token=PAGES.web.private_token(game, seat), _external=True
    )


def private_only(game: Game) -> None:
    """A game whose seats have no console of their own has none of these pages."""
    if not PAGES.web.service.game_rules(game).has_private_pages(PAGES.web.service.setup_of(game)):
        abort(404)


def takes_allotments(game: Game) -> bool:
    return PAGES.web.service.game_rules(game).takes_seat_allotments(PAGES.web.service.setup_of(game))


def waiting(game: Game) -> tuple[int, ...]:
    return PAGES.web.service.game_rules(game).waiting_seats(game.options, len(game.players))


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
    with suppress(PAGES.web.service.AlreadyDone):  # this very submission was saved before
        PAGES.web.service.set_allotment(game, seat, row, replace(PAGES.web.form_via(), version=None))


def has_allotment(game: Game, seat: int) -> bool:
    return seat not in waiting(game)


def refused(form: AllotmentForm, game: Game, seat: int) -> bool:
    """Save the form's allotment for ``seat`` (the game master's page and the seat's console
    alike); True when the rules refused it, its errors then on the form's fields."""
    try:
        save_allotment(game, seat, form.row())
    except InvalidFacts as exc:
        form.apply_errors(exc.errors)
        return True
    return False


@PAGES.route("/<game_id>/secrets/allot/<int:seat>", methods=("GET", "POST"))
def allot(game: Game, seat: int) -> ResponseReturnValue:
    """The game master types one player's allotment (before turn 1)."""
    if not takes_allotments(game):
        abort(404)
    if not PAGES.web.role().editable:
        abort(403)
    if not 0 <= seat < len(game.players):
        abort(404)
    form = PAGES.web.stamp_form(AllotmentForm.build(), game)
    status = 200
    if form.validate_on_submit():
        if refused(form, game, seat):
            status = 422
        else:
            flash(_("%(name)s's allotment is saved.", name=game.players[seat]), "ok")
            return redirect(url_for("games.show", game_id=game.id, _anchor="entry"), 303)
    elif form.is_submitted():
        status = 422
    else:
        # Typed values are never shown back: this form always starts empty.
        form = PAGES.web.stamp_form(AllotmentForm.build(), game, fresh=True)
    page = render_template(
        "games/secrets/allot.html",
        game=game,
        kind=PAGES.web.service.game_rules(game),
        seat=seat,
        form=form,
        entered=has_allotment(game, seat),
        started=bool(game.deals),
    )
    return private_page((page, status))


# -- the game master's links page: one seat's link and code at a time ------------------
@PAGES.route("/<game_id>/secrets/links", methods=("GET",))
def links(game: Game) -> ResponseReturnValue:
    """The seats, each with what is in, and one chosen seat's private link and QR code.

    Only the chosen seat's code is drawn (``?seat=N``; htmx swaps it in alone): a code left on
    the screen is a seat's secrets for anyone who scans it, so the page never shows them all."""
    private_only(game)
    if not PAGES.web.role().editable:
        abort(403)
    view = PAGES.web.read.game_view(game, PAGES.web.role())
    chosen = request.args.get("seat", type=whole_arg)
    if chosen is not None and not 0 <= chosen < len(game.players):
        chosen = None
    shown = None
    if chosen is not None:
        name = game.players[chosen]
        shown = {
            "seat": chosen,
            "name": name,
            "url": private_url(game, chosen),
            "qr": PAGES.web.qr_svg(
                private_url(game, chosen), _("%(name)s's private page", name=name), "sx-qr"
            ),
        }
    still = set(view.waiting)
    players = [
        {
            "seat": seat,
            "name": name,
            "allotted": seat not in still,
            "orders_in": seat in view.orders_in,
        }
        for seat, name in enumerate(game.players)
    ]
    page = PAGES.web.render_region(
        "games/secrets/links.html",
        "games/secrets/_seat_link.html",
        **PAGES.web.page_context(game, view),
        players=players,
        shown=shown,
        allotments=takes_allotments(game),
        started=bool(game.deals),
    )
    return private_page(page, referrer=False)


# -- the game master types one seat's orders (a player without a phone) ------------------
@PAGES.route("/<game_id>/secrets/orders/<int:seat>", methods=("GET", "POST"), scorer=True)
def seat_orders(game: Game, seat: int) -> ResponseReturnValue:
    """One player's orders, typed by the game master as the player tells them: the same form and
    checks as the player's own console. What the seat sent itself is never shown here."""
    private_only(game)
    if not 0 <= seat < len(game.players):
        abort(404)
    turn = len(PAGES.web.read.result(game).deals) + 1
    status = 200
    conflict = None
    if request.method == "POST":
        form = orders_form(game, seat, turn, bound=True)
        status, resolved = send(game, seat, turn, form)
        if status == 202:
            if resolved:
                flash(_("Turn %(n)s is resolved: every player's orders were in.", n=turn), "ok")
            else:
                flash(_("%(name)s's orders for turn %(n)s are in.", name=game.players[seat], n=turn), "ok")
            return redirect(url_for("games.show", game_id=game.id, _anchor="entry"), 303)
        if status == 409:
            conflict = _("That turn was resolved meanwhile: nothing was sent. Here is the next one.")
            form = orders_form(game, seat, turn, fresh=True)
    else:
        form = orders_form(game, seat, turn, fresh=True)
    view = PAGES.web.read.game_view(game, PAGES.web.role())
    page = render_template(
        "games/secrets/seat_orders.html",
        **PAGES.web.page_context(game, view),
        seat=seat,
        form=form,
        turn=turn,
        sent=seat in view.orders_in,
        action=url_for(".seat_orders", game_id=game.id, seat=seat),
        conflict=conflict,
    )
    return private_page((page, status))


# -- a seat's console -----------------------------------------------------------------------
def orders_form(
    game: Game, seat: int, turn: int, sent: Any = None, bound: bool = False, fresh: bool = False
) -> SeatOrdersForm:
    """``seat``'s orders form for ``turn``: the request's (``bound``), or a fresh one showing what
    the seat sent (``sent``: its own pending orders, for its own console only)."""
    data = SeatOrdersForm.data_from_entry(seat, sent) if sent else None
    form = SeatOrdersForm.for_seat(PAGES.web.service.setup_of(game), seat, data)
    form.prior = lambda: PAGES.web.read.state_before(game, turn - 1)
    if not bound and request.method == "POST":
        # Not what was posted (a write, or another form's), but the record.
        form.process(formdata=None, data=data)
    if not bound:
        form.turn.data = turn
        if not sent:
            form.prefill()
    return PAGES.web.stamp_form(form, game, fresh)


def send(game: Game, seat: int, turn: int, form: SeatOrdersForm) -> tuple[int, bool]:
    """Send the posted orders for ``seat`` through the service, as the API does: 202 (and whether
    the turn resolved), 422 with the rules' refusals on the form, or 409 when the form was drawn
    for a turn that is no longer the one collected (nothing kept then)."""
    if not form.validate_on_submit():
        return 422, False
    if form.turn.data != turn:
        return 409, False
    try:
        _turn, waiting = PAGES.web.service.send_orders(
            game, seat, form.entry(), replace(PAGES.web.form_via(), version=None)
        )
    except InvalidFacts as exc:
        form.apply_errors(exc.errors)
        return 422, False
    return 202, not waiting


def console_context(game: Game, seat: int, token: str, form: Any = None, **extra: Any) -> dict[str, Any]:
    """What a console shows: the seat's view of the game, its console (own pending orders), the
    form of what it may do now (``form``: the one posted, shown again), and the URLs it uses."""
    who = PAGES.web.role()
    view = PAGES.web.read.game_view(game, who)
    console = PAGES.web.read.seat_console(game, who)
    assert console is not None  # a seat's link gives a seat's role
    allot_form = extra.pop("allot_form", None)
    if console.takes_orders and form is None:
        form = orders_form(game, seat, console.turn, console.sent, fresh=True)
    if takes_allotments(game) and not game.deals:
        allot_form = allot_form or allotment_form(game, seat, fresh=True)
    page = url_for(".private", game_id=game.id, seat=seat, token=token)
    return PAGES.web.page_context(
        game,
        view,
        seat=seat,
        console=console,
        form=form if console.takes_orders else None,
        allot_form=allot_form,
        entered=has_allotment(game, seat),
        report=view.reports if not view.waiting else None,
        action=page,
        orders_action=url_for(".private_orders", game_id=game.id, seat=seat, token=token),
        live_url=url_for(".private_live", game_id=game.id, seat=seat, token=token, at=console.key),
        console_tag=f'W/"{console_etag(game, seat, console.key)}"',
        **extra,
    )


def allotment_form(game: Game, seat: int, fresh: bool = False) -> AllotmentForm:
    """The seat's allotment form, showing its own values (this is its own page)."""
    row = game.options.get("values") or []
    own = row[seat] if seat < len(row) else None
    data = {f"v_{s}": v for s, v in zip(HIDDEN_SECRETS, own or [], strict=False)}
    form = AllotmentForm.build(data)
    if request.method == "POST":
        form.process(formdata=None, data=data)
    return PAGES.web.stamp_form(form, game, fresh)


def console_etag(game: Game, seat: int, key: str) -> str:
    """What a console's regions depend on: the game's version (a seat's orders move it too),
    the language, the seat and the form's step."""
    return f"{game.id}.{game.version}.{get_locale()}.p{seat}.{key}"


def console_reply(context: dict[str, Any], status: int = 200) -> ResponseReturnValue:
    """The console page, or to htmx the console alone (every region in it)."""
    return private_page(
        PAGES.web.render_region(
            "games/secrets/private.html", "games/secrets/_console.html", status, **context
        )
    )


@PAGES.route("/<game_id>/p/<int:seat>/<token>", methods=("GET", "POST"), seat_link=True)
def private(game: Game, seat: int, token: str) -> ResponseReturnValue:
    """One player's console: his allotment before turn 1 (Hidden Secrets), his orders each turn,
    and what only he knows. A POST here is his allotment; his orders go to ``private_orders``."""
    private_only(game)
    if takes_allotments(game) and game.deals and None in (game.options.get("values") or [None]):
        abort(404)  # cannot be: turns need every allotment
    status = 200
    if request.method == "POST" and takes_allotments(game) and not game.deals:
        # Its answer names the game's version: a phone sending an allotment it kept offline
        # (static/offline.js) knows by it that it was saved.
        PAGES.web.answers_version(game)
        form = PAGES.web.stamp_form(AllotmentForm.build(), game)
        if form.validate_on_submit():
            if refused(form, game, seat):
                status = 422
            else:
                said = _("Your allotment is saved. You can change it until turn 1 is resolved.")
                if PAGES.web.is_htmx():
                    # The console alone is swapped in: a flash would wait for the next whole page,
                    # and say there, late, what this answer already said.
                    return console_reply(console_context(game, seat, token, notice=said))
                flash(said, "ok")
                return redirect(url_for(".private", game_id=game.id, seat=seat, token=token), 303)
        else:
            status = 422
        return console_reply(console_context(game, seat, token, allot_form=form), status)
    return console_reply(console_context(game, seat, token))


@PAGES.route("/<game_id>/p/<int:seat>/<token>/orders", methods=("POST",), seat_link=True)
def private_orders(game: Game, seat: int, token: str) -> ResponseReturnValue:
    """The player sends (or changes) his orders for the turn being collected."""
    PAGES.web.answers_version(game)
    private_only(game)
    console = PAGES.web.read.seat_console(game, PAGES.web.role())
    assert console is not None
    form = orders_form(game, seat, console.turn, bound=True)
    status, resolved = send(game, seat, console.turn, form)
    if status == 202:
        if resolved:
            said = _("Turn %(n)s is resolved: every player's orders were in.", n=console.turn)
        else:
            said = _("Your orders for turn %(n)s are in.", n=console.turn)
        if not PAGES.web.is_htmx():
            flash(said, "ok")
            page = url_for(".private", game_id=game.id, seat=seat, token=token, _anchor="console")
            return redirect(page, 303)
        return console_reply(console_context(game, seat, token, notice=said))
    if status == 409:
        # Drawn for a turn resolved since: nothing was sent; the form of the turn now collected.
        said = _("That turn was resolved meanwhile: nothing was sent. Here is the next one.")
        return console_reply(console_context(game, seat, token, conflict=said), 409)
    if not console.takes_orders:
        # No form to show the refusal at (the game is over, or the allotments are still coming).
        said = " ".join(text for text, _target in form.error_items())
        return console_reply(console_context(game, seat, token, conflict=said), status)
    return console_reply(console_context(game, seat, token, form=form), status)


@PAGES.route("/<game_id>/p/<int:seat>/<token>/live", methods=("GET",), seat_link=True)
def private_live(game: Game, seat: int, token: str) -> ResponseReturnValue:
    """What a console polls: its status, and its board and form when they changed (out of band).

    ``at`` is the step its form was drawn at: while it holds, the form being filled in is left
    alone; once the turn resolved (or the game ended), the new form comes with the answer. Never
    cached by anyone but the phone itself: it is this seat's alone."""
    private_only(game)
    request.environ[PAGES.web.changed_at_key] = PAGES.web.changed_at(game.updated_at)
    shown = request.args.get("at", "")
    etag = console_etag(game, seat, shown)
    if request.if_none_match.contains_weak(etag):
        response = Response(status=304)
    else:
        context = console_context(game, seat, token)
        context["poll"] = True
        context["stale_form"] = context["console"].key != shown
        response = make_response(render_template("games/secrets/_console_live.html", **context))
    response.set_etag(etag, weak=True)
    response.headers["Cache-Control"] = "no-store"
    response.vary.add("Accept-Language")
    response.vary.add("Cookie")
    return response
