"""One game: its page, deal entry and correction, and the printable score sheet."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from .. import service
from ..forms import ENTRY_FORMS, RulesForm
from ..i18n import render
from ..models import Game
from ..rules import GameResult, InvalidFacts
from .common import can_edit, is_htmx, load_game, remember_key, render_region, require_edit

bp = Blueprint("games", __name__, url_prefix="/g")


def entry_form(game: Game, data: dict[str, Any] | None = None) -> RulesForm:
    form_class = ENTRY_FORMS.get(game.kind)
    if form_class is None:
        abort(404)
    if data is None and game.draft:
        # A half-entered deal survives a reload and another device.
        data = form_class.data_from(game.draft)
    return form_class.for_setup(service.setup_of(game), data)


def game_context(game: Game, result: GameResult, form: RulesForm | None = None) -> dict[str, Any]:
    editable = can_edit(game)
    if form is None and editable and not result.finished:
        form = entry_form(game)
    return {
        "game": game,
        "kind": service.game_rules(game),
        "result": result,
        "form": form,
        "editable": editable,
    }


@bp.get("/<game_id>")
def show(game_id: str) -> ResponseReturnValue:
    """The game page: scoreboard, status and the next deal's form."""
    game = load_game(game_id)
    key = request.args.get("key")
    if key is not None:
        # A scoring link: keep its key on this device, then drop it from the address bar.
        if game.key_matches(key):
            return remember_key(redirect(url_for(".show", game_id=game.id), 303), game, key)
        flash(_("That scoring link is not valid: the game is shown read-only."), "error")
    result = service.score(game)
    return render_region("games/show.html", "games/_live.html", **game_context(game, result))


@bp.post("/<game_id>/deals")
def add_deal(game_id: str) -> ResponseReturnValue:
    """Record the next deal, or show the rules it breaks."""
    game = load_game(game_id)
    require_edit(game)
    form = entry_form(game)
    if form.validate_on_submit():
        setup = service.setup_of(game)
        try:
            result = service.append_deal(game, form.to_facts(setup))
        except InvalidFacts as exc:
            form.apply_errors(exc.errors)
        else:
            if is_htmx():
                return render_region("games/show.html", "games/_live.html", **game_context(game, result))
            flash(_("Deal %(n)s recorded.", n=len(result.deals)), "ok")
            return redirect(url_for(".show", game_id=game.id, _anchor="entry"), 303)
    result = service.score(game)
    return render_region("games/show.html", "games/_live.html", 422, **game_context(game, result, form))


@bp.post("/<game_id>/draft")
def save_draft(game_id: str) -> ResponseReturnValue:
    """Keep the first part of a deal entered in steps (bids before tricks, tricks one by one)."""
    game = load_game(game_id)
    require_edit(game)
    form_class = ENTRY_FORMS.get(game.kind)
    if form_class is None or not hasattr(form_class, "check_draft"):
        abort(404)
    form = form_class.for_setup(service.setup_of(game))
    result = service.score(game)
    if form.validate_on_submit():
        if request.form.get("discard"):
            service.save_draft(game, None)
            return redirect_or_region(game, result)
        draft = form.to_draft(service.setup_of(game), game.draft or {})
        errors = form_class.check_draft(service.game_rules(game), result, draft)
        if not errors:
            service.save_draft(game, draft)
            return redirect_or_region(game, result)
        form.apply_errors(errors)
    return render_region("games/show.html", "games/_live.html", 422, **game_context(game, result, form))


def redirect_or_region(game: Game, result: GameResult) -> ResponseReturnValue:
    if is_htmx():
        return render_region("games/show.html", "games/_live.html", **game_context(game, result))
    return redirect(url_for(".show", game_id=game.id, _anchor="entry"), 303)


def deal_index(game: Game, k: int) -> int:
    if not 0 <= k < len(game.deals):
        abort(404)
    return k


@bp.route("/<game_id>/deals/<int:k>", methods=["GET", "POST"])
def edit_deal(game_id: str, k: int) -> ResponseReturnValue:
    """Show one deal and, for the scorer, correct it; later deals are rescored."""
    game = load_game(game_id)
    deal_index(game, k)
    result = service.score(game)
    editable = can_edit(game)
    form = None
    status = 200
    if request.method == "POST":
        require_edit(game)
        form = entry_form(game)
        if form.validate_on_submit():
            try:
                service.replace_deal(game, k, form.to_facts(service.setup_of(game)))
            except InvalidFacts as exc:
                form.apply_errors(exc.errors)
            else:
                flash(_("Deal %(n)s corrected; the scores after it are recalculated.", n=k + 1), "ok")
                return redirect(url_for(".show", game_id=game.id), 303)
        status = 422
    elif editable:
        form = entry_form(game, ENTRY_FORMS[game.kind].data_from(game.deals[k].facts))
    return (
        render_template(
            "games/deal.html",
            game=game,
            kind=service.game_rules(game),
            result=result,
            deal=result.deals[k],
            k=k,
            form=form,
            editable=editable,
        ),
        status,
    )


@bp.post("/<game_id>/deals/<int:k>/delete")
def delete_deal(game_id: str, k: int) -> ResponseReturnValue:
    """Remove a deal; refused if a later deal would break the rules without it."""
    game = load_game(game_id)
    require_edit(game)
    deal_index(game, k)
    try:
        service.delete_deal(game, k)
    except InvalidFacts as exc:
        flash(_("Deal %(n)s cannot be deleted: %(why)s", n=k + 1, why=render_errors(exc)), "error")
        return redirect(url_for(".edit_deal", game_id=game.id, k=k), 303)
    flash(_("Deal %(n)s deleted; the scores after it are recalculated.", n=k + 1), "ok")
    return redirect(url_for(".show", game_id=game.id), 303)


def render_errors(exc: InvalidFacts) -> str:
    return " ".join(render(e.message) for e in exc.errors)


@bp.get("/<game_id>/sheet")
def sheet(game_id: str) -> ResponseReturnValue:
    """The final score sheet, made for printing."""
    game = load_game(game_id)
    result = service.score(game)
    return render_template("games/sheet.html", game=game, kind=service.game_rules(game), result=result)
