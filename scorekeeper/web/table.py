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

import hmac
import json
from typing import Any

import segno
from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import format_datetime, format_timedelta, get_locale
from flask_babel import gettext as _
from markupsafe import Markup
from sqlalchemy import select
from werkzeug.exceptions import NotFound

from .. import service
from ..db import db
from ..i18n import render
from ..models import Change, Game, hash_key, utcnow
from ..rules import InvalidFacts
from .common import (
    DEVICE_COOKIE,
    GAME_ID,
    form_via,
    is_htmx,
    load_game,
    presented_key,
    require_edit,
)
from .games import game_context
from .present import public_result

bp = Blueprint("table", __name__, url_prefix="/g")

# How often (seconds) an open game page asks whether the game changed (htmx polling);
# the app's LIVE_POLL_SECONDS changes it.
POLL_SECONDS = 3
MAX_ID = 2**31 - 1


def live_etag_value(game_id: str, version: int, editable: bool, part: str) -> str:
    """Everything a followed region's HTML depends on besides the stored facts, which ``version`` stands for."""
    return f"{game_id}.{version}.{get_locale()}.{'s' if editable else 'v'}.{part}"


@bp.get("/<game_id>/live")
def live(game_id: str) -> ResponseReturnValue:
    """A followed region (``part``: the whole live region, or the board above a form); 304 if unchanged."""
    part = request.args.get("part")
    if part not in ("live", "board") or not GAME_ID.fullmatch(game_id):
        abort(404)
    row = db.session.execute(
        select(Game.version, Game.deleted_at, Game.edit_key_hash).where(Game.id == game_id)
    ).one_or_none()
    if row is None:
        abort(404)
    if row.deleted_at is not None:
        # 286 tells htmx to stop polling; the notice takes the region's place.
        notice = Markup.escape(_("This game was deleted."))
        return f'<p id="{part}" class="flash flash-error" role="status">{notice}</p>', 286
    key = presented_key()
    editable = bool(key) and hmac.compare_digest(hash_key(key), row.edit_key_hash)
    etag = live_etag_value(game_id, row.version, editable, part)
    if request.if_none_match.contains_weak(etag):
        response = Response(status=304)
    else:
        game = load_game(game_id)
        result = service.score(game)
        if part == "board":
            shown = public_result(service.game_rules(game), result)  # hidden scores stay hidden
            context = {"game": game, "kind": service.game_rules(game), "result": shown, "editable": editable}
            html = render_template("games/_board.html", follow_board=True, **context)
        else:
            html = render_template("games/_live.html", **game_context(game, result))
        response = make_response(html)
    response.set_etag(etag, weak=True)
    response.headers["Cache-Control"] = "private, no-cache"
    response.vary.update(("Cookie", "Accept-Language"))
    return response


def qr_svg(url: str, title: str = "") -> Markup:
    """``url`` as a QR code: an inline SVG drawn on the server (no image request, no third party)."""
    code = segno.make(url, error="m", micro=False)
    return Markup(
        code.svg_inline(
            scale=1,
            border=4,
            dark="#000",
            light="#fff",
            omitsize=True,
            svgclass="qr",
            lineclass=None,
            title=title,
        )
    )


@bp.get("/<game_id>/handover")
def handover(game_id: str) -> ResponseReturnValue:
    """The scoring link (with the key) as a QR code: the phone that scans it can score this game."""
    game = load_game(game_id)
    require_edit(game)
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


def describe(change: Change) -> tuple[str, str]:
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
    return kind, ""


def history_context(game: Game) -> dict[str, Any]:
    changes = service.history(game)
    now = utcnow()
    this_device = request.cookies.get(DEVICE_COOKIE)
    entries = []
    for change in changes:
        title, detail = describe(change)
        entries.append(
            {
                "change": change,
                "title": title,
                "detail": detail,
                "ago": format_timedelta(change.created_at - now, add_direction=True),
                "when": format_datetime(change.created_at, "medium"),
                "device": change.device or _("unknown device"),
                "this_device": bool(this_device) and change.device_id == this_device,
                "undoable": service.can_undo(game, change),
            }
        )
    return {"game": game, "kind": service.game_rules(game), "entries": entries}


@bp.get("/<game_id>/history")
def history(game_id: str) -> ResponseReturnValue:
    """Every change to the game, newest first, for its scorer."""
    game = load_game(game_id, deleted=True)
    require_edit(game)
    response = make_response(render_template("games/history.html", **history_context(game)))
    response.headers["Cache-Control"] = "no-store"
    return response


def history_conflict(game: Game, message: str) -> ResponseReturnValue:
    context = history_context(game)
    return render_template("games/history.html", conflict=message, **context), 409


@bp.post("/<game_id>/changes/<int:change_id>/undo")
def undo(game_id: str, change_id: int) -> ResponseReturnValue:
    """Undo one change: what it replaced is put back, through the same checks as any write."""
    game = load_game(game_id, deleted=True)
    require_edit(game)
    via = form_via()
    change = service.find_change(game, change_id) if change_id <= MAX_ID else None
    if change is None:
        abort(404)
    title, _detail = describe(change)
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
    flash(_("Undone: %(what)s.", what=title), "ok")
    if request.form.get("back") == "history":
        return redirect(url_for(".history", game_id=game.id), 303)
    return redirect(url_for("games.show", game_id=game.id), 303)


@bp.post("/<game_id>/delete")
def delete_game(game_id: str) -> ResponseReturnValue:
    """Delete the game (its scorer can restore it from its page or history)."""
    game = load_game(game_id)
    require_edit(game)
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
def restore_game(game_id: str) -> ResponseReturnValue:
    """Bring a deleted game back."""
    game = load_game(game_id, deleted=True)
    require_edit(game)
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


@bp.app_errorhandler(service.DealGone)
@bp.app_errorhandler(service.GameGone)
def gone(error: LookupError) -> ResponseReturnValue:
    """A deal or game that went away while a write was on its way: 404, as if it never was."""
    if request.path.startswith("/api/"):
        return jsonify({"error": "Not Found", "message": "This game or deal is not there any more."}), 404
    template = "_error.html" if is_htmx() else "error.html"
    return render_template(template, code=404, error=NotFound()), 404


@bp.app_template_global()
def write_token() -> str:
    """A new submission token for a form that changes a game."""
    return service.new_token(16)


@bp.app_template_global()
def live_etag(game: Game, editable: bool, part: str) -> str:
    """The ETag a followed region was rendered at (``data-etag``; app.js sends it back as If-None-Match)."""
    return 'W/"' + live_etag_value(game.id, game.version, bool(editable), part) + '"'


@bp.app_template_global()
def poll_trigger() -> str:
    return f"every {current_app.config.get('LIVE_POLL_SECONDS', POLL_SECONDS)}s"


bp.add_app_template_global(qr_svg, "qr_svg")
