"""events.md, Rounds: an opponent confirms a table's result; after the round closed (or the result
was confirmed) only a director corrects the table, giving a reason, kept in the game's history and
listed with the results; the standings follow at once."""

from __future__ import annotations

import csv
import io
import re
from functools import partial

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.db import db
from scorekeeper.events import service as events
from scorekeeper.models import Change, Game
from tests.conftest import bearer, make_event, play_table
from tests.web.pages import checked

PLAYERS = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]
# A made hand for seats 0+2 (1 point), a march for 1+3 (2 points), a loner march for 0+2 (4 points).
MADE_02 = {"trump": "H", "maker": 0, "alone": False, "defender_alone": None, "maker_tricks": 3}
MARCH_13 = {"trump": "S", "maker": 1, "alone": False, "defender_alone": None, "maker_tricks": 5}
CLOSED = "Round 1 is closed: only the event's director can correct this table, giving a reason."


# A progressive Euchre night, one hand a game, two rounds.
make = partial(
    make_event, name="Euchre night", format="progressive", game="euchre", players=PLAYERS, hands=1, rounds=2
)


def start(client, event_id, key, close=False):
    r = client.post(f"/api/events/{event_id}/rounds", json={"close": close}, headers=bearer(key))
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def points(client, event_id):
    return {s["name"]: s["points"] for s in client.get(f"/api/events/{event_id}").get_json()["standings"]}


def game_state(app, game_id):
    with app.app_context():
        game = db.session.get(Game, game_id)
        return game.version, [d.facts for d in game.deals]


def confirm_url(event_id, rnd, table):
    return f"/api/events/{event_id}/rounds/{rnd}/tables/{table}/confirm"


def euchre_form(maker, tricks, trump="H"):
    return {
        "trump": trump,
        "maker": str(maker),
        "alone": "0",
        "defender_alone": "",
        "maker_tricks": str(tricks),
    }


# -- confirming -------------------------------------------------------------------------------


def test_an_opponent_confirms_by_the_api_and_then_only_the_director_corrects(app, client):
    event_id, key = make(app, confirm=True)
    table = start(client, event_id, key)["tables"][0]
    url = confirm_url(event_id, 1, 1)
    still = client.post(url, json={"by": table["seats"][1]}, headers=bearer(table["edit_key"]))
    assert still.status_code == 409 and "still playing" in still.get_json()["errors"][0]["message"]
    play_table(client, table, MADE_02)
    assert client.post(url, json={"by": table["seats"][1]}).status_code == 403
    nobody = client.post(url, json={"by": "Zed"}, headers=bearer(table["edit_key"]))
    assert nobody.status_code == 422 and nobody.get_json()["errors"][0]["field"] == "by"
    assert client.post(confirm_url(event_id, 1, 9), json={}, headers=bearer(key)).status_code == 404
    done = client.post(url, json={"by": table["seats"][1].lower()}, headers=bearer(table["edit_key"]))
    assert done.status_code == 200 and done.get_json()["confirmed_by"] == table["seats"][1]
    doc = client.get(f"/api/events/{event_id}").get_json()
    assert doc["rounds"][0]["tables"][0]["confirmed_by"] == table["seats"][1]
    assert doc["rounds"][0]["tables"][1]["confirmed_by"] is None
    # The same player again changes nothing; another one is told who confirmed.
    again = client.post(url, json={"by": table["seats"][1]}, headers=bearer(table["edit_key"]))
    assert again.status_code == 200
    other = client.post(url, json={"by": table["seats"][3]}, headers=bearer(table["edit_key"]))
    assert other.status_code == 409 and "already confirmed" in other.get_json()["errors"][0]["message"]

    # Confirmed: the table's own key may no longer change it, though its round is still open.
    before = game_state(app, table["game"])
    game = f"/api/games/{table['game']}/deals"
    for refused in (
        client.put(f"{game}/0", json=MARCH_13, headers=bearer(table["edit_key"])),
        client.delete(f"{game}/0", headers=bearer(table["edit_key"])),
    ):
        assert refused.status_code == 403
        assert f"confirmed by {table['seats'][1]}" in refused.get_json()["errors"][0]["message"]
    assert game_state(app, table["game"]) == before
    # The director may, with a reason: the standings follow at once.
    assert points(client, event_id)[table["seats"][0]] == 1
    fixed = client.put(f"{game}/0", json={**MARCH_13, "reason": "Bob had five tricks"}, headers=bearer(key))
    assert fixed.status_code == 200, fixed.get_json()
    after = points(client, event_id)
    assert after[table["seats"][0]] == 0 and after[table["seats"][1]] == 2 and after[table["seats"][3]] == 2


def test_the_table_confirms_on_its_page_and_the_director_sees_who_has_not(app, client):
    event_id, key = make(app, confirm=True)
    client.get(f"/e/{event_id}/direct?key={key}")
    page = client.post(f"/e/{event_id}/rounds", data={}, follow_redirects=True).get_data(as_text=True)
    links = re.findall(r'href="(http://localhost/g/[^"]+\?key=[^"]+)"', page)
    game_id, table_key = links[0].split("/g/")[1].split("?key=")
    phone = app.test_client()
    phone.get(f"/g/{game_id}?key={table_key}")
    seats = client.get(f"/api/events/{event_id}").get_json()["rounds"][0]["tables"][0]["seats"]
    assert "Confirm the result" not in phone.get(f"/g/{game_id}").get_data(as_text=True)  # still playing
    play_table(client, {"game": game_id, "edit_key": table_key}, MADE_02)

    director = client.get(f"/e/{event_id}").get_data(as_text=True)
    assert "NOT CONFIRMED" in director and "1 table's result is not confirmed yet." in director
    table_page = phone.get(f"/g/{game_id}").get_data(as_text=True)
    assert "Confirm the result" in table_page
    # Only the side that did not win is offered (seats 1 and 3: seats 0 and 2 made their hand).
    assert all(f'name="by" value="{seats[s]}"' in table_page for s in (1, 3))
    assert not any(f'name="by" value="{seats[s]}"' in table_page for s in (0, 2))
    winner = phone.post(f"/g/{game_id}/confirm", data={"by": seats[0]})
    assert winner.status_code == 422 and 'id="by-error"' in winner.get_data(as_text=True)
    # A name not at the table: refused at the field, nothing confirmed.
    wrong = phone.post(f"/g/{game_id}/confirm", data={"by": "Zed"})
    assert wrong.status_code == 422 and 'id="by-error"' in wrong.get_data(as_text=True)
    assert "NOT CONFIRMED" in client.get(f"/e/{event_id}").get_data(as_text=True)
    # A follower (no key) may not confirm.
    assert app.test_client().post(f"/g/{game_id}/confirm", data={"by": seats[1]}).status_code == 403

    done = phone.post(f"/g/{game_id}/confirm", data={"by": seats[1]}, follow_redirects=True)
    html = done.get_data(as_text=True)
    assert f"Result confirmed by {seats[1]}." in html
    # Confirmed: the scorer's page offers no entry or correction, and says who may.
    assert f"confirmed by {seats[1]}: only the event&#39;s director can correct it" in html
    assert "Correct this deal" not in phone.get(f"/g/{game_id}/deals/0").get_data(as_text=True)
    director = client.get(f"/e/{event_id}").get_data(as_text=True)
    assert f"confirmed by {seats[1]}" in director and "NOT CONFIRMED" not in director


def test_an_event_without_confirmation_has_no_confirm_form_or_route(app, client):
    event_id, key = make(app)
    table = start(client, event_id, key)["tables"][0]
    play_table(client, table, MADE_02)
    phone = app.test_client()
    phone.get(f"/g/{table['game']}?key={table['edit_key']}")
    assert "Confirm the result" not in phone.get(f"/g/{table['game']}").get_data(as_text=True)
    assert phone.post(f"/g/{table['game']}/confirm", data={"by": table["seats"][1]}).status_code == 404
    r = client.post(
        confirm_url(event_id, 1, 1), json={"by": table["seats"][1]}, headers=bearer(table["edit_key"])
    )
    assert r.status_code == 409 and "does not ask" in r.get_json()["errors"][0]["message"]
    assert "confirmed_by" not in client.get(f"/api/events/{event_id}").get_json()["rounds"][0]["tables"][0]


# -- after the close --------------------------------------------------------------------------


def test_after_the_close_the_scorer_is_refused_on_the_api_and_pages_and_nothing_changes(app, client):
    event_id, key = make(app)
    table = start(client, event_id, key)["tables"][0]
    play_table(client, table, MADE_02)
    start(client, event_id, key, close=True)  # round 1 closed, round 2 started
    before = game_state(app, table["game"])
    game = f"/api/games/{table['game']}/deals"
    for refused in (
        client.post(game, json=MARCH_13, headers=bearer(table["edit_key"])),
        client.put(f"{game}/0", json=MARCH_13, headers=bearer(table["edit_key"])),
        client.delete(f"{game}/0", headers=bearer(table["edit_key"])),
    ):
        assert refused.status_code == 403 and refused.get_json()["errors"][0]["message"] == CLOSED
    # The pages: the lock said, no entry form, and a write answers the same message (no 500).
    phone = app.test_client()
    phone.get(f"/g/{table['game']}?key={table['edit_key']}")
    page = phone.get(f"/g/{table['game']}").get_data(as_text=True)
    assert CLOSED.replace("'", "&#39;") in page and 'id="entry"' not in page
    path = f"/g/{table['game']}"
    with app.app_context():
        change_id = db.session.query(Change.id).filter_by(game_id=table["game"], kind="append").scalar()
    for refused in (
        phone.post(f"{path}/deals/0", data=euchre_form(1, 5, "S")),
        phone.post(f"{path}/deals/0/delete", data={}),
        phone.post(f"{path}/changes/{change_id}/undo", data={}),
        phone.post(f"{path}/deals", data=euchre_form(1, 5, "S")),
    ):
        assert refused.status_code == 403
        assert CLOSED.replace("'", "&#39;") in refused.get_data(as_text=True)
    assert game_state(app, table["game"]) == before
    # The club may still rename a player at a closed table: that is no play.
    with app.app_context():
        from scorekeeper import service

        g = db.session.get(Game, table["game"])
        service.rename_seat(g, 0, table["seats"][0], "Annie")
        assert db.session.get(Game, table["game"]).players[0] == "Annie"


def test_the_director_corrects_a_closed_table_on_its_page_with_a_reason(app, client):
    event_id, key = make(app)
    table = start(client, event_id, key)["tables"][0]
    play_table(client, table, MADE_02)
    start(client, event_id, key, close=True)
    ann, bob, cy, di = table["seats"]
    assert points(client, event_id)[ann] == 1
    # The director's page links to the table; the link hands the key to that game's pages only.
    client.get(f"/e/{event_id}/direct?key={key}")
    director_page = client.get(f"/e/{event_id}").get_data(as_text=True)
    assert f"/e/{event_id}/tables/{table['game']}/correct" in director_page
    assert app.test_client().get(f"/e/{event_id}/tables/{table['game']}/correct").status_code == 403
    assert client.get(f"/e/{event_id}/tables/nothing/correct").status_code == 404
    opened = client.get(f"/e/{event_id}/tables/{table['game']}/correct")
    assert opened.status_code == 303 and opened.headers["Location"].endswith(f"/g/{table['game']}")
    cookie = opened.headers["Set-Cookie"]
    assert f"Path=/g/{table['game']}" in cookie and "HttpOnly" in cookie
    path = f"/g/{table['game']}"
    deal_page = client.get(f"{path}/deals/0").get_data(as_text=True)
    assert "Correct this deal" in deal_page and 'name="reason"' in deal_page

    # Without a reason: refused naming it, nothing changed.
    before = game_state(app, table["game"])
    bare = client.post(f"{path}/deals/0", data=euchre_form(1, 5, "S"))
    assert bare.status_code == 422 and "Give a reason" in bare.get_data(as_text=True)
    assert game_state(app, table["game"]) == before
    # With one: saved, the standings recomputed at once.
    done = client.post(f"{path}/deals/0", data={**euchre_form(1, 5, "S"), "reason": "Bob marched"})
    assert done.status_code == 303
    assert game_state(app, table["game"])[1] == [MARCH_13]
    after = points(client, event_id)
    assert after[ann] == 0 and after[cy] == 0 and after[bob] == 2 and after[di] == 2
    # Kept in the game's history, with who gave it...
    history = client.get(f"{path}/history").get_data(as_text=True)
    assert "Reason: Bob marched (given by the director)" in history
    with app.app_context():
        fix = db.session.query(Change).filter(Change.reason.is_not(None)).one()
        assert (fix.kind, fix.reason, fix.given_by) == ("replace", "Bob marched", "director")
    # ...and listed with the results: the page, the print sheet and the CSV.
    for page in (f"/e/{event_id}", f"/e/{event_id}/print"):
        html = app.test_client().get(page).get_data(as_text=True)
        assert "Corrections after the close" in html and "Bob marched" in html and "the director" in html
    rows = list(
        csv.reader(io.StringIO(app.test_client().get(f"/e/{event_id}/results.csv").get_data(as_text=True)))
    )
    at = rows.index(["correction", "round", "table", "deal", "reason", "by"])
    assert rows[at + 1] == ["Deal 1 corrected", "1", "1", "1", "Bob marched", "the director"]
    standings = {r[1]: r[2] for r in rows[1 : at - 1]}
    assert standings[bob] == "2" and standings[ann] == "0"

    # The director undoes their correction from the history, with a reason too.
    with app.app_context():
        fix_id = db.session.query(Change.id).filter(Change.reason.is_not(None)).scalar()
    bare_undo = client.post(f"{path}/changes/{fix_id}/undo", data={"back": "history"})
    assert bare_undo.status_code == 409 and "Give a reason" in bare_undo.get_data(as_text=True)
    undone = client.post(f"{path}/changes/{fix_id}/undo", data={"back": "history", "reason": "Wrong table"})
    assert undone.status_code == 303
    assert points(client, event_id)[ann] == 1
    assert (
        len(app.test_client().get(f"/e/{event_id}/results.csv").get_data(as_text=True).splitlines())
        == len(rows) + 1
    )


def test_the_director_by_the_api_needs_a_reason_naming_the_field(app, client):
    event_id, key = make(app)
    table = start(client, event_id, key)["tables"][0]
    play_table(client, table, MADE_02)
    start(client, event_id, key, close=True)
    game = f"/api/games/{table['game']}/deals"
    before = game_state(app, table["game"])
    for body in (
        MARCH_13,
        {**MARCH_13, "reason": "  "},
        {**MARCH_13, "reason": 7},
        {**MARCH_13, "reason": "x" * 201},
    ):
        r = client.put(f"{game}/0", json=body, headers=bearer(key))
        assert r.status_code == 422 and r.get_json()["errors"][0]["field"] == "reason"
    r = client.delete(f"{game}/0", headers=bearer(key))
    assert r.status_code == 422 and r.get_json()["errors"][0]["field"] == "reason"
    assert game_state(app, table["game"]) == before
    # Deleting a deal and adding one after the close are corrections too.
    gone = client.delete(f"{game}/0", json={"reason": "Scored at the wrong table"}, headers=bearer(key))
    assert gone.status_code == 200
    added = client.post(game, json={**MARCH_13, "reason": "The right hand"}, headers=bearer(key))
    assert added.status_code == 201, added.get_json()
    assert game_state(app, table["game"])[1] == [MARCH_13]  # the reason is no fact of the deal
    with app.app_context():
        fixes = db.session.query(Change).filter(Change.reason.is_not(None)).order_by(Change.id).all()
        assert [(c.kind, c.reason, c.given_by) for c in fixes] == [
            ("delete", "Scored at the wrong table", "director"),
            ("append", "The right hand", "director"),
        ]
    # A wrong key is no director.
    assert (
        client.put(f"{game}/0", json={**MARCH_13, "reason": "r"}, headers=bearer("x" * 32)).status_code == 403
    )


# -- no input gives a 500 ---------------------------------------------------------------------

MADE: dict[int, tuple] = {}
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**12), 10**12) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=10,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    body=json_values,
    rnd=st.integers(0, 2**40),
    table=st.integers(0, 2**40),
    form=st.dictionaries(
        st.sampled_from(["by", "reason", "csrf_token", "x"]), st.text(max_size=20), max_size=3
    ),
    word=st.text(min_size=1, max_size=40),
)
def test_the_new_routes_never_answer_500(app, client, body, rnd, table, form, word):
    if id(app) not in MADE:  # one event per test run; hypothesis's examples share it
        event_id, key = make(app, confirm=True)
        t = start(client, event_id, key)["tables"][0]
        play_table(client, t, MADE_02)
        MADE[id(app)] = (event_id, key, t)
    event_id, key, t = MADE[id(app)]
    answers = [
        client.post(confirm_url(event_id, rnd, table), json=body, headers=bearer(t["edit_key"])),
        client.post(confirm_url(event_id, 1, 2), json=body, headers=bearer(t["edit_key"])),
        client.put(f"/api/games/{t['game']}/deals/0", json=body, headers=bearer(key)),
        client.delete(f"/api/games/{t['game']}/deals/0", json=body, headers=bearer(t["edit_key"])),
        client.post(f"/g/{t['game']}/confirm", data=form),
        client.get(f"/e/{event_id}/tables/{word}/correct"),
        client.get(f"/e/{word}/tables/{t['game']}/correct"),
    ]
    for answer in answers:
        assert answer.status_code < 500, answer.get_data(as_text=True)[:300]
        if answer.status_code == 422 and answer.is_json:
            assert all(e["field"] for e in answer.get_json()["errors"])


def test_an_owner_of_the_events_club_corrects_by_name(app, client):
    from scorekeeper.clubs import service as clubs

    with app.app_context():
        made = clubs.create_club("Tuesday Club", owner="Olga")
        event, key = events.create_event(
            {
                "name": "N",
                "format": "progressive",
                "game": "euchre",
                "players": PLAYERS,
                "hands": 1,
                "rounds": 2,
            },
            club_id=made.club.id,
        )
        event_id, owner_key = event.id, made.key
    table = start(client, event_id, owner_key)["tables"][0]  # the owner directs the event
    play_table(client, table, MADE_02)
    start(client, event_id, owner_key, close=True)
    fixed = client.put(
        f"/api/games/{table['game']}/deals/0",
        json={**MARCH_13, "reason": "Recount"},
        headers=bearer(owner_key),
    )
    assert fixed.status_code == 200, fixed.get_json()
    with app.app_context():
        fix = db.session.query(Change).filter(Change.reason.is_not(None)).one()
        assert (fix.reason, fix.given_by) == ("Recount", "Olga")
    html = app.test_client().get(f"/e/{event_id}/print").get_data(as_text=True)
    assert "Recount" in html and "Olga" in html


def test_the_director_adds_a_forgotten_hand_on_a_closed_tables_page(app, client):
    event_id, key = make(app, hands=2)
    table = start(client, event_id, key)["tables"][0]
    play_table(client, table, MADE_02)
    start(client, event_id, key, close=True)  # closed at one hand of two
    client.get(f"/e/{event_id}/direct?key={key}")
    client.get(f"/e/{event_id}/tables/{table['game']}/correct")
    path = f"/g/{table['game']}"
    page = client.get(path).get_data(as_text=True)
    assert 'id="entry"' in page and 'name="reason" type="text"' in page and 'form="entry"' in page
    assert "You are correcting this table as the event" in page
    bare = client.post(f"{path}/deals", data=euchre_form(1, 5, "S"))
    assert bare.status_code == 422 and "Give a reason" in bare.get_data(as_text=True)
    assert checked(bare.get_data(as_text=True), "trump", "S")  # the entry kept as typed
    done = client.post(f"{path}/deals", data={**euchre_form(1, 5, "S"), "reason": "Hand two was played"})
    assert done.status_code == 303
    assert game_state(app, table["game"])[1] == [MADE_02, MARCH_13]
    seats = table["seats"]
    assert points(client, event_id)[seats[1]] == 2 and points(client, event_id)[seats[0]] == 1


CLOSED_MADE: dict[int, tuple] = {}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(reason=st.text(max_size=220), trump=st.text(max_size=3), maker=st.text(max_size=3))
def test_a_directors_page_correction_with_any_reason_never_answers_500(app, client, reason, trump, maker):
    if id(app) not in CLOSED_MADE:
        event_id, key = make(app)
        t = start(client, event_id, key)["tables"][0]
        play_table(client, t, MADE_02)
        start(client, event_id, key, close=True)
        client.get(f"/e/{event_id}/direct?key={key}")
        client.get(f"/e/{event_id}/tables/{t['game']}/correct")
        CLOSED_MADE[id(app)] = t
    t = CLOSED_MADE[id(app)]
    path = f"/g/{t['game']}"
    before = game_state(app, t["game"])
    fixed = client.post(
        f"{path}/deals/0", data={**euchre_form(1, 3), "trump": trump, "maker": maker, "reason": reason}
    )
    assert fixed.status_code in (303, 400, 422), fixed.status_code
    if fixed.status_code != 303:
        assert game_state(app, t["game"]) == before  # refused: nothing changed
    if not reason.strip() or len(reason.strip()) > 200:
        assert fixed.status_code != 303
