"""A table's phone for the whole event (events.md, Rounds): one link per table, the next round's
game there by itself, the confirmation as the game ends, the round clock on every table."""

import re
from datetime import timedelta
from functools import partial

from scorekeeper.db import db
from scorekeeper.models import Event
from tests.conftest import bearer, make_event

PLAYERS = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]
HTMX = {"HX-Request": "true"}


def entry(maker, tricks):
    """A Euchre deal as the table's form posts it."""
    return {
        "trump": "H",
        "maker": str(maker),
        "alone": "0",
        "defender_alone": "",
        "maker_tricks": str(tricks),
    }


# The evening these tests play: a ladder of Euchre, one hand a game, two rounds.
make = partial(
    make_event, name="Euchre night", format="ladder", game="euchre", players=PLAYERS, hands=1, rounds=2
)


def links(client, event_id, key):
    doc = client.get(f"/api/events/{event_id}", headers=bearer(key)).get_json()
    return [t["link"].replace("http://localhost", "") for t in doc["table_links"]]


def start(client, event_id, key, close=False):
    r = client.post(f"/api/events/{event_id}/rounds", json={"close": close}, headers=bearer(key))
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def poll_state(html):
    return re.search(r'hx-get="([^"]+/now\?at=[^"]+)"', html).group(1).replace("&amp;", "&")


def test_one_link_per_table_from_the_creation_for_directors_only(app, client):
    event_id, key = make(app)
    table_links = links(client, event_id, key)
    assert len(table_links) == 2 and all(f"/e/{event_id}/table/{n}/" in table_links[n - 1] for n in (1, 2))
    assert "table_links" not in client.get(f"/api/events/{event_id}").get_json()
    assert "table/1/" not in str(client.get(f"/api/events/{event_id}").get_json())
    # The same links all evening: a round started changes nothing.
    start(client, event_id, key)
    assert links(client, event_id, key) == table_links
    # A wrong token, or a table the event never seats: 404.
    assert client.get(table_links[0][:-3] + "abc").status_code == 404
    assert client.get(f"/e/{event_id}/table/3/{table_links[0].rsplit('/', 1)[1]}").status_code == 404
    assert client.get(f"/e/{event_id}/table/2/{table_links[0].rsplit('/', 1)[1]}").status_code == 404


def test_the_phone_waits_then_scores_its_own_table_and_moves_on_by_itself(app, client):
    event_id, key = make(app, confirm=True)
    one, two = links(client, event_id, key)
    phone = app.test_client()
    waiting = phone.get(one)
    html = waiting.get_data(as_text=True)
    assert waiting.status_code == 200 and "Round 1 starts when the director starts it" in html
    assert "Ann & Cy v Bob & Di" in html  # round 1 is planned: who sits where, by pairs
    now = poll_state(html)
    quiet = phone.get(now, headers=HTMX)
    assert quiet.status_code == 204 and "HX-Refresh" not in quiet.headers

    rnd = start(client, event_id, key)
    moved = phone.get(now, headers=HTMX)
    assert moved.headers.get("HX-Refresh") == "true"  # the next poll brings the game
    game_id = rnd["tables"][0]["game"]
    page = phone.get(one)
    html = page.get_data(as_text=True)
    assert 'id="entry"' in html and "Table 1" in html and "Round 1 of 2" in html
    assert any(
        c.startswith("edit_key=") and f"Path=/g/{game_id}" in c for c in page.headers.getlist("Set-Cookie")
    )
    # Only its own table: table 2's game is not the phone's to score.
    other = rnd["tables"][1]["game"]
    assert 'id="entry"' not in phone.get(f"/g/{other}").get_data(as_text=True)
    assert phone.post(f"/g/{other}/deals", data=entry(0, 3)).status_code == 403
    assert "When the game has finished" in html and "Confirm the result" not in html

    # The last hand, as the page sends it (htmx): the live region comes back with the ending,
    # the confirmation and no game of its own (events.md: no Rematch, no New game).
    reply = phone.post(f"/g/{game_id}/deals", data=entry(0, 3), headers=HTMX).get_data(as_text=True)
    assert 'id="live"' in reply and "Confirm the result" in reply and 'name="by"' in reply
    assert "Rematch" not in reply and "New game" not in reply
    assert "Next round: wait for the director." in reply
    # Confirmed from the table's phone: back to the table's link (without JavaScript, by its referrer).
    done = phone.post(
        f"/g/{game_id}/confirm", data={"by": "Bob"}, headers={"Referer": "http://localhost" + one}
    )
    assert done.status_code == 303 and done.headers["Location"] == one
    html = phone.get(one).get_data(as_text=True)
    assert "Result confirmed by Bob." in html and "Next round: wait for the director." in html

    # Round 2: the same link opens table 1's new game.
    start(client, event_id, key, close=True)
    html = phone.get(one).get_data(as_text=True)
    new_game = client.get(f"/api/events/{event_id}").get_json()["rounds"][1]["tables"][0]["game"]
    assert f"/g/{new_game}/deals" in html and "Round 2 of 2" in html


def test_no_scoring_once_the_event_is_over(app, client):
    event_id, key = make(app, rounds=1)
    one, _two = links(client, event_id, key)
    rnd = start(client, event_id, key)
    for table in rnd["tables"]:
        r = client.post(f"/api/games/{table['game']}/deals", json={"trump": "H", "maker": 0, "alone": False,
                        "defender_alone": None, "maker_tricks": 3}, headers=bearer(key))  # fmt: skip
        assert r.status_code == 201
    page = app.test_client().get(one)
    html = page.get_data(as_text=True)
    assert "The event is over" in html and 'id="entry"' not in html
    assert not any(c.startswith("edit_key=") for c in page.headers.getlist("Set-Cookie"))


def test_the_round_clock_on_every_table_counts_and_stops_when_the_round_is_over(app, client):
    event_id, key = make(app, minutes=30)
    one, _two = links(client, event_id, key)
    rnd = start(client, event_id, key)
    html = app.test_client().get(one).get_data(as_text=True)
    # 30 minutes at the start (29 and some seconds on a slow machine), counted down each second.
    assert "Round 1: time left" in html and re.search(r">(30:00|29:5\d)<", html) and "data-ends-at=" in html
    # The ordinary scoring link of the table shows it too.
    scorer = app.test_client()
    scorer.get(f"/g/{rnd['tables'][1]['game']}?key={rnd['tables'][1]['edit_key']}")
    assert 'class="ev-time"' in scorer.get(f"/g/{rnd['tables'][1]['game']}").get_data(as_text=True)
    # A second later, still 30 minutes (counted up), as the director's page says it.
    with app.app_context():
        event = db.session.get(Event, event_id)
        event.rounds[-1].ends_at -= timedelta(seconds=1)
        db.session.commit()
    clock = client.get(f"/e/{event_id}/clock")
    assert clock.status_code == 200 and re.search(r">29:[45]\d<", clock.get_data(as_text=True))
    again = client.get(f"/e/{event_id}/clock", headers={"If-None-Match": clock.headers["ETag"]})
    assert again.status_code == 304
    # Time up while a table plays: "finish the hand"; every table finished: the round is over.
    with app.app_context():
        event = db.session.get(Event, event_id)
        event.rounds[-1].ends_at -= timedelta(minutes=31)
        db.session.commit()
    assert "finish the hand in progress" in client.get(f"/e/{event_id}/clock").get_data(as_text=True)
    for table in rnd["tables"]:
        client.post(f"/api/games/{table['game']}/deals", json={"trump": "H", "maker": 0, "alone": False,
                    "defender_alone": None, "maker_tricks": 3}, headers=bearer(key))  # fmt: skip
    html = client.get(f"/e/{event_id}/clock").get_data(as_text=True)
    assert "Round 1 is over." in html and "data-ends-at" not in html
    assert "Round 1 is over." in app.test_client().get(one).get_data(as_text=True)


def test_table_cards_print_from_the_creation(app, client):
    event_id, key = make(app)
    client.get(f"/e/{event_id}/direct?key={key}")
    html = client.get(f"/e/{event_id}/print").get_data(as_text=True)
    assert "Table cards" in html and html.count(f"/e/{event_id}/table/") >= 2
    assert html.count("ev-table-card") == 2
    # Anyone with the link prints the cards' numbers, never a table's scoring link.
    stranger = app.test_client().get(f"/e/{event_id}/print").get_data(as_text=True)
    assert "ev-table-card" in stranger and f"/e/{event_id}/table/" not in stranger
