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
from ..rules import N_, GameResult, InvalidFacts
from .common import (
    can_edit,
    form_via,
    is_htmx,
    load_game,
    remember_key,
    render_region,
    require_edit,
    stamp_form,
)
from .present import public_result, round_text

bp = Blueprint("games", __name__, url_prefix="/g")


def entry_form(game: Game, data: dict[str, Any] | None = None, fresh: bool = False) -> RulesForm:
    form_class = ENTRY_FORMS.get(game.kind)
    if form_class is None:
        abort(404)
    if data is None and game.draft:
        # A half-entered deal survives a reload and another device.
        data = form_class.data_from(game.draft)
    form = form_class.for_setup(service.setup_of(game), data)
    if fresh and request.method == "POST":
        # The next form after a write starts from the record and the draft, not from what was posted.
        form.process(formdata=None, data=data)
    return stamp_form(form, game, fresh)


def game_context(game: Game, result: GameResult, form: RulesForm | None = None) -> dict[str, Any]:
    editable = can_edit(game)
    if form is None and editable and not result.finished:
        form = entry_form(game, fresh=True)
    return {
        "game": game,
        "kind": service.game_rules(game),
        "result": public_result(service.game_rules(game), result),
        "form": form,
        "editable": editable,
    }


@bp.get("/<game_id>")
def show(game_id: str) -> ResponseReturnValue:
    """The game page: scoreboard, status and the next deal's form."""
    game = load_game(game_id, deleted=True)
    key = request.args.get("key")
    if key is not None:
        # A scoring link: keep its key on this device, then drop it from the address bar.
        if game.key_matches(key):
            response = remember_key(redirect(url_for(".show", game_id=game.id), 303), game, key)
            response.headers["Referrer-Policy"] = "no-referrer"
            return response
        flash(_("That scoring link is not valid: the game is shown read-only."), "error")
    if game.deleted_at is not None:
        return deleted_page(game)
    result = service.score(game)
    context = game_context(game, result)
    if context["editable"] and not is_htmx():
        context["undo"] = undo_offer(game)
    return render_region("games/show.html", "games/_live.html", **context)


@bp.post("/<game_id>/deals")
def add_deal(game_id: str) -> ResponseReturnValue:
    """Record the next deal, or show the rules it breaks."""
    game = load_game(game_id)
    require_edit(game)
    via = form_via()
    form = entry_form(game)
    if form.validate_on_submit():
        setup = service.setup_of(game)
        try:
            result = service.append_deal(game, form.to_facts(setup), via)
        except service.AlreadyDone as done:
            return already_saved(game, done)
        except service.Conflict:
            return conflict(game, form)
        except InvalidFacts as exc:
            form.apply_errors(exc.errors)
        else:
            if is_htmx():
                return render_region("games/show.html", "games/_live.html", **game_context(game, result))
            flash(round_text(service.game_rules(game), "Deal %(n)s recorded.", n=len(result.deals)), "ok")
            return redirect(url_for(".show", game_id=game.id, _anchor="entry"), 303)
    result = service.score(game)
    return render_region("games/show.html", "games/_live.html", 422, **game_context(game, result, form))


@bp.post("/<game_id>/draft")
def save_draft(game_id: str) -> ResponseReturnValue:
    """Keep the first part of a deal entered in steps (bids before tricks, tricks one by one)."""
    game = load_game(game_id)
    require_edit(game)
    via = form_via()
    form_class = ENTRY_FORMS.get(game.kind)
    if form_class is None or not hasattr(form_class, "check_draft"):
        abort(404)
    form = stamp_form(form_class.for_setup(service.setup_of(game)), game)
    result = service.score(game)
    if form.validate_on_submit():
        try:
            if request.form.get("discard"):
                service.save_draft(game, None, via)
                return redirect_or_region(game, result)
            draft = form.to_draft(service.setup_of(game), game.draft or {})
            errors = form_class.check_draft(service.game_rules(game), result, draft)
            if not errors:
                service.save_draft(game, draft, via)
                return redirect_or_region(game, result)
        except service.AlreadyDone:
            return redirect_or_region(game, service.score(game))
        except service.Conflict:
            return conflict(game, form)
        form.apply_errors(errors)
    return render_region("games/show.html", "games/_live.html", 422, **game_context(game, result, form))


def already_saved(game: Game, done: service.AlreadyDone) -> ResponseReturnValue:
    """A replayed submission (double tap, retry after a lost answer): saved once, shown as saved."""
    n = (done.change.deal_index or 0) + 1
    if is_htmx():
        context = game_context(game, service.score(game))
        return render_region(
            "games/show.html", "games/_live.html", notice=_("Deal %(n)s was recorded (once).", n=n), **context
        )
    flash(round_text(service.game_rules(game), "Deal %(n)s recorded.", n=n), "ok")
    return redirect(url_for(".show", game_id=game.id, _anchor="entry"), 303)


CONFLICT = N_(
    "Not saved: this game was changed on another device meanwhile. The newest state is shown; "
    "your entry is kept below. Check it against the scoreboard and save it again if it still applies."
)


def conflict(game: Game, form: RulesForm) -> ResponseReturnValue:
    """409: the game as it is now, a clear message, and the entry as typed, now based on this state."""
    stamp_form(form, game)
    context = game_context(game, service.score(game), form)
    return render_region("games/show.html", "games/_live.html", 409, conflict=_(CONFLICT), **context)


def deal_conflict(game: Game, k: int, form: RulesForm | None) -> ResponseReturnValue:
    """409 on a deal's page: the deal as it is now (if still there) and the correction as typed."""
    if not 0 <= k < len(game.deals):
        message = _("This deal was deleted on another device meanwhile: nothing was saved.")
        return render_template("error.html", code=409, error=None, message=message), 409
    result = public_result(service.game_rules(game), service.score(game))
    if form is not None:
        stamp_form(form, game)
    return (
        render_template(
            "games/deal.html",
            game=game,
            kind=service.game_rules(game),
            result=result,
            deal=result.deals[k],
            k=k,
            form=form or entry_form(game, ENTRY_FORMS[game.kind].data_from(game.deals[k].facts)),
            editable=True,
            conflict=_(CONFLICT),
        ),
        409,
    )


def deleted_page(game: Game) -> ResponseReturnValue:
    """A deleted game: its scorer may restore it; for anyone else it is gone."""
    if not can_edit(game):
        abort(404)
    return render_template("games/deleted.html", game=game, kind=service.game_rules(game))


def undo_offer(game: Game):
    """The newest change, when it deleted or corrected a deal and can still be undone."""
    change = service.latest_change(game)
    if change is not None and change.kind in ("delete", "replace") and service.can_undo(game, change):
        return change
    return None


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
    result = public_result(service.game_rules(game), service.score(game))
    editable = can_edit(game)
    form = None
    status = 200
    if request.method == "POST":
        require_edit(game)
        via = form_via()
        form = entry_form(game)
        if form.validate_on_submit():
            saved = True
            try:
                service.replace_deal(game, k, form.to_facts(service.setup_of(game)), via)
            except service.AlreadyDone:
                pass  # this very submission was saved before: say so again
            except service.Conflict:
                return deal_conflict(game, k, form)
            except InvalidFacts as exc:
                form.apply_errors(exc.errors)
                saved = False
            if saved:
                flash(
                    round_text(
                        service.game_rules(game),
                        "Deal %(n)s corrected; the scores after it are recalculated.",
                        n=k + 1,
                    ),
                    "ok",
                )
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
    via = form_via()
    deal_index(game, k)
    try:
        service.delete_deal(game, k, via)
    except service.AlreadyDone:
        pass
    except service.Conflict:
        return deal_conflict(game, k, None)
    except InvalidFacts as exc:
        flash(
            round_text(
                service.game_rules(game),
                "Deal %(n)s cannot be deleted: %(why)s",
                n=k + 1,
                why=render_errors(exc),
            ),
            "error",
        )
        return redirect(url_for(".edit_deal", game_id=game.id, k=k), 303)
    flash(
        round_text(
            service.game_rules(game), "Deal %(n)s deleted; the scores after it are recalculated.", n=k + 1
        ),
        "ok",
    )
    return redirect(url_for(".show", game_id=game.id), 303)


def render_errors(exc: InvalidFacts) -> str:
    return " ".join(render(e.message) for e in exc.errors)


@bp.get("/<game_id>/sheet")
def sheet(game_id: str) -> ResponseReturnValue:
    """The final score sheet, made for printing."""
    game = load_game(game_id)
    result = public_result(service.game_rules(game), service.score(game))
    return render_template("games/sheet.html", game=game, kind=service.game_rules(game), result=result)
