"""One game: its page, deal entry and correction, and the printable score sheet."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    g,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import get_locale
from flask_babel import gettext as _
from flask_wtf.csrf import generate_csrf
from sqlalchemy import bindparam, select
from sqlalchemy.exc import SQLAlchemyError

from ... import cache, limits, plugins, read, service
from ...db import db
from ...forms import RulesForm
from ...forms.base import whole_arg
from ...i18n import render
from ...keys import key_matches
from ...models import Game
from ...read import GameView
from ...refusals import Signal
from ...rules import N_, GameResult, InvalidFacts
from .. import secrecy
from ..auth import correcting, game_route, locked_out, may_delete_game, role, role_for, table_lock
from ..cookies import remember_key
from ..devices import remember_opened
from ..etags import live_etag
from ..form_tokens import VERSION_FIELD, answers_version, stamp_form
from ..loading import GAME_ID
from ..present import lead_line, round_text
from ..regions import is_htmx, render_region
from ..via import form_via

bp = Blueprint("games", __name__, url_prefix="/g")


def plugin_of(game: Game) -> plugins.Plugin:
    plugin = plugins.get(game.kind)
    if plugin is None:
        abort(404)
    return plugin


def entry_form(
    game: Game,
    data: dict[str, Any] | None = None,
    fresh: bool = False,
    k: int | None = None,
    same: bool = False,
) -> RulesForm:
    """The entry form of the next deal (or, with ``k``, of deal ``k``'s correction); ``same``
    fills a fresh one with the last deal's facts as far as the next deal allows them."""
    form_class = plugin_of(game).entry_form
    if data is None and game.draft:
        # A half-entered deal survives a reload and another device.
        data = form_class.data_from(game.draft)
    form = form_class.for_setup(service.setup_of(game), data)
    if k is None:
        # From the scored result (kept per version): a long game's deal rows are not read for it.
        known = read.result(game).deals
        form.previous = known[-1].facts if known else None
        at = len(known)
    else:
        at = k
    # The game's state before the deal entered: what the form may offer (Secrets' free spies).
    form.prior = prior_state(game, at)
    form.earlier = earlier_facts(game, at)
    if fresh and request.method == "POST":
        # The next form after a write starts from the record and the draft, not from what was posted.
        form.process(formdata=None, data=data)
    if fresh and k is None and not game.draft:
        if same:
            form.repeat()
        form.prefill()
    return stamp_form(form, game, fresh)


def next_deal(game: Game) -> int:
    """The index of the deal being entered, from the scored result: the deal rows are not read."""
    return len(read.result(game).deals)


def prior_state(game: Game, k: int):
    """The rules' state before deal ``k``, asked for only by a form that offers from it."""
    return lambda: read.state_before(game, k)


def earlier_facts(game: Game, k: int):
    """The facts of the deals before deal ``k``, asked for only by a form that offers from them."""
    return lambda: read.facts_before(game, k)


def page_context(game: Game, view: GameView, **extra: Any) -> dict[str, Any]:
    """What a game's templates get: the view, and the names the templates use for its parts."""
    lock = table_lock()
    return {
        "game": game,
        "view": view,
        "kind": view.rules,
        "result": view.result,
        "editable": view.editable,
        # An event's table, for its scorer (events/_table_game.html): whether it is locked, and
        # whether this is its director correcting it (then every change asks for a reason).
        "table": g.get("table") if view.editable else None,
        "locked_out": locked_out(),
        "correcting": correcting(),
        "may_delete": view.editable and may_delete_game(),
        "lock_message": render(service.TableLocked(lock).message) if lock is not None else None,
        # An event's table game never offers a game of its own after it (Rematch, New game).
        "at_event": read.event_of(game.id) is not None,
        **extra,
    }


def game_context(
    game: Game, view: GameView | None = None, form: RulesForm | None = None, same: bool = False
) -> dict[str, Any]:
    """What the game page shows; ``same``: its entry filled from the last deal as far as the
    next one allows (the form's ``repeat``: Tally's whole deal, Secrets' orders still legal), and
    (where the game previews) what the rules make of it at once."""
    view = view or read.game_view(game, role())
    plugin = plugin_of(game)
    deals = view.result.deals
    offer_same = plugin.same_as_last and bool(deals)
    same_from = len(deals) if same and offer_same and form is None else None
    shown: dict[str, Any] = {}
    if form is None and view.editable and not view.finished and not locked_out():
        form = entry_form(game, fresh=True, same=same)
        if same and plugin.preview:
            shown = preview_of(game, form)
    preview_url = url_for("games.preview", game_id=game.id) if form is not None and plugin.preview else None
    same_url = (
        url_for("games.show", game_id=game.id, same="last", _anchor="entry")
        if form is not None and offer_same and not same_from
        else None
    )
    return page_context(
        game,
        view,
        form=form,
        preview_url=preview_url,
        same_url=same_url,
        same_from=same_from,
        next_form=next_stage_form(game, form),
        **shown,
    )


def next_stage_form(game: Game, form: RulesForm | None) -> RulesForm | None:
    """A deal entered in stages drawn by the server (Abracadabra's, past its set-up): the next
    deal's first stage, empty, for a phone that keeps this deal without a connection and goes on
    at once (static/offline.js puts it in place). None for a form of one stage."""
    if form is None or not game.draft or not hasattr(form, "current_stage"):
        return None
    fresh = entry_form(game, data={}, fresh=True)
    fresh.prefill()
    return fresh


# What the page for a viewer needs of the game before the cache: one primary-key query.
PAGE_ROW = select(Game.id, Game.version, Game.deleted_at, Game.edit_key_hash, Game.club_id).where(
    Game.id == bindparam("game_id")
)


@bp.get("/<game_id>")
def show(game_id: str) -> ResponseReturnValue:
    """The game page: scoreboard, status and the next deal's form. Opening it lists the game
    under this device's "My games" (clubs.md)."""
    page = viewer_page(game_id)
    response = page if page is not None else show_game(game_id)
    status = getattr(response, "status_code", 200)
    if status == 200 and GAME_ID.fullmatch(game_id):
        remember_opened(game_id)
    return response


def viewer_page(game_id: str) -> ResponseReturnValue | None:
    """A viewer's whole page, rendered once per (game, version, language, address) and kept.

    Only a plain look (no query string, no htmx, no flashed message, no key) of a game that
    is not deleted: everything else on such a page comes from the version, except the CSRF
    token of the language form, put back in for each request. None: ``show_game`` answers.
    """
    if request.query_string or "HX-Request" in request.headers or not GAME_ID.fullmatch(game_id):
        return None
    if not current_app.config.get("VIEWER_PAGE_CACHE", True) or "_flashes" in session:
        return None
    with db.engine.connect() as conn:  # no ORM session: a kept page loads no object
        row = conn.execute(PAGE_ROW, {"game_id": game_id}).one_or_none()
    if row is None or row.deleted_at is not None or role_for(row).editable:
        return None
    token = generate_csrf().encode()
    name = cache.key("viewer-page", game_id, row.version, get_locale(), "v", request.host_url)

    def fresh() -> tuple[bool, tuple[bytes, ...]]:
        response = show_game(game_id)
        if response.status_code != 200:
            raise NotKept(response)
        # Kept in pieces around the token: a look joins them, not a search through a long page;
        # and with whether it carries a credential (web/secrecy.py), looked for once, not at
        # every look (a 240-deal board is half a megabyte to search).
        return secrecy.carries_secret(response), tuple(response.get_data().split(token))

    try:
        secret, parts = cache.remember(name, fresh, objects=True)
    except NotKept as answer:
        return answer.response
    secrecy.looked_at(secret)
    response = make_response(token.join(parts))
    response.vary.add("HX-Request")  # as render_region's
    return response


class NotKept(Signal):
    """A page that is not the plain 200 a viewer's look gets: answered, never kept."""

    def __init__(self, response):
        self.response = response


@game_route(deleted=True)
def show_game(game: Game) -> ResponseReturnValue:
    key = request.args.get("key")
    if key is not None:
        # A scoring link: keep its key on this device, then drop it from the address bar.
        if limits.credential(key, lambda k: key_matches(game.edit_key_hash, k)):
            response = remember_key(redirect(url_for(".show", game_id=game.id), 303), game, key)
            response.headers["Referrer-Policy"] = "no-referrer"
            return response
        flash(_("That scoring link is not valid: the game is shown read-only."), "error")
    if game.deleted_at is not None:
        return deleted_page(game)
    # ?same=1 (Secrets' orders) or ?same=last ("Same as last deal"): the entry filled in from the
    # last deal (a link, so it works without JavaScript).
    context = game_context(game, same=request.args.get("same") in ("1", "last"))
    if context["editable"] and not is_htmx():
        context["undo"] = undo_offer(game)
    return render_region("games/show.html", "games/_live.html", **context)


@bp.post("/<game_id>/deals")
@game_route(scorer=True)
def add_deal(game: Game) -> ResponseReturnValue:
    """Record the next deal, or show the rules it breaks."""
    answers_version(game)
    via = form_via()
    form = entry_form(game)
    if form.validate_on_submit():
        setup = service.setup_of(game)
        before = read.result(game) if is_htmx() else None
        try:
            deals = form.to_deals(setup)
            if len(deals) == 1:
                result = service.append_deal(game, deals[0], via)
            else:
                result = service.append_deals(game, deals, via)
        except service.AlreadyDone as done:
            return already_saved(game, done)
        except service.Conflict:
            return conflict(game, form)
        except InvalidFacts as exc:
            form.apply_errors(exc.errors)
        else:
            if is_htmx():
                context = game_context(game)
                # (Several at once: the first is named, the deal; what follows is Tally's end.)
                n = len(result.deals) - len(deals) + 1
                said = round_text(context["kind"], "Deal %(n)s recorded.", n=n)
                announce = f"{said} {lead_line(game.players, context['kind'], context['result'])}"
                small = changes_reply(game, before, context, announce)
                if small is not None:
                    return small
                return render_region("games/show.html", "games/_live.html", announce=announce, **context)
            n = len(result.deals) - len(deals) + 1
            flash(round_text(service.game_rules(game), "Deal %(n)s recorded.", n=n), "ok")
            return redirect(url_for(".show", game_id=game.id, _anchor="entry"), 303)
    return refused(game, form)


@bp.after_app_request
def game_version(response: Response) -> Response:
    """A deal's (or a seat's orders') answer names the game's version after it (``X-Game-Version``): a phone sending the
    deals it kept while offline (static/offline.js) bases the next one on it, whatever the answer's
    body (a small reply, a whole region, a game that ended and has no form left)."""
    game = g.get("answered_version")
    if game is None:
        return response
    try:
        version = game.version
    except SQLAlchemyError:  # a game deleted meanwhile: its answer already says so
        return response
    response.headers["X-Game-Version"] = str(version)
    return response


@dataclass(frozen=True)
class RowChanges:
    """Which rows of the board read differently after a change of deals (by deal index)."""

    redrawn: tuple[int, ...]  # in place
    added: tuple[int, ...]  # after the last row kept
    dropped: tuple[int, ...]
    after: int  # the last row kept

    @classmethod
    def between(cls, before: GameResult, after: GameResult) -> RowChanges | None:
        """None when there is no row to add after (the board's first deal): it is drawn whole."""
        old, new = before.deals, after.deals
        kept = min(len(old), len(new))
        if kept == 0:
            return None
        return cls(
            redrawn=tuple(k for k in range(kept) if old[k] != new[k]),
            added=tuple(range(kept, len(new))),
            dropped=tuple(range(kept, len(old))),
            after=kept - 1,
        )


def changes_reply(
    game: Game, before: GameResult | None, context: dict[str, Any], announce: str, notice: str | None = None
) -> Response | None:
    """The scorer's htmx reply carrying only what a change of deals changed (games/_deal_reply.html):
    the rows that read differently, the foot, status, totals, a fresh form. None when the region
    must be drawn whole: a game whose board is more than rows, a game that ends or opens again, or a
    page that was not drawn at the version just before this change (another device wrote meanwhile)."""
    plugin = plugin_of(game)
    if (
        before is None
        or not plugin.small_replies
        or context["form"] is None
        or before.finished
        or request.form.get(VERSION_FIELD) != str(game.version - 1)
    ):
        return None
    changes = RowChanges.between(before, read.result(game))
    if changes is None:
        return None
    response = make_response(
        render_template(
            "games/_deal_reply.html",
            changes=changes,
            announce=announce,
            notice=notice,
            board_rows=plugin.board_rows,
            undo=undo_offer(game),
            **context,
        )
    )
    response.headers["HX-Reswap"] = "none"
    # The chart (which grows) is asked for after it; the board polling above the form now stands
    # at this version, so its next poll is a 304, not the whole board again.
    board = live_etag(game, True, "board")
    response.headers["HX-Trigger"] = json.dumps({"chart-stale": True, "board-current": {"etag": board}})
    response.vary.add("HX-Request")
    return response


def refused(game: Game, form: RulesForm) -> ResponseReturnValue:
    """422: the form with the rules' messages; a screen reader hears the first one.

    To htmx only the entry itself, swapped into its slot: nothing recorded changed, so the board
    above it stays (a long game's board is most of the page: issue 28's small refusals)."""
    items = form.error_items()
    if not is_htmx():
        return render_region("games/show.html", "games/_live.html", 422, **game_context(game, form=form))
    context = game_context(game, form=form)
    response = make_response(
        render_template("games/_refused.html", announce=items[0][0] if items else None, **context), 422
    )
    response.vary.add("HX-Request")
    response.headers["HX-Retarget"] = "#entry-slot"
    response.headers["HX-Reswap"] = "innerHTML show:#entry:top"
    return response


@bp.post("/<game_id>/preview")
@game_route(scorer=True)
def preview(game: Game) -> ResponseReturnValue:
    """The next deal's points and the new totals as Record would save them, or the rule it breaks:
    scored on the server by the same rules check, nothing written."""
    if not plugin_of(game).preview:
        abort(404)
    form = entry_form(game)
    if form.validate_on_submit():
        shown = preview_of(game, form)
    else:
        shown = {"preview_errors": [text for text, _target in form.error_items()], "preview_missing": []}
    if is_htmx():
        return render_template("games/_preview.html", game=game, **shown)
    # Without JavaScript ("Check"): the page, the entry as typed, the preview in it.
    return render_region("games/show.html", "games/_live.html", **game_context(game, form=form), **shown)


def preview_of(game: Game, form: RulesForm) -> dict[str, Any]:
    """The preview of the deal in ``form``: the game with it scored by the rules, as the scorer
    may see it (the read side hides what the game hides), or the rules it breaks."""
    try:
        return {"preview": read.preview_deal(game, form.to_facts(service.setup_of(game)))}
    except InvalidFacts as exc:
        # What is still to choose is said apart, in neutral words, from a fact that breaks a rule:
        # a scorer half-way through is not told off (issue 53).
        return {
            "preview_errors": [render(e.message) for e in exc.errors if not e.missing],
            "preview_missing": [render(e.message) for e in exc.errors if e.missing],
        }


@bp.post("/<game_id>/draft")
@game_route(scorer=True)
def save_draft(game: Game) -> ResponseReturnValue:
    """Keep the first part of a deal entered in steps (bids before tricks, tricks one by one)."""
    via = form_via()
    plugin = plugin_of(game)
    if not plugin.drafts:
        abort(404)
    form = stamp_form(plugin.entry_form.for_setup(service.setup_of(game)), game)
    form.prior = prior_state(game, next_deal(game))
    # Kept in the background while the scorer goes on entering (Spades' bids, by app.js):
    # the page stays as it is, so the answer is only the form's new stamp.
    background = bool(request.form.get("autosave")) and is_htmx()
    if form.validate_on_submit():
        try:
            if request.form.get("discard"):
                service.save_draft(game, None, via)
                return redirect_or_region(game)
            step = form.to_draft(service.setup_of(game), game.draft or {})
            errors = step.errors(plugin.rules, read.result(game))
            if not errors:
                # The gate hands this request's result on to the draft's version (a quiet change).
                service.save_draft(game, step.facts, via)
                return kept_quietly(game) if background else redirect_or_region(game)
        except service.AlreadyDone:
            return kept_quietly(game) if background else redirect_or_region(game)
        except service.Conflict:
            return swapped_in(conflict(game, form), background)
        form.apply_errors(errors)
    return swapped_in(refused(game, form), background)


def kept_quietly(game: Game) -> ResponseReturnValue:
    """A background save's answer: the entry form's new version and token, nothing else swapped.

    The board above the form is told to look again at once ("board-stale"), so the draft shows
    there without waiting for the next poll."""
    response = make_response(render_template("games/_stamp.html", game=game, token=service.new_token(16)))
    response.headers["HX-Trigger"] = "board-stale"
    return response


def swapped_in(response: ResponseReturnValue, background: bool) -> ResponseReturnValue:
    """A background save that was refused (or met a change from elsewhere) is no longer quiet:
    its answer replaces the page's: the form as entered with the reason (into its slot, as
    :func:`refused` says), or the live region with the conflict."""
    if background:
        response = make_response(response)
        if "HX-Retarget" not in response.headers:
            response.headers["HX-Reswap"] = "outerHTML show:#entry:top"
    return response


def already_saved(game: Game, done: service.AlreadyDone) -> ResponseReturnValue:
    """A replayed submission (double tap, retry after a lost answer): saved once, shown as saved."""
    n = (done.change.deal_index or 0) + 1
    if is_htmx():
        context = game_context(game)
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
    form.prior = prior_state(game, next_deal(game))
    context = game_context(game, form=form)
    return render_region("games/show.html", "games/_live.html", 409, conflict=_(CONFLICT), **context)


def deal_page(
    game: Game, k: int, form: RulesForm | None, status: int = 200, **extra: Any
) -> ResponseReturnValue:
    view = read.game_view(game, role())
    context = page_context(game, view, deal=view.result.deals[k], k=k, form=form, **extra)
    return render_template("games/deal.html", **context), status


def deal_conflict(game: Game, k: int, form: RulesForm | None) -> ResponseReturnValue:
    """409 on a deal's page: the deal as it is now (if still there) and the correction as typed."""
    if not 0 <= k < len(game.deals):
        message = _("This deal was deleted on another device meanwhile: nothing was saved.")
        return render_template("error.html", code=409, error=None, message=message), 409
    if form is not None:
        stamp_form(form, game)
        form.prior = prior_state(game, k)
    else:
        form = entry_form(game, plugin_of(game).entry_form.data_from(game.deals[k].facts), k=k)
    return deal_page(game, k, form, 409, conflict=_(CONFLICT))


def deleted_page(game: Game) -> ResponseReturnValue:
    """A deleted game: its scorer may restore it; for anyone else it is gone."""
    if not role().editable:
        abort(404)
    return render_template("games/deleted.html", game=game, kind=service.game_rules(game))


def undo_offer(game: Game):
    """The newest change, when it deleted or corrected a deal and can still be undone.

    An undo is itself a change, of the same kind as what it put back: offering it as "Deal 5 was
    corrected" would say the opposite of what happened (and its Undo would redo). So an undo is
    offered only when it redid something (an undo of an undo): then the sentence is true again."""
    if table_lock() is not None:
        # A locked event table: its scorer may no longer undo, its director undoes from the
        # history, where the undo asks for a reason.
        return None
    change = service.latest_change(game)
    kinds = ("delete", "replace", "correct_end")
    if change is None or change.kind not in kinds or not service.can_undo(game, change):
        return None
    if change.undoes is not None:
        undone = service.find_change(game, change.undoes)
        if undone is None or undone.undoes is None:
            return None
    return change


def redirect_or_region(game: Game) -> ResponseReturnValue:
    if is_htmx():
        return render_region("games/show.html", "games/_live.html", **game_context(game))
    return redirect(url_for(".show", game_id=game.id, _anchor="entry"), 303)


def deal_index(game: Game, k: int) -> int:
    if not 0 <= k < len(game.deals):
        abort(404)
    return k


@bp.route("/<game_id>/deals/<int:k>", methods=["GET", "POST"])
@game_route()
def edit_deal(game: Game, k: int) -> ResponseReturnValue:
    """Show one deal and, for the scorer, correct it; later deals are rescored."""
    deal_index(game, k)
    form = None
    status = 200
    if request.method == "POST":
        if not role().editable:
            abort(403)
        via = form_via()
        form = entry_form(game, k=k)
        extra: dict[str, Any] = {}
        if form.validate_on_submit():
            saved = True
            facts = form.to_facts(service.setup_of(game))
            keep = request.form.get("trim", type=whole_arg)
            played = len(game.deals)
            try:
                if keep is not None:
                    service.correct_to_end(game, k, facts, keep, via)
                else:
                    service.replace_deal(game, k, facts, via)
            except service.AlreadyDone:
                pass  # this very submission was saved before: say so again
            except (service.Conflict, service.DealGone):
                return deal_conflict(game, k, form)
            except InvalidFacts as exc:
                extra["way_forward"] = way_forward(game, k, exc)
                form.apply_errors(exc.errors)
                saved = False
            if saved:
                if keep is not None:
                    text = _(
                        "Deal %(n)s corrected; %(deals)s deleted: the game ends before them.",
                        n=k + 1,
                        deals=deal_span(keep, played),
                    )
                    flash(text, "ok")
                else:
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
        return deal_page(game, k, form, status, **extra)
    elif role().editable and not locked_out():
        form = entry_form(game, plugin_of(game).entry_form.data_from(game.deals[k].facts), k=k)
    return deal_page(game, k, form, status)


@bp.post("/<game_id>/deals/<int:k>/delete")
@game_route(scorer=True)
def delete_deal(game: Game, k: int) -> ResponseReturnValue:
    """Remove a deal; refused if a later deal would break the rules without it."""
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


def way_forward(game: Game, k: int, exc: InvalidFacts) -> dict[str, Any] | None:
    """When a correction's only fault is that it ends the game earlier, leaving deals after the
    end: which deals, and how many to keep, for the offer to delete them with the correction."""
    ended = plugin_of(game).rules.ended_message
    keep = {e.deal for e in exc.errors if e.field == "deals" and e.message.text == ended}
    if len(keep) != 1 or len(exc.errors) != 1:
        return None
    first = keep.pop()
    if first is None or not k < first < len(game.deals):
        return None
    return {
        "keep": first,
        "deals": deal_span(first, len(game.deals)),
        "message": render(exc.errors[0].message),
    }


def deal_span(first: int, total: int | None) -> str:
    """Deals from index ``first`` to the last, in words: "deal 5", "deals 5-6"."""
    if total is None or total - first <= 1:
        return _("deal %(n)s", n=first + 1)
    return _("deals %(first)s-%(last)s", first=first + 1, last=total)


def render_errors(exc: InvalidFacts) -> str:
    return " ".join(render(e.message) for e in exc.errors)


@bp.get("/<game_id>/sheet")
@game_route()
def sheet(game: Game) -> ResponseReturnValue:
    """The final score sheet, made for printing."""
    return render_template("games/sheet.html", **page_context(game, read.game_view(game, role())))
