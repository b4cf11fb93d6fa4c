"""Keys the server hands out are proven by the credential they were handed to (issue 57: N1, N12,
P1): a prankster on the hall's address never stops a table at a round change, an event's table
links given to its director at the hall open there, and the operator's ADMIN_KEY used once is
never slowed."""

# ruff: noqa: F811
from __future__ import annotations

import math
import re
import time

from scorekeeper.events import service as events
from tests.clubs.helpers import new_club
from tests.conftest import bearer
from tests.web.table_helpers import api_game

# make_app, a fixture: apps with the spec's abuse limits (10 wrong credentials a minute), emptied
# after the test. Its tests take it as a parameter, which ruff reads as a redefinition.
from tests.web.test_limits_hall import ELSEWHERE, HALL, make_app, phone  # noqa: F401

HTMX = {"HX-Request": "true"}
TABLES = 40


def euchre_hand(maker: int) -> dict[str, str]:
    """One Euchre hand as the table's form posts it (the maker's side takes 3 tricks)."""
    return {"trump": "H", "maker": str(maker), "alone": "0", "defender_alone": "", "maker_tricks": "3"}


def poll_url(html: str) -> str:
    return re.search(r'hx-get="([^"]+/now\?at=[^"]+)"', html).group(1).replace("&amp;", "&")


def test_a_forty_table_hall_with_a_prankster_across_three_round_changes(make_app):
    """160 players at 40 tables, every phone on its table link behind the hall's address; the
    director fetched their links at the hall. A prankster there sends 12 wrong table links just before every round
    starts and more while it is played, so the address is over its failures all evening. Each
    round's game key reaches a phone in a cookie from its (proven) table link, and the table
    links reached the director from the hall: no honest request ever sees a 429."""
    app = make_app(LIMIT_CREATE_GAMES="1000 per hour")
    with app.app_context():
        event, director_key = events.create_event(
            {
                "name": "Hall night",
                "format": "progressive",
                "game": "euchre",
                "players": [f"P{n:03d}" for n in range(TABLES * 4)],
                "hands": 1,
                "rounds": 4,
            }
        )
        event_id = event.id
    # The director opens the event's document at the hall (its table links for the cards), then
    # starts each round from a laptop on mobile data: the phones' keys reach them only by their
    # table links.
    director = phone(app)
    laptop = phone(app, ELSEWHERE)
    doc = director.get(f"/api/events/{event_id}", headers=bearer(director_key))
    assert doc.status_code == 200
    table_links = [t["link"].replace("http://localhost", "") for t in doc.get_json()["table_links"]]
    assert len(table_links) == TABLES

    prankster = phone(app)
    wrong: list[int] = []
    began = time.monotonic()

    def pranks(count: int) -> None:
        for n in range(count):
            wrong.append(
                prankster.get(f"/e/{event_id}/table/{1 + n % TABLES}/not-the-token-{len(wrong)}").status_code
            )

    # A burst before the phones ever opened their links: the links reached the director here.
    pranks(12)
    assert wrong[-1] == 429
    honest: list[tuple[str, int]] = []
    phones = [phone(app) for _ in range(TABLES)]
    polls = []
    for link, table_phone in zip(table_links, phones, strict=True):
        waiting = table_phone.get(link)
        honest.append(("wait", waiting.status_code))
        assert waiting.status_code == 200, "a table link given to the director at the hall was refused"
        polls.append(poll_url(waiting.get_data(as_text=True)))

    for number in range(1, 5):
        pranks(12)  # just before the round starts
        started = laptop.post(
            f"/api/events/{event_id}/rounds", json={"close": number > 1}, headers=bearer(director_key)
        )
        honest.append(("start", started.status_code))
        assert started.status_code == 201, started.get_json()
        games = {t["table"]: t["game"] for t in started.get_json()["tables"]}
        for n, (link, table_phone) in enumerate(zip(table_links, phones, strict=True), start=1):
            moved = table_phone.get(polls[n - 1], headers=HTMX)
            honest.append(("now", moved.status_code))
            assert moved.headers.get("HX-Refresh") == "true"
            page = table_phone.get(link)
            honest.append(("table", page.status_code))
            assert page.status_code == 200
            polls[n - 1] = poll_url(page.get_data(as_text=True))
            gid = games[n]
            live = table_phone.get(f"/g/{gid}/live?part=live&as=scorer", headers=HTMX)
            honest.append(("live", live.status_code))
            dealt = table_phone.post(f"/g/{gid}/deals", data=euchre_hand(0), headers=HTMX)
            honest.append(("deal", dealt.status_code))
            honest.append(("game", table_phone.get(f"/g/{gid}").status_code))
            if n % 4 == 0:
                pranks(1)  # and more while the round is played
    refused = [what for what, status in honest if status == 429]
    assert refused == [], f"{len(refused)} honest requests refused: {sorted(set(refused))}"
    assert all(status < 400 for _what, status in honest), [h for h in honest if h[1] >= 400][:5]
    # Every table's hand was saved: each round's games have one deal each.
    final = director.get(f"/api/events/{event_id}", headers=bearer(director_key)).get_json()
    assert [sum(t["hands_played"] for t in r["tables"]) for r in final["rounds"]] == [TABLES] * 4
    # The prankster was refused from the 11th wrong link on: at most 10 tested in any minute (a
    # slow machine takes more than one for the evening, and the window lets 10 more in).
    minutes = (time.monotonic() - began) / 60
    assert wrong[:10] == [404] * 10 and wrong[10] == 429
    assert wrong.count(404) <= 10 * math.ceil(minutes + 1) and set(wrong) == {404, 429}


def block(app, address: str = HALL) -> None:
    """A prankster at ``address`` takes it over its failures (10 a minute, the spec's figure)."""
    gid, _key = api_game(phone(app, ELSEWHERE))
    prankster = phone(app, address)
    answers = [prankster.get(f"/g/{gid}?key=guess-{n}").status_code for n in range(11)]
    assert answers[-1] == 429


def test_the_tables_keys_a_director_is_handed_at_the_hall_open_there(make_app):
    """The director's document at the hall hands every started table's scoring key: a phone there
    opening its printed scoring link is never refused, however many wrong keys came before."""
    app = make_app()
    with app.app_context():
        event, director_key = events.create_event(
            {"name": "N", "format": "progressive", "game": "euchre", "players": list("ABCDEFGH"), "hands": 1}
        )
        event_id = event.id
    elsewhere = phone(app, ELSEWHERE)
    started = elsewhere.post(f"/api/events/{event_id}/rounds", json={}, headers=bearer(director_key))
    assert started.status_code == 201
    tables = started.get_json()["tables"]
    block(app)
    # Not handed at the hall yet: refused untested, as a guess is.
    assert phone(app).get(f"/g/{tables[0]['game']}?key={tables[0]['edit_key']}").status_code == 429
    # The director (whose key the hall has proven) opens the document there: handed to them.
    director = phone(app)
    assert director.get(f"/e/{event_id}/direct?key={director_key}").status_code == 429  # not yet proven
    assert phone(app, ELSEWHERE).get(f"/e/{event_id}/direct?key={director_key}").status_code == 303
    with app.app_context():
        app.extensions["scorekeeper.limits"].prove(HALL, director_key)  # proven earlier that evening
    assert director.get(f"/api/events/{event_id}", headers=bearer(director_key)).status_code == 200
    for table in tables:
        assert phone(app).get(f"/g/{table['game']}?key={table['edit_key']}").status_code == 303


def test_a_new_games_key_is_proven_for_the_address_that_made_it(make_app):
    """A game made from a blocked address: its key, answered there, scores there at once."""
    app = make_app()
    block(app)
    maker = phone(app)
    made = maker.post("/api/games", json={"game": "euchre", "players": ["Ann", "Bob", "Cy", "Di"]})
    assert made.status_code == 201
    gid, key = made.get_json()["id"], made.get_json()["edit_key"]
    deal = {"trump": "H", "maker": 0, "alone": False, "defender_alone": None, "maker_tricks": 3}
    assert maker.post(f"/api/games/{gid}/deals", json=deal, headers=bearer(key)).status_code == 201
    # Another game's key, made elsewhere, is still refused untested here.
    other = phone(app, ELSEWHERE).post("/api/games", json={"game": "euchre", "players": ["A", "B", "C", "D"]})
    other_key = other.get_json()["edit_key"]
    assert (
        maker.post(
            f"/api/games/{other.get_json()['id']}/deals", json=deal, headers=bearer(other_key)
        ).status_code
        == 429
    )
    # A game made on the page: its key in the cookie is proven too.
    page = phone(app)
    form = page.post(
        "/new/euchre",
        data={
            "players_0": "Ann",
            "players_1": "Bob",
            "players_2": "Cy",
            "players_3": "Di",
            "first_dealer": "0",
        },
    )
    assert form.status_code == 303, form.get_data(as_text=True)[:300]
    assert page.get(form.headers["Location"]).status_code == 200


def test_the_admin_key_used_once_is_never_refused_from_its_address(make_app):
    """CLUB_CREATION=admin: the operator's ADMIN_KEY, used correctly from the hall, makes clubs
    there while a prankster keeps the address over its failures; the new owner's key answered
    there opens the club at once. A wrong admin key still counts and is refused untested."""
    app = make_app(CLUB_CREATION="admin", ADMIN_KEY="operator-key-0123456789")
    operator = phone(app)
    admin = bearer("operator-key-0123456789")
    assert operator.post("/api/clubs", json={"name": "First"}, headers=admin).status_code == 201
    block(app)
    made = operator.post("/api/clubs", json={"name": "Second"}, headers=admin)
    assert made.status_code == 201, made.get_json()
    owner = phone(app)
    owner.set_cookie("member", made.get_json()["member_key"])
    assert owner.get(f"/c/{made.get_json()['slug']}").status_code == 200
    # The page's form too.
    page = operator.post(
        "/clubs/new", data={"name": "Third", "player": "Ann", "admin_key": "operator-key-0123456789"}
    )
    assert page.status_code == 303
    # A wrong admin key from the blocked address: refused untested.
    assert (
        phone(app).post("/api/clubs", json={"name": "Nope"}, headers=bearer("operator-key-guess")).status_code
        == 429
    )


def test_a_member_cookie_tests_no_more_guesses_than_the_minute_has_room_for(make_app, monkeypatch):
    """clubs.md: at most 10 failed checks a minute. A cookie carries up to 10 member keys: at the
    6th failure a cookie of 10 guesses is refused untested (it was tested whole, 15 and more a
    minute); a cookie with as many as there is room for is tested, and then nothing more."""
    from scorekeeper.clubs import service as clubs

    app = make_app()
    owner = new_club(phone(app, ELSEWHERE), "Guarded")
    tested: list[str] = []
    looked_up = clubs.memberships

    def spy(keys):
        tested.extend(k for k in keys if k != owner["member_key"])
        return looked_up(keys)

    monkeypatch.setattr(clubs, "memberships", spy)
    guesser = phone(app)
    answers = []
    for n in range(5):
        guesser.set_cookie("member", f"guessguessguess{n:04d}")
        answers.append(guesser.get(f"/c/{owner['slug']}").status_code)
    assert answers == [404] * 5 and len(tested) == 5
    guesser.set_cookie("member", ".".join(f"packpackpack{n:04d}" for n in range(10)))
    refused = guesser.get(f"/c/{owner['slug']}")
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
    assert len(tested) == 5  # refused before any of the ten was looked up
    guesser.set_cookie("member", ".".join(f"fivefivefive{n:04d}" for n in range(5)))
    assert guesser.get(f"/c/{owner['slug']}").status_code == 404
    assert len(tested) == 10
    for n in range(3):
        guesser.set_cookie("member", f"onemoreguess{n:04d}")
        assert guesser.get(f"/c/{owner['slug']}").status_code == 429
    assert len(tested) == 10
    # The member's proven key still opens the club from the same address.
    member = phone(app)
    member.set_cookie("member", owner["member_key"])
    monkeypatch.undo()
    with app.app_context():
        app.extensions["scorekeeper.limits"].prove(HALL, owner["member_key"])
    assert member.get(f"/c/{owner['slug']}").status_code == 200


def test_a_new_events_director_key_is_proven_for_the_address_that_made_it(make_app):
    """A member at the hall makes an event while a prankster keeps the address over: the
    director key answered there directs the event there (its document and its page)."""
    app = make_app()
    member = phone(app)
    club = new_club(member, "Hall club")  # the owner's key, answered at the hall: proven there
    block(app)
    body = {"name": "E", "format": "progressive", "game": "euchre", "players": list("ABCDEFGH"), "hands": 1}
    made = member.post(f"/api/clubs/{club['slug']}/events", json=body, headers=bearer(club["member_key"]))
    assert made.status_code == 201, made.get_json()
    event_id, director_key = made.get_json()["id"], made.get_json()["director_key"]
    director = phone(app)
    assert (
        director.post(f"/api/events/{event_id}/rounds", json={}, headers=bearer(director_key)).status_code
        == 201
    )
    assert director.get(f"/e/{event_id}/direct?key={director_key}").status_code == 303
