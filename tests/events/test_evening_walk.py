"""What the whole evening's walk (tests/browser/test_whole_evening_e2e.py, issue 54's Show) found
tripping a real table or player, each fixed and held here without a browser."""

from __future__ import annotations

import html
import re

from tests.events.test_closing_and_confirming import MADE_02, make, play, start


def test_a_forgotten_confirmation_brings_the_table_phone_back_to_its_table_link(app, client):
    """Confirming round 1 from the phone, on round 1's game page, left the phone there (on a
    finished game) instead of on the table's link, where round 2's game is being played."""
    event_id, key = make(app, confirm=True, hands=1)
    first = start(client, event_id, key)
    for table in first:
        play(client, table, MADE_02)
    client.get(f"/e/{event_id}/direct?key={key}")
    page = client.get(f"/e/{event_id}").get_data(as_text=True)
    link = re.search(rf'href="http://localhost(/e/{event_id}/table/1/[^"]+)"', page).group(1)
    phone = app.test_client()
    phone.get(link)
    start(client, event_id, key)  # round 1 was not confirmed at table 1
    now = html.unescape(phone.get(link).get_data(as_text=True))
    forgotten = re.search(r'href="([^"]+)">Round 1\'s result is not confirmed', now).group(1)
    old = phone.get(forgotten).get_data(as_text=True)
    back = re.search(r'name="back" value="([^"]+)"', old)
    assert back and back.group(1) == link
    loser = first[0]["seats"][1]
    answer = phone.post(f"/g/{first[0]['game']}/confirm", data={"by": loser, "back": back.group(1)})
    assert answer.status_code == 303 and answer.headers["Location"] == link
    # Only the table's own link is gone back to: another address given as "back" is ignored.
    table2 = first[1]
    other = phone.post(f"/g/{table2['game']}/confirm", data={"by": table2["seats"][1], "back": "/evil"})
    assert other.headers.get("Location", "").split("#")[0] != "/evil"
