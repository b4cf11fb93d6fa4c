"""An event's pages (events.md, Screens): the director's page, the board, the print sheets, the CSV.

A club's member makes an event from the club (``/c/<slug>/events/new``) and directs it.
The director holds the event's key in a cookie sent only to the event's pages (handed over by
``/e/<id>/direct?key=...``, the link the event's creator gets); everyone else with the link
sees the standings and the seating. Every change is a real form with its CSRF token.

The door's pages (:mod:`.door`) and a table's confirmation (:mod:`.confirm`) live beside this
module on the same blueprints (:mod:`.base`); importing them here registers their routes.
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import (
    Response,
    abort,
    current_app,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import format_datetime, get_locale
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, SelectMultipleField, StringField, TextAreaField
from wtforms.widgets import CheckboxInput, ListWidget

from ... import cache, limits, pdf
from ...access import REFUSED, Membership
from ...clubs import roster
from ...clubs.figures import SafeWriter
from ...db import db
from ...events import confirming, formats, prints, rounds, service, table_links
from ...forms.base import whole_arg
from ...games import GAMES
from ...i18n import render
from ...models import Club, Event, utcnow
from ...refusals import Clash, Missing, Refusal
from ...service import house_gate
from ..auth import (
    DIRECTOR_COOKIE,
    DIRECTOR_COOKIE_AGE,
    club_route,
    directing,
    event_cookie,
    hand_event,
    may,
)
from ..cookies import keep_cookie
from ..games.table import describe_change
from ..templating import pdf_printer, pdf_unavailable
from ..via import form_via

# The door's and a table's confirmation's routes, on these blueprints: registered with them.
from . import confirm, door  # noqa: F401
from . import tables as table_pages
from .base import bp, directed_event, event_or_404, posted
from .forms import EventForm, merge_names

COOKIE_AGE = 60 * 60 * 24 * 60  # a director keeps the event's key for two months
VIEWER_PDF_FRESH = 60  # seconds a viewer's PDF of the sheets may be behind the evening


class StartRoundForm(FlaskForm):
    close = BooleanField(_l("Close the round being played first (unfinished tables count as they stand)"))
    # Asked while tables' results are unconfirmed (events.md, Rounds): starting anyway is a choice.
    unconfirmed = BooleanField(_l("Start anyway: a table may still confirm until the event finishes"))


class CloseRoundForm(FlaskForm):
    """The director closes the round being played (events.md, Rounds); nothing to type."""


class DirectorConfirmForm(FlaskForm):
    reason = StringField(_l("Reason"), filters=[lambda v: v.strip() if isinstance(v, str) else v])


class PlayersForm(FlaskForm):
    join = SelectMultipleField(_l("The club's players arriving"), choices=[], validate_choice=False)
    add = TextAreaField(_l("Players joining (one name a line)"))
    withdraw = SelectMultipleField(
        _l("Players leaving"),
        choices=[],
        option_widget=CheckboxInput(),
        widget=ListWidget(prefix_label=False),
    )


def club_players(field: SelectMultipleField, names: list[str]) -> None:
    """The club's players offered as chips to tick (who is here tonight, who arrived late)."""
    field.choices = [(name, name) for name in names]


def players_form(event: Event, data: Mapping[str, Any] | None = None) -> PlayersForm:
    form = PlayersForm(formdata=request.form if data is None and request.method == "POST" else None)
    # Late arrivals: the club's players not in the event yet, ticked as the new event's page does;
    # offered to the club's members only: a director by the event's link alone, who is no member,
    # sees the event's own players and types a newcomer's name (clubs.md: the club's players and
    # members are its members' to see).
    playing = {n.casefold() for e in event.entrants for n in (e if isinstance(e, list) else [e])}
    known = roster.seatable_names(event.club_id) if may().see_club(event.club_id) else []
    late = [n for n in known if n.casefold() not in playing]
    club_players(form.join, late)
    form.withdraw.choices = [
        (name, name)
        for e, name in enumerate(event.entrants)
        if e not in event.withdrawn and isinstance(name, str)
    ]
    return form


def unconfirmed(event: Event, doc: Mapping[str, Any]) -> list[tuple[int, int]]:
    """(round, table) of every table whose result awaits confirmation: its game finished or its
    round over, and nobody confirmed it (a confirm event only)."""
    if not event.settings.get("confirm"):
        return []
    return [
        (r["number"], t["table"])
        for r in doc["rounds"]
        if r["status"] != "planned"
        for t in r["tables"]
        if t.get("game") and not t.get("confirmed_by") and (t["finished"] or r["status"] == "done")
    ]


def correction_rows(event: Event) -> list[dict[str, Any]]:
    """The corrections after the close, as the results list them (round, table, what, reason, who)."""
    rows = []
    for found in confirming.corrections(event):
        title, _detail = describe_change(found["change"])
        rows.append({**found, "what": title, "by": who(found["by"])})
    return rows


def who(given_by: str | None) -> str:
    """Who gave a correction: the event's key is "the director"; an owner or admin by name."""
    return _("the director") if given_by == "director" else (given_by or "")


def history_rows(event: Event) -> list[dict[str, Any]]:
    """The event's history as its director reads it: when, what, and who (issue 56)."""
    rows = []
    for change in service.history(event):
        detail = change.detail or {}
        number = detail.get("round") if isinstance(detail, dict) else None
        what = {
            "create_event": _("The event was made"),
            "start_round": _("Round %(n)s started", n=number),
            "close_round": _("Round %(n)s closed", n=number),
            "players": _("The players changed"),
            "confirm": _("A table's result was confirmed"),
        }.get(change.kind, change.kind)
        rows.append(
            {"when": format_datetime(change.created_at, "medium"), "what": what, "by": who(change.by)}
        )
    return rows


def context(event: Event) -> dict[str, Any]:
    doc = service.document(
        event, director=may().direct_event(event), render=render, language=str(get_locale())
    )
    current = next((r for r in doc["rounds"] if r["status"] == "playing"), None)
    clock = table_links.round_clock(event, doc)
    directing = may().direct_event(event)
    playing = [t["game"] for t in current["tables"] if t["game"]] if current and directing else []
    players: list[str] = []
    if may().direct_event(event):
        players = [service.player_token(event, e) for e in range(len(event.entrants))]
        door = [service.check_in_token(event)] if event.settings.get("check_in") else []
        hand_event(event, doc, *players, *door)
    return {
        # When each table of the round being played was last heard from (directors only).
        "heard": table_links.last_heard(playing),
        "event": event,
        # The event's format plug-in: its title, standings columns (or fragment), whether players change.
        "format": formats.of(event.format),
        "doc": doc,
        "current": current,
        "unconfirmed": unconfirmed(event, doc),
        # A card has been played (or a round ended): before that every place is a shared first
        # and says nothing (issue 54, item 8).
        "scored": any(t["hands_played"] or t["finished"] for r in doc["rounds"] for t in r["tables"])
        or any(r["status"] == "done" for r in doc["rounds"]),
        "corrections": correction_rows(event),
        "history": history_rows(event) if may().direct_event(event) else [],
        "clock": clock,
        # The round the director may close now: its clock ran out or a table of it finished.
        "closable": rounds.closable(event, doc, clock),
        "hands": event.settings.get("hands"),
        "directing": may().direct_event(event),
        "next_number": len(event.rounds) + 1,
        "rounds_total": event.settings["rounds"],
        "game_name": _(GAMES[event.kind].title),
        "player_links": [
            (
                service.entrant_name(event, e),
                url_for(
                    ".player",
                    event_id=event.id,
                    entrant=e,
                    token=token,
                    _external=True,
                ),
            )
            for e, token in enumerate(players)
        ],
    }


def director_forms(event: Event) -> dict[str, Any]:
    """The director's page's small forms: closing the round, confirming for a table."""
    return {"close_form": CloseRoundForm(formdata=None), "confirm_form": DirectorConfirmForm(formdata=None)}


def director_page(event: Event, status: int, **extra: Any) -> ResponseReturnValue:
    """The director's page again (a refused form), with what was typed and the message at it."""
    page = context(event)
    page.update(director_forms(event), hall_tag=hall_tag(event, True))
    page.update(start_form=StartRoundForm(formdata=None), players_form=players_form(event, {}))
    page.update(extra)
    response = make_response(render_template("events/show.html", **page), status)
    response.headers["Cache-Control"] = "no-store"
    return response


def keep_director_key(event: Event, key: str) -> ResponseReturnValue:
    """To the director's page, the event's key kept in a cookie sent only to its pages (and
    proven for this address: the key just made, or the director's link just tested)."""
    limits.handed(key)
    response = redirect(url_for(".show", event_id=event.id), 303)
    return keep_cookie(response, event_cookie(event), key, COOKIE_AGE, f"/e/{event.id}")


@bp.route("/c/<slug>/events/new", methods=["GET", "POST"])
@limits.limit("games")  # every round makes games: an event counts as the games do
@club_route()
def new(club: Club, me: Membership) -> ResponseReturnValue:
    """A member makes an event of the club and directs it: the page keeps the key, as the
    director's link would, and lands on the director's page."""
    form = EventForm()
    club_players(form.here, roster.seatable_names(club.id))
    status = 200
    if request.method == "POST":
        status = 422
        if form.validate_on_submit():
            try:
                event, key = service.create_event(form.body(), club_id=club.id, by=me.name)
            except Refusal as exc:
                form.show_errors(exc.errors)
            else:
                flash(_("%(name)s is made: you direct it from this page.", name=event.name), "ok")
                return keep_director_key(event, key)
    return render_template("events/new.html", form=form, club=club), status


@bp.get("/e/<event_id>/direct")
def direct(event_id: str) -> ResponseReturnValue:
    """The director's link: keeps the key in a cookie for this event's pages, then the page."""
    event = event_or_404(event_id)
    key = request.args.get("key", "")
    if not limits.credential(key, lambda k: service.director_key_matches(event, k)):
        abort(404)
    return keep_director_key(event, key)


@bp.get("/e/<event_id>")
def show(event_id: str) -> ResponseReturnValue:
    event = event_or_404(event_id)
    page = context(event)
    page.update(director_forms(event), start_form=StartRoundForm(), players_form=players_form(event))
    page["hall_tag"] = hall_tag(event, page["directing"])
    # A member who plays: their own "where I sit" at the top (events.md, Screens).
    entrant = may().plays_in(event)
    if entrant is not None:
        page["me"] = where_i_sit(
            event, entrant, page["doc"], url_for(".mine", event_id=event.id), clock=False
        )
    response = make_response(render_template("events/show.html", **page))
    personal = page["directing"] or entrant is not None
    response.headers["Cache-Control"] = "no-store" if personal else "no-cache"
    return response


def hall_tag(event: Event, directing: bool) -> str | None:
    """What the hall's region (events/_hall.html) depends on: what the round clock's does (a
    round started or closed, a table's every write, a confirmation, the time up, the language),
    and whose page it is (a director's has the close and the confirmations)."""
    clock = table_pages.clock_tag(event.id)
    return None if clock is None else f"hall-{'d' if directing else 'v'}-{clock}"


@bp.get("/e/<event_id>/hall")
def hall(event_id: str) -> ResponseReturnValue:
    """The hall's region of /e/<id>, as it polls it: a 304 while nothing it shows changed."""
    event = event_or_404(event_id)
    directing = may().direct_event(event)
    tag = hall_tag(event, directing)
    if request.headers.get("HX-Request") != "true":
        return redirect(url_for(".show", event_id=event.id), 303)
    if tag is not None and request.if_none_match.contains(tag):
        response = make_response("", 304)
    else:
        page = context(event)
        page.update(director_forms(event), hall_tag=tag)
        response = make_response(render_template("events/_hall.html", **page))
    if tag is not None:
        response.set_etag(tag)
    # A director's region carries scorer links and a form's token: kept by nobody.
    response.headers["Cache-Control"] = "no-store" if directing else "no-cache"
    response.vary.add("Cookie")
    return response


@bp.post("/e/<event_id>/rounds")
def start_round(event_id: str) -> ResponseReturnValue:
    event = directed_event(event_id, REFUSED["start_round"])
    form = posted(StartRoundForm())
    via = form_via()
    doc = service.document(event, director=True, render=render, language=str(get_locale()))
    waiting = unconfirmed(event, doc)
    if waiting and not form.unconfirmed.data and not form.close.data:
        # Asked first (events.md, Rounds): which tables have not confirmed, and start anyway?
        # Closing the round being played first is itself the director's choice to move on.
        form.unconfirmed.errors = [
            _(
                "Not confirmed yet: %(tables)s. Tick \u201cStart anyway\u201d to start round %(n)s now.",
                tables=", ".join(_("round %(r)s table %(t)s", r=r, t=t) for r, t in waiting),
                n=len(event.rounds) + 1,
            )
        ]
        return director_page(event, 409, start_form=form, ask_unconfirmed=True)
    # The form names the round it starts, not the event's version: the tables' confirmations and
    # hands change the event all evening while the director's page stays open, and must not
    # refuse its button. Two directors starting round n at once still start one: the later one
    # finds round n begun (or loses the version claimed by the gate) and is told so.
    meant = request.form.get("round", type=whole_arg)
    based_on = via.version
    if meant is not None:  # the version as this request read it; -1 (none): a repeat, else Stale
        based_on = event.version if meant == len(event.rounds) + 1 else -1
    try:
        rnd = rounds.start_round(
            event, close=form.close.data, based_on=based_on, token=via.token, by=directing(event)
        )
    except Missing:
        raise  # the event went meanwhile (its club deleted): 404
    except house_gate.Repeat as done:
        # The same form sent again (a double tap): the round it started.
        flash(_("Round %(n)s has started.", n=done.change.detail["round"]), "ok")
        return redirect(url_for(".show", event_id=event.id, _anchor="round"), 303)
    except house_gate.Stale:
        flash(
            _("The event changed meanwhile (another director?): nothing was started. Here it is now."),
            "error",
        )
        return redirect(url_for(".show", event_id=event.id), 303)
    except rounds.RoundOpen as exc:
        flash(
            _(
                "Round %(n)s is still being played: tick \u201cClose the round\u201d to close it first.",
                n=exc.number,
            ),
            "error",
        )
        return redirect(url_for(".show", event_id=event.id), 303)
    except Refusal as exc:
        flash(render(exc.message), "error")
        return redirect(url_for(".show", event_id=event.id), 303)
    flash(_("Round %(n)s has started.", n=rnd.number), "ok")
    return redirect(url_for(".show", event_id=event.id, _anchor="round"), 303)


@bp.post("/e/<event_id>/rounds/<int:number>/close")
def close_round(event_id: str, number: int) -> ResponseReturnValue:
    """The director closes the round being played, the last one too: its unfinished tables count
    as they stand, and the last round's close finishes the event (events.md, Rounds)."""
    event = directed_event(event_id, REFUSED["close_round"])
    posted(CloseRoundForm())
    try:
        rounds.close_round(event, number, token=form_via().token, by=directing(event))
    except house_gate.Repeat:
        pass  # the same form sent twice: closed once
    except (Clash, house_gate.Stale):
        db.session.rollback()
        flash(_("Round %(n)s is not the round being played: nothing was closed.", n=number), "error")
        return redirect(url_for(".show", event_id=event.id), 303)
    if number >= event.settings["rounds"]:
        flash(_("Round %(n)s is closed: the event has finished.", n=number), "ok")
    else:
        flash(_("Round %(n)s is closed: its tables count as they stand.", n=number), "ok")
    return redirect(url_for(".show", event_id=event.id, _anchor="round"), 303)


@bp.post("/e/<event_id>/rounds/<int:number>/tables/<int:table_number>/confirm")
def director_confirm(event_id: str, number: int, table_number: int) -> ResponseReturnValue:
    """The director confirms a table's result for it, giving a reason kept in the history."""
    event = directed_event(event_id, REFUSED["confirm_table"])
    found = confirming.find_table(event, number, table_number) if number < 10_000 else None
    if found is None:
        abort(404)
    form = posted(DirectorConfirmForm())
    who_confirms = directing(event)
    try:
        confirming.confirm_table(event, found[1], None, director=who_confirms, reason=form.reason.data)
    except Clash as exc:
        flash(render(exc.message), "error")
        return redirect(url_for(".show", event_id=event.id), 303)
    except Refusal as exc:
        errors = {(number, table_number): render(exc.message)}
        return director_page(
            event, 422, confirm_errors=errors, confirm_typed={(number, table_number): form.reason.data}
        )
    flash(_("Table %(t)s of round %(r)s is confirmed by you.", t=table_number, r=number), "ok")
    return redirect(url_for(".show", event_id=event.id, _anchor="round"), 303)


@bp.post("/e/<event_id>/players")
def players(event_id: str) -> ResponseReturnValue:
    event = directed_event(event_id, REFUSED["players"])
    form = posted(players_form(event))
    typed = [line.strip() for line in (form.add.data or "").splitlines() if line.strip()]
    add = merge_names(form.join.data or [], typed)
    try:
        rounds.change_players(event, add, form.withdraw.data or [], by=directing(event))
    except Missing:
        raise  # the event went meanwhile (its club deleted): 404, no page of it to show
    except Refusal as exc:
        page = context(event)
        form.add.errors = [render(e.message) for e in exc.errors]
        page.update(director_forms(event), start_form=StartRoundForm(formdata=None), players_form=form)
        page["hall_tag"] = hall_tag(event, True)
        return render_template("events/show.html", **page), 422
    flash(_("The players are changed: the rounds not yet started are seated again."), "ok")
    return redirect(url_for(".show", event_id=event.id, _anchor="players"), 303)


def where_i_sit(
    event: Event, entrant: int, doc: Mapping[str, Any], follow: str, clock: bool
) -> dict[str, Any]:
    """The "where I sit" block (events/_where.html) of one player: where to go now in large
    type, their place, every round's table; ``follow``: the address its region polls;
    ``clock``: the round clock inside it (a player's page; /e/<id> shows its own)."""
    name = service.entrant_name(event, entrant)
    return {
        "name": name,
        "seats": service.where_i_sit(event, entrant, doc),
        "standing": next((s for s in doc["standings"] if s["name"] == name), None),
        "follow_url": follow,
        "me_tag": me_tag(event.id, entrant),
        "show_clock": clock,
    }


def me_tag(event_id: str, entrant: int) -> str | None:
    """What a player's "where I sit" depends on: what the round clock's region does (a round
    started or closed, every write at a table, the time up, the language)."""
    clock = table_pages.clock_tag(event_id)
    return None if clock is None else f"me-{entrant}-{clock}"


def where_region(event: Event, entrant: int, follow: str, clock: bool) -> Response:
    """The followed region alone (htmx's poll): a 304 while nothing it shows changed."""
    tag = me_tag(event.id, entrant)
    if tag is not None and request.if_none_match.contains(tag):
        response = make_response("", 304)
    else:
        page = context(event)
        page["directing"] = False
        page.update(where_i_sit(event, entrant, page["doc"], follow, clock))
        response = make_response(render_template("events/_where.html", **page))
    if tag is not None:
        response.set_etag(tag)
    response.headers["Cache-Control"] = "no-store"  # a player's own answer: kept by nobody
    response.vary.add("HX-Request")
    response.vary.add("Cookie")
    return response


@bp.get("/e/<event_id>/p/<int:entrant>/<token>")
def player(event_id: str, entrant: int, token: str) -> ResponseReturnValue:
    """A player's own page (their personal link or QR): where to go now in large type, where they
    sit each round, their score by round, their rank; it follows the event live (htmx polls the
    same address; without JavaScript it reloads itself)."""
    event = event_or_404(event_id)
    if not limits.credential(token, lambda t: service.player_token_matches(event, entrant, t)):
        abort(404)
    if request.headers.get("HX-Request") == "true":
        response = where_region(event, entrant, request.path, clock=True)
    else:
        page = context(event)
        page["directing"] = False
        page.update(where_i_sit(event, entrant, page["doc"], request.path, clock=True))
        response = make_response(render_template("events/player.html", **page))
        response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


@bp.get("/e/<event_id>/me")
def mine(event_id: str) -> ResponseReturnValue:
    """A member who plays: their "where I sit" at the top of ``/e/<id>``, as its region polls it."""
    event = event_or_404(event_id)
    entrant = may().plays_in(event)
    if entrant is None:
        abort(404)
    if request.headers.get("HX-Request") != "true":
        return redirect(url_for(".show", event_id=event.id), 303)
    return where_region(event, entrant, url_for(".mine", event_id=event.id), clock=False)


@bp.get("/e/<event_id>/board")
def board(event_id: str) -> ResponseReturnValue:
    """For a wall screen: large type, no controls; follows live (a meta refresh, or htmx)."""
    sig = service.signature(event_id) if len(event_id) <= 32 else None
    if sig is None:
        abort(404)
    # One small query decides a repeated poll: unchanged tables and the same clock minute are a 304.
    version, count, versions, ends_at = sig
    tag = f"ev-{event_id}-{version}-{count}-{versions}-{get_locale()}-{request.headers.get('HX-Request', '')}"
    if ends_at is not None:
        left = (ends_at - utcnow()).total_seconds()
        tag += f"-{math.ceil(left / 60) if left > 0 else 'over'}"  # 30 minutes one second in: 30
    if request.if_none_match.contains(tag):
        response = make_response("", 304)
        response.set_etag(tag)
        return response

    def draw(template: str) -> str:
        page = context(event_or_404(event_id))
        page["directing"] = False  # a wall screen never shows keys, whoever opened it
        page["board_tag"] = tag  # the region's next poll asks from here (a 304 until a change)
        return render_template(template, **page)

    if request.headers.get("HX-Request") == "true":
        # The followed region holds nothing per visitor (no form, no token): drawn once per tag,
        # so a new screen's first poll costs what a repeated one does, at 4 tables or 40.
        body = cache.remember(cache.key("event-board", tag), lambda: draw("events/_board.html"))
    else:
        body = draw("events/board.html")
    response = make_response(body)
    response.headers["Cache-Control"] = "no-cache"
    response.set_etag(tag)
    response.vary.add("HX-Request")
    return response


def print_context(event: Event) -> dict[str, Any]:
    """The print sheets' page: table cards from the creation, a score card per player (events.md)."""
    page = context(event)
    page["table_cards"] = prints.table_cards(
        event, page["doc"], page["current"] if page["directing"] else None
    )
    page["score_cards"] = prints.score_cards(event, page["doc"], page["directing"])
    return page


@bp.get("/e/<event_id>/print")
def print_sheets(event_id: str) -> ResponseReturnValue:
    event = event_or_404(event_id)
    page = print_context(event)
    response = make_response(render_template("events/print.html", **page))
    # A director's sheets carry the tables' and players' links (keys, tokens): kept by no cache.
    response.headers["Cache-Control"] = "no-store" if page["directing"] else "no-cache"
    return response


@bp.get("/e/<event_id>/print.pdf")
def print_pdf(event_id: str) -> ResponseReturnValue:
    """The print sheets as a PDF file, printed by the same Chromium as a game's score sheet and
    kept per version of the event, language and role (a director's carries the QR codes)."""
    event = event_or_404(event_id)
    chromium = pdf_printer()
    if chromium is None:
        flash(pdf_unavailable(), "error")
        return redirect(url_for(".print_sheets", event_id=event.id), 303)

    def sheets_html() -> str:
        static = current_app.static_folder
        assert static is not None  # the app serves its static folder
        stylesheet = "\n".join(
            Path(static, name).read_text(encoding="utf-8") for name in ("app.css", "evening.css")
        )
        return render_template("events/print_pdf.html", stylesheet=stylesheet, **print_context(event))

    directing = may().direct_event(event)
    name = f"{get_locale()}-{'director' if directing else 'viewer'}-a4-{cache.code_hash()}"
    try:
        # Anyone with the event's link may ask, and every hand played is a new version: a viewer
        # is served the copy printed in the last minute (one print a minute per event and
        # language, whoever asks), the director waits for the newest; one print at a time per
        # event either way (pdf.render_latest).
        data = pdf.render_latest(
            prints.pdf_folder(event),
            prints.pdf_version(event),
            name,
            sheets_html,
            chromium,
            fresh_within=None if directing else VIEWER_PDF_FRESH,
        )
    except pdf.PdfError:
        current_app.logger.exception("printing the sheets of event %s to PDF failed", event.id)
        flash(_("The PDF could not be made just now. Use Print and choose “Save as PDF”."), "error")
        return redirect(url_for(".print_sheets", event_id=event.id), 303)
    response = Response(data, mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'attachment; filename="event-{event.id}.pdf"'
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/e/<event_id>/results.csv")
def results_csv(event_id: str) -> Response:
    event = event_or_404(event_id)
    doc = service.document(event, render=render, language=str(get_locale()))
    out = io.StringIO()
    writer = SafeWriter(out)  # names and reasons a player typed never run as a formula
    rounds = len(doc["rounds"])
    # The format's own columns beside the points (loners, match points, for, against...).
    extra = [c.key for c in formats.of(event.format).columns(doc["pairing"]) if c.key != "points"]
    writer.writerow(
        ["rank", "name", "points", *extra, *(f"round {r + 1}" for r in range(rounds)), "tiebreak"]
    )
    for s in doc["standings"]:
        by_round = list(s["by_round"]) + [None] * (rounds - len(s["by_round"]))
        writer.writerow(
            [
                s["rank"],
                s["name"],
                s["points"],
                *(s[k] for k in extra),
                *("" if v is None else v for v in by_round),
                "; ".join(s["tiebreak"]),
            ]
        )
    fixes = correction_rows(event)
    if fixes:
        # The corrections after the close, below the standings (events.md: listed with the results).
        writer.writerow([])
        writer.writerow(["correction", "round", "table", "deal", "reason", "by"])
        for fix in fixes:
            writer.writerow(
                [fix["what"], fix["round"], fix["table"], fix["deal"] or "", fix["reason"], fix["by"]]
            )
    response = Response(out.getvalue(), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="event-{event.id}.csv"'
    return response


@bp.get("/e/<event_id>/tables/<game_id>/correct")
def correct_table(event_id: str, game_id: str) -> ResponseReturnValue:
    """The director's way to a table's page, to correct it after its round closed.

    The director's key cookie is sent to this event's pages only (``direct``); this link,
    opened from them, hands the same key to the one table game's pages (a cookie scoped to
    /g/<id>, for two days), where the auth recognises the director. An owner or admin of the
    club needs nothing handed over: their member cookie goes everywhere already."""
    event = directed_event(event_id, REFUSED["correct_table"])
    if not any(t.game_id == game_id for r in event.rounds for t in r.tables):
        abort(404)
    response = redirect(url_for("games.show", game_id=game_id), 303)
    key = request.cookies.get(event_cookie(event))
    if key and service.director_key_matches(event, key):
        keep_cookie(response, DIRECTOR_COOKIE, key, DIRECTOR_COOKIE_AGE, f"/g/{game_id}")
    response.headers["Referrer-Policy"] = "no-referrer"
    return response
