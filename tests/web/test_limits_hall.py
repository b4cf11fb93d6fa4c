"""The hall's evening under the abuse limits (shared/spec/clubs.md, "Abuse limits"): a credential
the address has used correctly is never slowed; past 10 failures a minute, only unproven ones are
refused untested; every wrong key a request carries counts; and the counts are the whole server's,
however many worker processes it runs."""

from __future__ import annotations

import multiprocessing
import time
from pathlib import Path

import pytest

from scorekeeper import create_app, limits, limitstore
from scorekeeper.db import db
from scorekeeper.events import service as events
from tests.clubs.helpers import join, new_club
from tests.conftest import app_config, bearer, emptied
from tests.web.table_helpers import FLAT, api_game

HALL = "203.0.113.7"
ELSEWHERE = "198.51.100.9"
FIGURES = ("LIMIT_FAILED_CREDENTIALS", "LIMIT_CREATE_GAMES", "LIMIT_CREATE_CLUBS", "LIMIT_JOINS")


def spec_config(database_url: str, tmp_path, **extra) -> dict:
    """The suite's config with the spec's default figures (the suite sets them out of the way)."""
    config = app_config(database_url, PDF_FOLDER=str(tmp_path / "pdf"))
    for name in FIGURES:
        config.pop(name, None)
    return {**config, **extra}


@pytest.fixture
def make_app(database_url, tmp_path):
    made = []

    def make(**extra):
        made.append(create_app(spec_config(database_url, tmp_path, **extra)))
        return made[-1]

    yield make
    for app in made:
        emptied(app)


def phone(app, address=HALL):
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def refused_untested(prankster, gid: str, key: str) -> None:
    """The right key the address never used is refused untested, as a wrong one is, and being
    refused is no proof: it stays refused while the address is over."""
    refused = prankster.get(f"/g/{gid}?key={key}")
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
    api = prankster.post(f"/api/games/{gid}/deals", json=FLAT, headers=bearer(key))
    assert api.status_code == 429
    assert prankster.get(f"/g/{gid}?key={key}").status_code == 429


def test_a_forty_table_evening_with_a_prankster_and_a_removed_members_phone(make_app):
    """40 tables behind the hall's address post their deals (the API, with their keys) and
    follow their games (the scorer's page with its cookie); a prankster on the same Wi-Fi sends
    30 wrong keys over the evening's minute; a removed member's phone reloads the club page.
    Every deal is saved and no honest table ever sees a 429."""
    app = make_app(LIMIT_CREATE_GAMES="1000 per hour")
    owner = new_club(phone(app, ELSEWHERE), "Thursday Euchre")
    removed = join(phone(app, ELSEWHERE), owner["slug"], owner["invite"], "Rita")
    rita = phone(app)
    rita.set_cookie("member", removed["member_key"])
    assert rita.get(f"/c/{owner['slug']}").status_code == 200  # she was a member at the hall

    honest: list[int] = []
    tables = []
    for _ in range(40):
        scorer = phone(app)
        gid, key = api_game(scorer)
        page = phone(app)
        honest.append(page.get(f"/g/{gid}?key={key}").status_code)
        tables.append((gid, key, scorer, page))
    # A game of another address: its key was never presented here.
    never_used_gid, never_used_key = api_game(phone(app, ELSEWHERE))

    gone = phone(app, ELSEWHERE).delete(
        f"/api/clubs/{owner['slug']}/members/Rita", headers=bearer(owner["member_key"])
    )
    assert gone.status_code == 204

    prankster = phone(app)
    guesses: list[int] = []
    tags: dict[str, str] = {}
    for deal in range(20):
        for n, (gid, key, scorer, page) in enumerate(tables):
            honest.append(scorer.post(f"/api/games/{gid}/deals", json=FLAT, headers=bearer(key)).status_code)
            headers = {"HX-Request": "true", **({"If-None-Match": tags[gid]} if gid in tags else {})}
            poll = page.get(f"/g/{gid}/live?part=live&as=scorer", headers=headers)
            honest.append(poll.status_code)
            tags[gid] = poll.headers.get("ETag", tags.get(gid, ""))
            honest.append(scorer.get(f"/api/games/{gid}", headers=bearer(key)).status_code)
            # 30 wrong keys over the evening's first minute, and Rita's phone reloading.
            if deal < 3 and n % 4 == 0:
                guesses.append(prankster.get(f"/g/{gid}?key=guess-{deal}-{n}").status_code)
                if len(guesses) == 30:  # still within the minute, however slow the machine
                    refused_untested(prankster, never_used_gid, never_used_key)
            if n % 10 == 0:
                assert rita.get(f"/c/{owner['slug']}").status_code == 404
    assert len(guesses) == 30
    assert guesses[:10] == [200] * 10 and set(guesses[10:]) == {429}
    assert 429 not in honest
    assert honest.count(201) == 40 * 20
    # A table's key keeps working from the hall.
    gid, key, scorer, _page = tables[0]
    assert scorer.post(f"/api/games/{gid}/deals", json=FLAT, headers=bearer(key)).status_code == 201


def test_a_proven_credential_is_a_keyed_hash_kept_for_a_day(make_app):
    app = make_app()
    gid, key = api_game(phone(app))
    assert phone(app).get(f"/g/{gid}?key={key}").status_code == 303
    state = app.extensions[limits.EXTENSION]
    storage = state.limiter.limiter.storage
    names = [name for name in storage.storage if "proven" in name]  # memory://: a dict of counters
    assert len(names) == 1 and key not in names[0] and HALL in names[0]
    left = storage.get_expiry(names[0]) - time.time()
    assert limits.PROVEN_FOR - 60 < left <= limits.PROVEN_FOR
    # Another address has not proven it; the same key under another secret is another name.
    assert state.proven(HALL, key) and not state.proven(ELSEWHERE, key)


def test_wrong_edit_and_director_keys_beside_a_valid_member_cookie_count(make_app):
    app = make_app(LIMIT_FAILED_CREDENTIALS="3 per minute")
    owner = new_club(phone(app, ELSEWHERE), "Bypass")
    gid, _key = api_game(phone(app, ELSEWHERE))
    with app.app_context():
        event, _director_key = events.create_event(
            {"name": "N", "format": "progressive", "game": "euchre", "players": list("ABCDEFGH"), "hands": 1}
        )
        event_id = event.id
    member = phone(app)
    member.set_cookie("member", owner["member_key"])
    assert member.get(f"/c/{owner['slug']}").status_code == 200
    for n in range(2):  # a wrong scorer's cookie for the game, the member cookie valid beside it
        member.set_cookie("edit_key", f"wrong-edit-key-{n}", path=f"/g/{gid}")
        assert member.get(f"/g/{gid}").status_code == 200
    member.set_cookie(f"event_{event_id}", "wrong-director-key", path=f"/e/{event_id}")
    assert member.get(f"/e/{event_id}").status_code in (200, 404)
    member.set_cookie("edit_key", "wrong-edit-key-9", path=f"/g/{gid}")
    assert member.get(f"/g/{gid}").status_code == 429
    # The member's own, proven cookie is never slowed.
    assert member.get(f"/c/{owner['slug']}").status_code == 200


def test_a_member_cookie_counts_each_wrong_key_it_carries_and_carries_few(make_app):
    app = make_app(LIMIT_FAILED_CREDENTIALS="10 per minute")
    owner = new_club(phone(app, ELSEWHERE), "Cookie Jar")
    member = phone(app)
    member.set_cookie("member", owner["member_key"])
    assert member.get(f"/c/{owner['slug']}").status_code == 200  # proven at the hall
    guesses = [f"guessguessguess{n:04d}" for n in range(99)]
    # One valid key and 99 guesses: the cookie is read for its last 10 keys at most.
    member.set_cookie("member", ".".join([owner["member_key"], *guesses]))
    assert member.get(f"/c/{owner['slug']}").status_code == 404  # the valid key fell off the end
    # 10 wrong counted: guesses beside the valid key are refused untested now.
    member.set_cookie("member", ".".join([*guesses[:5], owner["member_key"]]))
    assert member.get(f"/c/{owner['slug']}").status_code == 429
    stranger = phone(app)
    stranger.set_cookie("member", "guessguessguess9999")
    refused = stranger.get("/")
    assert refused.status_code == 429
    # The member's proven key alone still opens the club.
    member.set_cookie("member", owner["member_key"])
    assert member.get(f"/c/{owner['slug']}").status_code == 200


def test_the_api_bearer_that_is_a_member_key_is_no_failure_and_a_wrong_one_is(make_app):
    app = make_app(LIMIT_FAILED_CREDENTIALS="2 per minute")
    owner = new_club(phone(app, ELSEWHERE), "Bearer Club")
    gid, _key = api_game(phone(app, ELSEWHERE))
    caller = phone(app)
    for _ in range(5):  # a member key as Bearer on a game's read: not its key, but a live credential
        assert (
            caller.get(f"/api/clubs/{owner['slug']}", headers=bearer(owner["member_key"])).status_code == 200
        )
    for _ in range(2):
        assert (
            caller.post(f"/api/games/{gid}/deals", json=FLAT, headers=bearer("not-a-key")).status_code == 403
        )
    assert caller.post(f"/api/games/{gid}/deals", json=FLAT, headers=bearer("not-a-key-2")).status_code == 429
    assert caller.get(f"/api/clubs/{owner['slug']}", headers=bearer(owner["member_key"])).status_code == 200


# -- one count for the whole server ------------------------------------------------------------


def worker(database_url: str, tmp: str, uri: str, orders, answers) -> None:
    """A worker process of its own: its own app on the shared storage, doing what it is told."""
    config = spec_config(
        database_url, Path(tmp), RATELIMIT_STORAGE_URI=uri, LIMIT_CREATE_GAMES="1000 per hour"
    )
    app = create_app(config)
    while True:
        order = orders.recv()
        if order is None:
            break
        what, address, argument = order
        client = phone(app, address)
        if what == "key":
            gid, key = argument
            answers.send(client.get(f"/g/{gid}?key={key}").status_code)
        elif what == "club":
            answers.send(client.post("/api/clubs", json={"name": argument}).status_code)
    with app.app_context():
        db.engine.dispose()


def test_four_worker_processes_count_together_without_redis(make_app, database_url, tmp_path):
    """Four processes on the shared SQLite file (what ``scorekeeper serve`` gives its workers
    without Redis): 10 wrong keys spread over them, then the 11th is refused in any of them, and
    so is a right key never used from there; 10 clubs a day, not 40."""
    uri = limitstore.uri_for(tmp_path / "limits.sqlite3")
    gid, key = api_game(phone(make_app(), ELSEWHERE))
    context = multiprocessing.get_context("spawn")
    pipes, processes = [], []
    for _ in range(4):
        orders, their_orders = context.Pipe()
        their_answers, answers = context.Pipe()
        process = context.Process(
            target=worker, args=(database_url, str(tmp_path), uri, their_orders, their_answers), daemon=True
        )
        process.start()
        pipes.append((orders, answers))
        processes.append(process)

    def ask(n: int, *order) -> int:
        pipes[n][0].send(order)
        return pipes[n][1].recv()

    try:
        wrong = [ask(n % 4, "key", HALL, (gid, f"wrong-{n}")) for n in range(10)]
        assert wrong == [200] * 10
        assert ask(2, "key", HALL, (gid, "wrong-11")) == 429
        assert ask(3, "key", HALL, (gid, key)) == 429
        assert ask(1, "key", ELSEWHERE, (gid, key)) == 303
        made = [ask(n % 4, "club", HALL, f"Club {n}") for n in range(10)]
        assert made == [201] * 10
        assert ask(1, "club", HALL, "Club 11") == 429
    finally:
        for orders, _answers in pipes:
            orders.send(None)
        for process in processes:
            process.join(timeout=30)


def test_serve_gives_its_workers_the_instance_file_unless_redis_or_a_storage_is_set(database_url, tmp_path):
    app = create_app(spec_config(database_url, tmp_path))
    assert app.config["RATELIMIT_STORAGE_URI"] == "memory://"
    shared = limits.shared_storage(app)
    assert shared is not None
    assert limitstore.path_of(shared) == str(Path(app.instance_path) / "limits.sqlite3")
    told = create_app(spec_config(database_url, tmp_path, RATELIMIT_STORAGE_URI="memory://"))
    assert limits.shared_storage(told) is None
    with_redis = create_app(spec_config(database_url, tmp_path, CACHE_REDIS_URL="redis://127.0.0.1:6379/0"))
    assert with_redis.config["RATELIMIT_STORAGE_URI"] == "redis://127.0.0.1:6379/0"
    assert limits.shared_storage(with_redis) is None
    for made in (app, told, with_redis):
        with made.app_context():
            db.engine.dispose()


def test_the_shared_file_counts_a_moving_window_and_keeps_a_proof(tmp_path):
    store = limitstore.SQLiteStorage(limitstore.uri_for(tmp_path / "l.sqlite3"))
    other = limitstore.SQLiteStorage(limitstore.uri_for(tmp_path / "l.sqlite3"))  # another process's
    assert [store.acquire_entry("k", 3, 60) for _ in range(2)] + [other.acquire_entry("k", 3, 60)] == [
        True
    ] * 3
    assert not store.acquire_entry("k", 3, 60) and not other.acquire_entry("k", 3, 60)
    start, count = other.get_moving_window("k", 3, 60)
    assert count == 3 and time.time() - 5 < start <= time.time()
    assert store.incr("p", 100) == 1 and other.incr("p", 100) == 2 and store.get("p") == 2
    assert 90 < other.get_expiry("p") - time.time() <= 100
    other.clear("p")
    assert store.get("p") == 0
    assert ((tmp_path / "l.sqlite3").stat().st_mode & 0o777) == 0o600


def test_scorekeeper_serve_with_four_workers_refuses_the_eleventh_wrong_key(tmp_path):
    """The real server: 10 wrong keys sent at once land on its 4 workers, and the 11th is
    refused whichever worker takes it (per-worker counts let 40 through)."""
    import json
    import os
    import urllib.error
    import urllib.request
    from concurrent.futures import ThreadPoolExecutor

    from tests.test_serve import free_port, start_serve, wait_healthy

    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCOREKEEPER_")}
    for name in ("DATABASE_URL", "SECRET_KEY", "AUTO_MIGRATE", "CACHE_REDIS_URL"):
        env.pop(name, None)
    env["SCOREKEEPER_INSTANCE"] = str(tmp_path / "instance")
    log = (tmp_path / "serve.log").open("w+")
    server = start_serve(port, env, log, "--host", "127.0.0.1", "--workers", "4")
    base = f"http://127.0.0.1:{port}"

    def status(path: str) -> int:
        try:
            with urllib.request.urlopen(base + path, timeout=20) as answer:
                return answer.status
        except urllib.error.HTTPError as refused:
            return refused.code

    try:
        wait_healthy(base, server)
        record = {"game": "secret_agent", "players": ["Ann", "Bob", "Cid", "Dee"]}
        made = urllib.request.Request(
            base + "/api/games",
            data=json.dumps(record).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(made, timeout=20) as answer:
            gid = json.load(answer)["id"]
        with ThreadPoolExecutor(10) as pool:
            first = list(pool.map(status, [f"/g/{gid}?key=wrong-{n}" for n in range(10)]))
        assert first == [200] * 10
        after = [status(f"/g/{gid}?key=wrong-more-{n}") for n in range(8)]
        assert after == [429] * 8
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()
    assert (tmp_path / "instance" / "limits.sqlite3").exists()
