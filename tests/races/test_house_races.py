"""Every race of issue 38, run as a concurrent user would: 4-6 requests at once (threads, real
HTTP) against one served app, on the database DATABASE_URL picks (SQLite by default).

Each race ends in one winner: the losers get 409 with the current state (or the first
request's answer, for a repeat), never a 500, and nothing is lost or made twice.
"""

from __future__ import annotations

import http.client
import re
import threading
from collections import Counter
from urllib.parse import urlencode

import pytest
from sqlalchemy import func, select
from werkzeug.serving import make_server

from scorekeeper import create_app
from scorekeeper.db import db
from scorekeeper.models import Club, Event, EventRound, Game, Invite, Member, MemberKey
from tests.conftest import app_config, bearer, emptied
from tests.web.test_table_concurrency import all_at_once, call

# A made hand of Euchre for the pair at seats 0+2.
MADE_02 = {"trump": "H", "maker": 0, "alone": False, "defender_alone": None, "maker_tricks": 3}
NEW_GAME = {
    "players_0": "Ann",
    "players_1": "Bob",
    "players_2": "Cid",
    "players_3": "Dee",
    "first_dealer": "0",
}


@pytest.fixture
def served(database_url, tmp_path):
    app = create_app(
        app_config(
            database_url,
            TESTING=False,
            PDF_FOLDER=str(tmp_path / "pdf"),
            LIMIT_CREATE_CLUBS="100000 per day",
            LIMIT_JOINS="100000 per hour",
        )
    )
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield app, server.server_port
    server.shutdown()
    emptied(app)


def count(app, query) -> int:
    with app.app_context():
        try:
            return db.session.scalar(query)
        finally:
            db.session.remove()


def new_club(port, name="Thursday Euchre"):
    status, _h, body = call(port, "POST", "/api/clubs", {"name": name, "player": "Olga"})
    assert status == 201, body
    return body


def new_event(port, club, players=12, **extra):
    body = {
        "name": "Euchre night",
        "format": "progressive",
        "game": "euchre",
        "players": [f"P{i}" for i in range(players)],
        "hands": 1,
        "rounds": 3,
        **extra,
    }
    status, _h, doc = call(
        port, "POST", f"/api/clubs/{club['slug']}/events", body, bearer(club["member_key"])
    )
    assert status == 201, doc
    return doc


def joins_at_once(port, club, names) -> list:
    """Each of ``names`` joins ``club`` by its invite, all at once: each call's result."""
    return all_at_once(
        [
            lambda n=n: call(
                port, "POST", f"/api/clubs/{club['slug']}/join", {"invite": club["invite"], "name": n}
            )
            for n in names
        ]
    )


def statuses(results) -> list[int]:
    return sorted(status for status, _h, _b in results)


def post_form(port, path, form):
    """A form's POST: (status, Location, every Set-Cookie)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request(
            "POST", path, body=urlencode(form), headers={"Content-Type": "application/x-www-form-urlencoded"}
        )
        response = conn.getresponse()
        response.read()
        return response.status, response.getheader("Location"), response.msg.get_all("Set-Cookie") or []
    finally:
        conn.close()


def test_the_new_game_form_sent_five_times_with_one_token_makes_one_game(served):
    app, port = served
    form = {**NEW_GAME, "submit_token": "one-form-token-38"}
    results = all_at_once([lambda: post_form(port, "/new/tally", form)] * 5)
    assert sorted(status for status, _l, _c in results) == [303] * 5
    assert len({place for _s, place, _c in results}) == 1  # every copy answers the one game made
    assert count(app, select(func.count(Game.id))) == 1
    # Each copy hands this device the game's key (the browser keeps whichever answer it reads last).
    keys = set()
    for _s, _l, cookies in results:
        found = [re.match(r"edit_key=([^;]+)", c) for c in cookies]
        keys |= {m.group(1) for m in found if m}
        assert any(found)
    assert len(keys) == 1


def test_concurrent_round_starts_start_one_round_and_no_orphan_game(served):
    app, port = served
    club = new_club(port)
    doc = new_event(port, club)
    key = bearer(doc["director_key"])
    results = all_at_once(
        [lambda: call(port, "POST", f"/api/events/{doc['id']}/rounds", {}, key) for _ in range(5)]
    )
    assert statuses(results) == [201] + [409] * 4
    for status, _h, body in results:
        if status == 409:
            # The current state: the round the winner started.
            assert [r["status"] for r in body["record"]["rounds"]] == ["playing", "planned", "planned"]
            assert set(body) == {"errors", "record"}
    assert count(app, select(func.count(EventRound.id))) == 1
    assert count(app, select(func.count(Game.id))) == 3  # 12 players: 3 tables, no orphan
    # Closing and starting at once from the state they saw ("close": true, with its ETag): still
    # one round. (Without If-Match a close that reads the event after the winner started round 2
    # is a later request, and closes that round: the version says which round a director saw.)
    _s, headers, _doc = call(port, "GET", f"/api/events/{doc['id']}", headers=key)
    seen = {**key, "If-Match": headers["ETag"]}
    results = all_at_once(
        [
            lambda: call(port, "POST", f"/api/events/{doc['id']}/rounds", {"close": True}, seen)
            for _ in range(5)
        ]
    )
    assert statuses(results) == [201] + [409] * 4
    assert count(app, select(func.count(EventRound.id))) == 2
    assert count(app, select(func.count(Game.id))) == 6


def test_a_round_start_repeated_by_its_idempotency_key_answers_the_round_it_started(served):
    app, port = served
    club = new_club(port)
    doc = new_event(port, club)
    key = {**bearer(doc["director_key"]), "Idempotency-Key": "round-one-start"}
    results = all_at_once(
        [lambda: call(port, "POST", f"/api/events/{doc['id']}/rounds", {}, key) for _ in range(4)]
    )
    assert statuses(results) == [201] * 4
    assert {tuple(t["game"] for t in body["tables"]) for _s, _h, body in results} != {()}
    assert len({tuple(t["game"] for t in body["tables"]) for _s, _h, body in results}) == 1
    assert count(app, select(func.count(Game.id))) == 3


def test_concurrent_player_changes_are_all_kept(served):
    app, port = served
    club = new_club(port)
    doc = new_event(port, club, players=8)
    key = bearer(doc["director_key"])
    adds = [[f"New{i}a"] for i in range(4)]
    results = all_at_once(
        [lambda a=a: call(port, "POST", f"/api/events/{doc['id']}/players", {"add": a}, key) for a in adds]
    )
    assert statuses(results) == [200] * 4
    _s, _h, now = call(port, "GET", f"/api/events/{doc['id']}")
    assert len(now["players"]) == 12  # no lost change
    assert count(app, select(Event.version)) == 5  # made, then four changes
    # Based on a version (If-Match): one applies, the others are told it changed (409).
    based = {**key, "If-Match": '"5"'}
    more = [[f"Late{i}"] for i in range(4)]
    results = all_at_once(
        [lambda a=a: call(port, "POST", f"/api/events/{doc['id']}/players", {"add": a}, based) for a in more]
    )
    assert statuses(results) == [200] + [409] * 3
    assert len(call(port, "GET", f"/api/events/{doc['id']}")[2]["players"]) == 13


def test_concurrent_confirms_keep_one_and_refuse_the_others(served):
    app, port = served
    club = new_club(port)
    doc = new_event(port, club, players=4, confirm=True)
    status, _h, rnd = call(port, "POST", f"/api/events/{doc['id']}/rounds", {}, bearer(doc["director_key"]))
    assert status == 201
    _s, _h, full = call(port, "GET", f"/api/events/{doc['id']}", headers=bearer(doc["director_key"]))
    table = full["rounds"][0]["tables"][0]
    status, _h, _b = call(
        port, "POST", f"/api/games/{table['game']}/deals", MADE_02, bearer(table["edit_key"])
    )
    assert status == 201
    seats = table["seats"]
    path = f"/api/events/{doc['id']}/rounds/1/tables/1/confirm"
    # Four players of the table confirm at once: of the two on the side that did not win, one
    # confirms and the other is told it is done (409); the winners are not the ones who confirm
    # (events.md, Rounds: 422), whoever comes first.
    results = all_at_once(
        [lambda n=n: call(port, "POST", path, {"by": n}, bearer(table["edit_key"])) for n in seats]
    )
    assert statuses(results) == [200, 409, 422, 422]
    kept = [body["confirmed_by"] for status, _h, body in results if status == 200]
    _s, _h, after = call(port, "GET", f"/api/events/{doc['id']}")
    assert after["rounds"][0]["tables"][0]["confirmed_by"] == kept[0]


def test_a_one_time_device_link_used_at_once_gives_one_key(served):
    app, port = served
    club = new_club(port)
    with app.app_context():
        from scorekeeper.clubs import service

        owner = db.session.scalar(select(Member).where(Member.name == "Olga"))
        token = service.device_link(owner)
        db.session.remove()
    before = count(app, select(func.count(MemberKey.id)))
    join = {"invite": token, "name": "Olga"}
    results = all_at_once(
        [lambda: call(port, "POST", f"/api/clubs/{club['slug']}/join", join) for _ in range(6)]
    )
    assert statuses(results) == [201] + [404] * 5
    assert count(app, select(func.count(MemberKey.id))) == before + 1
    assert (
        count(app, select(func.count(Invite.id)).where(Invite.revoked_at.is_(None))) == 1
    )  # the club's invite


def test_joins_as_zoe_zoe_and_zoe_make_one_member(served):
    app, port = served
    club = new_club(port)
    names = ["Zoe", "zoe", "ZOE", "Ｚｏｅ", "zoe", "Zoe"]
    results = joins_at_once(port, club, names)
    assert statuses(results) == [201] + [409] * 5
    for status, _h, body in results:
        if status == 409:
            assert body["errors"][0]["field"] == "name" and "member already" in body["errors"][0]["message"]
    assert count(app, select(func.count(Member.id))) == 2  # the owner and one Zoe


def test_clubs_made_at_once_with_one_name_are_all_made(served):
    app, port = served
    results = all_at_once(
        [
            lambda: call(port, "POST", "/api/clubs", {"name": "Friday Spades", "player": "Ann"})
            for _ in range(5)
        ]
    )
    assert statuses(results) == [201] * 5
    slugs = Counter(body["slug"] for _s, _h, body in results)
    assert len(slugs) == 5
    assert count(app, select(func.count(Club.id))) == 5
