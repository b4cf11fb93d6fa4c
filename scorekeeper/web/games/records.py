"""Games going out and coming in: the game lists (with their export links), exports (JSON, CSV, PDF), import, backups.

Thin views: the numbers come from :mod:`scorekeeper.clubs.figures` (pure), the
PDF from :mod:`scorekeeper.pdf`, backup and restore from :mod:`scorekeeper.backup.archive`
(whose ``export`` and ``import`` commands this blueprint adds to ``scorekeeper``).
Every game is loaded with its seats and deals in three queries, whatever the count.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from flask import (
    Blueprint,
    Response,
    current_app,
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
from flask_wtf.file import FileField, FileRequired
from sqlalchemy import select
from sqlalchemy.orm import lazyload

from ... import cache, limits, pdf, read, service
from ...access import my_games
from ...backup import archive, dbcopy
from ...clubs import figures, roster
from ...clubs.service import remember_game
from ...db import db
from ...forms.base import whole_arg
from ...games import GAMES
from ...i18n import render
from ...models import Club, Game, Seat
from ...refusals import Refusal
from ...rules import FieldError, InvalidFacts, msg
from ...rules.base import MAX_NAME
from ..auth import game_route, role, viewer
from ..cookies import remember_key
from ..devices import keep_opened
from ..errors import refused
from ..templating import pdf_printer, pdf_unavailable
from ..via import form_via
from . import assets as game_assets
from .pages import page_context

bp = Blueprint("records", __name__, cli_group=None)
bp.cli.add_command(archive.export_command)
bp.cli.add_command(archive.import_command)
bp.cli.add_command(dbcopy.backup_command)

PER_PAGE = 50
MAX_PAGE = 10**6
PAPERS = {"a4": "A4", "letter": "letter"}


def with_player(name: str):
    return Game.id.in_(select(Seat.game_id).where(Seat.name == name))


def file_name(game: Game, extension: str) -> str:
    return f"{game.kind}-{game.created_at:%Y-%m-%d}-{game.id}.{extension}"


def attachment(body: Any, mimetype: str, name: str) -> Response:
    response = Response(body, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


# -- lists and players -----------------------------------------------------------


@bp.get("/games")
def list_games() -> ResponseReturnValue:
    """This device's games (created, scored or opened here), archived ones too; nobody else's."""
    keep_opened()
    me = viewer()
    known = sorted({n for m in me.memberships for n in roster.regular_names(m.club_id)}, key=str.casefold)
    return games_list(my_games(me, archived=None), known, None)


def games_list(base: Any, known_names: list[str], club: Club | None) -> ResponseReturnValue:
    """A list of games, newest first, filtered by game kind, player and archived; ``base`` is the
    visibility rule's query of the games the caller may list (scorekeeper.access)."""
    kind = request.args.get("kind", "")
    if kind not in GAMES:
        kind = ""
    player = request.args.get("player", "").strip()[:MAX_NAME]
    # A page past any real list is empty; the cap keeps the OFFSET within a database integer.
    page = min(max(1, request.args.get("page", 1, type=whole_arg) or 1), MAX_PAGE)
    query = base.options(lazyload(Game.deals))
    query = query.where(Game.kind == kind if kind else Game.kind.in_(list(GAMES)))
    if player:
        query = query.where(with_player(player))
    # Archived games are listed here (home leaves them out); "1" shows only them, "0" the others.
    archived = request.args.get("archived", "")
    if archived in ("0", "1"):
        query = query.where(Game.archived.is_(archived == "1"))
    else:
        archived = ""
    query = query.order_by(None).order_by(Game.updated_at.desc(), Game.id)
    games = db.session.scalars(query.offset((page - 1) * PER_PAGE).limit(PER_PAGE + 1)).all()
    return render_template(
        "records/games.html",
        items=[(game, summary, summary) for game, summary in read.list_views(games[:PER_PAGE])],
        at_events=read.event_games([g.id for g in games[:PER_PAGE]]),
        more=len(games) > PER_PAGE,
        page=page,
        kind=kind,
        player=player,
        archived=archived,
        games=GAMES,
        known_names=known_names,
        club=club,
    )


# -- one game's records ------------------------------------------------------------


@bp.get("/g/<game_id>/record.json")
@game_route()
def export_json(game: Game) -> ResponseReturnValue:
    """The game record (JSON) as a file: what the import page reads back."""
    body = json.dumps(read.public_record(game), ensure_ascii=False, indent=1)
    return attachment(body + "\n", "application/json", file_name(game, "json"))


@bp.get("/g/<game_id>/scores.csv")
@game_route()
def export_csv(game: Game) -> ResponseReturnValue:
    """One row per deal with each player's points, then the totals, as CSV."""
    rows = figures.csv_rows(read.public_record(game), _("Deal"), _("Total"))
    return attachment(figures.csv_text(rows), "text/csv", file_name(game, "csv"))


@bp.get("/g/<game_id>/sheet.pdf")
@game_route()
def download_pdf(game: Game) -> ResponseReturnValue:
    """The printed score sheet as a PDF file (A4, or Letter with ?paper=letter)."""
    chromium = pdf_printer()
    if chromium is None:
        flash(pdf_unavailable(), "error")
        return redirect(url_for("games.sheet", game_id=game.id), 303)
    paper = request.args.get("paper", "a4")
    paper = paper if paper in PAPERS else "a4"
    viewer = role()

    def sheet_html() -> str:
        static = current_app.static_folder
        assert static is not None  # the app serves its static folder
        return render_template(
            "games/sheet_pdf.html",
            **page_context(game, read.game_view(game, viewer)),
            paper=PAPERS[paper],
            stylesheet=Path(static, "app.css").read_text(encoding="utf-8")
            + game_assets.style_text(game.kind),
        )

    # Printed once per version, language, role and paper, then kept in the instance folder;
    # the code's hash in the name: a new release prints anew.
    who = viewer.name if viewer.seat is None else f"{viewer.name}{viewer.seat}"
    name = f"{get_locale()}-{who}-{paper}-{cache.code_hash()}"
    folder = Path(current_app.config.get("PDF_FOLDER") or Path(current_app.instance_path, "pdf"), game.id)
    try:
        data = pdf.render_once(folder, game.version, name, sheet_html, chromium)
    except pdf.PdfError:
        current_app.logger.exception("printing the sheet of %s to PDF failed", game.id)
        flash(_("The PDF could not be made just now. Use Print and choose “Save as PDF”."), "error")
        return redirect(url_for("games.sheet", game_id=game.id), 303)
    return attachment(data, "application/pdf", file_name(game, "pdf"))


# -- import --------------------------------------------------------------------------


class ImportForm(FlaskForm):
    record = FileField(_l("Game record (a .json file)"), validators=[FileRequired(_l("Choose a file."))])


class ImportProblem(Refusal):
    """Why an uploaded file cannot become a game, in words for the page (422, at the file's
    field). Its words are in the page's language already (the reasons come from the file and
    the rules): carried as they are, never looked up in the catalog again."""

    def __init__(self, words: str):
        super().__init__("record", msg("{words}", words=words))


def read_record(upload) -> Any:
    try:
        return json.loads(upload.read().decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise ImportProblem(_("This file is not text: choose a game record (.json).")) from None
    except RecursionError:
        raise ImportProblem(_("This file is nested too deeply to be a game record.")) from None
    except json.JSONDecodeError as exc:
        raise ImportProblem(
            _(
                "This file is not JSON: %(why)s (line %(line)s, column %(col)s).",
                why=exc.msg,
                line=exc.lineno,
                col=exc.colno,
            )
        ) from None
    except ValueError:  # Python refuses to read an integer of more than 4,300 digits
        raise ImportProblem(_("This file holds a number far too long to be a score.")) from None


def describe_problem(errors: Sequence[FieldError], data: Any) -> str:
    """The first problem of a refused record: where it is and the rule it breaks."""
    error = errors[0]
    message = render(error.message)
    if error.deal is None:
        text = _("%(field)s: %(message)s", field=error.field, message=message)
    else:
        kind = archive.kind_of(data)
        word = render(kind.deal_word if kind else "deal").capitalize()
        text = _(
            "%(word)s %(n)s, %(field)s: %(message)s",
            word=word,
            n=error.deal + 1,
            field=error.field,
            message=message,
        )
    if len(errors) > 1:
        text += " " + _("(%(n)s more problems after this one.)", n=len(errors) - 1)
    return text


@bp.route("/import", methods=["GET", "POST"])
@limits.limit("games")
def import_game() -> ResponseReturnValue:
    """Read a game record (JSON) back as a new game; a bad file is refused and nothing is created."""
    form = ImportForm()
    if form.validate_on_submit():
        try:
            data = read_record(form.record.data)
            if archive.is_backup(data):
                raise ImportProblem(
                    _(
                        "This is a backup of many games: restore it on the server with “scorekeeper import FILE”."
                    )
                )
            try:
                game_rules, setup, deals, result = service.check_record(data)
            except InvalidFacts as exc:
                raise ImportProblem(describe_problem(exc.errors, data)) from None
        except ImportProblem as problem:
            status = problem.status  # the page again, the file's problem where the eye is
            return refused(problem, lambda words: (import_page(form, words), status))
        else:
            game, key = service.create_game(game_rules, setup, deals, result=result)
            # A personal game, listed under this device's games.
            remember_game(form_via().device_id, game.id)
            flash(_("Game imported: every score is recalculated by the rules."), "ok")
            if archive.totals_differ(data.get("totals"), result):
                flash(
                    _("The file's totals differed from the rules' totals: the rules' totals are shown."),
                    "error",
                )
            return remember_key(redirect(url_for("games.show", game_id=game.id), 303), game, key)
    status = 422 if request.method == "POST" else 200
    return import_page(form, None), status


def import_page(form: ImportForm, problem: str | None) -> str:
    return render_template("records/import.html", form=form, problem=problem)
