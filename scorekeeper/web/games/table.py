"""At the table: live scoreboards, sharing by QR code, the history with undo, deleting a game.

- ``GET /g/<id>/live`` is what every open game page polls (htmx, every few
  seconds): the status and scoreboard with an ETag of game, version, language
  and role; an unchanged game answers 304 after one small query, no scoring.
- ``GET /g/<id>/handover`` (scorer only) shows the scoring link with the key as
  a QR code, to hand scoring over to another phone.
- ``GET /g/<id>/history`` (scorer only): every change, when and from which
  device, each with an undo while it can still be undone.
"""

from __future__ import annotations

import json
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import format_datetime, format_timedelta
from flask_babel import gettext as _
from markupsafe import Markup
from sqlalchemy import bindparam, select

from ... import cache, read, service
from ...db import db
from ...i18n import render
from ...models import Change, Game, utcnow
from ...read import VIEWER
from ...rules import InvalidFacts
from ...rules.base import read_whole
from ..auth import correcting, game_route, locked_out, presented_key, resolve_table, role_for
from ..cookies import DEVICE_COOKIE
from ..etags import changed_at, follow_caching, live_etag_value
from ..live.livepoll import LIVE_ROW
from ..live.shed import CHANGED_AT
from ..loading import GAME_ID, load_game
from ..regions import is_htmx, render_region
from ..via import form_via
from .pages import RowChanges, changes_reply, game_context, page_context, plugin_of, undo_offer

bp = Blueprint("table", __name__, url_prefix="/g")

MAX_ID = 2**31 - 1


@bp.get("/<game_id>/live")
def live(game_id: str) -> ResponseReturnValue:
    """A followed region (``part``: the whole live region, or the board above a form); 304 if unchanged."""
    part = request.args.get("part")
    if part not in ("live", "board", "chart") or not GAME_ID.fullmatch(game_id):
        abort(404)
    row = db.session.execute(LIVE_ROW, {"game_id": game_id}).one_or_none()
    if row is None:
        abort(404)
    if row.deleted_at is not None:
        # 286 tells htmx to stop polling; the notice takes the region's place.
        notice = Markup.escape(_("This game was deleted."))
        return f'<p id="{part}" class="flash flash-error" role="status">{notice}</p>', 286
    request.environ[CHANGED_AT] = changed_at(row.updated_at)
    # The role from the row alone: an unchanged game answers 304 without loading or scoring it.
    # The scorer's regions ask on their own URL (``as=scorer``): a viewer's URL answers the same
    # to every phone, whatever its cookies, so a shared cache may keep it (follow_caching).
    scorer = request.args.get("as") == "scorer"
    viewer = role_for(row) if scorer else VIEWER
    etag = live_etag_value(game_id, row.version, viewer.editable, part)
    since = None if viewer.editable else delta_base(etag, row.version)
    delta = ""
    if request.if_none_match.contains_weak(etag):
        response = Response(status=304)
    elif viewer.editable:
        html, whole = scorer_region(game_id, viewer, part)
        response = make_response(html)
        if whole:
            # The board followed above a form whose game has no next deal now (it ended with a
            # deal from another device, a director's correction, the table locked): the whole
            # region takes its place, so the page shows the end and what comes next (an event
            # table's confirmation, "wait for the next round") without a reload, as a round closed
            # by the director does (issue 53).
            response.headers["HX-Retarget"] = "#live"
            response.headers["HX-Reswap"] = "outerHTML"
    elif since is not None and (
        delta := cache.remember(
            cache.key("live-delta", etag, since), lambda: live_delta(game_id, viewer, part, since)
        )
    ):
        # What changed since the poller's version: drawn once per version (by the write, web/live/livepoll.py).
        response = make_response(delta)
        response.headers["HX-Reswap"] = "none"
        response.headers["HX-Trigger"] = json.dumps({"live-current": {"etag": f'W/"{etag}"'}})
        response.headers[DELTA_HEADER] = str(since)
    else:
        # A viewer's region is the same for every viewer: rendered once per version and language,
        # a changed game costs each following phone one cache read, not a load and a render.
        html = cache.remember(cache.key("live", etag), lambda: live_html(game_id, viewer, part))
        response = make_response(html)
    response.set_etag(etag, weak=True)
    # A delta is that phone's alone (it depends on X-Live-Since): never kept by a shared cache.
    public = request.args.get("lang") in current_app.config["LANGUAGES"] and not delta
    cache_control, vary = follow_caching(scorer, public)
    if delta:
        vary += ", X-Live-Since"
    response.headers["Cache-Control"] = cache_control
    response.vary.update(v.strip() for v in vary.split(","))
    return response


# The header a followed page sends with its region's ETag (static/app.js): it asks for what changed
# since that version. A page at most this many versions behind gets the changes; further, the whole.
SINCE_HEADER = "X-Live-Since"
DELTA_HEADER = "X-Live-Delta"
MAX_BEHIND = 8
# The changes a viewer's delta can carry: deals added at the end (a draft kept changes no row).
DELTA_KINDS = frozenset({"append", "draft"})
CHANGES_SINCE = (
    select(Change.kind, Change.deal_index)
    .where(Change.game_id == bindparam("game_id"), Change.version > bindparam("since"))
    .order_by(Change.version)
)


def delta_base(etag: str, version: int) -> int | None:
    """The version a viewer's page was drawn at (``X-Live-Since``, this region's ETag at another
    version), if a few versions behind ``version``; else None (the whole region is answered)."""
    asked = request.headers.get(SINCE_HEADER, "")
    game_id, _, rest = etag.partition(".")
    _version, _, tail = rest.partition(".")
    parts = asked.removeprefix("W/").strip('"').split(".", 2)
    since = read_whole(parts[1], 9) if len(parts) == 3 and parts[0] == game_id and parts[2] == tail else None
    if since is None:
        return None
    return since if version - MAX_BEHIND <= since < version else None


def live_delta(game_id: str, viewer, part: str, since: int) -> str:
    """A viewer's region as what changed since version ``since`` (games/_live_delta.html): the deals
    added since, the foot, the status and the chart; "" when only the whole region will do (a deal
    corrected or deleted, the game's first deal or its end, a board that is more than rows)."""
    if part != "live":
        return ""
    game = load_game(game_id)
    plugin = plugin_of(game)
    if not plugin.small_replies:
        return ""
    changes = db.session.execute(CHANGES_SINCE, {"game_id": game_id, "since": since}).all()
    if len(changes) != game.version - since or any(
        kind not in DELTA_KINDS or (kind == "append" and k is None) for kind, k in changes
    ):
        return ""
    resolve_table(game, viewer)
    view = read.game_view(game, viewer)
    result = view.result
    added = [int(k) for kind, k in changes if kind == "append" and k is not None]
    kept = len(result.deals) - len(added)
    if result.finished or kept < 1 or added != list(range(kept, len(result.deals))):
        return ""
    rows = RowChanges(redrawn=(), added=tuple(added), dropped=(), after=kept - 1)
    return render_template(
        "games/_live_delta.html", changes=rows, board_rows=plugin.board_rows, **page_context(game, view)
    )


def scorer_region(game_id: str, viewer, part: str) -> tuple[str, bool]:
    """A scorer's followed region, and whether it is the whole live region in place of the board
    asked for (a page drawn with a form, for a game that no longer takes one)."""
    if part != "board":
        return live_html(game_id, viewer, part), False
    game = load_game(game_id)
    resolve_table(game, viewer)
    view = read.game_view(game, viewer)
    if view.finished or locked_out():
        return render_template("games/_live.html", **game_context(game, view)), True
    return render_template("games/_board.html", follow_board=True, **page_context(game, view)), False


def live_html(game_id: str, viewer, part: str) -> str:
    game = load_game(game_id)
    resolve_table(game, viewer)  # a locked event table's scorer gets no entry form back
    view = read.game_view(game, viewer)
    if part == "board":
        return render_template("games/_board.html", follow_board=True, **page_context(game, view))
    if part == "chart":  # asked for after a small reply to a deal (games/_deal_reply.html)
        return render_template("games/_chart.html", **page_context(game, view))
    return render_template("games/_live.html", **game_context(game, view))


@bp.get("/<game_id>/handover")
@game_route(scorer=True)
def handover(game: Game) -> ResponseReturnValue:
    """The scoring link (with the key) as a QR code: the phone that scans it can score this game."""
    link = url_for("games.show", game_id=game.id, key=presented_key(), _external=True)
    response = make_response(
        render_template("games/handover.html", game=game, kind=service.game_rules(game), link=link)
    )
    # The key is on this page: never cached, never sent on as a Referer.
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


# ---- History and undo


def facts_text(facts: Any) -> str:
    """A deal's facts in one short line: "tricks 4 3 3 3 · agents L O R S"."""
    if not isinstance(facts, dict):
        return value_text(facts)
    return " · ".join(f"{key} {value_text(value)}" for key, value in facts.items())


def value_text(value: Any) -> str:
    if isinstance(value, list) and all(not isinstance(v, (list, dict)) for v in value):
        return " ".join(value_text(v) for v in value)
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if value is None:
        return "–"
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return str(value)


def diff_text(before: Any, after: Any) -> str:
    """What a correction changed: "tricks 4 3 3 3 → 13 0 0 0"."""
    if not (isinstance(before, dict) and isinstance(after, dict)):
        return f"{value_text(before)} → {value_text(after)}"
    parts = []
    for key in [*before, *(k for k in after if k not in before)]:
        if before.get(key) != after.get(key):
            parts.append(f"{key} {value_text(before.get(key))} → {value_text(after.get(key))}")
    return " · ".join(parts) or _("nothing")


def describe_change(change: Change) -> tuple[str, str]:
    """What a change did, as a title and a detail line."""
    n = (change.deal_index or 0) + 1
    kind = change.kind
    if kind == "create":
        if change.after:
            return _("Game started"), _("%(n)s deals imported", n=change.after)
        return _("Game started"), ""
    if kind == "append":
        return _("Deal %(n)s recorded", n=n), facts_text(change.after)
    if kind == "replace":
        return _("Deal %(n)s corrected", n=n), diff_text(change.before, change.after)
    if kind == "delete":
        return _("Deal %(n)s deleted", n=n), facts_text(change.before)
    if kind == "restore":
        return _("Deal %(n)s put back", n=n), facts_text(change.after)
    if kind == "correct_end":
        removed = len(change.before["removed"])
        return _("Deal %(n)s corrected; later deals deleted: %(m)s", n=n, m=removed), diff_text(
            change.before["deal"], change.after
        )
    if kind == "restore_end":
        return _("Deal %(n)s correction undone; deals put back: %(m)s", n=n, m=change.after), ""
    if kind == "draft":
        if change.after is None:
            return _("Half-entered deal discarded"), facts_text(change.before) if change.before else ""
        return _("Half-entered deal kept"), facts_text(change.after)
    if kind == "delete_game":
        return _("Game deleted"), ""
    if kind == "restore_game":
        return _("Game restored"), ""
    if kind == "options":
        return _("Options changed"), ""
    if kind == "archive":
        return _("Game archived"), ""
    if kind == "unarchive":
        return _("Game brought back from the archive"), ""
    if kind == "rename":
        return _("Player renamed"), f"{change.before['name']} → {change.after['name']}"
    if kind == "orders_in":
        # Who sent their orders from their phone, never what (spec "Seat entry").
        return _("%(player)s's orders are in (turn %(turn)s)", **change.after), ""
    return kind, ""


def history_context(game: Game) -> dict[str, Any]:
    changes = service.history(game)
    now = utcnow()
    this_device = request.cookies.get(DEVICE_COOKIE)
    entries = []
    for change in changes:
        title, detail = describe_change(change)
        entries.append(
            {
                "change": change,
                "title": title,
                "detail": detail,
                "ago": format_timedelta(change.created_at - now, add_direction=True),
                "when": format_datetime(change.created_at, "medium"),
                "device": change.device or _("unknown device"),
                "this_device": bool(this_device) and change.device_id == this_device,
                "undoable": service.can_undo(game, change) and not locked_out(),
            }
        )
    return {"game": game, "kind": service.game_rules(game), "entries": entries, "correcting": correcting()}


@bp.get("/<game_id>/history")
@game_route(scorer=True, deleted=True)
def history(game: Game) -> ResponseReturnValue:
    """Every change to the game, newest first, for its scorer."""
    response = make_response(render_template("games/history.html", **history_context(game)))
    response.headers["Cache-Control"] = "no-store"
    return response


def history_conflict(game: Game, message: str) -> ResponseReturnValue:
    context = history_context(game)
    return render_template("games/history.html", conflict=message, **context), 409


@bp.post("/<game_id>/changes/<int:change_id>/undo")
@game_route(scorer=True, deleted=True)
def undo(game: Game, change_id: int) -> ResponseReturnValue:
    """Undo one change: what it replaced is put back, through the same checks as any write."""
    via = form_via()
    change = service.find_change(game, change_id) if change_id <= MAX_ID else None
    if change is None:
        abort(404)
    title, _detail = describe_change(change)
    from_page = is_htmx() and request.form.get("back") != "history"
    before = read.result(game) if from_page else None
    try:
        service.undo(game, change, via)
    except service.AlreadyDone:
        pass
    except service.Conflict:
        return history_conflict(
            game,
            _(
                "Not undone: this game was changed on another device meanwhile. "
                "Here is the newest history; undo again if it still applies."
            ),
        )
    except (service.CannotUndo, service.GameGone):
        return history_conflict(
            game, _("“%(what)s” can no longer be undone: the game has changed since.", what=title)
        )
    except InvalidFacts as exc:
        why = " ".join(render(e.message) for e in exc.errors)
        return history_conflict(game, _("“%(what)s” cannot be undone: %(why)s", what=title, why=why))
    done = _("Undone: %(what)s.", what=title)
    if from_page:
        context = game_context(game)
        small = changes_reply(game, before, context, done, notice=done)
        if small is not None:
            return small
        context["undo"] = undo_offer(game)
        return render_region("games/show.html", "games/_live.html", notice=done, announce=done, **context)
    flash(done, "ok")
    if request.form.get("back") == "history":
        return redirect(url_for(".history", game_id=game.id), 303)
    return redirect(url_for("games.show", game_id=game.id), 303)


@bp.post("/<game_id>/delete")
@game_route(scorer=True)
def delete_game(game: Game) -> ResponseReturnValue:
    """Delete the game (its scorer can restore it from its page or history)."""
    via = form_via()
    try:
        service.delete_game(game, via)
    except service.AlreadyDone:
        pass
    except service.Conflict:
        return history_conflict(
            game,
            _("Not deleted: this game was changed on another device meanwhile. Here is what changed."),
        )
    flash(_("Game deleted."), "ok")
    return redirect(url_for("games.show", game_id=game.id), 303)


@bp.post("/<game_id>/restore")
@game_route(scorer=True, deleted=True)
def restore_game(game: Game) -> ResponseReturnValue:
    """Bring a deleted game back."""
    via = form_via()
    try:
        service.restore_game(game, via)
    except (service.AlreadyDone, service.CannotUndo):
        pass  # restored already
    except service.Conflict:
        return history_conflict(
            game, _("Not restored: this game was changed on another device meanwhile. Here is what changed.")
        )
    flash(_("Game restored."), "ok")
    return redirect(url_for("games.show", game_id=game.id), 303)
