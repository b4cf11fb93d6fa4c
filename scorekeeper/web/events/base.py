"""What every module of the events' pages shares: their two blueprints and the event lookup.

Apart so that the pages can live in several modules (the director's pages, the door, a table's
confirmation) on one blueprint each, their endpoints' names unchanged (``events.check_in``,
``event_tables.confirm``), without any of them importing another to find the blueprint.
"""

from __future__ import annotations

from flask import Blueprint, abort

from ...db import db
from ...models import Event

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
