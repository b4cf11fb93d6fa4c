"""One reading of a typed number (issue 57, N5): digits that ``str.isdigit()`` takes and ``int()``
refuses (``²``, ``①``, ``⁴``), or that ``int()`` takes and nobody types as a number (``١٢``,
``1_0``), are refused as any other bad number, in every form, path, query and header: never a 500."""

from __future__ import annotations

import pytest

from tests.clubs.helpers import as_member, bearer, new_club
from tests.conftest import bearer as auth
from tests.conftest import sa_form
from tests.events.test_table_links import links, make

HX = {"HX-Request": "true"}
DEAL = sa_form([4, 3, 3, 3], "LORS")
ODD = ["²", "①", "⁴", "١٢", "1_0", " 7", "7\n", "+7", "", "12345678901"]


@pytest.mark.parametrize("text", ODD)
def test_the_reading_takes_ascii_digits_only(text):
    from scorekeeper.rules.base import read_whole

    assert read_whole(text) is None


def test_the_reading_takes_plain_numbers_within_their_digits():
    from scorekeeper.rules.base import read_whole

    assert read_whole("0") == 0 and read_whole("007") == 7 and read_whole("1234567890") == 1234567890
    assert read_whole("12", digits=1) is None
    assert read_whole("-3", signed=True) == -3 and read_whole("-3") is None


@pytest.mark.parametrize("odd", ["²", "①", "⁴"])
def test_a_table_link_with_an_odd_table_number_is_not_found(app, client, odd):
    event_id, key = make(app)
    one = links(client, event_id, key)[0]
    token = one.rsplit("/", 1)[1]
    assert client.get(f"/e/{event_id}/table/{odd}/{token}").status_code == 404
    assert client.get(f"/e/{event_id}/table/{odd}/{token}/now").status_code == 404


@pytest.mark.parametrize("odd", ["²", "①", "١"])
def test_the_events_api_refuses_an_odd_if_match(app, client, odd):
    event_id, key = make(app)
    r = client.post(f"/api/events/{event_id}/rounds", json={}, headers={**auth(key), "If-Match": f'"{odd}"'})
    assert r.status_code == 400 and r.get_json()["errors"], r.get_data(as_text=True)


@pytest.mark.parametrize("odd", ["²", "①", "١"])
def test_the_games_api_refuses_an_odd_if_match(client, odd):
    made = client.post("/api/games", json={"game": "tally", "players": ["A", "B"]}).get_json()
    r = client.post(
        f"/api/games/{made['id']}/deals",
        json={"points": [1, 2]},
        headers={**bearer(made["edit_key"]), "If-Match": f'"{odd}"'},
    )
    assert r.status_code == 400 and r.get_json()["errors"]
    assert client.get(f"/api/games/{made['id']}").get_json()["deals"] == []


@pytest.mark.parametrize("odd", ["²", "①"])
def test_a_page_form_with_an_odd_version_is_a_bad_request(client, new_game, odd):
    game = new_game()
    r = client.post(
        game + "/deals",
        data={**DEAL, "base_version": odd},
    )
    assert r.status_code == 400


@pytest.mark.parametrize("odd", ["²", "①"])
def test_a_viewer_poll_with_an_odd_since_is_answered_whole(app, client, new_game, odd):
    """No credential: a viewer's poll names the version its page was drawn at."""
    game_id = new_game().split("/g/", 1)[1].split("?")[0].strip("/")
    client.post(f"/g/{game_id}/deals", data=DEAL)
    viewer = app.test_client()
    url = f"/g/{game_id}/live?part=live&lang=en"
    first = viewer.get(url, headers=HX)
    assert first.status_code == 200
    gid, _version, tail = first.headers["ETag"].removeprefix("W/").strip('"').split(".", 2)
    r = viewer.get(url, headers={**HX, "X-Live-Since": f'W/"{gid}.{odd}.{tail}"'})
    assert r.status_code == 200 and "deal-" in r.get_data(as_text=True)


@pytest.mark.parametrize("odd", ["²", "①", "⁴", "١"])
def test_the_season_refuses_an_odd_best(app, client, odd):
    made = new_club(client, "The Lodge", "Olga")
    member = as_member(app, made["member_key"])
    page = member.get(f"/c/the-lodge/season?best={odd}")
    assert page.status_code == 422 and odd in page.get_data(as_text=True)
    assert member.get(f"/c/the-lodge/season.csv?best={odd}").status_code == 422
    api = client.get(f"/api/clubs/the-lodge/season?best={odd}", headers=bearer(made["member_key"]))
    assert api.status_code == 422 and api.get_json()["errors"][0]["field"] == "best"


def test_an_invite_lasting_odd_days_is_refused(app, client):
    made = new_club(client, "The Lodge", "Olga")
    member = as_member(app, made["member_key"])
    for odd in ("١٢", "²"):
        r = member.post("/c/the-lodge/invites", data={"role": "member", "expires": odd})
        assert r.status_code == 422 and "/join/" not in r.get_data(as_text=True)


@pytest.mark.parametrize("odd", ["١٢", "²", "1_0"])
def test_a_page_number_that_is_not_plain_digits_is_the_first_page(client, new_game, odd):
    new_game()
    plain = client.get("/games").get_data(as_text=True)
    assert client.get(f"/games?page={odd}").get_data(as_text=True).count("game-") == plain.count("game-")
