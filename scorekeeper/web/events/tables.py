"""A table's phone for the whole event, and the round clock that follows live (events.md, Rounds).

- ``GET /e/<id>/table/<n>/<token>``: the table's current game with the right to score it (its
  scorer key kept for that game's pages, as a scoring link does), only while the event runs and
  only this table's games. Before round 1, or in a round without this table, it says to wait.
- ``GET /e/<id>/table/<n>/<token>/now?at=<state>``: what the page polls; an answer with
  ``HX-Refresh`` when the table moved on (a round started, closed, or the result confirmed),
  so a phone left on the link shows the next round's game within one poll. Without JavaScript,
  a page with nothing to type reloads itself now and then.
- ``GET /e/<id>/clock``: the round clock's region, followed by every page that shows it.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from flask import Blueprint, abort, g, make_response, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import get_locale

from ... import limits
from ...db import db
from ...events import service, table_links
from ...i18n import render
from ...models import Event, Game, utcnow
from ...read import SCORER, VIEWER
from ..auth import resolve_table
from ..cookies import remember_key
from ..games.pages import game_context

bp = Blueprint("event_table_pages", __name__)


def event_or_404(event_id: str) -> Event:
    event = db.session.get(Event, event_id) if len(event_id) <= 32 else None
    if event is None:
        abort(404)
    return event


def checked(event_id: str, table_number: str, token: str) -> tuple[Event, int]:
    """The event and table, if ``token`` is that table's (a wrong one counts as a failed credential).
    The number is read here, not by the URL's converter: a malformed one is a 404 like any other."""
    event = event_or_404(event_id)
    table = int(table_number) if table_number.isdigit() and len(table_number) <= 5 else 0
    if not table or not limits.credential(token, lambda t: table_links.token_matches(event, table, t)):
        abort(404)
    return event, table


def finished(event: Event, doc: dict[str, Any]) -> bool:
    """Every round started and the last one over: the event no longer runs."""
    rounds = doc["rounds"]
    return bool(rounds) and len(event.rounds) == len(rounds) and rounds[-1]["status"] == "done"


@bp.get("/e/<event_id>/table/<table_number>/<token>")
def table(event_id: str, table_number: str, token: str) -> ResponseReturnValue:
    event, table = checked(event_id, table_number, token)
    where = table_links.place(event.id, table)
    doc = service.document(event, render=render, language=str(get_locale()))
    over = finished(event, doc)
    game = db.session.get(Game, where.game_id) if where.game_id else None
    phone = {
        "event": event,
        "number": table,
        "round": where.round,
        "rounds_total": event.settings["rounds"],
        "state": where.state(),
        "poll_url": request.path + "/now",
        # Where a page opened from this one comes back to (a forgotten round's confirmation).
        "link": request.path,
        "over": over,
        "confirmed_by": where.confirmed_by,
        "clock": table_links.round_clock(event, doc),
    }
    if game is None or game.deleted_at is not None:
        planned = doc["rounds"][0]["tables"] if doc["rounds"] and not event.rounds else []
        phone["seats"] = next((t["seats"] for t in planned if t["table"] == table), None)
        response = make_response(render_template("events/table.html", phone=phone, doc=doc))
    else:
        # A confirmation still asked of the last round's table keeps the right to give it.
        awaiting = event.settings.get("confirm") and not where.confirmed_by
        scoring = not over or bool(awaiting)
        g.game, g.role = game, SCORER if scoring else VIEWER
        resolve_table(game, g.role)
        context = game_context(game)
        response = make_response(render_template("games/show.html", table_phone=phone, **context))
        if scoring:
            remember_key(response, game, service.table_key(game.id))
    response.headers["Cache-Control"] = "no-store"
    # The page's own posts (a confirmation without JavaScript) may name it as where to come back.
    response.headers["Referrer-Policy"] = "same-origin"
    return response


@bp.get("/e/<event_id>/table/<table_number>/<token>/now")
def table_now(event_id: str, table_number: str, token: str) -> ResponseReturnValue:
    """204; with ``HX-Refresh`` when the table is no longer where the page was drawn."""
    event, table = checked(event_id, table_number, token)
    response = make_response("", 204)
    if table_links.place(event.id, table).state() != request.args.get("at", ""):
        response.headers["HX-Refresh"] = "true"
    response.headers["Cache-Control"] = "no-store"
    return response


def back_to_table(event: Event, table: int) -> str | None:
    """The table link a confirmation was posted from (htmx's current URL, or the page it came
    from), so the phone goes back to it; None when it came from elsewhere."""
    came = request.headers.get("HX-Current-URL") or request.referrer or ""
    path = "/" + came.split("://", 1)[-1].split("/", 1)[-1] if "://" in came else came
    path, _, query = path.split("#", 1)[0].partition("?")
    # A forgotten round's confirmation is given on that round's game page, opened from the
    # table's phone with the table's link as ``back`` (a form field, or still in the address):
    # only the table's own link, token and all, is ever gone back to.
    candidates = [path, request.form.get("back", ""), *parse_qs(query).get("back", [])]
    wanted = table_links.table_url(event, table)
    return wanted if wanted in candidates else None


@bp.get("/e/<event_id>/clock")
def clock(event_id: str) -> ResponseReturnValue:
    """The round clock's region, as every page that shows it follows it: 304 while unchanged."""
    tag = clock_tag(event_id)
    if tag is None:
        abort(404)
    if request.if_none_match.contains(tag):
        response = make_response("", 304)
    else:
        event = event_or_404(event_id)
        doc = service.document(event, render=render, language=str(get_locale()))
        html = render_template(
            "events/_clock.html", event=event, clock=table_links.round_clock(event, doc), follow_clock=True
        )
        response = make_response(html)
    response.set_etag(tag)
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.app_template_global()
def clock_tag(event_id: str) -> str | None:
    """What the clock's region depends on: the event's signature (a round started or closed, a
    table's every write), whether the time is up, and the language. None: no such event."""
    sig = service.signature(event_id) if len(event_id) <= 32 else None
    if sig is None:
        return None
    version, count, versions, ends_at = sig
    state = "none" if ends_at is None else ("over" if ends_at <= utcnow() else "on")
    return f"clk-{event_id}-{version}-{count}-{versions}-{state}-{get_locale()}"


@bp.app_template_global()
def table_clock(event_id: str) -> dict[str, Any] | None:
    """The round clock for a table's scoring page (events/_table_game.html)."""
    event = db.session.get(Event, event_id)
    if event is None:
        return None
    return table_links.round_clock(event, service.document(event, render=render, language=str(get_locale())))


@bp.app_template_global()
def table_is_last_round(event_id: str, number: int) -> bool:
    event = db.session.get(Event, event_id)
    return event is None or number >= event.settings["rounds"]
