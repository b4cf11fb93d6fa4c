"""Home, new games and the language choice."""

from __future__ import annotations

from urllib.parse import unquote, urlsplit

from flask import Blueprint, abort, current_app, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from sqlalchemy import select
from sqlalchemy.orm import lazyload

from .. import club, limits, plugins, read, service
from ..db import db
from ..forms import new_game_form
from ..games import GAMES
from ..models import Game
from ..rules.base import check_setup
from .common import GAME_ID, form_via, remember_key

bp = Blueprint("main", __name__)


@bp.get("/")
def index() -> ResponseReturnValue:
    """List games in progress and finished, newest first."""
    games = db.session.scalars(
        select(Game)
        .options(lazyload(Game.deals))  # the summaries say what the list shows: no deal is read
        .where(Game.deleted_at.is_(None), Game.archived.is_(False))
        .order_by(Game.updated_at.desc())
        .limit(100)
    ).all()
    in_progress: list[tuple[Game, read.Summary, read.Summary]] = []
    finished: list[tuple[Game, read.Summary, read.Summary]] = []
    for game, summary in read.list_views(games):
        # A summary answers both what the status line reads and what the item shows.
        (finished if summary.finished else in_progress).append((game, summary, summary))
    # Just archived from here: its name, with an Undo where it was.
    archived = request.args.get("archived", "")
    just_archived = db.session.get(Game, archived) if GAME_ID.fullmatch(archived) else None
    if just_archived is not None and (just_archived.deleted_at is not None or not just_archived.archived):
        just_archived = None
    return render_template(
        "index.html",
        in_progress=in_progress,
        finished=finished,
        games=GAMES,
        just_archived=just_archived,
    )


@bp.get("/new")
def choose() -> ResponseReturnValue:
    """Pick which game to start."""
    return render_template("new_choose.html", games=GAMES)


@bp.route("/new/<kind>", methods=["GET", "POST"])
@limits.limit("games")
def new(kind: str) -> ResponseReturnValue:
    """Set up a game: options, names in seat order, first dealer."""
    game = GAMES.get(kind)
    if game is None:
        abort(404)
    max_players = max(game.player_counts)
    form = new_game_form(game, max_players)
    plugin = plugins.get(kind)
    if request.method == "POST" and form.validate_on_submit():
        options = form.options(game)
        if plugin is not None and plugin.setup_options is not None:
            options.update(plugin.setup_options(request.form, len(form.players())))
        errors, setup = check_setup(game, form.players(), options, form.first_dealer.data)
        later = plugin.setup_later if plugin else None
        if setup is None and later is not None:
            # A set-up finished on the game page (Hidden Secrets: each player's private allotment).
            setup = later(game, form.players(), options, form.first_dealer.data)
        if setup is not None:
            row, key = service.create_game(game, setup, via=form_via())
            return remember_key(redirect(url_for("games.show", game_id=row.id), 303), row, key)
        form.apply_errors(errors)
    status = 422 if request.method == "POST" else 200
    # The players list offers its names (typed names pick from it; a new name is still welcome).
    known = club.regular_names()
    return render_template("new_game.html", game=game, form=form, known_names=known), status


def same_site_path(target: str) -> str:
    """``target`` if it is a path on this site, else the home page.

    Browsers drop tabs and newlines from a URL and read a backslash as a slash,
    so "/\t/evil.example" or "/\\evil.example" would leave the site: any control
    character or backslash, raw or percent-encoded, is refused with the rest.
    """
    decoded = unquote(target)
    if (
        not target.startswith("/")
        or decoded.startswith("//")
        or any(ch == "\\" or ord(ch) < 0x20 or ord(ch) == 0x7F for ch in decoded)
    ):
        return url_for("main.index")
    try:
        parts = urlsplit(decoded)
    except ValueError:  # e.g. "/[": not a path anyone would come from
        return url_for("main.index")
    return url_for("main.index") if parts.scheme or parts.netloc else target


@bp.post("/lang")
def set_language() -> ResponseReturnValue:
    """Remember this device's language and go back where the user was."""
    lang = request.form.get("lang", "")
    response = redirect(same_site_path(request.form.get("next", "")), 303)
    if lang in current_app.config["LANGUAGES"]:
        response.set_cookie("lang", lang, max_age=3 * 365 * 24 * 3600, samesite="Lax", httponly=True)
    return response
