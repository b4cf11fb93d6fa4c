"""The club's pages: the ratings leaderboards, and keeping the players list tidy.

Thin views over :mod:`scorekeeper.club`. ``scorekeeper ratings rebuild``
derives every leaderboard from scratch and prints it.
"""

from __future__ import annotations

import hmac

import click
from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import format_decimal
from flask_babel import gettext as _
from sqlalchemy import func, select

from .. import club, records
from ..db import db
from ..games import GAMES
from ..i18n import counted, render
from ..models import Game, Player, Seat
from ..rules import InvalidFacts
from ..rules.base import MAX_NAME
from .common import form_via

bp = Blueprint("club", __name__, cli_group="ratings")


# -- ratings ---------------------------------------------------------------------------


@bp.get("/ratings")
def leaderboard() -> ResponseReturnValue:
    """The leaderboard of one game kind (``?game=``) or of every game: ordinal, games, trend."""
    game = request.args.get("game") or None
    if game is not None and game not in GAMES:
        abort(404)
    hidden = club.private_names()
    board = club.club_ratings(game)
    return render_template(
        "club/ratings.html",
        game=game,
        games=GAMES,
        players=[p for p in board.leaderboard if p.name not in hidden],
        matches=board.matches,
    )


@bp.cli.command("rebuild")
@click.option("--game", "kind", default=None, help="Only this game kind (default: overall and every kind).")
def rebuild_command(kind: str | None) -> None:
    """Derive the ratings from scratch, from every finished game in the order they finished."""
    if kind is not None and kind not in GAMES:
        raise click.BadParameter(f"one of {', '.join(sorted(GAMES))}", param_hint="--game")
    scopes = club.rebuild([kind] if kind else None)
    for scope, board in scopes.items():
        games = counted("%(num)s game", "%(num)s games", board.matches)
        players = counted("%(num)s player", "%(num)s players", len(board.leaderboard))
        click.echo(f"{scope or 'overall'}: {games}, {players}")
        for place, p in enumerate(board.leaderboard, 1):
            click.echo(
                f"  {place:>3}. {p.name:<40} {p.ordinal:8.2f}  (mu {p.mu:.2f}, sigma {p.sigma:.2f}, "
                + counted("%(num)s game", "%(num)s games", p.games)
                + ")"
            )


# -- the players list ---------------------------------------------------------------------


def club_key_ok() -> bool:
    """With ``CLUB_KEY`` configured, tidying the players list asks for it; without, the table is trusted."""
    expected = current_app.config.get("CLUB_KEY")
    if not expected:
        return True
    return hmac.compare_digest(str(request.form.get("club_key", "")), str(expected))


@bp.get("/players/tidy")
def tidy() -> ResponseReturnValue:
    """Rename, merge and mark private: the scorer's page for the players list."""
    counts = dict(
        db.session.execute(
            select(Seat.name, func.count(Seat.id))
            .join(Game, Game.id == Seat.game_id)
            .where(Game.deleted_at.is_(None))
            .group_by(Seat.name)
        ).all()
    )
    private = club.private_names()
    names = club.regular_names(1000)
    return render_template(
        "club/tidy.html",
        players=[(name, counts.get(name, 0), name in private) for name in names],
        renames=club.rename_groups(),
        needs_key=bool(current_app.config.get("CLUB_KEY")),
        max_name=MAX_NAME,
    )


def back() -> ResponseReturnValue:
    return redirect(url_for(".tidy"), 303)


def refuse(message: str, status: int = 422) -> ResponseReturnValue:
    return render_template("error.html", code=status, error=None, message=message), status


@bp.post("/players/rename")
def rename() -> ResponseReturnValue:
    """Rename a player in every game; to a name already in the list, it merges the two spellings."""
    if not club_key_ok():
        return refuse(_("The club key is not right: nothing was changed."), 403)
    old = request.form.get("old", "").strip()
    new = request.form.get("new", "").strip()
    if not old or not club.games_with(old):
        return refuse(_("Nobody called %(name)s has played: nothing was changed.", name=old))
    if not new or len(new) > MAX_NAME:
        return refuse(_("A new name has 1 to %(max)s characters.", max=MAX_NAME))
    if new == old:
        return back()
    try:
        done = club.rename_everywhere(old, new, form_via())
    except club.NameClash as clash:
        return refuse(
            counted(
                "%(old)s and %(new)s played in the same game (%(games)s): one person cannot sit twice, "
                "so nothing was changed.",
                "%(old)s and %(new)s played in the same games (%(games)s): one person cannot sit twice, "
                "so nothing was changed.",
                len(clash.games),
                old=old,
                new=new,
                games=", ".join(g.id for g in clash.games),
            )
        )
    except InvalidFacts as exc:
        return refuse(" ".join(render(e.message) for e in exc.errors))
    flash(
        counted(
            "%(old)s is now %(new)s in %(num)s game.",
            "%(old)s is now %(new)s in %(num)s games.",
            done.games,
            old=old,
            new=new,
        ),
        "ok",
    )
    return back()


@bp.post("/players/undo")
def undo_rename() -> ResponseReturnValue:
    if not club_key_ok():
        return refuse(_("The club key is not right: nothing was changed."), 403)
    group = request.form.get("group", "")
    undone = club.undo_rename(group, form_via()) if group else 0
    if not undone:
        return refuse(_("That rename cannot be undone any more: the games have moved on."), 409)
    flash(counted("Rename undone in %(num)s game.", "Rename undone in %(num)s games.", undone), "ok")
    return back()


@bp.post("/players/private")
def set_private() -> ResponseReturnValue:
    """Mark a player private (left out of the public leaderboard) or public again."""
    if not club_key_ok():
        return refuse(_("The club key is not right: nothing was changed."), 403)
    name = request.form.get("name", "").strip()
    if not name or len(name) > MAX_NAME:
        abort(400)
    known = club.games_with(name) or db.session.scalar(select(Player).where(Player.name == name))
    if not known:
        return refuse(_("Nobody called %(name)s has played: nothing was changed.", name=name))
    club.set_private(name, request.form.get("private") == "1")
    return back()


def player_rating(name: str) -> dict[str, object]:
    """A player's page's rating part: overall rating, its history as a chart, opponents."""
    rating = club.club_ratings(None).player(name)
    if rating is None:
        return {"rating": None, "rating_chart": None}
    # The chart draws whole numbers: an ordinal to the nearest point reads the same at phone size.
    line = [0, *(round(point.ordinal) for point in rating.history)]
    chart = records.running_chart([name], [line], number=format_decimal)
    return {"rating": rating, "rating_chart": chart}
