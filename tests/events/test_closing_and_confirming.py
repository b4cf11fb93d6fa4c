"""events.md, Rounds (issue 54, items 1, 4 and 7; issue 57, N2): any round closes, the last one
too, finishing the event; once the event finishes its last round locks; the side that did not win
confirms, the director may for a table with a reason, an earlier round until the event finishes;
a late arrival scores what a sit-out scores for the rounds he missed."""

from __future__ import annotations

from sqlalchemy import select

from scorekeeper.db import db
from scorekeeper.events import rounds
from scorekeeper.events import service as events
from scorekeeper.models import Game, HouseChange
from tests.scenes import euchre_evening

PLAYERS = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]
MADE_02 = {"trump": "H", "maker": 0, "alone": False, "defender_alone": None, "maker_tricks": 3}
MARCH_13 = {"trump": "S", "maker": 1, "alone": False, "defender_alone": None, "maker_tricks": 5}


def auth(key):
    return {"Authorization": f"Bearer {key}"}


def make(app, players=PLAYERS, **extra):
    body = {"name": "Euchre night", "format": "progressive", "game": "euchre", "players": players}
    with app.app_context():
        event, key = events.create_event({**body, "hands": 2, "rounds": 2, **extra})
        return event.id, key


def start(client, event_id, key):
    r = client.post(f"/api/events/{event_id}/rounds", json={}, headers=auth(key))
    assert r.status_code == 201, r.get_json()
    return r.get_json()["tables"]


def play(client, table, facts):
    r = client.post(f"/api/games/{table['game']}/deals", json=facts, headers=auth(table["edit_key"]))
    assert r.status_code == 201, r.get_json()


def close(client, event_id, number, key):
    return client.post(f"/api/events/{event_id}/rounds/{number}/close", json={}, headers=auth(key))


def doc(client, event_id):
    return client.get(f"/api/events/{event_id}").get_json()


def deals(app, game_id):
    with app.app_context():
        return [d.facts for d in db.session.get(Game, game_id).deals]


def test_the_director_closes_every_round_the_last_one_too_and_it_finishes_the_event(app, client):
    event_id, key = make(app)
    tables = start(client, event_id, key)
    play(client, tables[0], MADE_02)  # table 1 one hand of 2; table 2 nothing yet
    assert close(client, event_id, 1, "wrong").status_code in (403, 404)
    assert close(client, event_id, 2, key).status_code == 409  # not started
    closed = close(client, event_id, 1, key)
    assert closed.status_code == 200, closed.get_json()
    body = closed.get_json()
    assert body["rounds"][0]["status"] == "done" and body["finished"] is False
    # Unfinished games count as they stand: table 1's makers have their point.
    points = {s["name"]: s["by_round"][0] for s in body["standings"]}
    assert points[tables[0]["seats"][0]] == 1 and points[tables[0]["seats"][1]] == 0
    again = close(client, event_id, 1, key)
    assert again.status_code == 409 and again.get_json()["errors"][0]["field"] == "round"

    last = start(client, event_id, key)  # no "close first" needed: round 1 was closed
    play(client, last[1], MARCH_13)
    finished = close(client, event_id, 2, key)
    assert finished.status_code == 200
    assert finished.get_json()["finished"] is True
    assert [r["status"] for r in finished.get_json()["rounds"]] == ["done", "done"]
    assert close(client, event_id, 2, key).status_code == 409
    # The last round is locked now: its table's key changes nothing; the director, with a reason.
    before = deals(app, last[1]["game"])
    for refused in (
        client.post(f"/api/games/{last[1]['game']}/deals", json=MADE_02, headers=auth(last[1]["edit_key"])),
        client.delete(f"/api/games/{last[1]['game']}/deals/0", headers=auth(last[1]["edit_key"])),
    ):
        assert refused.status_code == 403, refused.get_json()
        assert "Round 2 is closed" in refused.get_json()["errors"][0]["message"]
    assert deals(app, last[1]["game"]) == before


def test_a_repeated_close_with_its_idempotency_key_answers_the_same(app, client):
    event_id, key = make(app)
    start(client, event_id, key)
    headers = {**auth(key), "Idempotency-Key": "close-round-1-abc"}
    first = client.post(f"/api/events/{event_id}/rounds/1/close", json={}, headers=headers)
    second = client.post(f"/api/events/{event_id}/rounds/1/close", json={}, headers=headers)
    assert first.status_code == second.status_code == 200
    assert second.get_json()["rounds"][0]["status"] == "done"


def test_once_the_last_round_has_finished_at_every_table_its_tables_lock(app, client):
    # Issue 57, N2: a finished event could be un-finished by a table's key, its season with it.
    event_id, key = make(app, hands=1, rounds=1)
    tables = start(client, event_id, key)
    play(client, tables[0], MADE_02)
    # One table still plays: the finished one may still be corrected by its own key.
    fixed = client.put(
        f"/api/games/{tables[0]['game']}/deals/0", json=MARCH_13, headers=auth(tables[0]["edit_key"])
    )
    assert fixed.status_code == 200, fixed.get_json()
    play(client, tables[1], MADE_02)
    assert doc(client, event_id)["finished"] is True
    before = deals(app, tables[0]["game"])
    undo = client.delete(f"/api/games/{tables[0]['game']}/deals/0", headers=auth(tables[0]["edit_key"]))
    assert undo.status_code == 403
    assert deals(app, tables[0]["game"]) == before and doc(client, event_id)["finished"] is True
    with_reason = client.put(
        f"/api/games/{tables[0]['game']}/deals/0",
        json={**MADE_02, "reason": "Ann's side made it"},
        headers=auth(key),
    )
    assert with_reason.status_code == 200, with_reason.get_json()
    assert doc(client, event_id)["finished"] is True


def confirm(client, event_id, rnd, table, body, key):
    return client.post(
        f"/api/events/{event_id}/rounds/{rnd}/tables/{table}/confirm", json=body, headers=auth(key)
    )


def test_only_the_side_that_did_not_win_confirms_and_after_a_tie_either(app, client):
    event_id, key = make(app, confirm=True, hands=1)
    tables = start(client, event_id, key)
    play(client, tables[0], MADE_02)  # seats 0 and 2 won
    seats = tables[0]["seats"]
    winner = confirm(client, event_id, 1, 1, {"by": seats[2]}, tables[0]["edit_key"])
    assert winner.status_code == 422
    error = winner.get_json()["errors"][0]
    assert error["field"] == "by" and seats[1] in error["message"] and seats[3] in error["message"]
    assert seats[0] not in error["message"]
    assert doc(client, event_id)["rounds"][0]["tables"][0]["confirmed_by"] is None
    loser = confirm(client, event_id, 1, 1, {"by": seats[3]}, tables[0]["edit_key"])
    assert loser.status_code == 200 and loser.get_json()["confirmed_by"] == seats[3]
    # Table 2 plays nothing; the round is closed at 0 to 0: a tie, so either side confirms.
    assert close(client, event_id, 1, key).status_code == 200
    other = tables[1]["seats"]
    tie = confirm(client, event_id, 1, 2, {"by": other[0]}, tables[1]["edit_key"])
    assert tie.status_code == 200 and tie.get_json()["confirmed_by"] == other[0]


def test_the_director_confirms_for_a_table_with_a_reason_kept_in_the_history(app, client):
    event_id, key = make(app, confirm=True, hands=1)
    tables = start(client, event_id, key)
    play(client, tables[0], MADE_02)
    bare = confirm(client, event_id, 1, 1, {"reason": "  "}, key)
    assert bare.status_code == 422 and bare.get_json()["errors"][0]["field"] == "reason"
    done = confirm(client, event_id, 1, 1, {"reason": "The table left without confirming"}, key)
    assert done.status_code == 200 and done.get_json()["confirmed_by"] == "director"
    with app.app_context():
        kept = db.session.scalars(
            select(HouseChange).where(HouseChange.event_id == event_id, HouseChange.kind == "confirm")
        ).one()
        assert kept.detail["reason"] == "The table left without confirming" and kept.by == "director"


def test_a_table_confirms_an_earlier_round_until_the_event_finishes(app, client):
    event_id, key = make(app, confirm=True, hands=1)
    first = start(client, event_id, key)
    for table in first:
        play(client, table, MADE_02)
    second = start(client, event_id, key)  # round 1's tables were not confirmed
    late = confirm(client, event_id, 1, 1, {"by": first[0]["seats"][1]}, first[0]["edit_key"])
    assert late.status_code == 200, late.get_json()
    for table in second:
        play(client, table, MADE_02)
    assert doc(client, event_id)["finished"] is True
    # Finished: round 1's other table is too late for its players, not for the director.
    too_late = confirm(client, event_id, 1, 2, {"by": first[1]["seats"][1]}, first[1]["edit_key"])
    assert too_late.status_code == 409 and "finished" in too_late.get_json()["errors"][0]["message"]
    assert confirm(client, event_id, 1, 2, {"reason": "Forgotten; Bob agreed"}, key).status_code == 200
    # The last round's tables still confirm after the event finished: their own end finished it.
    last = confirm(client, event_id, 2, 1, {"by": second[0]["seats"][3]}, second[0]["edit_key"])
    assert last.status_code == 200, last.get_json()


def test_a_late_arrival_scores_a_sit_outs_points_for_the_rounds_he_missed(app, client):
    for late, expected in (("sit_out", 1), ("zero", 0)):
        event_id, key = make(app, players=PLAYERS[:4], hands=1, rounds=2, late=late)
        tables = start(client, event_id, key)
        play(client, tables[0], MADE_02)  # 1, 0, 1, 0: the round's average is 0.5, rounded up 1
        added = client.post(f"/api/events/{event_id}/players", json={"add": ["Ivy"]}, headers=auth(key))
        assert added.status_code == 200, added.get_json()
        row = next(s for s in doc(client, event_id)["standings"] if s["name"] == "Ivy")
        assert row["by_round"] == [expected] and row["missed"] == [1]
        others = [s for s in doc(client, event_id)["standings"] if s["name"] != "Ivy"]
        assert all("missed" not in s for s in others)
    bad = client.post(
        "/api/clubs/none/events", json={"name": "x", "format": "progressive", "game": "euchre", "late": "x"}
    )
    assert bad.status_code in (401, 403, 404)
    with app.app_context():
        from scorekeeper.refusals import Refusal

        try:
            events.create_event(
                {"name": "x", "format": "progressive", "game": "euchre", "players": PLAYERS, "late": "never"}
            )
        except Refusal as exc:
            assert exc.errors[0].field == "late"
        else:
            raise AssertionError("late: never was accepted")


# -- the director's page ----------------------------------------------------------------------


def test_the_directors_page_offers_the_close_once_a_table_finished_and_the_last_close_finishes(app, client):
    event_id, key = make(app, hands=1)
    client.get(f"/e/{event_id}/direct?key={key}")
    tables = start(client, event_id, key)
    page = client.get(f"/e/{event_id}").get_data(as_text=True)
    assert 'id="close-round"' not in page  # nothing finished, no clock: nothing to close yet
    play(client, tables[0], MADE_02)
    page = client.get(f"/e/{event_id}").get_data(as_text=True)
    assert f'action="/e/{event_id}/rounds/1/close"' in page and "Close round 1</button>" in page
    assert client.post(f"/e/{event_id}/rounds/1/close", data={}).status_code == 303
    assert doc(client, event_id)["rounds"][0]["status"] == "done"
    again = client.post(f"/e/{event_id}/rounds/1/close", data={}, follow_redirects=True)
    assert "Round 1 is not the round being played" in again.get_data(as_text=True)
    assert app.test_client().post(f"/e/{event_id}/rounds/1/close", data={}).status_code == 403

    last = start(client, event_id, key)
    play(client, last[1], MADE_02)
    page = client.get(f"/e/{event_id}").get_data(as_text=True)
    assert "Close round 2 and finish the event" in page
    done = client.post(f"/e/{event_id}/rounds/2/close", data={}, follow_redirects=True).get_data(as_text=True)
    assert "the event has finished" in done and 'id="close-round"' not in done
    assert doc(client, event_id)["finished"] is True


def test_the_directors_page_offers_the_close_when_the_clock_has_run_out(app, client):
    from datetime import timedelta

    from scorekeeper.models import Event

    event_id, key = make(app, hands=1, rounds=1, minutes=30)
    client.get(f"/e/{event_id}/direct?key={key}")
    start(client, event_id, key)
    assert 'id="close-round"' not in client.get(f"/e/{event_id}").get_data(as_text=True)
    with app.app_context():
        rnd = db.session.get(Event, event_id).rounds[0]
        rnd.ends_at = rnd.ends_at - timedelta(minutes=31)
        db.session.commit()
    page = client.get(f"/e/{event_id}").get_data(as_text=True)
    assert "Close round 1 and finish the event" in page


def test_the_director_is_asked_before_starting_while_tables_are_unconfirmed(app, client):
    event_id, key = make(app, confirm=True, hands=1)
    client.get(f"/e/{event_id}/direct?key={key}")
    tables = start(client, event_id, key)
    for table in tables:
        play(client, table, MADE_02)
    asked = client.post(f"/e/{event_id}/rounds", data={"round": "2"})
    assert asked.status_code == 409
    html = asked.get_data(as_text=True)
    assert "Not confirmed yet: round 1 table 1, round 1 table 2." in html and 'name="unconfirmed"' in html
    assert len(doc(client, event_id)["rounds"][1]["tables"][0].get("game") or "") == 0  # not started
    # The director confirms table 1 for it, with a reason; an empty reason is refused at its field.
    empty = client.post(f"/e/{event_id}/rounds/1/tables/1/confirm", data={"reason": " "})
    assert empty.status_code == 422 and 'id="reason-1-1-error"' in empty.get_data(as_text=True)
    ok = client.post(f"/e/{event_id}/rounds/1/tables/1/confirm", data={"reason": "Bob said so"})
    assert ok.status_code == 303
    assert doc(client, event_id)["rounds"][0]["tables"][0]["confirmed_by"] == "director"
    assert "confirmed by the director" in client.get(f"/e/{event_id}").get_data(as_text=True)
    anyway = client.post(f"/e/{event_id}/rounds", data={"round": "2", "unconfirmed": "y"})
    assert anyway.status_code == 303 and doc(client, event_id)["rounds"][1]["status"] == "playing"


def round_1_forgotten(app, client) -> tuple[str, list[dict], str, object]:
    """Round 1 played at every table, confirmed at none, and round 2 started: the event, round 1's
    tables, table 1's link (its path) and the phone that opened it during round 1 (so it holds
    round 1's game and its scorer key)."""
    import re

    event_id, key = make(app, confirm=True, hands=1)
    first = start(client, event_id, key)
    for table in first:
        play(client, table, MADE_02)
    client.get(f"/e/{event_id}/direct?key={key}")
    page = client.get(f"/e/{event_id}").get_data(as_text=True)
    link = re.search(rf'href="http://localhost(/e/{event_id}/table/1/[^"]+)"', page).group(1)
    phone = app.test_client()
    phone.get(link)
    start(client, event_id, key)  # round 1's results were not confirmed
    return event_id, first, link, phone


def test_a_table_phone_offers_its_forgotten_confirmation_of_the_round_before(app, client):
    import html

    event_id, first, link, phone = round_1_forgotten(app, client)
    now = phone.get(link).get_data(as_text=True)
    assert "Round 1's result is not confirmed: confirm it" in html.unescape(now)
    # The link carries the table's link back (tests/events/test_evening_walk.py).
    assert f'href="/g/{first[0]["game"]}?back=/e/{event_id}/table/1/' in now
    old = phone.get(f"/g/{first[0]['game']}").get_data(as_text=True)
    seats = first[0]["seats"]
    assert f'name="by" value="{seats[1]}"' in old and f'name="by" value="{seats[0]}"' not in old
    assert phone.post(f"/g/{first[0]['game']}/confirm", data={"by": seats[1]}).status_code == 303
    assert doc(client, event_id)["rounds"][0]["tables"][0]["confirmed_by"] == seats[1]
    assert "is not confirmed: confirm it" not in phone.get(link).get_data(as_text=True)


def test_the_directors_page_follows_the_hall_and_answers_304_while_nothing_changed(app, client):
    import re
    from datetime import timedelta

    from scorekeeper.models import Event

    event_id, key = make(app, confirm=True, hands=1, minutes=30)
    client.get(f"/e/{event_id}/direct?key={key}")
    tables = start(client, event_id, key)
    page = client.get(f"/e/{event_id}").get_data(as_text=True)
    region = re.search(r'<section id="ev-hall"[^>]*>', page).group(0)
    assert f'hx-get="/e/{event_id}/hall"' in region and 'hx-trigger="poll"' in region
    tag = re.search(r'data-etag="&quot;([^&]+)&quot;"', region).group(1)
    hx = {"HX-Request": "true"}
    assert client.get(f"/e/{event_id}/hall", headers={**hx, "If-None-Match": f'"{tag}"'}).status_code == 304
    # A table plays its hand: the region's next poll has it finished, awaiting confirmation.
    play(client, tables[0], MADE_02)
    fresh = client.get(f"/e/{event_id}/hall", headers={**hx, "If-None-Match": f'"{tag}"'})
    assert fresh.status_code == 200
    html = fresh.get_data(as_text=True)
    assert "finished" in html and "NOT CONFIRMED" in html and 'id="close-round"' in html
    assert "not started" not in html
    # Confirmed: the next poll says who; the clock runs out: the table still playing is late.
    confirm(client, event_id, 1, 1, {"by": tables[0]["seats"][1]}, tables[0]["edit_key"])
    with app.app_context():
        rnd = db.session.get(Event, event_id).rounds[0]
        rnd.ends_at = rnd.ends_at - timedelta(minutes=31)
        db.session.commit()
    html = client.get(f"/e/{event_id}/hall", headers=hx).get_data(as_text=True)
    assert f"confirmed by {tables[0]['seats'][1]}" in html
    late = re.findall(r'<li class="([^"]*)">\s*<strong>Table (\d)</strong>', html)
    assert ("ev-late", "2") in late and ("", "1") in late
    # A visitor's region has no director's controls; it follows all the same.
    visitor = app.test_client().get(f"/e/{event_id}/hall", headers=hx).get_data(as_text=True)
    assert "close-round" not in visitor and "Standings" in visitor
    assert client.get(f"/e/{event_id}/hall").status_code == 303  # a plain visit: the page


def test_the_event_page_carries_its_stylesheet_in_the_body_for_a_boosted_visit(app, client):
    # Issue 54, item 3: from the club's page (hx-boost swaps the body only) it came unstyled.
    event_id, key = make(app)
    page = client.get(f"/e/{event_id}").get_data(as_text=True)
    body = page.split("<body", 1)[1]
    assert "evening.css" in body
    assert 'id="ev-hall"' in page and 'hx-trigger="poll"' in page.split('id="ev-hall"', 1)[1][:400]


def table_link(client, event_id, number):
    import re

    page = client.get(f"/e/{event_id}").get_data(as_text=True)
    return re.search(rf'href="http://localhost(/e/{event_id}/table/{number}/[^"]+)"', page).group(1)


def test_a_table_phone_between_rounds_says_next_round_first_and_offers_no_delete(app, client):
    import html

    event_id, key = make(app, hands=1)
    client.get(f"/e/{event_id}/direct?key={key}")
    tables = start(client, event_id, key)
    link = table_link(client, event_id, 1)
    phone = app.test_client()
    playing = phone.get(link).get_data(as_text=True)
    # Issue 54, item 6: the table's phone may not delete its game (the server refuses it).
    assert "Delete this game" not in playing and "Next round" not in playing
    play(client, tables[0], MADE_02)
    assert close(client, event_id, 1, key).status_code == 200
    between = html.unescape(phone.get(link).get_data(as_text=True))
    main = between.split('id="table-phone"', 1)[1]
    # Item 5: "Next round: wait for the director." comes first and plain, not in an error box.
    assert main.index("Next round: wait for the director.") < main.index('id="live"')
    assert "flash-error" not in between and between.count("Next round: wait for the director.") == 1
    # The director on the same game may delete it.
    director_game = client.get(f"/e/{event_id}/tables/{tables[0]['game']}/correct", follow_redirects=True)
    assert "Delete this game" in director_game.get_data(as_text=True)


def test_in_the_last_round_a_table_phone_never_promises_a_next_round(app, client):
    import html

    event_id, key = make(app, players=PLAYERS + ["Ivy", "Jo", "Kit", "Lu"], hands=1, rounds=2)
    client.get(f"/e/{event_id}/direct?key={key}")
    start(client, event_id, key)
    with app.app_context():
        from scorekeeper.models import Event

        event = db.session.get(Event, event_id)
        rounds.change_players(event, [], ["Ivy", "Jo", "Kit", "Lu"])  # round 2 fills two tables
    assert close(client, event_id, 1, key).status_code == 200
    link = table_link(client, event_id, 3)
    start(client, event_id, key)
    page = html.unescape(app.test_client().get(link).get_data(as_text=True))
    assert "No game at this table in round 2, the last round." in page
    assert "the next round appears here by itself" not in page
    tables = doc(client, event_id)["rounds"][1]["tables"]
    for table in tables:
        table["edit_key"] = events_key(app, table["game"])
        play(client, table, MADE_02)
    last = html.unescape(app.test_client().get(table_link(client, event_id, 1)).get_data(as_text=True))
    assert "Next round" not in last


def events_key(app, game_id):
    with app.app_context():
        return events.table_key(game_id)


def test_the_board_explains_ranks_on_equal_points_and_no_place_shows_before_a_card(app, client):
    import html
    import re

    with app.app_context():
        event, key = events.create_event(
            euchre_evening(PLAYERS, "King's table", format="ladder", hands=1, rounds=2)
        )
        event_id = event.id
    # Before any card: a player's page says where to sit, not "Place 1 · shares place 1".
    with app.app_context():
        player = f"/e/{event_id}/p/0/{events.player_token(event, 0)}"
    tables = start(client, event_id, key)
    before = html.unescape(client.get(player).get_data(as_text=True))
    assert "Place 1" not in before and "shares place 1" not in before
    assert "shares place 1" not in html.unescape(client.get(f"/e/{event_id}").get_data(as_text=True))
    play(client, tables[0], MADE_02)  # 1 point to the winners at table 1
    play(client, tables[1], {**MADE_02, "maker": 1, "maker_tricks": 3})  # 1 point to 1+3 at table 2
    assert close(client, event_id, 1, key).status_code == 200
    board = html.unescape(client.get(f"/e/{event_id}/board").get_data(as_text=True))
    assert "Ranked by Points › Rounds won › Loners; equal in all, the place is shared." in board
    rows = re.findall(
        r'<span class="tv-name">([^<]+)</span><strong class="tv-points">(\d+)</strong><span class="tv-fig">(\d+)</span>',
        board,
    )
    assert len(rows) == len(PLAYERS) and {(p, w) for _, p, w in rows} == {("1", "1"), ("0", "0")}
    after = html.unescape(client.get(player).get_data(as_text=True))
    assert "Place " in after


def test_a_finished_tables_phone_shows_its_confirmation_above_the_scores(app, client):
    event_id, key = make(app, confirm=True, hands=1)
    client.get(f"/e/{event_id}/direct?key={key}")
    tables = start(client, event_id, key)
    link = table_link(client, event_id, 1)
    phone = app.test_client()
    phone.get(link)
    play(client, tables[0], MADE_02)  # finished; the round still open (table 2 plays)
    page = phone.get(link).get_data(as_text=True)
    live = page.split('id="live"', 1)[1]
    assert live.index('id="ev-confirm"') < live.index('id="board"')
    assert page.index("Next round: wait for the director.") < page.index('id="board"')
