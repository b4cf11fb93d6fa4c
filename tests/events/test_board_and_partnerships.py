"""The TV board says what is happening between rounds (events.md, Screens), and every seating shows
its partnerships ("Ann & Cy v Bob & Di") on the pages, the print sheet and the board."""

from __future__ import annotations

import re
from functools import partial

from scorekeeper.db import db
from scorekeeper.events import rounds
from scorekeeper.events import service as events
from scorekeeper.models import Event
from tests.conftest import make_event

PLAYERS = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]
MADE_02 = {"trump": "H", "maker": 0, "alone": False, "defender_alone": None, "maker_tricks": 3}


# A progressive Euchre night of eight ("Night"), one hand a game, two rounds.
make = partial(
    make_event, name="Night", format="progressive", game="euchre", players=PLAYERS, hands=1, rounds=2
)


def board(client, event_id) -> str:
    return client.get(f"/e/{event_id}/board", headers={"HX-Request": "true"}).get_data(as_text=True)


def planned_tables(app, event_id, number):
    with app.app_context():
        return events.document(db.session.get(Event, event_id))["rounds"][number - 1]["tables"]


def words(seats):
    return f"{seats[0]} &amp; {seats[2]} v {seats[1]} &amp; {seats[3]}"


def test_the_board_between_rounds_says_what_happens_next(app, client):
    event_id, _ = make(app)
    before = board(client, event_id)
    assert "Starting soon" in before and "Next: round 1, when the director starts it" in before
    # Round 1's planned seating is on the board before it starts, with its partnerships.
    assert all(words(t["seats"]) in before for t in planned_tables(app, event_id, 1))
    assert "The standings start with round 1." in before

    with app.app_context():
        rounds.start_round(db.session.get(Event, event_id))
    during = board(client, event_id)
    assert "Round 1 of 2" in during and "Who sits where" in during and "0 of 1 hands" in during

    with app.app_context():
        rounds.close_round(db.session.get(Event, event_id))
    between = board(client, event_id)
    assert "Round 1 is over" in between and "Next: round 2, when the director starts it" in between
    assert all(words(t["seats"]) in between for t in planned_tables(app, event_id, 2))

    with app.app_context():
        event = db.session.get(Event, event_id)
        rounds.start_round(event)
        rounds.close_round(event)
    after = board(client, event_id)
    assert "Final standings" in after and "The event is over" in after and "Who sits where" not in after


def test_the_full_board_page_is_the_whole_screen_without_the_sites_chrome(app, client):
    event_id, _ = make(app)
    page = client.get(f"/e/{event_id}/board").get_data(as_text=True)
    assert 'class="tv"' in page and "board.css" in page and "app.css" not in page
    assert '<header class="bar"' not in page and '<footer class="foot"' not in page
    # The followed region carries the ETag it was drawn at: its next poll is a 304 until a change.
    tag = re.search(r'data-etag="&#34;([^&]+)&#34;"', board(client, event_id)).group(1)
    again = client.get(f"/e/{event_id}/board", headers={"HX-Request": "true", "If-None-Match": f'"{tag}"'})
    assert again.status_code == 304


def test_seatings_show_the_partnerships_on_every_page(app, client):
    event_id, key = make(app)
    client.get(f"/e/{event_id}/direct?key={key}")
    client.post(f"/e/{event_id}/rounds", data={})
    tables = planned_tables(app, event_id, 1)
    for path in (f"/e/{event_id}", f"/e/{event_id}/print", f"/e/{event_id}/board"):
        html = client.get(path).get_data(as_text=True)
        for table in tables:
            assert words(table["seats"]) in html, path
    # The seating lists say "Table 1" once: not numbered again by the list.
    printed = client.get(f"/e/{event_id}/print").get_data(as_text=True)
    assert '<ol class="ev-seats">' not in printed and '<ul class="ev-seats">' in printed


def test_pairs_tables_show_each_pair_together_and_a_mixer_its_names(app, client):
    with app.app_context():
        event, _ = events.create_event(
            {
                "name": "Pairs",
                "format": "pairs",
                "game": "euchre",
                "pairs": [["Ann", "Bob"], ["Cy", "Di"]],
                "hands": 1,
            }
        )
        pairs_id = event.id
        mixer, _ = events.create_event(
            {
                "name": "Mix",
                "format": "mixer",
                "game": "tally",
                "players": ["Ann", "Bob", "Cy", "Di"],
                "rounds": 1,
            }
        )
        mixer_id = mixer.id
    assert "Ann &amp; Bob v Cy &amp; Di" in client.get(f"/e/{pairs_id}").get_data(as_text=True)
    mixed = client.get(f"/e/{mixer_id}").get_data(as_text=True)
    assert " v " not in re.sub(r"<[^>]+>", "", mixed.split("Seating")[-1])
