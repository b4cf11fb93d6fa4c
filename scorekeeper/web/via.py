"""Where a write comes from and what it was based on (:class:`~scorekeeper.service.Via`): a page's form, or an API call's headers."""

from __future__ import annotations

from flask import abort, g, request

from ..models import AnyGame
from ..refusals import Refusal
from ..rules.base import N_
from ..service import Via
from .devices import device, device_label
from .etags import if_match_versions
from .form_tokens import TOKEN, TOKEN_FIELD, VERSION_FIELD


def form_via() -> Via:
    """A page's write: the version its form was rendered from and its submission token, if it has them."""
    raw = request.form.get(VERSION_FIELD)
    version = None
    if raw is not None:
        if not (raw.isdigit() and len(raw) < 10):
            abort(400)
        version = int(raw)
    token = request.form.get(TOKEN_FIELD, "")
    device_id, label = device()
    # A director's correction at a locked event table: who (auth's game_route) and why (the form).
    return Via(
        version,
        token if TOKEN.fullmatch(token) else None,
        device_id,
        label,
        by=g.get("correction_by"),
        reason=request.form.get("reason"),
    )


def idempotency_key() -> str | None:
    """An API call's ``Idempotency-Key`` header (None without one); 400 when it is malformed."""
    token = request.headers.get("Idempotency-Key")
    if token is not None and not TOKEN.fullmatch(token):
        raise Refusal(
            "Idempotency-Key",
            N_("Idempotency-Key must be 8-64 characters: letters, digits, - and _."),
            400,
        )
    return token


def api_via(game: AnyGame) -> Via:
    """An API write: ``If-Match: "<version>"`` (the ETag the API answered) and ``Idempotency-Key``."""
    version = None
    try:
        versions = if_match_versions()
    except ValueError:
        abort(400, description=N_('If-Match must be the game\'s ETag, e.g. If-Match: "7".'))
    if versions:
        version = game.version if game.version in versions else min(versions)
    token = idempotency_key()
    label = device_label(request.user_agent.string)
    # A director's correction at a locked event table: who (auth's game_route) and why (the
    # body's "reason", which is no part of a deal's facts).
    body = request.get_json(silent=True) if request.is_json else None
    reason = body.get("reason") if isinstance(body, dict) else None
    return Via(
        version,
        token,
        None,
        f"API · {label}",
        by=g.get("correction_by"),
        reason=reason if isinstance(reason, str) else None,
    )
