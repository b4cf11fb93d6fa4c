"""Abuse limits (shared/spec/clubs.md, "Abuse limits"; scorekeeper/limits.py): wrong credentials
and creations are counted per address and refused with 429 and Retry-After; a right key, a plain
reader and a whole evening of real tables behind one address never are."""

from __future__ import annotations

import socket
import uuid

import pytest

from scorekeeper import create_app, limits
from scorekeeper.settings import SettingError
from scorekeeper.web.cookies import KEY_COOKIE
from tests.conftest import app_config, bearer, emptied
from tests.web.table_helpers import FLAT, api_game

HALL = "203.0.113.7"  # a club hall's Wi-Fi: every phone behind this one address
ELSEWHERE = "198.51.100.9"
# Where a game is made when its key must be one the guesser's address never had: the key a game's
# maker is answered is proven for the maker's address (issue 57, N1).
MAKER = "192.0.2.44"
# The set-up form of a Secret Agent game as a browser posts it.
FORM = {"players_0": "Ann", "players_1": "Bob", "players_2": "Cid", "players_3": "Dee", "first_dealer": "0"}
VALUES = [[4, 0, 0, 0, 0, 0, 0, 0, 0, 41], [0, 6, 0, 0, 0, 0, 0, 0, 0, 39], [0, 0, 8, 0, 0, 0, 0, 0, 0, 37]]


@pytest.fixture
def make_app(database_url, tmp_path):
    """Apps with limits of the test's own (the suite's config sets them out of the way)."""
    made = []

    def make(**extra):
        config = app_config(database_url, PDF_FOLDER=str(tmp_path / "pdf"))
        for name in ("LIMIT_FAILED_CREDENTIALS", "LIMIT_CREATE_GAMES", "LIMIT_CREATE_CLUBS", "LIMIT_JOINS"):
            config.pop(name, None)
        made.append(create_app({**config, **extra}))
        return made[-1]

    yield make
    for app in made:
        emptied(app)


def phone(app, address=HALL):
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def retry_after(response) -> int:
    wait = int(response.headers["Retry-After"])
    assert wait >= 1
    return wait


def test_the_defaults_are_the_specs(make_app):
    app = make_app()
    state = app.extensions[limits.EXTENSION]
    assert {name: [str(w) for w in windows] for name, windows in state.windows.items()} == {
        "credentials": ["10 per 1 minute"],
        "games": ["120 per 1 hour"],
        "clubs": ["10 per 1 day"],
        "joins": ["30 per 1 hour"],
    }
    assert app.config["RATELIMIT_STORAGE_URI"] == "memory://"


def test_the_eleventh_wrong_edit_key_is_429_and_the_right_key_still_works_from_elsewhere(make_app):
    app = make_app()
    gid, key = api_game(phone(app, MAKER))
    guesser = phone(app)
    for _ in range(10):
        answer = guesser.get(f"/g/{gid}?key=wrong-{uuid.uuid4().hex}")
        assert answer.status_code == 200  # shown read-only, with a notice
    refused = guesser.get(f"/g/{gid}?key=wrong")
    assert refused.status_code == 429 and retry_after(refused) <= 60
    assert "Too many wrong keys or links from this address" in refused.get_data(as_text=True)
    # The right key from that address is refused too, untested: else a refusal would mark the misses.
    assert guesser.get(f"/g/{gid}?key={key}").status_code == 429
    api = guesser.post(f"/api/games/{gid}/deals", json=FLAT, headers=bearer(key))
    assert api.status_code == 429 and retry_after(api)
    assert list(api.json) == ["errors"] and len(api.json["errors"]) == 1
    assert api.json["errors"][0]["field"] is None and "try again in" in api.json["errors"][0]["message"]
    # Reading without a key is never limited.
    assert guesser.get(f"/g/{gid}").status_code == 200
    assert guesser.get(f"/api/games/{gid}").status_code == 200
    assert guesser.get(f"/g/{gid}/live?part=live").status_code == 200
    # Another address is not this one's failures.
    other = phone(app, ELSEWHERE)
    assert other.get(f"/g/{gid}?key={key}").status_code == 303
    assert other.post(f"/api/games/{gid}/deals", json=FLAT, headers=bearer(key)).status_code == 201


def test_a_right_key_never_counts(make_app):
    app = make_app(LIMIT_FAILED_CREDENTIALS="2 per minute")
    gid, key = api_game(phone(app))
    scorer = phone(app)
    for _ in range(15):
        assert scorer.post(f"/api/games/{gid}/deals", json=FLAT, headers=bearer(key)).status_code == 201
    assert scorer.get(f"/g/{gid}?key={key}").status_code == 303
    for _ in range(5):  # the page's cookie, tested on each request
        assert scorer.get(f"/g/{gid}").status_code == 200


def test_wrong_bearer_keys_on_the_api_are_throttled(make_app):
    app = make_app(LIMIT_FAILED_CREDENTIALS="3 per minute")
    gid, _key = api_game(phone(app))
    guesser = phone(app)
    for _ in range(3):
        assert guesser.post(f"/api/games/{gid}/deals", json=FLAT, headers=bearer("nope")).status_code == 403
    assert guesser.post(f"/api/games/{gid}/deals", json=FLAT, headers=bearer("nope")).status_code == 429
    # No key at all is no failed check: a write without one is the plain 403.
    assert phone(app, ELSEWHERE).post(f"/api/games/{gid}/deals", json=FLAT).status_code == 403


def hidden_secrets(client) -> tuple[str, str, list[dict]]:
    created = client.post(
        "/api/games",
        json={
            "game": "secrets",
            "players": ["Ann", "Bob", "Cid"],
            "options": {"hidden": True, "values": VALUES},
        },
    )
    assert created.status_code == 201, created.json
    gid, key = created.json["id"], created.json["edit_key"]
    seats = client.get(f"/api/games/{gid}/seats", headers=bearer(key)).json["seats"]
    return gid, key, seats


def test_wrong_private_link_tokens_are_throttled(make_app):
    app = make_app(LIMIT_FAILED_CREDENTIALS="5 per minute")
    gid, _key, seats = hidden_secrets(phone(app))
    guesser = phone(app)
    for n in range(5):
        assert guesser.get(f"/g/{gid}/p/0/not-the-token-{n}").status_code == 404
    refused = guesser.get(f"/g/{gid}/p/0/not-the-token")
    assert refused.status_code == 429 and retry_after(refused)
    assert guesser.get(seats[0]["link"]).status_code == 429
    assert phone(app, ELSEWHERE).get(seats[0]["link"]).status_code == 200


def test_a_seats_token_on_its_own_route_is_no_failure_and_a_wrong_one_is(make_app):
    app = make_app(LIMIT_FAILED_CREDENTIALS="3 per minute")
    gid, _key, seats = hidden_secrets(phone(app))
    seat = phone(app)
    own = bearer(seats[1]["token"])
    for _ in range(6):  # the edit key's test fails, the seat's passes: no failure
        answer = seat.put(f"/api/games/{gid}/allotment/1", json={"values": VALUES[1]}, headers=own)
        assert answer.status_code == 204
    guesser = phone(app, ELSEWHERE)
    for _ in range(3):
        wrong = guesser.put(f"/api/games/{gid}/allotment/1", json={"values": VALUES[1]}, headers=bearer("x"))
        assert wrong.status_code == 403
    wrong = guesser.put(f"/api/games/{gid}/allotment/1", json={"values": VALUES[1]}, headers=bearer("x"))
    assert wrong.status_code == 429


def test_a_blocked_address_gets_a_fast_304_for_a_proven_cookie_and_429_for_an_unproven_one(make_app):
    """Below Flask, an unchanged scorer's poll answers 304 after testing the cookie. From an
    address over its failures: still, for a key this address proved (the table already
    playing); an unproven one goes on to the view's 429, as a wrong cookie's poll would."""
    app = make_app(LIMIT_FAILED_CREDENTIALS="2 per minute")
    gid, key = api_game(phone(app, ELSEWHERE))
    scorer = phone(app)
    assert scorer.get(f"/g/{gid}?key={key}").status_code == 303
    url = f"/g/{gid}/live?part=live&as=scorer"
    etag = scorer.get(url, headers={"HX-Request": "true"}).headers["ETag"]
    assert scorer.get(url, headers={"HX-Request": "true", "If-None-Match": etag}).status_code == 304
    for _ in range(2):
        phone(app).get(f"/g/{gid}?key=wrong")
    assert phone(app).get(f"/g/{gid}?key=wrong").status_code == 429
    polled = scorer.get(url, headers={"HX-Request": "true", "If-None-Match": etag})
    assert polled.status_code == 304
    # The same right key as a cookie from an address that never presented it, once it is over.
    copied = phone(app, "192.0.2.33")
    copied.set_cookie(KEY_COOKIE, key, path=f"/g/{gid}")
    other, _other_key = api_game(phone(app, ELSEWHERE))
    for _ in range(2):  # guessing at another game: the cookie, sent to its own game only, is not tested
        copied.get(f"/g/{other}?key=wrong")
    assert copied.get(url, headers={"HX-Request": "true", "If-None-Match": etag}).status_code == 429


def test_game_creation_is_limited_per_address_and_only_creations_count(make_app):
    app = make_app(LIMIT_CREATE_GAMES="3 per hour")
    client = phone(app)
    assert client.post("/api/games", json={"game": "secret_agent", "players": ["A"]}).status_code == 422
    for _ in range(2):
        api_game(client)
    assert client.get("/new/secret_agent").status_code == 200
    assert client.post("/new/secret_agent", data=FORM).status_code == 303
    refused = client.post("/api/games", json={"game": "secret_agent", "players": ["A", "B", "C"]})
    assert refused.status_code == 429 and 3000 < retry_after(refused) <= 3600
    assert refused.json["errors"][0]["field"] is None
    page = client.post("/new/secret_agent", data=FORM)
    assert page.status_code == 429 and "Too many new games from this address" in page.get_data(as_text=True)
    # The set-up form is still shown; another address still creates.
    assert client.get("/new/secret_agent").status_code == 200
    api_game(phone(app, ELSEWHERE))


def test_a_repeated_creation_counts_once(make_app):
    """A POST /api/games repeated with its Idempotency-Key made nothing more: it does not count."""
    app = make_app(LIMIT_CREATE_GAMES="2 per hour")
    client = phone(app)
    record = {"game": "secret_agent", "players": ["A", "B", "C", "D"]}
    headers = {"Idempotency-Key": "count-me-once-1"}
    answers = [client.post("/api/games", json=record, headers=headers) for _ in range(3)]
    assert [a.status_code for a in answers] == [201, 201, 201]
    assert len({a.json["id"] for a in answers}) == 1
    assert client.post("/api/games", json=record).status_code == 201  # the second creation
    assert client.post("/api/games", json=record).status_code == 429


def test_the_page_is_in_the_readers_language(make_app):
    app = make_app(LIMIT_CREATE_GAMES="1 per hour")
    client = phone(app)
    api_game(client)
    page = client.post("/new/secret_agent", data=FORM, headers={"Accept-Language": "pl"})
    assert page.status_code == 429
    text = page.get_data(as_text=True)
    assert "Too many" not in text and "godzin" in text  # "za 1 godzinę"


def test_forty_tables_behind_one_address_play_an_evening_without_a_429(make_app):
    """Each table creates its game (the API), its scorer posts 20 deals and opens the scoring
    link on a phone that follows the game, and two viewers follow it: all from one address."""
    app = make_app(LIMIT_CREATE_GAMES="120 per hour")  # the default: 40 games fit
    statuses = []
    tables = []
    for _ in range(40):
        scorer = phone(app)
        gid, key = api_game(scorer)
        page = phone(app)
        statuses.append(page.get(f"/g/{gid}?key={key}").status_code)
        tables.append((gid, key, scorer, page, [phone(app), phone(app)]))
    tags: dict[tuple, str] = {}
    for _deal in range(20):
        for gid, key, scorer, page, viewers in tables:
            statuses.append(
                scorer.post(f"/api/games/{gid}/deals", json=FLAT, headers=bearer(key)).status_code
            )
            for n, (client, url) in enumerate(
                [(page, f"/g/{gid}/live?part=live&as=scorer")]
                + [(v, f"/g/{gid}/live?part=live") for v in viewers]
            ):
                headers = {"HX-Request": "true"}
                if (gid, n) in tags:
                    headers["If-None-Match"] = tags[(gid, n)]
                answer = client.get(url, headers=headers)
                statuses.append(answer.status_code)
                tags[(gid, n)] = answer.headers.get("ETag", tags.get((gid, n), ""))
            statuses.append(viewers[0].get(f"/api/games/{gid}").status_code)
    assert 429 not in statuses
    assert statuses.count(201) == 40 * 20


def test_limits_off_count_nothing(make_app):
    app = make_app(RATELIMIT_ENABLED=False, LIMIT_FAILED_CREDENTIALS="1 per minute")
    gid, key = api_game(phone(app))
    guesser = phone(app)
    for _ in range(5):
        assert guesser.get(f"/g/{gid}?key=wrong").status_code == 200
    assert guesser.get(f"/g/{gid}?key={key}").status_code == 303


def test_an_empty_figure_limits_nothing_and_a_meaningless_one_stops_the_start(make_app):
    app = make_app(LIMIT_FAILED_CREDENTIALS="")
    gid, _key = api_game(phone(app))
    guesser = phone(app)
    for _ in range(12):
        assert guesser.get(f"/g/{gid}?key=wrong").status_code == 200
    with pytest.raises(SettingError, match="LIMIT_JOINS"):
        make_app(LIMIT_JOINS="lots")


@pytest.mark.parametrize(
    "address, counted",
    [
        ("203.0.113.7", "203.0.113.7"),
        ("2001:db8:1:2:aaaa::1", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:bbbb::9", "2001:db8:1:2::/64"),
        ("::ffff:203.0.113.7", "203.0.113.7"),
        (None, "unknown"),
    ],
)
def test_an_address_is_counted_as_itself_or_its_ipv6_64(address, counted):
    assert limits.address_key(address) == counted


def test_behind_a_proxy_the_forwarded_address_is_counted(make_app):
    app = make_app(PROXY_FIX=1, LIMIT_FAILED_CREDENTIALS="2 per minute")
    gid, key = api_game(phone(app))
    proxy = phone(app, "127.0.0.1")
    for _ in range(2):
        proxy.get(f"/g/{gid}?key=wrong", headers={"X-Forwarded-For": HALL})
    assert proxy.get(f"/g/{gid}?key=wrong", headers={"X-Forwarded-For": HALL}).status_code == 429
    assert proxy.get(f"/g/{gid}?key={key}", headers={"X-Forwarded-For": ELSEWHERE}).status_code == 303


def redis_reachable() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=0.5):
            return True
    except OSError:
        return False


@pytest.mark.skipif(not redis_reachable(), reason="no Redis at 127.0.0.1:6379")
def test_with_redis_two_app_servers_share_the_counts(make_app):
    prefix = f"test-{uuid.uuid4().hex}"
    config = {
        "CACHE_REDIS_URL": "redis://127.0.0.1:6379/0",
        "CACHE_KEY_PREFIX": f"{prefix}:cache:",
        "RATELIMIT_KEY_PREFIX": prefix,
        "LIMIT_FAILED_CREDENTIALS": "4 per minute",
    }
    one, two = make_app(**config), make_app(**config)
    assert one.config["RATELIMIT_STORAGE_URI"] == "redis://127.0.0.1:6379/0"
    try:
        gid, key = api_game(phone(one, MAKER))
        for server in (one, two, one, two):
            assert phone(server).get(f"/g/{gid}?key=wrong").status_code == 200
        assert phone(one).get(f"/g/{gid}?key=wrong").status_code == 429
        assert phone(two).get(f"/g/{gid}?key={key}").status_code == 429
        assert phone(two, ELSEWHERE).get(f"/g/{gid}?key={key}").status_code == 303
    finally:
        import redis

        client = redis.Redis.from_url("redis://127.0.0.1:6379/0")
        for name in client.scan_iter(f"*{prefix}*"):
            client.delete(name)
