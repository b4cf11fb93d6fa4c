"""What an event's print sheets add to its page (events.md, Screens, Print): a table card per
table from the event's creation, a paper score card per player, and the PDF's file and version.

The sheets themselves are templates/events/_print_body.html, shown by the print page and printed
to PDF by the same headless Chromium as a game's score sheet (:mod:`scorekeeper.pdf`).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import current_app, url_for

from ..models import Event
from . import service, table_links


def table_cards(
    event: Event, doc: Mapping[str, Any], current: Mapping[str, Any] | None
) -> list[dict[str, Any]]:
    """One card per table, printable from the event's creation: its number, and for directors its
    scorer link as a QR code, the table's link for the whole event where the document gives one
    (``table_links``), else the table's game of the round being played."""
    links = {t["table"]: t["link"] for t in doc.get("table_links") or []}
    if not links and current is not None:
        links = {
            t["table"]: url_for("games.show", game_id=t["game"], key=t["edit_key"], _external=True)
            for t in current["tables"]
            if t.get("edit_key")
        }
    return [{"table": n, "link": links.get(n)} for n in range(1, table_links.table_count(event) + 1)]


def score_cards(event: Event, doc: Mapping[str, Any], directing: bool) -> list[dict[str, Any]]:
    """A paper score card per player (or pair) still in the event: each round's table, seat,
    partner and opponents where the seating is known, boxes to write the points in; for
    directors the player's own link as a QR code."""
    cards = []
    for entrant in range(len(event.entrants)):
        if entrant in event.withdrawn:
            continue
        link = None
        if directing:
            link = url_for(
                "events.player",
                event_id=event.id,
                entrant=entrant,
                token=service.player_token(event, entrant),
                _external=True,
            )
        cards.append(
            {
                "name": service.entrant_name(event, entrant),
                "rounds": service.where_i_sit(event, entrant, doc),
                "link": link,
            }
        )
    return cards


def pdf_version(event: Event) -> int:
    """A number that grows with every change the sheets show: the event's version, its tables'
    count and their games' summed versions (each only ever grows)."""
    sig = service.signature(event.id)
    return 0 if sig is None else sig[0] + sig[1] + sig[2]


def pdf_folder(event: Event) -> Path:
    base = current_app.config.get("PDF_FOLDER") or Path(current_app.instance_path, "pdf")
    return Path(base, f"event-{event.id}")
