"""A table's confirmation of its result from its game page (events.md, Rounds: the side that
did not win taps its name on the table's phone), and the template globals that offer it. Apart
from the director's pages because it is posted under the game's address (``/g/<id>/confirm``,
where the table's scorer key comes along) on the ``event_tables`` blueprint (:mod:`.base`).
"""

from __future__ import annotations

from typing import Any

from flask import (
    abort,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import get_locale
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import RadioField
from wtforms.validators import InputRequired

from ...events import confirming, service
from ...i18n import render
from ...models import Event, Game
from ...refusals import Clash, Refusal
from ..auth import (
    game_route,
)
from ..games.pages import game_context
from . import tables as table_pages
from .base import tables


class ConfirmForm(FlaskForm):
    by = RadioField(
        _l("Who confirms"), choices=[], validators=[InputRequired(_l("Choose who confirms the result."))]
    )


@tables.post("/<game_id>/confirm")
@game_route(scorer=True)
def confirm(game: Game) -> ResponseReturnValue:
    """A player at the table confirms its result on the table's phone (a confirm event)."""
    found = confirming.table_of_game(game.id)
    if found is None or not found[0].settings.get("confirm"):
        abort(404)
    event, _rnd, table = found
    form = ConfirmForm()
    form.by.choices = [(n, n) for n in confirming.confirmers(event, table, game)]
    if not form.validate_on_submit():  # (a stale CSRF token was refused before any view)
        error = next(iter(form.by.errors), None) or _("Choose who confirms the result.")
        return confirm_refused(game, str(error))
    try:
        name = confirming.confirm_table(event, table, form.by.data)
    except Clash as exc:  # not now: the table's page says why
        flash(render(exc.message), "error")
        return redirect(after_confirm(event, table.number, game), 303)
    except Refusal as exc:
        return confirm_refused(game, render(exc.message))
    flash(_("Table %(n)s's result is confirmed by %(name)s.", n=table.number, name=name), "ok")
    return redirect(after_confirm(event, table.number, game), 303)


@tables.app_template_global()
def table_confirmers(game: Game) -> list[str]:
    """Who the table's phone offers to confirm its result: the side that did not win (either
    side after a tie), as the service accepts them (events.md, Rounds)."""
    found = confirming.table_of_game(game.id)
    if found is None:
        return []
    event, _rnd, table = found
    return confirming.confirmers(event, table, game)


@tables.app_template_global()
def earlier_unconfirmed(event: Event, table_number: int, now_round: int) -> list[dict[str, Any]]:
    """The earlier rounds' results this table's phone may still confirm (events.md, Rounds: "a
    table may still confirm an earlier round's result until the event finishes"): round and game
    of each one at this table number, ended and confirmed by nobody; none once it finished."""
    if not event.settings.get("confirm"):
        return []
    doc = service.document(event, render=render, language=str(get_locale()))
    if doc["finished"]:
        return []
    return [
        {"round": r["number"], "game": t["game"]}
        for r in doc["rounds"]
        if r["number"] < now_round
        for t in r["tables"]
        if t["table"] == table_number
        and t.get("game")
        and not t.get("confirmed_by")
        and (t["finished"] or r["status"] == "done")
    ]


def after_confirm(event: Event, table: int, game: Game) -> str:
    """Back to the table's phone (its table link) if the confirmation came from there, else the game."""
    return table_pages.back_to_table(event, table) or url_for(
        "games.show", game_id=game.id, _anchor="event-table"
    )


def confirm_refused(game: Game, error: str) -> ResponseReturnValue:
    """422: the table's page again, the confirmation's message at its field."""
    context = game_context(game)
    page = render_template(
        "games/show.html", confirm_error=error, confirm_by=request.form.get("by"), **context
    )
    return page, 422
