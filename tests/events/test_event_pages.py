"""The event's pages: the director's controls behind the director's link, the board, print, CSV."""

import re
from functools import partial

from scorekeeper.events import service as events
from tests.conftest import make_event

PLAYERS = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]
MADE_02 = {"trump": "H", "maker": 0, "alone": False, "defender_alone": None, "maker_tricks": 3}


# A progressive Euchre night of eight, one hand a game, three rounds.
make = partial(
    make_event, name="Euchre night", format="progressive", game="euchre", players=PLAYERS, hands=1, rounds=3
)


def test_a_viewer_sees_standings_and_seating_but_no_controls(app, client):
    event_id, _ = make(app)
    page = client.get(f"/e/{event_id}")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "Euchre night" in html and "Round 1" in html and "Start round" not in html
    assert client.post(f"/e/{event_id}/rounds", data={}).status_code == 403
    assert client.get("/e/nothing-here").status_code == 404
    assert client.get(f"/e/{event_id}/direct?key=wrong").status_code == 404


def test_the_director_starts_a_round_and_a_table_scores_it(app, client):
    event_id, key = make(app, minutes=30)
    assert client.get(f"/e/{event_id}/direct?key={key}").status_code == 303
    html = client.get(f"/e/{event_id}").get_data(as_text=True)
    assert "Start round 1" in html
    started = client.post(f"/e/{event_id}/rounds", data={}, follow_redirects=True)
    html = started.get_data(as_text=True)
    assert "Round 1 has started." in html and "Table 2" in html
    # Issue 54, item 2: a table just started is not late: nothing red until the clock runs out.
    assert "not started" not in html and "ev-late" not in html
    assert "Round 1: time left" in html and re.search(r">(30:00|29:5\d)<", html)  # not "29 minutes"
    links = re.findall(r'href="(http://localhost/g/[^"]+\?key=[^"]+)"', html)
    assert len(links) == 2
    # A table's phone opens its link: it scores the table's game.
    table = client.application.test_client()
    game_page = table.get(links[0].replace("http://localhost", ""), follow_redirects=True)
    assert game_page.status_code == 200
    game_id = links[0].split("/g/")[1].split("?")[0]
    key_cookie = links[0].split("key=")[1]
    r = table.post(
        f"/api/games/{game_id}/deals", json=MADE_02, headers={"Authorization": f"Bearer {key_cookie}"}
    )
    assert r.status_code == 201
    html = client.get(f"/e/{event_id}").get_data(as_text=True)
    assert "finished" in html
    # Starting round 2 while table 2 still plays needs the close box.
    again = client.post(f"/e/{event_id}/rounds", data={}, follow_redirects=True).get_data(as_text=True)
    assert "still being played" in again
    closed = client.post(f"/e/{event_id}/rounds", data={"close": "y"}, follow_redirects=True).get_data(
        as_text=True
    )
    assert "Round 2 has started." in closed


def test_players_join_and_leave_from_the_directors_page(app, client):
    event_id, key = make(app)
    client.get(f"/e/{event_id}/direct?key={key}")
    bad = client.post(f"/e/{event_id}/players", data={"add": "Ann"})
    assert bad.status_code == 422 and "already a player" in bad.get_data(as_text=True)
    ok = client.post(
        f"/e/{event_id}/players", data={"add": "Zed", "withdraw": ["Bob"]}, follow_redirects=True
    )
    assert "seated again" in ok.get_data(as_text=True)
    seating = client.get(f"/e/{event_id}/print").get_data(as_text=True)
    assert "Zed" in seating


def test_board_and_csv(app, client):
    event_id, key = make(app)
    client.get(f"/e/{event_id}/direct?key={key}")
    client.post(f"/e/{event_id}/rounds", data={})
    board = client.get(f"/e/{event_id}/board").get_data(as_text=True)
    assert "Round 1 of 3" in board and "?key=" not in board  # a wall screen shows no scorer link
    part = client.get(f"/e/{event_id}/board", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert "<html" not in part and "Round 1 of 3" in part
    csv_text = client.get(f"/e/{event_id}/results.csv").get_data(as_text=True)
    header = csv_text.splitlines()[0]
    assert header.startswith("rank,name,points,loners,round 1")
    assert len(csv_text.splitlines()) == 1 + len(PLAYERS)


def test_each_player_sees_where_they_sit_through_their_own_link(app, client):
    event_id, key = make(app)
    client.get(f"/e/{event_id}/direct?key={key}")
    client.post(f"/e/{event_id}/rounds", data={})
    html = client.get(f"/e/{event_id}").get_data(as_text=True)
    links = dict(re.findall(r"<li>([^<:]+): <a href=\"http://localhost(/e/[^\"]+/p/\d+/[0-9a-f]+)\"", html))
    assert len(links) == len(PLAYERS)
    with app.app_context():
        from scorekeeper.db import db
        from scorekeeper.models import Event

        doc = events.document(db.session.get(Event, event_id))
    table = doc["rounds"][0]["tables"][0]
    ann_seat = table["seats"][0]
    page = client.application.test_client().get(links[ann_seat]).get_data(as_text=True)
    assert f"Partner: {table['seats'][2]}" in page and "Table 1, seat 1" in page
    other = links[table["seats"][1]]
    wrong = other.rsplit("/", 1)[0] + "/" + links[ann_seat].rsplit("/", 1)[1]
    assert client.get(wrong).status_code == 404  # a token opens its own player's page only


def test_the_boards_poll_is_a_304_until_a_table_changes(app, client, count_queries):
    event_id, key = make(app)
    client.get(f"/e/{event_id}/direct?key={key}")
    client.post(f"/e/{event_id}/rounds", data={})
    first = client.get(f"/e/{event_id}/board")
    tag = first.headers["ETag"]
    with count_queries() as seen:
        again = client.get(f"/e/{event_id}/board", headers={"If-None-Match": tag})
    assert again.status_code == 304 and len(seen.statements) == 1  # whatever the number of tables
    with app.app_context():
        from scorekeeper.db import db
        from scorekeeper.models import Event

        game_id = db.session.get(Event, event_id).rounds[0].tables[0].game_id
        table_key = events.table_key(game_id)
    client.post(f"/api/games/{game_id}/deals", json=MADE_02, headers={"Authorization": f"Bearer {table_key}"})
    changed = client.get(f"/e/{event_id}/board", headers={"If-None-Match": tag})
    assert changed.status_code == 200 and changed.headers["ETag"] != tag


def test_a_new_screens_first_poll_of_the_board_is_drawn_once(app, client, count_queries):
    event_id, key = make(app)
    client.get(f"/e/{event_id}/direct?key={key}")
    client.post(f"/e/{event_id}/rounds", data={})
    first = client.get(f"/e/{event_id}/board", headers={"HX-Request": "true"}).get_data(as_text=True)
    with count_queries() as seen:
        second = client.application.test_client().get(f"/e/{event_id}/board", headers={"HX-Request": "true"})
    assert second.get_data(as_text=True) == first and len(seen.statements) == 1
