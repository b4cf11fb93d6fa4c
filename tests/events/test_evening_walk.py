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


def test_a_player_checked_in_at_the_door_gets_their_own_page_on_that_phone(app, client):
    """Checked in, the door page said "the seating of round 1 will show you where to sit" and gave
    the phone nothing to see it on: now it links to the player's own page (where to sit, live)."""
    event_id, key = make(app, players=[], check_in=True, hands=1)
    client.get(f"/e/{event_id}/direct?key={key}")
    door = client.get(f"/api/events/{event_id}", headers={"Authorization": f"Bearer {key}"}).get_json()
    path = "/" + door["check_in_link"].split("/", 3)[3]
    phone = app.test_client()
    answer = phone.post(path, data={"name": "Zoë"}, follow_redirects=True)
    assert answer.status_code == 200 and answer.request.path == path  # back on the door, by a GET
    page = html.unescape(answer.get_data(as_text=True))
    mine = re.search(r'href="([^"]+)">Your page for tonight: where you sit each round', page)
    assert mine and mine.group(1).startswith(f"/e/{event_id}/p/0/")
    own = phone.get(mine.group(1))
    assert own.status_code == 200 and "Zoë" in own.get_data(as_text=True)


def test_a_late_arrivals_page_sends_him_to_his_next_round_not_the_one_he_missed(app, client):
    """Checked in during round 1, Lee's page said "Round 1" in large type (the round being played,
    where he has no seat) and "seated when the round starts" beneath it: now it is round 2 he is
    sent to, and round 1 says it started before he arrived."""
    event_id, key = make(app, format="ladder", check_in=True, hands=1, rounds=3)
    start(client, event_id, key)
    door = client.get(f"/api/events/{event_id}", headers={"Authorization": f"Bearer {key}"}).get_json()
    phone = app.test_client()
    answer = phone.post(
        "/" + door["check_in_link"].split("/", 3)[3], data={"name": "Lee"}, follow_redirects=True
    )
    assert answer.status_code == 200
    mine = re.search(r'href="([^"]+)">Your page', answer.get_data(as_text=True)).group(1)
    page = html.unescape(phone.get(mine).get_data(as_text=True))
    go = re.search(r'<h2 id="ev-me-go" class="ev-go">([^<]*)</h2>', page).group(1)
    assert go == "Round 2"
    assert "This round started before you arrived." in page
