"""A fifth event format nobody has yet, "Fixed" (nobody moves), written as one file in a
temporary directory and registered with one line (tests/plugin_format/fixed.py), shows up
everywhere a real format does: the new-event page (its own field), the API and its description,
an event that plays a round and ranks it. Its seating and standings are pure functions of plain
values (tested without a database). Nothing of it is written outside its file.
"""

from __future__ import annotations

import re

import pytest

from scorekeeper.events import formats
from scorekeeper.events.checks import check_event, check_stored
from scorekeeper.events.played import Play, RoundPlay, TablePlay
from scorekeeper.refusals import Refusal
from tests.clubs.helpers import as_member, bearer
from tests.plugin_format import fixed

PLAYERS = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gil", "Hal"]
BODY = {"name": "Fixed night", "format": "fixed", "game": "euchre", "players": PLAYERS, "rounds": 2}


@pytest.fixture
def registered(tmp_path):
    with fixed.installed(tmp_path / "formats") as fmt:
        yield fmt


def test_it_is_one_file_and_one_line(registered, tmp_path):
    # Its folder holds its file alone; the registry knows it by the one register() call.
    assert [p.name for p in (tmp_path / "formats").iterdir() if p.suffix == ".py"] == [f"{fixed.NAME}.py"]
    assert formats.FORMATS["fixed"] is registered and formats.of("fixed") is registered
    assert "fixed" not in formats.REGISTRY  # not a built-in line: registered at run time
    with pytest.raises(ValueError, match="registered already"):
        formats.register(fixed.NAME)


def test_its_own_setting_is_checked_by_it_and_stored(registered):
    checked = check_event({**BODY, "count": "wins"})
    assert checked["format"] == "fixed" and checked["settings"]["count"] == "wins"
    assert check_event(BODY)["settings"]["count"] == "points"
    with pytest.raises(Refusal) as bad:
        check_event({**BODY, "count": "luck"})
    assert bad.value.errors[0].field == "count"
    # Another format given it refuses it, as the format's file says; and stores None for it.
    with pytest.raises(Refusal) as elsewhere:
        check_event({**BODY, "format": "progressive", "count": "wins"})
    assert elsewhere.value.errors[0].field == "count"
    assert check_event({**BODY, "format": "progressive"})["settings"]["count"] is None
    # A backup's event of it is held to what it stores.
    row = {
        "name": "x", "format": "fixed", "kind": "euchre", "options": {}, "entrants": PLAYERS,
        "settings": {"rounds": 2, "count": "wins"}, "schedule": [],
    }  # fmt: skip
    check_stored(row)
    with pytest.raises(ValueError, match="count"):
        check_stored({**row, "settings": {"rounds": 2, "count": "luck"}})


def test_its_seating_and_standings_are_pure(registered):
    schedule = ({"tables": [[0, 1, 2, 3], [4, 5, 6, 7]], "sitting_out": []},) * 2
    table_1 = TablePlay(1, (0, 1, 2, 3), (10, 4, 10, 4), True, (0, 2))
    table_2 = TablePlay(2, (4, 5, 6, 7), (3, 10, 3, 10), True, (1, 3))
    play = Play(
        tuple(PLAYERS), {"count": "points"}, schedule=schedule, rounds=(RoundPlay(1, (table_1, table_2)),)
    )
    assert registered.seat(play, 2) == schedule[0]  # nobody moves
    by_points = registered.rank(play, PLAYERS)
    assert [s.name for s in by_points if s.rank == 1] == ["Ann", "Cy", "Flo", "Hal"]
    assert {s.name: s.points for s in by_points}["Bob"] == 4
    by_wins = registered.rank(Play(play.entrants, {"count": "wins"}, rounds=play.rounds), PLAYERS)
    assert {s.name: s.points for s in by_wins} == {n: int(n in ("Ann", "Cy", "Flo", "Hal")) for n in PLAYERS}


def test_the_new_event_page_offers_it_and_its_field(app, club, registered):
    browser = as_member(app, club["member"])
    html = browser.get("/c/the-lodge/events/new").get_data(as_text=True)
    assert re.search(r'<option[^>]*value="fixed"', html) and "Fixed tables (nobody moves)" in html
    assert re.search(r'<div class="ev-count">\s*<label class="option" for="count">Rank by', html)
    form = {
        "name": "Fixed night",
        "game": "euchre",
        "format": "fixed",
        "count": "wins",
        "players": "\n".join(PLAYERS),
    }
    made = browser.post("/c/the-lodge/events/new", data=form)
    assert made.status_code == 303, made.get_data(as_text=True)
    event_id = made.headers["Location"].rsplit("/", 1)[1]
    doc = app.test_client().get(f"/api/events/{event_id}").get_json()
    assert doc["format"] == "fixed"
    # Chosen another format, its field is not sent (the page keeps working for the others).
    other = browser.post("/c/the-lodge/events/new", data={**form, "format": "progressive"})
    assert other.status_code == 303


def test_the_api_describes_it_takes_it_and_an_event_plays_a_round(client, club, registered):
    described = client.get("/api/openapi.json").get_json()
    event_input = described["components"]["schemas"]["EventInput"]["properties"]
    assert "fixed" in event_input["format"]["enum"] and event_input["count"]["enum"] == [
        "points",
        "wins",
        None,
    ]
    made = client.post(
        "/api/clubs/the-lodge/events", json={**BODY, "count": "wins"}, headers=bearer(club["member"])
    )
    assert made.status_code == 201, made.get_json()
    event_id, key = made.get_json()["id"], made.get_json()["director_key"]
    auth = {"Authorization": f"Bearer {key}"}
    for number in (1, 2):
        started = client.post(f"/api/events/{event_id}/rounds", json={}, headers=auth)
        assert started.status_code == 201, started.get_json()
        tables = started.get_json()["tables"]
        assert [t["seats"] for t in tables] == [PLAYERS[:4], PLAYERS[4:]]  # the same every round
        if number == 1:  # table 1's seats 0+2 make 2 points, table 2's seats 1+3 do
            for table, maker in zip(tables, (0, 1), strict=True):
                deal = {
                    "trump": "H",
                    "maker": maker,
                    "alone": False,
                    "defender_alone": None,
                    "maker_tricks": 5,
                }
                played = client.post(
                    f"/api/games/{table['game']}/deals", json=deal, headers=bearer(table["edit_key"])
                )
                assert played.status_code == 201, played.get_json()
            closed = client.post(f"/api/events/{event_id}/rounds/1/close", json={}, headers=auth)
            assert closed.status_code in (200, 201), closed.get_json()
    doc = client.get(f"/api/events/{event_id}").get_json()
    assert doc["format"] == "fixed" and len(doc["rounds"]) == 2
    # Ranked by tables won (its own setting): round 1 closed with nobody at the target, so none.
    assert {s["name"] for s in doc["standings"]} == set(PLAYERS)
    assert {s["points"] for s in doc["standings"]} == {0}
    # Unregistered, the description no longer names it.
    formats.unregister("fixed")
    try:
        assert (
            "fixed"
            not in client.get("/api/openapi.json").get_json()["components"]["schemas"]["EventInput"][
                "properties"
            ]["format"]["enum"]
        )
    finally:
        formats.FORMATS["fixed"] = registered
