"""Several machines: two app servers (``scorekeeper serve``) on different ports, one PostgreSQL.

Every write and read alternates between the servers: nothing may be lost or recorded twice,
and no page may be stale after a write, whichever server wrote it. The servers share what
they are configured with (DATABASE_URL, SECRET_KEY, and CACHE_REDIS_URL where it is set),
as the app servers of one site would.
"""

from __future__ import annotations

import html
import http.cookiejar
import json
import os
import re
import threading
import urllib.error
import urllib.parse
import urllib.request

import pytest

from tests.test_serve import free_port, start_serve, wait_healthy

pytestmark = pytest.mark.skipif(
    not os.environ.get("DATABASE_URL", "").startswith("postgres"),
    reason="several servers share one PostgreSQL: runs when DATABASE_URL points at PostgreSQL "
    "(SQLite is one machine's file)",
)
RECORD = {
    "format": "scorekeeper-game/1",
    "game": "secret_agent",
    "options": {"deals": 6},
    "players": ["Ann", "Bob", "Cid", "Dee"],
    "deals": [],
}
DEALS = [
    {"tricks": [4, 3, 3, 3], "agents": ["L", "O", "R", "S"]},
    {"tricks": [1, 5, 4, 3], "agents": ["O", "L", "S", "R"]},
    {"tricks": [2, 2, 5, 4], "agents": ["R", "S", "L", "O"]},
    {"tricks": [6, 3, 2, 2], "agents": ["S", "R", "O", "L"]},
]


@pytest.fixture
def servers(app, database_url, tmp_path):
    """Two servers, one worker each, started like two machines of one site; emptied after."""
    env = {k: v for k, v in os.environ.items() if k != "AUTO_MIGRATE"}
    env.update({"DATABASE_URL": database_url, "SECRET_KEY": "two-servers-one-site-" + "x" * 20})
    started = []
    try:
        for name in ("a", "b"):
            port = free_port()
            env["SCOREKEEPER_INSTANCE"] = str(tmp_path / name)
            log = (tmp_path / f"{name}.log").open("w")
            process = start_serve(port, env, log, "--workers", "1")
            started.append((process, f"http://127.0.0.1:{port}"))
        for process, base in started:
            wait_healthy(base, process)
        yield [base for _, base in started]
    finally:
        for process, _ in started:
            process.terminate()
        for process, _ in started:
            process.wait(timeout=30)


def call(base: str, path: str, body=None, headers=None, method=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, headers=headers or {}, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=20) as answer:
            return answer.status, answer.headers, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def deals_on(base: str, game_id: str) -> list:
    status, _, body = call(base, f"/api/games/{game_id}")
    assert status == 200
    return json.loads(body)["deals"]


def followed(base: str, game_id: str) -> tuple[str, str]:
    """A viewer's page: the followed region's address and the ETag it was drawn at."""
    status, _, body = call(base, f"/g/{game_id}")
    page = body.decode()
    assert status == 200
    found = re.search(r'hx-get="([^"]*/live[^"]*)"[^>]*data-etag="([^"]+)"', page, re.S)
    return html.unescape(found.group(1)), html.unescape(found.group(2))


def test_alternating_writes_and_reads_lose_nothing_and_repeat_nothing(servers):
    a, b = servers
    status, _, body = call(a, "/api/games", RECORD)
    assert status == 201
    created = json.loads(body)
    game_id, auth = created["id"], {"Authorization": "Bearer " + created["edit_key"]}
    for k, deal in enumerate(DEALS):
        writer, reader = (a, b) if k % 2 == 0 else (b, a)
        live_url, etag = followed(reader, game_id)
        once = {**auth, "Idempotency-Key": f"deal-{k}-{game_id}"}
        status, headers, _ = call(writer, f"/api/games/{game_id}/deals", deal, once)
        assert status == 201
        # The same request retried on the other server (a retry through the balancer): done once.
        status, headers, _ = call(reader, f"/api/games/{game_id}/deals", deal, once)
        assert status in (200, 201) and headers["Idempotent-Replayed"] == "true"
        # Both servers see exactly the deals written, in order, at once.
        assert deals_on(reader, game_id) == deals_on(writer, game_id)
        assert [d["tricks"] for d in deals_on(reader, game_id)] == [d["tricks"] for d in DEALS[: k + 1]]
        # No stale page: the viewer following on the other server gets the new state, not a 304.
        status, _, region = call(reader, live_url, headers={"If-None-Match": etag})
        assert status == 200 and f"Deal {k + 2} of 6" in region.decode()
        status, _, page = call(reader, f"/g/{game_id}")
        assert f"Deal {k + 2} of 6" in page.decode()


def test_a_write_raced_on_both_servers_is_recorded_once(servers):
    a, b = servers
    created = json.loads(call(a, "/api/games", RECORD)[2])
    game_id, auth = created["id"], {"Authorization": "Bearer " + created["edit_key"]}
    version = call(b, f"/api/games/{game_id}")[1]["ETag"]
    answers = []

    def write(base):
        answers.append(call(base, f"/api/games/{game_id}/deals", DEALS[0], {**auth, "If-Match": version})[0])

    threads = [threading.Thread(target=write, args=(base,)) for base in (a, b, a, b)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    # Four writers on the same version: one wins, the others learn the game has changed.
    assert sorted(answers) == [201, 409, 409, 409]
    assert len(deals_on(a, game_id)) == len(deals_on(b, game_id)) == 1


def test_a_page_form_from_one_server_saves_once_on_the_other(servers):
    """The session, CSRF token and submit token are no process's own: any server accepts them."""
    a, b = servers
    created = json.loads(call(a, "/api/games", RECORD)[2])
    game_id = created["id"]
    jar = http.cookiejar.CookieJar()
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    # The scoring link on server A: its key goes into this device's cookie.
    with browser.open(f"{a}/g/{game_id}?key={created['edit_key']}", timeout=20) as answer:
        page = answer.read().decode()
    form = re.search(r'<form id="entry".*?</form>', page, re.S).group(0)
    fields = {}
    for tag in re.findall(r"<input[^>]*>", form):
        attrs = dict(re.findall(r'(\w+)="([^"]*)"', tag))
        if attrs.get("type") == "hidden":
            fields[attrs["name"]] = html.unescape(attrs["value"])
    assert {"csrf_token", "base_version", "submit_token"} <= fields.keys()
    for seat, (tricks, agent) in enumerate(zip(DEALS[0]["tricks"], DEALS[0]["agents"], strict=True)):
        fields[f"tricks_{seat}"] = str(tricks)
        fields[f"agents_{seat}"] = agent
    data = urllib.parse.urlencode(fields).encode()
    # Cookies are per host name, not port: both servers are 127.0.0.1, as behind one proxy.
    path = re.search(r'action="([^"]+)"', form).group(1)
    for base in (b, a):  # sent to B, then (an answer lost) again to A
        with browser.open(
            urllib.request.Request(base + html.unescape(path), data=data), timeout=20
        ) as answer:
            assert answer.status == 200
    assert len(deals_on(a, game_id)) == 1 and len(deals_on(b, game_id)) == 1
