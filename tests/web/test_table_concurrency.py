"""Concurrent writers against a served app (threads, real HTTP) on the database DATABASE_URL picks.

Two scorers, double taps and retries at the same instant: no deal is lost, none is
recorded twice, and a write based on a state someone else changed is refused.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import re
import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlencode

import pytest
from werkzeug.serving import make_server

from scorekeeper import create_app
from scorekeeper.db import db

THREADS = 8


@pytest.fixture
def served(database_url):
    app = create_app(
        {"SECRET_KEY": "concurrency", "SQLALCHEMY_DATABASE_URI": database_url, "AUTO_MIGRATE": False}
    )
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_port
    server.shutdown()
    with app.app_context():
        for table in reversed(db.metadata.sorted_tables):
            db.session.execute(table.delete())
        db.session.commit()
        db.session.remove()
        db.engine.dispose()


def call(port, method, path, body=None, headers=None, form=False):
    """One HTTP request on its own connection: (status, headers, parsed body)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = dict(headers or {})
    if body is not None and form:
        data = urlencode(body)
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    elif body is not None:
        data = json.dumps(body)
        headers["Content-Type"] = "application/json"
    else:
        data = None
    try:
        conn.request(method, path, body=data, headers=headers)
        response = conn.getresponse()
        raw = response.read()
        parsed = (
            json.loads(raw) if response.getheader("Content-Type", "").startswith("application/json") else raw
        )
        return response.status, dict(response.getheaders()), parsed
    finally:
        conn.close()


def all_at_once(tasks):
    """Run the callables together (released by one barrier); their results in order."""
    barrier = threading.Barrier(min(len(tasks), THREADS))

    def run(task):
        with contextlib.suppress(threading.BrokenBarrierError):
            barrier.wait(timeout=10)
        return task()

    with ThreadPoolExecutor(THREADS) as pool:
        return list(pool.map(run, tasks))


def new_game(port):
    record = {"game": "secret_agent", "players": ["Ann", "Bob", "Cid", "Dee"], "options": {"deals": 52}}
    status, _headers, body = call(port, "POST", "/api/games", record)
    assert status == 201
    return body["id"], body["edit_key"]


def distinct_deals(n):
    deals = []
    for a in range(5):
        for b in range(5):
            for c in range(5):
                deals.append({"tricks": [a, b, c, 13 - a - b - c], "agents": ["L", "O", "R", "S"]})
    return deals[:n]


def test_concurrent_api_writers_never_lose_or_duplicate_a_deal(served):
    gid, key = new_game(served)
    deals = distinct_deals(16)
    auth = {"Authorization": f"Bearer {key}"}

    def append(k):
        # Each deal is sent twice at the same time (a retry racing its original).
        headers = {**auth, "Idempotency-Key": f"deal-{k:04d}-key"}
        return lambda: call(served, "POST", f"/api/games/{gid}/deals", deals[k], headers)

    results = all_at_once([append(k) for k in range(len(deals)) for _ in range(2)])
    assert [status for status, _h, _b in results] == [201] * len(results)
    replayed = sum(1 for _s, headers, _b in results if headers.get("Idempotent-Replayed") == "true")
    assert replayed == len(deals)
    status, _headers, record = call(served, "GET", f"/api/games/{gid}")
    stored = Counter(tuple(d["tricks"]) for d in record["deals"])
    assert stored == Counter(tuple(d["tricks"]) for d in deals)  # each once, none lost
    assert record["totals"] == [sum(s[i] for s in record["scores"]) for i in range(4)]


def test_concurrent_writers_on_one_version_one_wins_the_rest_are_refused(served):
    gid, key = new_game(served)
    _status, headers, _record = call(served, "GET", f"/api/games/{gid}")
    based_on = {"Authorization": f"Bearer {key}", "If-Match": headers["ETag"]}
    deals = distinct_deals(THREADS)
    results = all_at_once(
        [lambda d=d: call(served, "POST", f"/api/games/{gid}/deals", d, based_on) for d in deals]
    )
    statuses = sorted(status for status, _h, _b in results)
    assert statuses == [201] + [409] * (THREADS - 1)
    for status, _h, body in results:
        if status == 409:
            assert len(body["record"]["deals"]) == 1  # the refusal shows the newer state
    assert len(call(served, "GET", f"/api/games/{gid}")[2]["deals"]) == 1


def test_concurrent_page_posts_double_taps_once_stale_ones_refused(served):
    gid, key = new_game(served)
    # The scorer's phone: its key cookie, and the session and CSRF token its page gave it.
    _status, headers, page = call(served, "GET", f"/g/{gid}", headers={"Cookie": f"edit_key={key}"})
    session = headers["Set-Cookie"].split(";", 1)[0]
    csrf = re.search(rb'name="csrf_token" type="hidden" value="([^"]+)"', page) or re.search(
        rb'name="csrf_token" value="([^"]+)"', page
    )
    cookie = {"Cookie": f"edit_key={key}; {session}"}
    form = {f"tricks_{s}": t for s, t in enumerate([4, 3, 3, 3])}
    form["csrf_token"] = csrf.group(1).decode()
    form.update({f"agents_{s}": a for s, a in enumerate("LORS")})
    # A double (sextuple) tap: the same submission many times at once is one deal.
    tap = {**form, "base_version": "1", "submit_token": "one-tap-token"}
    results = all_at_once([lambda: call(served, "POST", f"/g/{gid}/deals", tap, cookie, form=True)] * 6)
    assert [status for status, _h, _b in results] == [303] * 6
    assert len(call(served, "GET", f"/api/games/{gid}")[2]["deals"]) == 1
    # Two scorers (six) entering the next deal from the same state: one is recorded, the
    # others are told the game changed (409), with their entry kept on the page.
    entries = [{**form, "base_version": "2", "submit_token": f"scorer-{i}-token"} for i in range(6)]
    results = all_at_once(
        [lambda e=e: call(served, "POST", f"/g/{gid}/deals", e, cookie, form=True) for e in entries]
    )
    statuses = sorted(status for status, _h, _b in results)
    assert statuses == [303] + [409] * 5
    for status, _h, body in results:
        if status == 409:
            assert b"changed on another device" in body
    assert len(call(served, "GET", f"/api/games/{gid}")[2]["deals"]) == 2
