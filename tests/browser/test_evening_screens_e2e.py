"""A director's evening as docs/evening.md tells it, driven in Chromium and photographed for it.

The club's owner makes the event on a 360 px phone by ticking who is here, starts round 1, opens
a player's own page, the board on a 1920x1080 TV and the print sheets; a finished evening makes the club's season.
`UPDATE_SCREENS=1 python -m pytest tests/browser/test_evening_screens_e2e.py` rewrites the
pictures in docs/screens/ (evening-*.png); otherwise they go to a temporary folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import hand_played

DOCS = Path(__file__).resolve().parents[2] / "docs" / "screens"
PHONE = {"width": 360, "height": 740}
TV = {"width": 1920, "height": 1080}
PLAYERS = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lou"]


@pytest.fixture
def shots(tmp_path) -> Path:
    return DOCS if os.environ.get("UPDATE_SCREENS") else tmp_path


def phone_of(browser: Browser, base: str, member_key: str) -> Page:
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    context.add_cookies([{"name": "member", "value": member_key, "url": base}])
    page = context.new_page()
    page.set_default_timeout(10_000)
    return page


def test_a_directors_evening_in_pictures(live_server, browser: Browser, shots: Path):
    base = live_server
    probe = browser.new_page()
    club = probe.request.post(base + "/api/clubs", data={"name": "Lodge", "player": "Olga"}).json()
    key = {"Authorization": f"Bearer {club['member_key']}"}
    # The regulars: a game of the club each has played.
    for four in (PLAYERS[0:4], PLAYERS[4:8], PLAYERS[8:12]):
        made = probe.request.post(
            base + "/api/games", data={"game": "euchre", "players": four, "club": "lodge"}, headers=key
        )
        assert made.status == 201
    probe.close()

    phone = phone_of(browser, base, club["member_key"])
    phone.goto(f"{base}/c/lodge/events/new")
    phone.fill("#name", "Thursday euchre")
    for name in PLAYERS:
        phone.locator(f'label.chip:has(input[name="here"][value="{name}"])').tap()
    phone.fill("#hands", "8")
    phone.fill("#minutes", "30")
    phone.screenshot(path=str(shots / "evening-new.png"), full_page=True)
    phone.get_by_role("button", name="Make the event").tap()
    expect(phone.locator(".flash")).to_contain_text("you direct it from this page")
    event_id = phone.url.split("/e/")[1].split("#")[0].split("?")[0]
    phone.get_by_role("button", name="Start round 1").tap()
    expect(phone.locator(".flash")).to_contain_text("Round 1 has started.")
    expect(phone.locator(".ev-tables li")).to_have_count(3)
    assert " v " in phone.locator(".ev-tables li .names").first.inner_text()
    phone.locator("#round").scroll_into_view_if_needed()
    phone.screenshot(path=str(shots / "evening-director.png"))

    # A player's own page (their score card's QR): where to go now, in large type.
    link = phone.locator(".ev-links li", has_text="Eve:").locator("a").get_attribute("href")
    assert link and "/p/" in link
    player = browser.new_context(
        viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True
    ).new_page()
    player.goto(link)
    expect(player.locator("#ev-me-go")).to_contain_text("Round 1: table")
    expect(player.locator("#ev-clock .ev-time")).to_be_visible()
    player.screenshot(path=str(shots / "evening-player.png"))
    player.context.close()

    tv = browser.new_context(viewport=TV).new_page()
    tv.goto(f"{base}/e/{event_id}/board")
    expect(tv.locator(".tv-round")).to_contain_text("Round 1 of 11")
    expect(tv.locator(".tv-rows li")).to_have_count(12)
    tv.screenshot(path=str(shots / "evening-board.png"))
    tv.close()

    phone.goto(f"{base}/e/{event_id}/print")
    expect(phone.locator(".ev-score-card")).to_have_count(12)
    expect(phone.locator(".ev-table-card")).to_have_count(3)
    phone.locator(".ev-score-card").first.scroll_into_view_if_needed()
    phone.screenshot(path=str(shots / "evening-print.png"))

    # A finished one-round evening: the club's season.
    director = phone.request.post(
        base + "/api/clubs/lodge/events",
        data={
            "name": "Short night",
            "format": "progressive",
            "game": "euchre",
            "players": PLAYERS[:8],
            "hands": 1,
            "rounds": 1,
        },
        headers=key,
    ).json()
    rnd = phone.request.post(
        f"{base}/api/events/{director['id']}/rounds",
        data={},
        headers={"Authorization": f"Bearer {director['director_key']}"},
    ).json()
    for table in rnd["tables"]:
        hand_played(phone, base, table)
    phone.goto(f"{base}/c/lodge")
    phone.get_by_role("link", name="Season").tap()
    expect(phone.locator(".season-table tbody tr")).to_have_count(8)
    phone.screenshot(path=str(shots / "evening-season.png"), full_page=True)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
