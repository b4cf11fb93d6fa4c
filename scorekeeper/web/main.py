"""Home, new games and the language choice."""

from __future__ import annotations

from urllib.parse import unquote, urlsplit

from flask import Blueprint, abort, current_app, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from sqlalchemy.orm import lazyload

from .. import limits, plugins, read, service
from ..access import my_games
from ..clubs import roster
from ..clubs.service import remember_game
from ..db import db
from ..forms import new_game_form
from ..games import GAMES
from ..models import Game
from ..rules.base import check_setup
from .auth import viewer
from .cookies import CLUB_CHOICE_COOKIE, MEMBER_MAX_AGE, keep_cookie, remember_key
from .devices import keep_opened
from .form_tokens import form_token
from .games.made_keys import made_key, remember_made
from .loading import GAME_ID
from .via import form_via

bp = Blueprint("main", __name__)


@bp.get("/")
def index() -> ResponseReturnValue:
    """This device's games in progress and finished, newest first, and its clubs; nobody else's."""
    keep_opened()
    me = viewer()
    games = db.session.scalars(
        my_games(me)
        .options(lazyload(Game.deals))  # the summaries say what the list shows: no deal is read
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
        at_events=read.event_games([g.id for g in games]),
        clubs=me.memberships,
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
    me = viewer()
    last_club = request.cookies.get(CLUB_CHOICE_COOKIE, "")
    plugin = plugins.get(kind)
    form = new_game_form(
        game,
        max_players,
        data=dict(plugin.setup_defaults) if plugin and plugin.setup_defaults else None,
        clubs=[(m.slug, m.club_name) for m in me.memberships],
        club=last_club,
    )
    if request.method == "POST":
        via = form_via()
        again = service.created_by(via.token)
        if again is not None:
            # Sent again (a double tap, a retry): the game it made the first time.
            return made_already(again, via.token)
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
            chosen = me.in_club(form.club.data) if form.club.data else None
            try:
                row, key = service.create_game(
                    game,
                    setup,
                    via=via,
                    key=made_key(via.token),
                    club_id=chosen.club_id if chosen is not None else None,
                )
            except service.AlreadyDone as done:
                # A copy of this submission made it a moment ago (the token is unique among creations).
                return made_already(db.session.get(Game, done.change.game_id), via.token)
            remember_game(via.device_id, row.id)
            response = remember_key(redirect(url_for("games.show", game_id=row.id), 303), row, key)
            # The device's last choice is preselected next time (clubs.md, Pages).
            return keep_cookie(response, CLUB_CHOICE_COOKIE, form.club.data or "", MEMBER_MAX_AGE)
        form.apply_errors(errors)
    status = 422 if request.method == "POST" else 200
    # The device's clubs offer their players' names (a new name is still welcome).
    known = sorted({n for m in me.memberships for n in roster.regular_names(m.club_id)}, key=str.casefold)
    return render_template(
        "new_game.html", game=game, form=form, known_names=known, submit_token=form_token()
    ), status


def made_already(game: Game | None, token: str | None) -> ResponseReturnValue:
    """The answer to a submission whose copy made the game: that game, with its key on this device."""
    if game is None:
        abort(404)
    return remember_made(redirect(url_for("games.show", game_id=game.id), 303), game, token)


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
        keep_cookie(response, "lang", lang, 3 * 365 * 24 * 3600)
    return response
