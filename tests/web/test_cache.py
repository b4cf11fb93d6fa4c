"""The shared cache (scorekeeper/cache.py): what a game's version determines is computed once.

Runs with the in-process cache by default; with ``CACHE_REDIS_URL`` set (CI's
PostgreSQL run) the same tests run against Redis, and one more checks the
entries really are there. A write bumps the version: nothing is invalidated by hand.
"""

from __future__ import annotations

import os
import re
import uuid

import pytest

from scorekeeper import create_app, rules
from scorekeeper.cache import cache
from scorekeeper.db import db
from scorekeeper.rules import base as rules_base
from tests.conftest import app_config, bearer
from tests.web.table_helpers import FLAT, SWEEP, api_game

REDIS = os.environ.get("CACHE_REDIS_URL")


@pytest.fixture
def replays(monkeypatch):
    calls = []
    real = rules_base.play

    def counted(game, setup, deals, after=None):
        if after is None:
            calls.append(len(deals))
        return real(game, setup, deals, after)

    monkeypatch.setattr(rules_base, "play", counted)
    monkeypatch.setattr(rules, "play", counted)
    return calls


def totals(html: str) -> list[str]:
    foot = re.search(r"<tfoot>(.*?)</tfoot>", html, re.S)
    assert foot, "no totals row"
    return re.findall(r"<td[^>]*>\s*([^<\s]+)\s*</td>", foot.group(1))


def test_a_page_is_scored_once_per_version_whoever_asks(client, replays, app):
    gid, key = api_game(client, deals=[FLAT])
    replays.clear()
    first = client.get(f"/g/{gid}").get_data(as_text=True)
    # Another phone (another client, no cookies): the shared cache answers, no replay.
    second = app.test_client().get(f"/g/{gid}").get_data(as_text=True)
    assert len(replays) <= 1 and totals(first) == totals(second)


def test_a_write_shows_at_once_in_every_cached_part(client, app):
    gid, key = api_game(client, deals=[FLAT])
    viewer = app.test_client()
    before = viewer.get(f"/g/{gid}").get_data(as_text=True)
    live_before = viewer.get(f"/g/{gid}/live?part=live").get_data(as_text=True)
    assert client.post(f"/api/games/{gid}/deals", json=SWEEP, headers=bearer(key)).status_code == 201
    after = viewer.get(f"/g/{gid}").get_data(as_text=True)
    live_after = viewer.get(f"/g/{gid}/live?part=live").get_data(as_text=True)
    assert totals(before) != totals(after) and totals(after) == totals(live_after)
    assert totals(live_before) == totals(before)
    # The board is per language: a Polish viewer gets Polish words from the same version.
    polish = app.test_client().get(f"/g/{gid}", headers={"Accept-Language": "pl"}).get_data(as_text=True)
    assert "Rozdanie" in polish or "rozdanie" in polish


def test_the_qr_code_is_drawn_once_per_url(client, monkeypatch):
    from scorekeeper.web import templating

    drawn = []
    real = templating.draw_qr

    def counted(*args):
        drawn.append(args[0])
        return real(*args)

    monkeypatch.setattr(templating, "draw_qr", counted)
    gid, _key = api_game(client)
    for _ in range(3):
        assert "<svg" in client.get(f"/g/{gid}").get_data(as_text=True)
    assert len(drawn) == 1


def test_a_failing_cache_is_a_miss_not_an_error(app, client, monkeypatch):
    gid, key = api_game(client, deals=[FLAT])

    def broken(*args, **kwargs):
        raise ConnectionError("cache down")

    with app.app_context():
        monkeypatch.setattr(cache, "get", broken)
        monkeypatch.setattr(cache, "set", broken)
    response = client.get(f"/g/{gid}")
    assert response.status_code == 200 and totals(response.get_data(as_text=True))


@pytest.mark.skipif(not REDIS, reason="CACHE_REDIS_URL is not set: Redis is tried on CI's PostgreSQL run")
def test_with_redis_every_worker_shares_the_entries(database_url):
    """Two apps (two workers) on one Redis: what one scored, the other reads."""
    prefix = f"test-{uuid.uuid4().hex}:"
    config = app_config(database_url, CACHE_KEY_PREFIX=prefix)
    one, two = create_app(dict(config)), create_app(dict(config))
    assert one.config["CACHE_TYPE"] == "RedisCache"
    try:
        gid, key = api_game(one.test_client(), deals=[FLAT])
        page = one.test_client().get(f"/g/{gid}").get_data(as_text=True)
        with one.app_context():
            client = cache.cache._write_client
            keys = [k.decode() for k in client.keys(prefix + "*")]
        assert any(f"view:{gid}:" in k for k in keys) and any(f"html:board:{gid}:" in k for k in keys), keys
        calls = []
        real = rules_base.play
        rules_base.play = rules.play = lambda *a, **k: calls.append(1) or real(*a, **k)
        try:
            other = two.test_client().get(f"/g/{gid}").get_data(as_text=True)
        finally:
            rules_base.play = rules.play = real
        assert calls == [] and totals(other) == totals(page)
    finally:
        with one.app_context():
            for k in cache.cache._write_client.keys(prefix + "*"):
                cache.cache._write_client.delete(k)
            db.session.remove()
            for table in reversed(db.metadata.sorted_tables):
                db.session.execute(table.delete())
            db.session.commit()
            db.engine.dispose()
        with two.app_context():
            db.engine.dispose()


def test_a_pdf_is_printed_once_per_version_and_kept(app, client, monkeypatch):
    from scorekeeper import pdf
    from scorekeeper.web.games import records

    printed = []

    def fake(html, *args, **kwargs):
        printed.append(html)
        return b"%PDF-fake " + str(len(printed)).encode()

    monkeypatch.setattr(pdf, "html_to_pdf", fake)
    monkeypatch.setattr(records, "pdf_printer", lambda: "chromium")
    gid, key = api_game(client, deals=[FLAT])
    first = client.get(f"/g/{gid}/sheet.pdf").data
    assert client.get(f"/g/{gid}/sheet.pdf").data == first and len(printed) == 1
    # Another paper, another language: a sheet of its own.
    client.get(f"/g/{gid}/sheet.pdf?paper=letter")
    client.get(f"/g/{gid}/sheet.pdf", headers={"Accept-Language": "pl"})
    assert len(printed) == 3
    folder = os.path.join(app.config["PDF_FOLDER"], gid)
    assert len(os.listdir(folder)) == 3
    # A new version prints anew, and the older version's sheets are removed.
    assert client.post(f"/api/games/{gid}/deals", json=SWEEP, headers=bearer(key)).status_code == 201
    assert client.get(f"/g/{gid}/sheet.pdf").data != first and len(printed) == 4
    assert len(os.listdir(folder)) == 1


def test_one_pdf_render_at_a_time_and_other_pages_go_on(app, client, monkeypatch):
    """While a sheet prints (the render lock held), a second PDF waits; a game page does not."""
    import threading
    import time

    from scorekeeper import pdf
    from scorekeeper.web.games import records

    running, most = [0], [0]
    release = threading.Event()

    def slow(html, *args, **kwargs):
        running[0] += 1
        most[0] = max(most[0], running[0])
        release.wait(5)
        running[0] -= 1
        return b"%PDF-slow"

    monkeypatch.setattr(pdf, "html_to_pdf", slow)
    monkeypatch.setattr(records, "pdf_printer", lambda: "chromium")
    one, _ = api_game(client, deals=[FLAT])
    two, _ = api_game(client, deals=[FLAT, FLAT])
    answers = {}

    def fetch(gid):
        answers[gid] = app.test_client().get(f"/g/{gid}/sheet.pdf").status_code

    threads = [threading.Thread(target=fetch, args=(gid,)) for gid in (one, two)]
    for thread in threads:
        thread.start()
    time.sleep(0.3)
    started = time.monotonic()
    assert app.test_client().get(f"/g/{one}").status_code == 200
    assert time.monotonic() - started < 2  # not behind the renders
    release.set()
    for thread in threads:
        thread.join(10)
    assert answers == {one: 200, two: 200} and most[0] == 1
