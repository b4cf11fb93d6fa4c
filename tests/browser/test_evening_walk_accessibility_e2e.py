"""Issue 54's Show: every event page kind in the states a check-in ladder evening walks through,
light and dark, at 360 px: no WCAG 2.1 A/AA violation axe-core finds, every control at least
44x44 CSS px, no sideways scroll; the board on the TV (1920x1080) too.

The kinds: the check-in page (names to tap, after an arrival, a refused name, closed), the
director's page (tonight's list, the hall mid-round, asked before a round, finished), a table's
phone (before round 1, mid-round, between rounds with the confirmation, after it, a forgotten
round's confirmation, the event over), a player's page, the board, the print sheets."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.browser.conftest import hand_played
from tests.browser.test_accessibility_e2e import SMALL_TARGETS, in_both_schemes
from tests.browser.test_whole_evening_e2e import OVERFLOWING

REGULARS = ["Ann", "Bob", "Cy", "Di"]
NEWCOMERS = ["Eve", "Fay", "Gus", "Hal"]


def walk(page: Page, base: str, look: Callable[[str], None]) -> None:
    """A club's check-in ladder evening of 8 (2 tables, 2 rounds of 1 hand), every page kind
    looked at (``look``) in the state the evening has reached."""
    club = page.request.post(base + "/api/clubs", data={"name": "Club", "player": "Olga"}).json()
    member = {"Authorization": f"Bearer {club['member_key']}"}
    body = {"format": "progressive", "game": "euchre", "hands": 1, "rounds": 1, "minutes": 30}
    earlier = page.request.post(
        base + "/api/clubs/club/events", data={**body, "name": "Before", "players": REGULARS}, headers=member
    ).json()
    page.request.post(
        f"{base}/api/events/{earlier['id']}/rounds",
        data={},
        headers={"Authorization": f"Bearer {earlier['director_key']}"},
    )
    made = page.request.post(
        base + "/api/clubs/club/events",
        data={**body, "name": "Ladder", "format": "ladder", "players": [], "check_in": True,
              "rounds": 2, "confirm": True},
        headers=member,
    ).json()  # fmt: skip
    event_id = made["id"]
    director = {"Authorization": f"Bearer {made['director_key']}"}
    door = made["check_in_link"].removeprefix(base)

    def doc() -> dict:
        return page.request.get(f"{base}/api/events/{event_id}", headers=director).json()

    page.goto(base + door)
    look("check-in page, the club's names to tap")
    page.locator(".ev-door-names").get_by_role("button", name="Ann", exact=True).tap()
    expect(page.locator(".ev-arrived")).to_be_visible()
    look("check-in page, after an arrival")
    page.locator("#name").fill("ann")
    page.get_by_role("button", name="Check in", exact=True).tap()
    expect(page.locator("#name-error")).to_be_visible()
    look("check-in page, a name on the list already")
    token = door.rsplit("/", 1)[1]
    for name in REGULARS[1:] + NEWCOMERS:
        page.request.post(f"{base}/api/events/{event_id}/arrivals", data={"name": name, "token": token})

    page.goto(f"{base}/e/{event_id}/direct?key={made['director_key']}")
    look("director's page, tonight's list")
    page.goto(f"{base}/e/{event_id}/print")
    look("print, the door card and table cards")
    page.goto(f"{base}/e/{event_id}/board")
    look("board, the list filling")
    links = {t["table"]: t["link"].removeprefix(base) for t in doc()["table_links"]}
    page.goto(base + links[1])
    look("table phone, before round 1")

    page.request.post(f"{base}/api/events/{event_id}/rounds", data={}, headers=director)
    first = doc()["rounds"][0]["tables"]
    page.goto(base + links[1])
    look("table phone, mid-round")
    for table in first:
        hand_played(page, base, table)
    page.goto(base + links[1])
    expect(page.locator("#ev-confirm")).to_be_visible()
    look("table phone, between rounds, the confirmation")
    page.goto(base + links[2])
    page.locator("#ev-confirm").get_by_role("button", name=first[1]["seats"][1], exact=True).tap()
    expect(page.locator(".ev-next")).to_be_visible()
    look("table phone, between rounds, confirmed")
    page.goto(f"{base}/e/{event_id}")
    look("director's page, the hall after round 1")
    player = page.locator('.ev-links a[href*="/p/"]').first.get_attribute("href")
    assert player and "/p/" in player
    page.goto(player)
    look("player's page")
    page.goto(f"{base}/e/{event_id}")
    page.get_by_role("button", name="Start round 2").tap()
    expect(page.locator("#unconfirmed-error")).to_be_visible()
    look("director's page, asked before round 2")
    page.locator("label.switch:has(#unconfirmed)").tap()
    page.get_by_role("button", name="Start round 2").tap()
    expect(page.locator(".flash-ok")).to_contain_text("Round 2 has started.")
    page.goto(base + links[1])
    forgotten = page.get_by_role("link", name="Round 1's result is not confirmed: confirm it")
    look("table phone, round 2 with round 1 unconfirmed")
    forgotten.tap()
    expect(page.locator("#ev-confirm")).to_be_visible()
    look("round 1's game, its forgotten confirmation")
    page.goto(f"{base}/e/{event_id}/board")
    look("board, mid-round")
    second = doc()["rounds"][1]["tables"]
    hand_played(page, base, second[0])
    page.goto(f"{base}/e/{event_id}")
    page.get_by_role("button", name="Close round 2 and finish the event").tap()
    expect(page.get_by_text("Round 2 is closed: the event has finished.")).to_be_visible()
    look("director's page, the event finished")
    page.goto(base + links[2])
    look("table phone, the event over")
    page.goto(player)
    look("player's page, the event over")
    page.goto(f"{base}/e/{event_id}/print")
    look("print, the results")
    page.goto(base + door)
    look("check-in page, closed")
    page.goto(f"{base}/e/{event_id}/board")
    look("board, final standings")
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.reload()
    look("board on the TV, final standings")


def test_every_page_of_a_check_in_evening_passes_axe_and_has_44_px_controls(live_server, phone: Page):
    problems: list[str] = []
    seen: list[str] = []

    def look(what: str) -> None:
        seen.append(what)
        problems.extend(f"{what}: {v}" for v in in_both_schemes(phone))
        if phone.viewport_size and phone.viewport_size["width"] == 360:
            problems.extend(f"{what}: small {s}" for s in phone.evaluate(SMALL_TARGETS))
            if phone.evaluate("document.documentElement.scrollWidth") > 360:
                problems.append(f"{what}: scrolls sideways")
            if phone.evaluate(OVERFLOWING):
                problems.append(f"{what}: the standings scroll sideways in their box")

    walk(phone, live_server, look)
    assert len(seen) == 23
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems)
