"""What every module of the events' pages shares: their two blueprints and the event lookup
(for anyone, or for its director), and a form posted to them.

Apart so that the pages can live in several modules (the director's pages, the door, a table's
confirmation) on one blueprint each, their endpoints' names unchanged (``events.check_in``,
``event_tables.confirm``), without any of them importing another to find the blueprint.
"""

from __future__ import annotations

from typing import TypeVar

from flask import Blueprint, abort
from flask_wtf import FlaskForm

from ...db import db
from ...models import Event
from ...refusals import Denied
from ..auth import may

# No prefix: an event's pages are /e/<id>..., a new event is made from its club, /c/<slug>/events/new.
bp = Blueprint("events", __name__)
# A table's own page is the ordinary game page (/g/<id>): what an event adds there is posted to
# an address under it, where the table's scorer key (a cookie scoped to /g/<id>) comes along.
tables = Blueprint("event_tables", __name__, url_prefix="/g")


def event_or_404(event_id: str) -> Event:
    event = db.session.get(Event, event_id) if len(event_id) <= 32 else None
    if event is None:
        abort(404)
    return event


def directed_event(event_id: str, refused: str) -> Event:
    """The event for one of its director's controls: 404 if there is none, and to anyone but its
    director 403 saying ``refused`` (its ``access.REFUSED`` words: what the control does, who may),
    as :func:`~scorekeeper.web.auth.club_route` answers for a club's."""
    event = event_or_404(event_id)
    if not may().direct_event(event):
        raise Denied(None, refused)
    return event


Form = TypeVar("Form", bound=FlaskForm)


def posted(form: Form) -> Form:
    """``form`` as posted to an event's page, its CSRF token checked: a post that is not it (no
    token, a stale one) is answered 400, as no page of ours sends it."""
    if not form.validate_on_submit():
        abort(400)
    return form
