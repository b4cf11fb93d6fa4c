"""Issue 54's evening, from an empty list to the final standings, in Chromium: 12 players check
in at the door from their own 360 px phones (one during round 1), a ladder of 3 rounds, a
forgotten confirmation given later from the table's phone, the last round closed by the
director with a table unfinished, the event finished; the TV (1920x1080) shows the list filling
and the final standings. Taps are counted (trusted touches) at the door and for the director.
The hands themselves are recorded through the API (their taps: test_ladder_evening_e2e.py)."""

from __future__ import annotations

import json
import os
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from scorekeeper.events import service as events
from tests.browser.conftest import TV, no_sideways_scroll, taps
from tests.browser.conftest import new_phone as phone_counting_taps
from tests.scenes import api

PLAYERS = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lee"]
MADE_02 = {"trump": "H", "maker": 0, "alone": False, "defender_alone": None, "maker_tricks": 3}
WAIT = 20_000
# docs/evening.md's pictures of the door, the list filling and the last round's close:
# `UPDATE_SCREENS=1 python -m pytest tests/browser/test_evening_door_e2e.py` takes them again.
DOCS = Path(__file__).resolve().parents[2] / "docs" / "screens"


@pytest.fixture
def shots(tmp_path) -> Path:
    return DOCS if os.environ.get("UPDATE_SCREENS") else tmp_path


def new_phone(browser: Browser) -> Page:
    return phone_counting_taps(browser, WAIT)


def document(base: str, event_id: str, key: str | None = None) -> dict:
    return api(base, f"/api/events/{event_id}", key=key)


def deal(base: str, table: dict) -> None:
    request = urllib.request.Request(
        f"{base}/api/games/{table['game']}/deals",
        data=json.dumps(MADE_02).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {table['edit_key']}"},
    )
    with urllib.request.urlopen(request) as answer:
        assert answer.status == 201


def confirm(base: str, event_id: str, number: int, table: dict) -> None:
    """The side that did not win (seats 1 and 3: MADE_02 is seats 0 and 2's) confirms."""
    request = urllib.request.Request(
        f"{base}/api/events/{event_id}/rounds/{number}/tables/{table['table']}/confirm",
        data=json.dumps({"by": table["seats"][1]}).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {table['edit_key']}"},
    )
    with urllib.request.urlopen(request) as answer:
        assert answer.status == 200


def check_in(browser: Browser, door: str, name: str, shot: Path | None = None) -> int:
    """One player's own phone at the door: the name typed in the one field, one tap."""
    phone = new_phone(browser)
    try:
        phone.goto(door)
        no_sideways_scroll(phone)
        if shot is not None:
            phone.screenshot(path=str(shot))
        phone.locator("#name").fill(name)
        button = phone.get_by_role("button", name="Check in", exact=True)
        box = button.bounding_box()
        assert box and box["height"] >= 44
        button.tap()
        expect(phone.locator(".ev-arrived")).to_contain_text(f"{name}, you are on tonight's list")
        return taps(phone)
    finally:
        phone.context.close()


def test_an_evening_filled_at_the_door_to_its_closed_last_round(
    live_server: str, on_server, browser: Browser, shots: Path
):
    with on_server():
        event, key = events.create_event(
            {
                "name": "Door night",
                "format": "ladder",
                "game": "euchre",
                "check_in": True,
                "rounds": 3,
                "hands": 1,
                "minutes": 20,
                "confirm": True,
            }  # fmt: skip
        )
        event_id = event.id
    door = document(live_server, event_id, key)["check_in_link"].replace("http://localhost", live_server)
    director = new_phone(browser)
    director.goto(f"{live_server}/e/{event_id}/direct?key={key}")
    expect(director.locator("#ev-tonight-title")).to_have_text("Tonight's list: 0 players")
    tv = browser.new_context(viewport=TV).new_page()
    tv.goto(f"{live_server}/e/{event_id}/board")

    door_taps = [
        check_in(browser, door, name, shots / "evening-door.png" if name == "Gus" else None)
        for name in PLAYERS[:11]
    ]
    assert door_taps == [1] * 11
    # The list filled on the director's page and the board by itself (no reload).
    expect(director.locator("#ev-tonight-title")).to_have_text("Tonight's list: 11 players", timeout=WAIT)
    expect(tv.locator("#tv-standings-title")).to_have_text("Checked in: 11 players", timeout=30_000)
    no_sideways_scroll(director)
    director.locator("#ev-tonight-title").scroll_into_view_if_needed()
    director.screenshot(path=str(shots / "evening-tonight.png"))
    tv.screenshot(path=str(shots / "evening-board-door.png"))

    director_taps = []
    at = taps(director)
    director.get_by_role("button", name="Start round 1").tap()
    expect(director.locator(".flash-ok")).to_contain_text("Round 1 has started.")
    director_taps.append(taps(director) - at)
    # Lee arrives during round 1: he plays from round 2.
    assert check_in(browser, door, "Lee") == 1
    doc = document(live_server, event_id, key)
    assert len(doc["rounds"][0]["tables"]) == 2 and len(doc["rounds"][0]["sitting_out"]) == 3
    first = doc["rounds"][0]["tables"]
    for table in first:
        deal(live_server, table)
    # Table 2 confirms; table 1 forgets.
    loser = first[1]["seats"][1]
    assert loser == first[1]["seats"][1]
    confirm(live_server, event_id, 1, first[1])
    # Table 1's phone, left on its table link, has the round's confirmation offered.
    table1 = new_phone(browser)
    link1 = next(t["link"] for t in doc["table_links"] if t["table"] == 1).replace(
        "http://localhost", live_server
    )
    table1.goto(link1)
    expect(table1.locator("#ev-confirm")).to_be_visible()

    # The director is asked before round 2 (one tap more: "Start anyway").
    expect(director.locator("#ev-hall")).to_contain_text("NOT CONFIRMED", timeout=WAIT)
    at = taps(director)
    director.get_by_role("button", name="Start round 2").tap()
    expect(director.locator("#unconfirmed-error")).to_contain_text("Not confirmed yet: round 1 table 1.")
    director.locator("label.switch:has(#unconfirmed)").tap()
    director.get_by_role("button", name="Start round 2").tap()
    expect(director.locator(".flash-ok")).to_contain_text("Round 2 has started.")
    director_taps.append(taps(director) - at)
    doc = document(live_server, event_id, key)
    assert len(doc["rounds"][1]["tables"]) == 3  # Lee in
    # The forgotten confirmation, given later from table 1's phone (now on round 2's game).
    forgotten = table1.get_by_role("link", name="Round 1's result is not confirmed: confirm it")
    expect(forgotten).to_be_visible(timeout=WAIT)
    forgotten.tap()
    late_loser = first[0]["seats"][1]
    table1.locator("#ev-confirm").get_by_role("button", name=late_loser, exact=True).tap()
    expect(table1.locator("main")).to_contain_text(f"confirmed by {late_loser}")
    assert document(live_server, event_id)["rounds"][0]["tables"][0]["confirmed_by"] == late_loser
    for table in doc["rounds"][1]["tables"]:
        deal(live_server, table)
    for table in doc["rounds"][1]["tables"]:  # round 2's tables confirm (one tap each, elsewhere)
        confirm(live_server, event_id, 2, table)

    at = taps(director)
    director.get_by_role("button", name="Start round 3").tap()
    expect(director.locator(".flash-ok")).to_contain_text("Round 3 has started.")
    director_taps.append(taps(director) - at)
    third = document(live_server, event_id, key)["rounds"][2]["tables"]
    deal(live_server, third[0])  # tables 2 and 3 unfinished when the director closes
    close = director.get_by_role("button", name="Close round 3 and finish the event")
    expect(close).to_be_visible(timeout=WAIT)  # offered live: a table has finished
    close.scroll_into_view_if_needed()
    director.screenshot(path=str(shots / "evening-close.png"))
    at = taps(director)
    close.tap()
    expect(director.get_by_text("Round 3 is closed: the event has finished.")).to_be_visible()
    director_taps.append(taps(director) - at)
    final = document(live_server, event_id)
    assert final["finished"] is True and len(final["standings"]) == 12
    lee = next(s for s in final["standings"] if s["name"] == "Lee")
    assert lee["missed"] == [1]
    expect(tv.locator(".tv-round")).to_contain_text("Final standings", timeout=30_000)
    no_sideways_scroll(director)
    # Taps: 1 a player at the door; the director 1 a round start (2 when asked), 1 to close.
    assert director_taps == [1, 3, 1, 1], director_taps
    assert tv.evaluate("document.documentElement.scrollWidth") <= TV["width"]
