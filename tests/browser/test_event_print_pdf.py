"""An event's print sheets as a PDF (events.md, Print: ``/e/<id>/print.pdf``), printed on the server
by the same headless Chromium as a game's score sheet: the seating, the house rules in words, a card
per table, a score card per player and the results, each part on its own page."""

from __future__ import annotations

import io

from pypdf import PdfReader

from scorekeeper.events import service as events
from tests.scenes import euchre_evening

PLAYERS = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]


def test_the_print_pdf(app, client, tmp_path):
    app.config["PDF_FOLDER"] = str(tmp_path)
    with app.app_context():
        event, key = events.create_event(euchre_evening(PLAYERS, "Euchre night", hands=8, rounds=3))
        event_id = event.id
    client.get(f"/e/{event_id}/direct?key={key}")
    client.post(f"/e/{event_id}/rounds", data={})
    answer = client.get(f"/e/{event_id}/print.pdf")
    assert answer.status_code == 200 and answer.mimetype == "application/pdf"
    assert answer.headers["Cache-Control"] == "no-store"
    assert f'filename="event-{event_id}.pdf"' in answer.headers["Content-Disposition"]
    reader = PdfReader(io.BytesIO(answer.data))
    assert round(reader.pages[0].mediabox.height) == 842  # A4
    pages = [page.extract_text() for page in reader.pages]
    whole = "\n".join(pages)
    assert "Euchre night" in pages[0] and "Stick the dealer" in pages[0] and "stick_the_dealer" not in whole
    assert "Table cards" in whole and "Score cards" in whole and "Results" in pages[-1]
    assert all(name in whole for name in PLAYERS)
    # Each part starts its own sheet of paper: the seating's page holds no score card.
    assert "Score cards" not in pages[0]
    # Printed once per version: the second request reads the file.
    assert client.get(f"/e/{event_id}/print.pdf").data == answer.data
    # In the reader's language.
    client.set_cookie("lang", "pl")
    polish = "\n".join(
        p.extract_text() for p in PdfReader(io.BytesIO(client.get(f"/e/{event_id}/print.pdf").data)).pages
    )
    assert "Rozdający nie może spasować" in polish
