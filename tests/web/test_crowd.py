"""Graceful under a crowd (issue 28): polls refused first, paced by the server, kept by a shared
cache only where the answer is the same for everyone; a refused entry answers small."""

from __future__ import annotations

import gzip
from datetime import timedelta

import brotli
import pytest
from sqlalchemy import update

from scorekeeper.db import db
from scorekeeper.models import Game, utcnow
from tests.conftest import bearer
from tests.web.table_helpers import FLAT, api_game
from tests.web.test_read_side import games_of_each_kind, route_urls

HX = {"HX-Request": "true"}


@pytest.fixture
def busy(app):
    """The process made full: ``threads - 1`` other requests in flight beside the next one."""
    load = app.extensions["scorekeeper.load"]
    threads = load.threads
    load.threads = 4
    for _ in range(3):
        load.enter()
    load._full = 1.0  # and has been: a queue behind them
    yield load
    for _ in range(3):
        load.leave()
    load.threads = threads


def test_a_poll_is_refused_before_any_query_while_writes_and_pages_pass(app, client, busy, count_queries):
    gid, key = api_game(client, deals=[FLAT])
    before = busy.in_flight
    answers = []
    with count_queries() as seen:
        refused = client.get(f"/g/{gid}/live?part=live&lang=en", headers=HX)
    answers.append(refused)
    assert refused.status_code == 503 and len(seen) == 0
    wait = int(refused.headers["Retry-After"])
    # Between the pace (raised a step by the refusal) and the ceiling (15 by default).
    assert 3 <= wait <= 15 and refused.headers["X-Poll-After"] == str(wait)
    assert refused.headers["Cache-Control"] == "no-store" and len(refused.data) < 100
    # The scorer's deal is served however full the process is, through the API and the page.
    answers.append(client.post(f"/api/games/{gid}/deals", json=FLAT, headers=bearer(key)))
    answers.append(client.get(f"/g/{gid}"))
    answers.append(client.get(f"/api/games/{gid}"))
    assert [a.status_code for a in answers[1:]] == [201, 200, 200]
    # An event board's htmx poll is a poll too; its page, opened without htmx, is not.
    answers.append(client.get("/e/nosuchevent/board", headers=HX))
    answers.append(client.get("/e/nosuchevent/board"))
    assert [a.status_code for a in answers[4:]] == [503, 404]
    for answer in answers:
        answer.close()  # as a server does once an answer is sent
    assert busy.in_flight == before  # every answer left the count


def test_every_poll_answer_says_when_to_poll_again(app, client):
    gid, key = api_game(client, deals=[FLAT])
    url = f"/g/{gid}/live?part=live&lang=en"
    first = client.get(url, headers=HX)
    # A deal was just recorded: the next one may come soon.
    assert first.status_code == 200 and first.headers["X-Poll-After"] == "2"
    with app.app_context():
        db.session.execute(
            update(Game).where(Game.id == gid).values(updated_at=utcnow() - timedelta(hours=1))
        )
        db.session.commit()
    for fast in (True, False):  # the 304 below Flask and the view's
        app.config["LIVE_FAST_PATH"] = fast
        unchanged = client.get(url, headers={"If-None-Match": first.headers["ETag"], **HX})
        assert unchanged.status_code == 304 and unchanged.headers["X-Poll-After"] == "3"
    # Not a poll: no pacing header.
    assert "X-Poll-After" not in client.get(f"/g/{gid}").headers
    assert (
        "X-Poll-After" not in client.post(f"/api/games/{gid}/deals", json=FLAT, headers=bearer(key)).headers
    )


def test_after_a_refusal_followers_are_asked_to_wait_longer(app, client, busy):
    gid, _key = api_game(client, deals=[FLAT])
    assert client.get(f"/g/{gid}/live?part=live&lang=en", headers=HX).status_code == 503
    for _ in range(3):
        busy.leave()
    try:
        calm = client.get(f"/g/{gid}/live?part=live&lang=en", headers=HX)
        # The pace rose by a quarter (3 s to 4 s), and comes back down as requests find threads;
        # a slowed pace is asked spread a fifth either side (phones slowed together drift apart).
        assert app.extensions["scorekeeper.load"].poll_after(0) == 4
        assert calm.status_code == 200 and 3 <= int(calm.headers["X-Poll-After"]) <= 5
    finally:
        for _ in range(3):
            busy.enter()


def test_a_public_answer_is_the_same_for_everyone_and_no_private_one_is_public(app, client):
    """Over every GET route of every kind of game, as the scorer, a viewer and a seat: an answer
    a shared cache may keep is byte for byte what a stranger gets; the scorer's and the seats'
    own answers never say ``public``."""
    stranger = app.test_client()
    viewer = app.test_client()
    public = 0
    games = games_of_each_kind(app, client)
    # A game in play (the first of each kind is) of two kinds, and the Hidden Secrets game with a
    # seat's private link: every route, as each of them.
    for gid, private in [games[0], games[2], *[g for g in games if g[1]]]:
        urls = [u for m, u, _r in route_urls(app, gid, private) if m == "GET"]
        urls += [
            f"/g/{gid}/live?part={p}&lang={lang}" for p in ("live", "board", "chart") for lang in ("en", "pl")
        ]
        urls += [f"/g/{gid}/live?part=board&lang=en&as=scorer"]
        if private:
            urls.append("/" + private)
        for url in urls:
            for browser in (client, viewer):
                response = browser.get(url, headers=HX)
                caching = response.headers.get("Cache-Control", "")
                if "public" not in caching or url.startswith("/static/"):
                    continue
                public += 1
                assert "as=scorer" not in url and "/p/" not in url, url
                again = stranger.get(url, headers=HX)
                assert (again.status_code, again.data) == (response.status_code, response.data), url
    assert public > 0  # the viewers' live answers are public: the test sees them


def test_a_refused_entry_on_a_long_game_is_the_form_alone_and_compressed(app, client):
    record = {
        "game": "tally",
        "players": ["Ann", "Bob", "Cid"],
        "deals": [{"points": [k, 1, 2]} for k in range(240)],
    }
    created = client.post("/api/games", json=record).json
    gid = created["id"]
    page = client.get(f"/g/{gid}?key={created['edit_key']}", follow_redirects=True).get_data(as_text=True)
    assert 'id="entry"' in page and len(page) > 100_000  # the board of 240 deals is most of it
    bad = {"points_0": "five", "points_1": "1", "points_2": "2"}
    for encoding, decode in (("br", brotli.decompress), ("gzip", gzip.decompress)):
        reply = client.post(f"/g/{gid}/deals", data=bad, headers={**HX, "Accept-Encoding": encoding})
        assert reply.status_code == 422 and reply.headers["Content-Encoding"] == encoding
        assert len(reply.data) <= 12 * 1024
        html = decode(reply.data).decode()
        assert html.lstrip().startswith("<form") and 'id="board"' not in html
        assert "Accept-Encoding" in reply.headers["Vary"]
    # Without JavaScript: the page, compressed like any other answer.
    whole = client.post(f"/g/{gid}/deals", data=bad, headers={"Accept-Encoding": "gzip"})
    assert whole.status_code == 422 and whole.headers["Content-Encoding"] == "gzip"
    assert "<html" in gzip.decompress(whole.data).decode()
