"""A club's season (events.md, Season): its page, its JSON and its CSV, for the club's members only
(anyone else: 404, as for a club that does not exist).

Thin views: the query checked and the table made by :mod:`scorekeeper.events.season_read` and
:mod:`scorekeeper.events.season`.
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from ...access import Membership
from ...clubs.figures import csv_text, safe_cell
from ...events import season_read
from ...events.standings import plain
from ...games import GAMES
from ...i18n import render
from ...models import Club
from ...refusals import Refusal
from ..auth import club_route

bp = Blueprint("season", __name__)
api = Blueprint("season_api", __name__, url_prefix="/api")


@bp.get("/c/<slug>/season")
@club_route()
def page(club: Club, me: Membership) -> ResponseReturnValue:
    """The season table; a refused query shows its message at its field, the form keeping what
    was typed, and the table of the usual season below nothing."""
    args = {k: request.args.get(k, "") for k in ("game", "from", "to", "best")}
    try:
        query = season_read.parse(args, club.id)
    except Refusal as exc:
        problems = {e.field: render(e.message) for e in exc.errors}
        return render_template(
            "events/season.html", club=club, args=args, problems=problems, games=GAMES, made=None
        ), 422
    made = season_read.table(club.id, query)
    shown = {
        "game": query.game,
        "from": query.start.isoformat(),
        "to": query.end.isoformat(),
        "best": "" if query.best is None else str(query.best),
    }
    return render_template(
        "events/season.html",
        club=club,
        args=shown,
        query=query,
        problems={},
        games=GAMES,
        made=made,
        plain=plain,
    )


@bp.get("/c/<slug>/season.csv")
@club_route()
def csv(club: Club, me: Membership) -> ResponseReturnValue:
    """The same table as CSV: rank, name, points, events played, each event's points, tie-breaks.
    Every text cell is neutralised against spreadsheet formulas (a name like "=1+2")."""
    try:
        query = season_read.parse(request.args, club.id)
    except Refusal as exc:
        return render(exc.errors[0].message), 422, {"Content-Type": "text/plain; charset=utf-8"}
    made = season_read.table(club.id, query)
    head = [_("Rank"), _("Name"), _("Points"), _("Events played")]
    head += [f"{e.name} ({e.day.isoformat()})" for e in made.events]
    rows: list[list] = [[*head, _("Tie-break")]]
    for s in made.standings:
        rows.append(
            [
                s.rank,
                s.name,
                plain(s.points),
                s.figures["events"],
                *("" if v is None else plain(v) for v in s.by_round),
                "; ".join(render(note) for note in s.notes),
            ]
        )
    safe = [[safe_cell(cell) for cell in row] for row in rows]
    name = f"season-{club.slug}-{query.game}-{query.start.isoformat()}-{query.end.isoformat()}.csv"
    response = Response(csv_text(safe), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@api.get("/clubs/<slug>/season")
@club_route()
def document(club: Club, me: Membership) -> ResponseReturnValue:
    query = season_read.parse(request.args, club.id)  # a refused query: web.errors answers 422
    return jsonify(season_read.document(season_read.table(club.id, query), query, render))
