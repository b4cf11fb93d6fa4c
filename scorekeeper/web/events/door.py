"""The door (events.md, Seating): the check-in page a player opens with the door card's link,
and the director's removal of a wrong or doubled arrival. Apart from the director's pages
because the door is open to anyone holding its link: its own form, its own limits, no key.
Its routes are on the events' blueprint (:mod:`.base`), imported by :mod:`.pages`.
"""

from __future__ import annotations

from typing import Any

from flask import (
    abort,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import StringField

from ... import limits
from ...access import REFUSED
from ...clubs import roster
from ...db import db
from ...events import arrivals, service
from ...i18n import render
from ...models import Event, folded
from ...refusals import Refusal
from ..auth import directing
from .base import bp, directed_event, event_or_404, posted


class CheckInForm(FlaskForm):
    name = StringField(_l("Your name"), filters=[lambda v: v.strip() if isinstance(v, str) else v])


class RemoveArrivalForm(FlaskForm):
    name = StringField()


@bp.post("/e/<event_id>/arrivals/remove")
def remove_arrival(event_id: str) -> ResponseReturnValue:
    """The director takes a wrong or doubled arrival off tonight's list (one confirmed tap)."""
    event = directed_event(event_id, REFUSED["remove_arrival"])
    form = posted(RemoveArrivalForm())
    name = form.name.data or ""
    try:
        arrivals.remove_arrival(event, name, by=directing(event))
    except Refusal as exc:
        db.session.rollback()
        flash(render(exc.message), "error")
    else:
        flash(_("%(name)s is off tonight's list.", name=name), "ok")
    return redirect(url_for(".show", event_id=event.id, _anchor="ev-tonight-title"), 303)


def door_names(event: Event) -> list[str]:
    """The club's players a check-in page offers to tap: not on tonight's list yet, and none the
    club keeps private (the door's link is for anyone standing at the door)."""
    here = {folded(n) for n in arrivals.tonight(event)}
    hidden = {folded(n) for n in roster.private_names(event.club_id)} if event.club_id is not None else set()
    return [n for n in roster.seatable_names(event.club_id) if folded(n) not in here | hidden]


def door_page(
    event: Event, token: str, form: CheckInForm, status: int = 200, **extra: Any
) -> ResponseReturnValue:
    page = {
        "event": event,
        "form": form,
        "names": door_names(event),
        "tonight": arrivals.tonight(event),
        "finished": service.finished(event, service.table_games(event)),
        "action": url_for(".check_in", event_id=event.id, token=token),
        **extra,
    }
    response = make_response(render_template("events/arrive.html", **page), status)
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"  # the link is the door's credential
    return response


# The session key of the welcome a check-in leaves for its own phone's next GET.
DOOR_WELCOME = "door_welcome"


@bp.route("/e/<event_id>/arrive/<token>", methods=["GET", "POST"])
@limits.limit("joins")  # the same abuse limits as joining a club
def check_in(event_id: str, token: str) -> ResponseReturnValue:
    """The door's check-in page: tap your name among the club's players, or type a new one
    (one field, one tap); then you are on tonight's list (seated from the next round)."""
    event = event_or_404(event_id)
    if not limits.credential(token, lambda t: arrivals.check_in_token_matches(event, t)):
        abort(404)
    form = CheckInForm()
    if request.method == "GET":
        # After a check-in the phone is sent here (POST, redirect, GET): a reload then shows the
        # welcome again (with the link to the player's own page) and never sends the name a
        # second time. The welcome stays in the phone's own session, so nobody else's door page
        # shows it; the phone's next check-in replaces it.
        came = session.get(DOOR_WELCOME)
        if isinstance(came, dict) and came.get("event") == event.id:
            return door_page(event, token, CheckInForm(formdata=None), arrived=came, mine=came.get("mine"))
        return door_page(event, token, CheckInForm(formdata=None))
    posted(form)
    try:
        came = arrivals.arrive(event, form.name.data or "", by="check-in")
    except Refusal as exc:
        db.session.rollback()
        form.name.errors = [render(exc.message)]
        return door_page(event, token, form, exc.status)
    # The player's own page (where to sit each round, live) on the phone that checked in: the
    # seating would otherwise reach them only on the wall screen or on paper.
    entrant = next(
        e for e, n in enumerate(event.entrants) if isinstance(n, str) and folded(n) == folded(came["name"])
    )
    mine = url_for(".player", event_id=event.id, entrant=entrant, token=service.player_token(event, entrant))
    session[DOOR_WELCOME] = {**came, "event": event.id, "mine": mine}
    return redirect(url_for(".check_in", event_id=event.id, token=token), 303)
