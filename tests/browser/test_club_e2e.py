"""A club on a 360 px phone: joining by its invite's QR link, starting a club game, the
leaderboard, a player's rating chart and the admins' tidy tools."""

import json
import re
import urllib.request

from playwright.sync_api import Page, expect


def call(server, path, body, key=None):
    headers = {"Content-Type": "application/json"}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    request = urllib.request.Request(server + path, data=json.dumps(body).encode(), headers=headers)
    with urllib.request.urlopen(request) as answer:
        return json.load(answer)


def get(server, path, key):
    request = urllib.request.Request(server + path, headers={"Authorization": f"Bearer {key}"})
    with urllib.request.urlopen(request) as answer:
        return json.load(answer)


def no_sideways_scroll(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def small_controls(page: Page) -> list[str]:
    """The visible buttons and fields smaller than 44 x 44 CSS px (phones first)."""
    return page.evaluate(
        """() => [...document.querySelectorAll('main button, main input:not([type=hidden]), main select')]
            .filter(e => e.offsetParent !== null)
            .map(e => [e.getBoundingClientRect(), e.name || e.textContent.trim()])
            .filter(([r]) => r.height < 44 || r.width < 44)
            .map(([r, name]) => `${name}: ${Math.round(r.width)}x${Math.round(r.height)}`)"""
    )


def test_joining_a_club_by_its_qr_link_and_starting_a_club_game(live_server, phone: Page):
    owner = call(live_server, "/api/clubs", {"name": "Thursday Euchre", "player": "Olga"})
    call(
        live_server,
        "/api/games",
        {"game": "tally", "players": ["Ann", "Bob"], "deals": [{"points": [3, 1]}], "club": owner["slug"]},
        owner["member_key"],
    )
    page = phone
    # The QR code holds the invite link: scanning it opens this page.
    page.goto(f"{live_server}/c/{owner['slug']}/join/{owner['invite']}")
    expect(page.locator("h1")).to_have_text("Join Thursday Euchre")
    no_sideways_scroll(page)
    page.get_by_label("Ann").check()
    page.get_by_role("button", name="Join the club").tap()
    expect(page.locator(".flash-ok").first).to_contain_text("Welcome to Thursday Euchre, Ann.")
    expect(page.get_by_text("You are Ann here.")).to_be_visible()
    no_sideways_scroll(page)
    assert small_controls(page) == []
    # A club game from the club's page.
    page.get_by_role("link", name="New game").first.tap()
    page.get_by_role("link", name=re.compile("Tally")).first.tap()
    page.select_option("select[name=club]", owner["slug"])
    page.fill("input[name=players_0]", "Ann")
    page.fill("input[name=players_1]", "Cid")
    no_sideways_scroll(page)
    page.get_by_role("button", name="Start the game").tap()
    expect(page).to_have_url(re.compile(r"/g/[A-Za-z0-9_-]+$"))
    games = get(live_server, f"/api/clubs/{owner['slug']}/games", owner["member_key"])["games"]
    assert [g["players"] for g in games] == [["Ann", "Cid"], ["Ann", "Bob"]]
    # Home lists the club, and the game under this phone's games; the next form preselects the club.
    page.goto(live_server + "/")
    expect(page.get_by_role("link", name=re.compile("Thursday Euchre"))).to_be_visible()
    page.goto(live_server + "/new/tally")
    assert page.eval_on_selector("select[name=club]", "e => e.value") == owner["slug"]


def test_leaderboard_player_rating_and_tidy_tools_on_a_phone(live_server, browser):
    owner = call(live_server, "/api/clubs", {"name": "Lodge", "player": "Olga"})
    players = ["Annabelle Longname", "Bob", "Cid", "Dee"]
    for points in ([9, 5, 1, 0], [1, 5, 9, 3], [9, 1, 5, 3]):
        record = {
            "game": "tally",
            "players": players,
            "deals": [{"points": points}, {"end": True}],
            "club": "lodge",
        }
        call(live_server, "/api/games", record, owner["member_key"])
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, device_scale_factor=2, is_mobile=True, has_touch=True
    )
    context.add_cookies([{"name": "member", "value": owner["member_key"], "url": live_server}])
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(live_server + "/")
    page.get_by_role("link", name=re.compile("Lodge")).tap()
    page.get_by_role("link", name="Ratings").first.tap()
    expect(page.locator("h1")).to_have_text("Ratings")
    expect(page.locator(".leaderboard tbody tr")).to_have_count(4)
    no_sideways_scroll(page)
    page.get_by_role("link", name="Bob").first.tap()
    expect(page.locator("#rating-chart svg")).to_be_visible()
    expect(page.locator(".head-to-head tbody tr")).to_have_count(3)
    no_sideways_scroll(page)
    page.goto(live_server + "/c/lodge/players/tidy")
    page.select_option("#old", "Dee")
    page.fill("#new", "Deirdre")
    page.get_by_role("button", name="Rename everywhere").tap()
    expect(page.locator(".flash-ok").first).to_contain_text("Dee is now Deirdre in 3 games.")
    page.get_by_role("button", name="Undo").tap()
    expect(page.locator(".flash-ok").first).to_contain_text("Rename undone in 3 games.")
    no_sideways_scroll(page)
    context.close()
