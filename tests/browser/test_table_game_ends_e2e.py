"""An event table's phone left on its link when its game ends by its last hand (issue 53): it shows
the end and what comes next (the confirmation, "wait for the director") by itself, without a
reload, whether the last hand came from this phone or from another device; and the next round
when the director starts it. 360x740 Chromium."""

from __future__ import annotations

import json
import urllib.request

import pytest
from playwright.sync_api import expect

from scorekeeper import create_app
from scorekeeper.events import rounds
from scorekeeper.events import service as events
from scorekeeper.events.table_links import table_url
from tests.browser.test_offline_table_e2e import DEALS, api, enter, enter_online, new_tab, phone_context


def event_table(database_url: str, hands: int, confirm: bool = False) -> tuple[str, str, str]:
    app = create_app(
        {"SECRET_KEY": "browser-test", "SQLALCHEMY_DATABASE_URI": database_url, "AUTO_MIGRATE": False}
    )
    with app.app_context():
        settings = {
            "name": "Ends evening",
            "format": "progressive",
            "game": "euchre",
            "players": ["P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8"],
            "hands": hands,
            "minutes": 30,
        }
        if confirm:
            settings["confirm"] = True
        event, director_key = events.create_event(settings)
        rounds.start_round(event)
        return event.id, director_key, table_url(event, 1)


@pytest.mark.parametrize("last_from", ["this phone", "another device"])
def test_a_table_phone_shows_its_games_end_and_what_comes_next_by_itself(
    live_server, browser, database_url, last_from
):
    event_id, director_key, link = event_table(database_url, hands=2)
    request = urllib.request.Request(
        f"{live_server}/api/events/{event_id}", headers={"Authorization": f"Bearer {director_key}"}
    )
    with urllib.request.urlopen(request) as answer:
        table = json.load(answer)["rounds"][0]["tables"][0]
    context = phone_context(browser)
    page = new_tab(context)
    page.goto(live_server + link)
    enter_online(page, DEALS[0])
    expect(page.locator(".board tbody tr[id^=deal-]")).to_have_count(1)
    page.evaluate("window.notReloaded = true")
    if last_from == "this phone":
        enter(page, DEALS[1])
    else:
        trump, maker, tricks = DEALS[1]
        deal = {"trump": trump, "round": 1, "maker": maker, "alone": False, "maker_tricks": tricks}
        api(live_server, f"/api/games/{table['game']}/deals", deal, key=table["edit_key"])
    # The end, and what comes next, on the phone as it stands (no reload): no form left to fill.
    expect(page.locator("body")).to_contain_text("Next round: wait for the director.")
    expect(page.locator("#entry")).to_have_count(0)
    assert page.evaluate("window.notReloaded === true")
    # The director starts the next round: the phone shows it by itself.
    api(live_server, f"/api/events/{event_id}/rounds", {"close": True}, key=director_key)
    expect(page.locator("body")).to_contain_text("Round 2 of")
    expect(page.locator("#entry")).to_be_visible()
    assert page.problems == []
    context.close()
