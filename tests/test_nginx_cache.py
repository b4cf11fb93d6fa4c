"""The documented nginx micro-cache (docs/deploy/nginx-live-cache.conf) in front of the app:
100 viewers of one game cost the app a request or two a second (issue 28).

Runs where Debian's nginx is installed (`apt-get install -y nginx`); skipped elsewhere."""

from __future__ import annotations

import contextlib
import http.client
import json
import re
import shutil
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from scorekeeper import create_app
from scorekeeper.db import db
from tests.conftest import bearer
from tests.web.table_helpers import FLAT

NGINX = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if Path(p).exists()), None)
DEPLOY = Path(__file__).resolve().parent.parent / "docs" / "deploy"
DOCS = DEPLOY / "nginx-live-cache.conf"

pytestmark = pytest.mark.skipif(NGINX is None, reason="nginx is not installed (apt-get install -y nginx)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def live_upstream(port: int) -> str:
    """The documented upstream of the polls (docs/deploy/nginx.conf), pointed at the test's app,
    with the `http`-level blocks the micro-cache uses (the wait a phone is asked for)."""
    documented = (DEPLOY / "nginx.conf").read_text()
    blocks = [
        re.search(rf"^{start} \{{.*?^\}}", documented, re.M | re.S)
        for start in (
            "upstream scorekeeper_live",
            r"split_clients \$request_id \$scorekeeper_stale_wait",
            r"map \$upstream_cache_status \$scorekeeper_poll_after",
        )
    ]
    assert all(blocks), "docs/deploy/nginx.conf lost a block the micro-cache uses"
    return "\n".join(b.group(0) for b in blocks if b).replace("127.0.0.1:8000", f"127.0.0.1:{port}")


class Counted:
    """The app, counting the polls that reach it; while ``held`` is set, each poll waits there
    until the event is set (a busy app, without a clock)."""

    def __init__(self, app):
        self.app = app
        self.polls = 0
        self.held: threading.Event | None = None
        self.lock = threading.Lock()

    def __call__(self, environ, start_response):
        if environ.get("PATH_INFO", "").endswith("/live"):
            with self.lock:
                self.polls += 1
            if self.held is not None:
                self.held.wait(30)
        return self.app(environ, start_response)


def poll_share() -> int:
    """How many polls at a time the documented upstream lets reach the app (max_conns)."""
    return int(re.search(r"max_conns=(\d+)", live_upstream(0)).group(1))


@contextlib.contextmanager
def polls_held(counted: Counted, phones: list[threading.Thread]):
    """A busy app: every poll that reaches it is held there while the phones (started here) ask;
    on the way out the app lets them go and the phones are waited for."""
    counted.polls, counted.held = 0, threading.Event()
    for t in phones:
        t.start()
    try:
        yield
    finally:
        counted.held.set()
        for t in phones:
            t.join()


@pytest.fixture
def proxied(tmp_path, database_url):
    app = create_app(
        {"SECRET_KEY": "nginx-test", "SQLALCHEMY_DATABASE_URI": database_url, "AUTO_MIGRATE": False}
    )
    counted = Counted(app.wsgi_app)
    app.wsgi_app = counted
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = free_port()
    (tmp_path / "cache").mkdir()
    (tmp_path / "logs").mkdir()
    conf = tmp_path / "nginx.conf"
    conf.write_text(
        f"""
daemon off;
master_process off;
worker_processes 1;
error_log {tmp_path}/logs/error.log warn;
pid {tmp_path}/nginx.pid;
events {{ worker_connections 512; }}
http {{
    access_log off;
    client_body_temp_path {tmp_path}/body;
    proxy_temp_path {tmp_path}/proxy;
    fastcgi_temp_path {tmp_path}/fastcgi;
    uwsgi_temp_path {tmp_path}/uwsgi;
    scgi_temp_path {tmp_path}/scgi;
    proxy_cache_path {tmp_path}/cache levels=1:2 keys_zone=scorekeeper_live:10m
                     max_size=200m inactive=2m use_temp_path=off;
    upstream scorekeeper {{ server 127.0.0.1:{server.server_port}; keepalive 8; }}
    {live_upstream(server.server_port)}
    server {{
        listen 127.0.0.1:{port};
        include {DOCS};
        location / {{ proxy_pass http://scorekeeper; proxy_set_header Host $host; }}
    }}
}}
"""
    )
    nginx = subprocess.Popen([NGINX, "-p", str(tmp_path), "-c", str(conf)], stderr=subprocess.PIPE)
    deadline = time.monotonic() + 10
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            break
        except OSError:
            if nginx.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(
                    nginx.stderr.read().decode() if nginx.stderr else "nginx did not start"
                ) from None
            time.sleep(0.05)
    yield app, counted, port
    nginx.terminate()
    nginx.wait(10)
    server.shutdown()
    with app.app_context():
        for table in reversed(db.metadata.sorted_tables):
            db.session.execute(table.delete())
        db.session.commit()


def new_game(client) -> tuple[str, str]:
    """A Secret Agent game through the API: its id and edit key."""
    created = client.post(
        "/api/games", json={"game": "secret_agent", "players": ["Ann", "Bob", "Cid", "Dee"]}
    )
    return created.json["id"], created.json["edit_key"]


def get(port: int, path: str, headers: dict[str, str] | None = None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request(
            "GET", path, headers={"HX-Request": "true", "Accept-Encoding": "gzip", **(headers or {})}
        )
        reply = conn.getresponse()
        names = [name.lower() for name, _ in reply.getheaders()]
        assert names.count("x-poll-after") <= 1, reply.getheaders()  # the app's or nginx's, never both
        return reply.status, dict(reply.getheaders()), reply.read()
    finally:
        conn.close()


def test_a_hundred_viewers_of_one_game_cost_the_app_a_request_or_two_a_second(proxied):
    app, counted, port = proxied
    client = app.test_client()
    gid, key = new_game(client)
    url = f"/g/{gid}/live?part=live&lang=en"
    status, headers, _ = get(port, url)
    assert status == 200 and headers["Cache-Control"] == "public, max-age=1" and "X-Poll-After" in headers

    first = headers["ETag"]
    etags = [first] * 100
    answered: list[int] = []
    # Each viewer polls until it has the new deal (bounded: a slow machine, not a measure).
    give_up = time.monotonic() + 30
    lock = threading.Lock()

    def viewer(i: int) -> None:
        while time.monotonic() < give_up and etags[i] == first:
            status, headers, _ = get(port, url, {"If-None-Match": etags[i]})
            if status == 200:
                etags[i] = headers["ETag"]
            with lock:
                answered.append(status)
            time.sleep(0.2)  # far more often than a phone: 5 polls a second each

    counted.polls = 0
    began = time.monotonic()
    threads = [threading.Thread(target=viewer, args=(i,)) for i in range(100)]
    for t in threads:
        t.start()
    # The scorer records a deal meanwhile: every viewer gets it, from nginx.
    time.sleep(1.5)
    assert client.post(f"/api/games/{gid}/deals", json=FLAT, headers=bearer(key)).status_code == 201
    for t in threads:
        t.join()
    seconds = time.monotonic() - began
    assert len(answered) > 500 and set(answered) <= {200, 304}, set(answered)
    assert first not in etags and answered.count(200) == 100  # every viewer saw the new deal, once
    # Hundreds of polls a second reached nginx; the app was asked about once a second, not ~500 times.
    assert counted.polls <= 3 * seconds + 2, (counted.polls, seconds)


def test_the_scorers_poll_and_private_answers_never_come_from_the_cache(proxied):
    app, counted, port = proxied
    client = app.test_client()
    gid, _ = new_game(client)
    counted.polls = 0
    for _ in range(5):
        status, headers, _ = get(port, f"/g/{gid}/live?part=board&lang=en&as=scorer")
        assert status == 200 and headers["Cache-Control"] == "private, no-cache"
        assert headers.get("X-Cache") in ("BYPASS", None)
    assert counted.polls == 5


def test_polls_past_the_apps_share_are_told_later_while_a_deal_is_saved(proxied):
    """More phones than the polls' share (max_conns) ask for as many games nginx holds nothing of,
    while the app holds every poll it gets. Only the share reaches the app; the others hear "later"
    (503 with Retry-After) without waiting for those; and a scorer's deal posted while the app's
    share is taken is saved."""
    app, counted, port = proxied
    client = app.test_client()
    share = poll_share()
    phones = share + 6
    games = [new_game(client) for _ in range(phones)]
    answers: list[tuple[int, dict[str, str]]] = []
    lock = threading.Lock()

    def phone(gid: str) -> None:
        status, headers, _ = get(port, f"/g/{gid}/live?part=live&lang=en")
        with lock:
            answers.append((status, headers))

    with polls_held(counted, [threading.Thread(target=phone, args=(gid,)) for gid, _ in games]):
        deadline = time.monotonic() + 20  # a bound on a slow machine, not a measure
        while (len(answers) < phones - share or counted.polls < share) and time.monotonic() < deadline:
            time.sleep(0.02)
        # The app holds its share; everyone else was told "later" meanwhile, by nginx.
        assert counted.polls == share and len(answers) == phones - share, (counted.polls, answers)
        for status, headers in answers:
            assert status == 503 and headers["Retry-After"] == "15" and headers["Cache-Control"] == "no-store"
        gid, key = games[0]
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
        conn.request(
            "POST",
            f"/api/games/{gid}/deals",
            body=json.dumps(FLAT),
            headers={**bearer(key), "Content-Type": "application/json"},
        )
        posted = conn.getresponse()
        posted.read()
        conn.close()
        assert posted.status == 201
        assert len(answers) == phones - share  # the polls in the app are still held: the deal did not wait
    assert sorted(status for status, _ in answers) == [200] * share + [503] * (phones - share)
    assert counted.polls == share


def test_an_answer_from_the_cache_while_the_app_cannot_be_asked_asks_the_phone_to_wait_longer(proxied):
    """While the app's share of polls is taken, a phone whose game nginx holds an expired answer of
    gets that answer (STALE) and is asked to wait 12-15 s, the app's slowest pace, instead of the
    pace the app gave in calmer times: a crowd answered from the cache asks less of the box. Once
    the app can be asked again, the phone gets the app's own figure."""
    app, counted, port = proxied
    client = app.test_client()
    share = poll_share()
    followed, _ = new_game(client)
    url = f"/g/{followed}/live?part=live&lang=en"
    status, headers, _ = get(port, url)
    fetched = time.monotonic()
    assert status == 200 and headers["X-Cache"] == "MISS" and int(headers["X-Poll-After"]) <= 3
    etag = headers["ETag"]
    others = [new_game(client)[0] for _ in range(share)]
    phones = [threading.Thread(target=get, args=(port, f"/g/{gid}/live?part=live&lang=en")) for gid in others]
    with polls_held(counted, phones):
        deadline = time.monotonic() + 20  # a bound on a slow machine, not a measure
        while counted.polls < share and time.monotonic() < deadline:
            time.sleep(0.02)
        assert counted.polls == share
        # nginx keeps an answer for its max-age=1, counted in whole seconds: after 2.2 s it has expired.
        time.sleep(max(0.0, fetched + 2.2 - time.monotonic()))
        for _ in range(3):
            status, headers, _ = get(port, url, {"If-None-Match": etag})
            assert status == 304 and headers["X-Cache"] == "STALE", (status, headers)
            assert 12 <= int(headers["X-Poll-After"]) <= 15, headers
        assert counted.polls == share  # none of them reached the app
    status, headers, _ = get(port, url, {"If-None-Match": etag})
    assert status == 304 and headers["X-Cache"] == "REVALIDATED" and int(headers["X-Poll-After"]) <= 3, (
        headers
    )
