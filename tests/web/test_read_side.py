"""The read side: every route replays a game at most once per request, and shows each viewer
(a follower, the scorer, each seat with its private link) only what that viewer may know."""

from __future__ import annotations

import io
import json
import re

import pytest

from scorekeeper import rules
from scorekeeper.games import GAMES
from scorekeeper.rules import base as rules_base
from tests.conftest import bearer
from tests.web.table_helpers import FLAT, api_game
from tests.web.test_i18n import create, record
from tests.web.test_secrets_pages import (
    SECRET_FIGURES,
    hidden_game,
    json_leaks,
    leaks,
    text_of,
)
from tests.web.test_table_writes import sa_form

# The query strings a route reads, tried on it (every other GET route is asked without one): the
# followed regions' part, the printed sheet's paper. Tried on every route before, they sent the
# same page four times (about 5,000 of the sweep's 8,900 requests).
QUERIES = {
    "/g/<game_id>/live": ("", "?part=live", "?part=board", "?part=chart"),
    "/g/<game_id>/sheet.pdf": ("", "?paper=letter"),
}
# The ratings read every finished game once when the club's games changed (then from their cache).
LISTS = (
    "/",
    "/games",
    "/c/<slug>",
    "/c/<slug>/games",
    "/c/<slug>/players",
    "/c/<slug>/player",
    "/c/<slug>/ratings",
    "/api/clubs/<slug>/games",
    "/api/clubs/<slug>/ratings",
)


@pytest.fixture
def replays(monkeypatch):
    """How many times the rules replayed a game (``rules.play``, however it is reached)."""
    calls = []
    real = rules_base.play

    def counted(game, setup, deals, after=None):
        if after is None:  # going on from a scored game (one deal added) replays nothing
            calls.append(json.dumps([game.key, setup.players, setup.options, list(deals)], default=str))
        return real(game, setup, deals, after)

    monkeypatch.setattr(rules_base, "play", counted)
    monkeypatch.setattr(rules, "play", counted)
    return calls


@pytest.fixture
def readable_pdf(monkeypatch):
    """The PDF sheet's HTML instead of a PDF, so it is made (and read) without Chromium."""
    from scorekeeper import pdf
    from scorekeeper.web.games import records

    monkeypatch.setattr(pdf, "html_to_pdf", lambda html, *args, **kwargs: html.encode())
    monkeypatch.setattr(records, "pdf_printer", lambda: "chromium")


def stored_replay(client, gid: str) -> str | None:
    """The key the replay counter gives a replay of this game as stored now."""
    record = client.get(f"/api/games/{gid}").get_json()
    if not record or "game" not in record:
        return None
    kind = GAMES.get(record["game"])
    from scorekeeper.db import db
    from scorekeeper.models import Game

    with client.application.app_context():
        game = db.session.get(Game, gid)
        options = dict(game.options)
    return json.dumps([kind.key, tuple(record["players"]), options, record[kind.record_key]], default=str)


def games_of_each_kind(app, client) -> list[tuple[str, str]]:
    """(game id, private-link seat-0 path or "") of a game of each kind, in play and over,
    plus an unfinished Hidden Secrets game after one turn and one still waiting for allotments."""
    out = []
    for kind in GAMES:
        for finished in (False, True):
            gid, key = create(client, record(kind, finished))
            assert client.get(f"/g/{gid}?key={key}").status_code == 303
            out.append((gid, ""))
    path, links = hidden_game(client)
    out.append((path.rsplit("/", 1)[-1], links[0].split("://", 1)[-1].split("/", 1)[-1]))
    waiting = client.post(
        "/new/secrets",
        data={
            "players_0": "Ann",
            "players_1": "Bob",
            "players_2": "Cid",
            "first_dealer": "0",
            "opt_hidden": "y",
        },
    )
    out.append((waiting.headers["Location"].rsplit("/", 1)[-1], ""))
    return out


def route_urls(app, gid: str, private: str) -> list[tuple[str, str, str]]:
    """(method, url, rule) of every route in the app, filled in for one game."""
    token = private.rsplit("/", 1)[-1] if private else "x"
    values = {
        "game_id": gid,
        "k": 0,
        "seat": 0,
        "token": token,
        "change_id": 1,
        "kind": "secrets",
        "entrant": 0,
        "invite_id": 1,
        "member_id": 1,
        "key_id": 1,
        # An event's round and table (the confirmation's API).
        "number": 1,
        "table_number": 1,
    }
    out = []
    with app.test_request_context():
        for rule in app.url_map.iter_rules():
            if rule.endpoint == "static":
                continue
            url = app.url_for(rule.endpoint, **{name: values.get(name, "x") for name in rule.arguments})
            for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
                if method == "GET":
                    out.extend(("GET", url + query, rule.rule) for query in QUERIES.get(rule.rule, ("",)))
                else:
                    out.append((method, url, rule.rule))
    return out


def test_every_route_replays_a_game_at_most_once_per_request(app, client, replays, readable_pdf):
    games = games_of_each_kind(app, client)
    # A club ("x", the slug every route is filled in with) whose member is ``client``.
    client.set_cookie("member", client.post("/api/clubs", json={"name": "X"}).json["member_key"])
    viewer = app.test_client()
    extra = ["/c/x/player?name=Ann", "/games?player=Ann", "/games?kind=secrets", "/c/x/games?player=Ann"]
    seen = set()
    writes = []
    # The routes that name no game (a club's, an event's, the lists) give each game the same
    # URL: each is asked once per browser, not once per game (two thirds of the calls, all the
    # same request again; every game was made before the first read).
    asked = set()
    for gid, private in games:
        for browser in (client, viewer):
            for method, url, rule in [*route_urls(app, gid, private), *(("GET", u, u) for u in extra)]:
                if method != "GET":
                    writes.append((method, url))
                    continue
                if (browser is client, url) in asked:
                    continue
                asked.add((browser is client, url))
                for headers in ({}, {"HX-Request": "true"}):
                    replays.clear()
                    response = browser.open(url, method=method, headers=headers)
                    if response.status_code == 200:
                        seen.add(rule)
                    if rule.split("?")[0].replace("/x/", "/<slug>/") in LISTS or rule in LISTS:
                        # A list replays each game it shows once (a summary table can take its place).
                        assert len(replays) == len(set(replays)), (url, len(replays))
                    else:
                        assert len(replays) <= 1, (url, headers, response.status_code, len(replays))
    # Writes (last: some delete what the reads read). The game as stored is replayed at most
    # once; a change the rules must judge (a corrected or deleted deal) is replayed once more
    # as it would be, and a recorded deal is scored on from the stored result, replaying nothing.
    for method, url in writes:
        for headers in ({}, {"HX-Request": "true"}):
            gid = url.split("/")[2] if url.startswith("/g/") else None
            stored = stored_replay(client, gid) if gid else None
            replays.clear()
            response = client.open(url, method=method, headers=headers)
            assert replays.count(stored) <= 1, (method, url, response.status_code, len(replays))
            assert len(replays) <= 2 and len(set(replays)) == len(replays), (method, url, len(replays))
            if "/deals/" not in url and "/changes/" not in url:
                assert len(replays) <= 1, (method, url, response.status_code, len(replays))
    read = {"/", "/games", "/c/<slug>/players", "/c/<slug>", "/g/<game_id>", "/g/<game_id>/live"}
    read |= {"/g/<game_id>/sheet", "/c/<slug>/ratings", "/c/<slug>/games"}
    read |= {"/g/<game_id>/deals/<int:k>", "/api/games/<game_id>", "/g/<game_id>/sheet.pdf"}
    read |= {"/g/<game_id>/record.json", "/g/<game_id>/scores.csv", "/g/<game_id>/p/<int:seat>/<token>"}
    assert read <= seen, read - seen


def test_recording_a_deal_replays_once_and_the_answer_reuses_it(client, replays):
    gid, key = api_game(client)
    replays.clear()
    response = client.post(f"/api/games/{gid}/deals", json=FLAT, headers=bearer(key))
    # At most once: the shared cache (scorekeeper/cache.py) may hold the stored game's result already.
    assert response.status_code == 201 and len(replays) <= 1
    assert client.get(f"/g/{gid}?key={key}").status_code == 303
    replays.clear()
    page = client.post(f"/g/{gid}/deals", data=sa_form([4, 3, 3, 3], "LORS"), headers={"HX-Request": "true"})
    assert page.status_code == 200 and len(replays) <= 1, (page.status_code, replays)
    assert "Deal 3 of 52." in text_of(page.get_data(as_text=True))
    replays.clear()
    created = client.post("/api/games", json=record("euchre", False))
    assert created.status_code == 201 and len(replays) == 1
    replays.clear()
    upload = {"record": (io.BytesIO(json.dumps(record("spades", False)).encode()), "game.json")}
    assert client.post("/import", data=upload).status_code == 303 and len(replays) == 1


# What each seat may know after HIDDEN_TURN (tests/web/test_secrets_pages.py): Ann and Bob
# know Ann's J (41) and Bob's J (39); Cid knows Bob's J (39) and his own J (37).
MAY_KNOW = {0: {"41", "39"}, 1: {"41", "39"}, 2: {"39", "37"}}


def test_no_route_shows_a_seat_what_it_may_not_know(app, client, readable_pdf):
    path, links = hidden_game(client)
    gid = path.rsplit("/", 1)[-1]
    for seat, link in enumerate(links):
        phone = app.test_client()
        private = link.split("://", 1)[-1].split("/", 1)[-1]
        page = phone.get("/" + private).get_data(as_text=True)
        assert "private report" in page
        assert set(leaks(page)) <= MAY_KNOW[seat], (seat, leaks(page))
        others = set(SECRET_FIGURES) - MAY_KNOW[seat]
        for method, url, _rule in route_urls(app, gid, private):
            if method != "GET":
                continue
            for headers in ({}, {"HX-Request": "true"}):
                response = phone.get(url, headers=headers)
                if response.is_json:
                    found = json_leaks(response.get_json())
                else:
                    found = leaks(response.get_data(as_text=True))
                # Only its own private page may show what the seat knows; nothing shows the rest.
                allowed = MAY_KNOW[seat] if url.startswith("/" + private.split("?")[0]) else set()
                assert set(found) <= allowed and not set(found) & others, (seat, url, found)


def test_the_chart_shows_no_false_zero_for_a_hidden_total(app, client):
    path, _links = hidden_game(client)
    viewer = app.test_client()
    for browser in (viewer, client):
        page = browser.get(path).get_data(as_text=True)
        chart = re.search(r'<figure class="chart".*?</figure>', page, re.S).group(0)
        legend = dict(re.findall(r'<span class="chart-name">(\w+)</span> <b>([^<]*)</b>', chart))
        # Bob's total holds Ann's hidden J: unknown, so "?", never 0 (the board says "?" too).
        assert legend == {"Ann": "0", "Bob": "?", "Cid": "10"}, legend
        assert "Bob ?" in text_of(chart) and not leaks(chart)
        record = browser.get(f"/api/games/{path.rsplit('/', 1)[-1]}").get_json()
        assert record["totals"] == [0, None, 10]


def test_a_view_is_frozen_and_pickles_so_a_shared_cache_can_hold_it(app, client):
    import dataclasses
    import pickle

    from scorekeeper import read
    from scorekeeper.db import db
    from scorekeeper.models import Game

    ids = [gid for gid, _private in games_of_each_kind(app, client)]
    with app.test_request_context():
        for gid in ids:
            game = db.session.get(Game, gid)
            for role in (read.SCORER, read.VIEWER, read.seat_role(0)):
                view = read.game_view(game, role)
                assert read.game_view(game, role) is view  # memoised within the request
                again = pickle.loads(pickle.dumps(view))
                assert again.result.totals == view.result.totals and again.chart == view.chart
                with pytest.raises(dataclasses.FrozenInstanceError):
                    view.role = read.SCORER


def test_every_game_of_the_rules_has_one_plug_in_entry_naming_its_parts():
    from scorekeeper import plugins

    assert set(plugins.PLUGINS) == set(GAMES)
    for key, plugin in plugins.PLUGINS.items():
        assert plugin.rules is GAMES.get(key) and plugin.templates == f"games/{key}/"
        assert plugin.entry_form.template.startswith(plugin.templates)
